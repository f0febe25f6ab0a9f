"""Property tests: random expression trees over random types, built with Halide and with mainspring from the
same description, must agree on whether construction raises, on the result type (compared as text) and on
every value over random full-range input images.

A Hypothesis example is a batch of trees; their values are computed in one Func that muxes over the trees
(each cast to UInt(32), which is injective for every type here), so Halide compiles once per example.
Trees whose values Halide leaves undefined are not realized (their types and errors are still compared):
signed 32-bit overflow, and shift amounts outside the shifted type's width.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import mainspring
from mainspring.frontend import ir
from mainspring.frontend.bounds import Bounder

pytestmark = pytest.mark.oracle

W, H = 16, 8
TYPES = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32"]
DTYPES = {"bool": np.bool_, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
          "int8": np.int8, "int16": np.int16, "int32": np.int32}
BINARY = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "<<", ">>"]
INTERESTING = [0, 1, 2, 3, 7, 8, 15, 16, 31, 100, 127, 128, 200, 255, 256, 1000, 32767, 32768, 65535, 65536,
               -1, -2, -7, -8, -100, -128, -129, -32768, 2**31 - 1, -(2**31)]


def _type(hl, name):
    return hl.Bool() if name == "bool" else (hl.UInt if name[0] == "u" else hl.Int)(int(name.lstrip("uint")))


# ---- trees: nested tuples, built by `build(hl, tree, env)` with either module ----------------------------
# A ("like", t) argument is t cast to the type of the node's first value argument, so that most trees are
# well typed; plain arguments keep the type mixes (and the errors) of the coercion rules in play.

SMALL = [0, 1, 2, 3, 5, 7, 8, 15, 16, 100, 127, 128, 255, -1, -2, -7, -8, -128]
literals = st.one_of(st.sampled_from(SMALL), st.sampled_from(SMALL), st.sampled_from(SMALL),
                     st.sampled_from(INTERESTING), st.integers(-(2**31), 2**31 - 1))
leaves = st.one_of(
    st.tuples(st.just("in"), st.sampled_from(TYPES)),
    st.tuples(st.just("in"), st.sampled_from(TYPES)),
    st.tuples(st.just("var"), st.sampled_from(["x", "y"])),
    st.tuples(st.just("const"), st.sampled_from(TYPES), literals),
)


def _extend(children):
    type_names = st.sampled_from(TYPES)
    lit = st.tuples(st.just("lit"), literals)
    like = st.tuples(st.just("like"), children)
    arg = st.one_of(children, like, like, lit)
    compare = st.tuples(st.just("bin"), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), children, arg)
    cond = compare  # a non-Bool condition only raises, and the type-pair tests cover that
    return st.one_of(
        st.tuples(st.just("bin"), st.sampled_from(BINARY), children, arg),
        st.tuples(st.just("bin"), st.sampled_from(BINARY), children, arg),
        st.tuples(st.just("bin"), st.sampled_from(BINARY), lit, children),
        # shifts by amounts that stay inside every width (signed ones may be negative)
        st.tuples(st.just("shift"), st.sampled_from(["<<", ">>"]), children,
                  st.one_of(st.tuples(st.just("amount"), st.booleans(), children),
                            st.tuples(st.just("lit"), st.integers(-7, 7)))),
        st.tuples(st.just("un"), st.sampled_from(["-", "~", "abs"]), children),
        st.tuples(st.just("fn"), st.sampled_from(["min", "max", "absd"]), children, arg),
        st.tuples(st.just("fn3"), st.sampled_from(["min", "max"]), children, arg, arg),
        st.tuples(st.just("cast"), type_names, children),
        st.tuples(st.just("cast"), type_names, children),
        st.tuples(st.just("sat"), type_names, children),
        st.tuples(st.just("select"), cond, children, arg),
        st.tuples(st.just("select"), cond, lit, children),
        # clamp's bounds: literals, or values cast to the clamped value's type. (For bounds of other types
        # Halide's lossless_cast consults its constant-bounds analysis, which mainspring only approximates.)
        st.tuples(st.just("clamp"), children, st.one_of(like, lit), st.one_of(like, lit)),
        st.tuples(st.just("mux"), children, children,
                  st.lists(st.one_of(like, children, lit), min_size=0, max_size=3)),
        st.tuples(st.just("pow"), children, st.integers(-1, 3)),
    )


trees = st.recursive(leaves, _extend, max_leaves=10)


def build(hl, tree, env):
    kind = tree[0]
    if kind in ("in", "var"):
        return env[tree[1]]
    if kind == "const":
        return hl.cast(_type(hl, tree[1]), tree[2])
    if kind == "lit":
        return tree[1]
    first_value = 0 if kind in ("clamp", "pow") else 1  # the argument whose type "like" arguments take
    args = []
    for t in tree[1:]:
        anchor = args[first_value] if len(args) > first_value else None
        if isinstance(t, list):
            args.append([_arg(hl, u, env, anchor) for u in t])
        elif isinstance(t, tuple):
            args.append(_arg(hl, t, env, anchor))
        else:
            args.append(t)
    return _BUILDERS[kind](hl, *args)


def _arg(hl, t, env, anchor):
    if t[0] == "amount":  # int8 in [-7, 7] or uint8 in [0, 7]
        v = build(hl, t[2], env)
        return hl.cast(hl.Int(8), v) % 15 - 7 if t[1] else hl.cast(hl.UInt(8), v) % 8
    if t[0] == "like":
        return hl.cast(_type_of(hl, anchor), build(hl, t[1], env))
    return build(hl, t, env)


def _type_of(hl, e):
    if isinstance(e, int):
        return hl.Int(32)
    return (hl.Expr(e) if isinstance(e, hl.Var) else e).type()  # Halide's Var has no type()


def _binary(hl, op, a, b):
    return {
        "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b, "%": lambda: a % b,
        "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
        "==": lambda: a == b, "!=": lambda: a != b, "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
        "<<": lambda: a << b, ">>": lambda: a >> b,
    }[op]()


_BUILDERS = {
    "bin": _binary,
    "shift": _binary,
    "un": lambda hl, op, a: {"-": lambda: -a, "~": lambda: ~a, "abs": lambda: hl.abs(a)}[op](),
    "fn": lambda hl, op, a, b: getattr(hl, op)(a, b),
    "fn3": lambda hl, op, a, b, c: getattr(hl, op)(a, b, c),
    "clamp": lambda hl, a, lo, hi: hl.clamp(a, lo, hi),
    "cast": lambda hl, t, a: hl.cast(_type(hl, t), a),
    "sat": lambda hl, t, a: hl.saturating_cast(_type(hl, t), a),
    "select": lambda hl, c, a, b: hl.select(c, a, b),
    "mux": lambda hl, i, first, rest: hl.mux(i, [first] + rest),
    "pow": lambda hl, a, k: a ** k,
}


# ---- which trees have defined values (Halide's undefined behaviour, checked on mainspring's IR) -----------

I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def undefined_behaviour(e: ir.Expr) -> str | None:
    """Why Halide leaves e's value undefined (int32 overflow, shift amount out of range), or None."""
    bound = Bounder({"x": (0, W - 1), "y": (0, H - 1)}, lambda p: None)
    for n in ir.walk(e):
        if not isinstance(n, ir.BinOp):
            continue
        a, b = bound(n.a), bound(n.b)
        if n.op in ("shl", "shr"):
            bits = n.a.type.bits()
            lo = -bits + 1 if n.b.type.is_int() else 0
            if b[0] < lo or b[1] > bits - 1:
                return f"shift amount in [{b[0]}, {b[1]}] for a {n.a.type} value"
            if n.type.is_int() and n.type.bits() == 32 and (n.op == "shl" or b[0] < 0):
                k = max(abs(b[0]), abs(b[1]))
                if not (a[0] * (1 << k) >= I32_MIN and a[1] * (1 << k) <= I32_MAX):
                    return "int32 left shift overflow"
        elif n.type == mainspring.Int(32) and n.op in ("add", "sub", "mul"):
            raw = {"add": (a[0] + b[0], a[1] + b[1]), "sub": (a[0] - b[1], a[1] - b[0]),
                   "mul": tuple(sorted(p * q for p in a for q in b))[::3]}[n.op]
            if raw[0] < I32_MIN or raw[1] > I32_MAX:
                return f"int32 {n.op} overflow"
        elif n.a.type == mainspring.Int(32) and n.op in ("div", "mod") and a[0] == I32_MIN and b[0] <= -1 <= b[1]:
            return "int32 INT_MIN / -1"
    return None


