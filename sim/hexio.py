"""Stream words to and from the hex files the test bench reads with $readmemh and writes with $writememh.

One line per transfer: `ceil(width * lanes / 4)` hex digits, lane 0 in the low bits. Frames have millions of
words, so the common formats (a transfer of at most 64 bits, or lanes a whole number of hex digits wide) are
packed and parsed with numpy; anything else falls back to Python ints.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from .errors import SimulationError

_DIGITS = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
_BAD = 255
_NIBBLE = np.full(256, _BAD, dtype=np.uint8)
for _i, _c in enumerate(b"0123456789abcdef"):
    _NIBBLE[_c] = _i
    _NIBBLE[ord(chr(_c).upper())] = _i
_COMMENT = re.compile(rb"//[^\n]*(\n|\Z)")
_CHUNK = 1 << 20  # rows per numpy step: bounds the temporary (rows x digits) arrays


def check_range(words: np.ndarray, width: int, what: str) -> None:
    """Reject words that do not fit `width` bits as either an unsigned or a two's-complement value."""
    lo, hi = -(1 << (width - 1)), (1 << width) - 1
    if words.dtype == object:
        bad = next((i for i, w in enumerate(words) if not lo <= int(w) <= hi), None)
    else:
        info = np.iinfo(words.dtype) if words.dtype != np.bool_ else np.iinfo(np.uint8)
        if info.min >= lo and info.max <= hi:
            return
        outside = (words < max(lo, info.min)) | (words > min(hi, info.max))
        bad = int(np.argmax(outside)) if outside.any() else None
    if bad is not None:
        raise ValueError(
            f"{what}: word {bad} = {int(words[bad])} does not fit in {width} bits "
            f"(allowed {lo} .. {hi})"
        )


