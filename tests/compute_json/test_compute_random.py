"""Random expression trees of every type through compile_kernel match frontend.semantics (all passes)."""

import pytest

from mainspring.compute_json import compile_kernel
from mainspring.compute_json.examples import kernel_vectors, random_kernel

from compute_helpers import assert_graph_matches


@pytest.mark.parametrize("seed", range(8))
def test_random_kernels_match_the_reference(seed):
    kernel = random_kernel(seed)
    assert_graph_matches(kernel, compile_kernel(kernel), kernel_vectors(kernel, 4000, seed=seed))