# ---- running a batch ------------------------------------------------------------------------------------

def _images(seed):
    rng = np.random.default_rng(seed)
    out = {}
    for name in TYPES:
        if name == "bool":
            out[name] = rng.integers(0, 2, size=(H, W)).astype(np.bool_)
            continue
        info = np.iinfo(DTYPES[name])
        v = rng.integers(int(info.min), int(info.max) + 1, size=(H, W), dtype=np.int64)
        v[0, :4] = [info.min, info.max, 0, 1]  # the extremes are always there
        out[name] = v.astype(DTYPES[name])
    return out


def _env(hl, images):
    x, y = hl.Var("x"), hl.Var("y")
    env = {"x": x, "y": y}
    for name, arr in images.items():
        p = hl.ImageParam(_type(hl, name), 2, f"in_{name}")
        p.set(hl.Buffer(arr))
        env[name] = p[x, y]
    return env


def _try_build(hl, tree, env):
    try:
        e = build(hl, tree, env)
        if isinstance(e, int):
            return None, "a Python int"
        return e, str(_type_of(hl, e))
    except Exception as exc:  # noqa: BLE001 - comparing whether Halide raises at all
        return None, f"raises {type(exc).__name__}"


def _folded_by_halide(halide, env, h_exprs, m_exprs, trees):
    """The trees Halide realises. Its constant folding refuses a signed overflow that only appears once a tree is
    simplified (e.g. inside a select whose condition folds), which `undefined_behaviour` does not see; such a
    tree is undefined in Halide, so it is not compared. Returns Halide's values and the trees kept."""
    try:
        return _realize(halide, env, h_exprs), m_exprs, trees
    except halide.HalideError as e:
        if "overflow" not in str(e):
            raise
    keep = []
    for i, h in enumerate(h_exprs):
        try:
            _realize(halide, env, [h])
            keep.append(i)
        except halide.HalideError as e:
            if "overflow" not in str(e):
                raise
    values = _realize(halide, env, [h_exprs[i] for i in keep])
    return values, [m_exprs[i] for i in keep], [trees[i] for i in keep]