def write_hex(path: Path, words: np.ndarray, width: int, lanes: int) -> None:
    """Write `words` (already range-checked) as transfers of `lanes` words."""
    digits = -(-width * lanes // 4)
    if words.dtype != object and width * lanes <= 64:
        lines = _hex_lines(_pack64(words, width, lanes), digits)
    elif words.dtype != object and width <= 64 and width % 4 == 0:
        # Each lane is a whole number of digits: print the lanes side by side, the last lane first.
        lane_words = _as_u64(words, width).reshape(-1, lanes)
        lines = np.concatenate(
            [_hex_lines(lane_words[:, k], width // 4)[:, :-1] for k in reversed(range(lanes))]
            + [np.full((len(lane_words), 1), ord("\n"), dtype=np.uint8)],
            axis=1,
        )
    else:
        mask = (1 << width) - 1
        text = []
        for t in range(len(words) // lanes):
            value = 0
            for k in range(lanes):
                value |= (int(words[t * lanes + k]) & mask) << (k * width)
            text.append(f"{value:0{digits}x}\n")
        Path(path).write_text("".join(text))
        return
    Path(path).write_bytes(lines.tobytes())


def read_hex(path: Path, width: int, lanes: int, what: str, care: np.ndarray | None = None) -> np.ndarray:
    """Read the transfers in a $writememh file back into words (unsigned). Words `care` marks False may have
    unknown bits (read as 0); unknown bits anywhere else are an error."""
    raw = Path(path).read_bytes() if Path(path).exists() else b""
    # Icarus puts an address comment before every 16 words; neither simulator writes '@' lines here,
    # but the format allows them.
    raw = _COMMENT.sub(b"", raw.replace(b"\r\n", b"\n"))
    if b"@" in raw:
        return _read_python([ln for ln in raw.split() if not ln.startswith(b"@")], width, lanes, what)
    if not raw.strip():
        return _empty(width)
    digits = -(-width * lanes // 4)
    table = np.frombuffer(raw if raw.endswith(b"\n") else raw + b"\n", dtype=np.uint8)
    if table.size % (digits + 1) == 0 and (table.reshape(-1, digits + 1)[:, digits] == ord("\n")).all():
        table = table.reshape(-1, digits + 1)[:, :digits]
        nibbles = _NIBBLE[table]
        unknown = (nibbles == _BAD).any(axis=1)
        if unknown.any():
            nibbles = _dropped_to_zero(nibbles, care, width, lanes)
            unknown = (nibbles == _BAD).any(axis=1)
        if unknown.any():
            _raise_unknown([bytes(row) for row in table], int(np.argmax(unknown)), lanes, what)
        if width * lanes <= 64:
            return _unpack64(_combine(nibbles), width, lanes)
        if width <= 64 and width % 4 == 0:
            step = width // 4
            columns = [nibbles[:, digits - (k + 1) * step: digits - k * step] for k in range(lanes)]
            return _to_words(np.stack([_combine(c) for c in columns], axis=1).reshape(-1), width)
    return _read_python(raw.split(), width, lanes, what)


def sign_extend(words: np.ndarray, width: int) -> np.ndarray:
    """Interpret unsigned `width`-bit words as two's complement."""
    if words.dtype == object:
        return np.array([w - (1 << width) if w >> (width - 1) else w for w in words], dtype=object)
    if width == 64:
        return words.view(np.int64)
    half = np.int64(1 << (width - 1))
    return (words.astype(np.int64) ^ half) - half


def _as_u64(words: np.ndarray, width: int) -> np.ndarray:
    if words.dtype == np.bool_:
        words = words.astype(np.uint8)
    as64 = words.astype(np.int64).view(np.uint64) if words.dtype.kind == "i" else words.astype(np.uint64)
    return as64 & np.uint64((1 << width) - 1)


def _pack64(words: np.ndarray, width: int, lanes: int) -> np.ndarray:
    lane_words = _as_u64(words, width).reshape(-1, lanes)
    packed = np.zeros(len(lane_words), dtype=np.uint64)
    for k in range(lanes):
        packed |= lane_words[:, k] << np.uint64(k * width)
    return packed


def _hex_lines(values: np.ndarray, digits: int) -> np.ndarray:
    """(rows, digits + 1) ASCII: each value as `digits` lower-case hex digits and a newline."""
    out = np.empty((len(values), digits + 1), dtype=np.uint8)
    out[:, digits] = ord("\n")
    shifts = (np.arange(digits - 1, -1, -1, dtype=np.uint64) * np.uint64(4))[None, :]
    for start in range(0, len(values), _CHUNK):
        rows = values[start:start + _CHUNK, None]
        out[start:start + _CHUNK, :digits] = _DIGITS[((rows >> shifts) & np.uint64(15)).astype(np.uint8)]
    return out


def _combine(nibbles: np.ndarray) -> np.ndarray:
    """Rows of hex digits (most significant first, at most 16) as uint64 values."""
    values = np.zeros(len(nibbles), dtype=np.uint64)
    for d in range(nibbles.shape[1]):
        values = (values << np.uint64(4)) | nibbles[:, d].astype(np.uint64)
    return values


def _unpack64(packed: np.ndarray, width: int, lanes: int) -> np.ndarray:
    mask = np.uint64((1 << width) - 1) if width < 64 else np.uint64(~np.uint64(0))
    lane_words = [(packed >> np.uint64(k * width)) & mask for k in range(lanes)]
    return _to_words(np.stack(lane_words, axis=1).reshape(-1), width)


def _to_words(values: np.ndarray, width: int) -> np.ndarray:
    # int64 holds every word narrower than 64 bits; arithmetic on it does not surprise numpy users.
    return values.astype(np.int64) if width < 64 else values


def _empty(width: int) -> np.ndarray:
    if width > 64:
        return np.zeros(0, dtype=object)
    return np.zeros(0, dtype=np.int64 if width < 64 else np.uint64)


def _read_python(lines: list[bytes], width: int, lanes: int, what: str) -> np.ndarray:
    mask = (1 << width) - 1
    words = []
    for t, line in enumerate(lines):
        try:
            value = int(line, 16)
        except ValueError:
            _raise_unknown(lines, t, lanes, what)
        words.extend((value >> (k * width)) & mask for k in range(lanes))
    if width > 64:
        return np.array(words, dtype=object)
    return np.array(words, dtype=np.int64 if width < 64 else np.uint64)


def _dropped_to_zero(nibbles: np.ndarray, care: np.ndarray | None, width: int, lanes: int) -> np.ndarray:
    """The nibbles with those of words the host drops (`care` False) set to 0: whole transfers when a word is
    not a whole number of nibbles."""
    if care is None or len(care) < nibbles.shape[0] * lanes:
        return nibbles
    dropped = ~np.asarray(care[:nibbles.shape[0] * lanes], dtype=bool).reshape(-1, lanes)
    out = nibbles.copy()
    if width % 4:
        out[dropped.all(axis=1)] = 0
        return out
    step, digits = width // 4, nibbles.shape[1]
    for k in range(lanes):  # word k of a transfer is its k-th lowest group of nibbles
        cols = slice(max(0, digits - (k + 1) * step), digits - k * step)
        out[dropped[:, k], cols] = 0
    return out


def _raise_unknown(lines: list[bytes], transfer: int, lanes: int, what: str):
    count = sum(1 for ln in lines if _NIBBLE[np.frombuffer(ln, dtype=np.uint8)].max() == _BAD)
    raise SimulationError(
        f"{what}: transfer {transfer} (words {transfer * lanes}..{transfer * lanes + lanes - 1}) has unknown "
        f"(x/z) bits: {lines[transfer].decode(errors='replace')!r}; {count} of {len(lines)} transfers do"
    )