def _realize(hl, env, exprs):
    x, y, k = env["x"], env["y"], hl.Var("k")
    f = hl.Func("batch")
    f[x, y, k] = hl.mux(k, [hl.cast(hl.UInt(32), e) for e in exprs])
    return np.asarray(f.realize([W, H, len(exprs)]))


MIN_COMPARED = 10  # of a batch of 30 trees


def check_batch(halide, batch, seed):
    images = _images(seed)
    h_env, m_env = _env(halide, images), _env(mainspring, images)
    h_exprs, m_exprs, realized = [], [], []
    for tree in batch:
        h, h_type = _try_build(halide, tree, h_env)
        m, m_type = _try_build(mainspring, tree, m_env)
        same = h_type == m_type or (h_type.startswith("raises") and m_type.startswith("raises"))
        assert same, f"tree {tree}: Halide gives {h_type}, mainspring {m_type}"
        if h is not None and undefined_behaviour(m._ir()) is None:
            h_exprs.append(h)
            m_exprs.append(m)
            realized.append(tree)
    h_values, m_exprs, realized = _folded_by_halide(halide, h_env, h_exprs, m_exprs, realized)
    # A batch whose trees all raise or overflow would compare nothing: the generator must keep most trees valid.
    assert len(realized) >= MIN_COMPARED, f"only {len(realized)} of {len(batch)} trees compared"
    m_values = _realize(mainspring, m_env, m_exprs)
    for i, tree in enumerate(realized):
        if not np.array_equal(h_values[i], m_values[i]):
            y, x = np.argwhere(h_values[i] != m_values[i])[0]
            raise AssertionError(
                f"tree {tree} (type {m_exprs[i].type()}): at x={x}, y={y} Halide gives {h_values[i][y, x]}, "
                f"mainspring {m_values[i][y, x]} (as uint32); inputs there: "
                + ", ".join(f"{n}={images[n][y, x]}" for n in TYPES)
            )


# 12 batches of 30 trees (360 trees) per run; MS_PROPERTY_EXAMPLES=400 searches longer. No shrinking: each step
# would compile with Halide again, and the failure message already names the tree.
@settings(max_examples=int(os.environ.get("MS_PROPERTY_EXAMPLES", "12")), deadline=None,
          phases=(Phase.explicit, Phase.reuse, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batch=st.lists(trees, min_size=30, max_size=30), seed=st.integers(0, 2**32 - 1))
def test_random_expressions_match_halide(halide, batch, seed):
    check_batch(halide, batch, seed)
