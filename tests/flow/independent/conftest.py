"""The `simulator` fixture for the independent ports (helpers in porting.py)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from mainspring.sim import require_simulator


@pytest.fixture
def simulator(request):
    name = request.param
    require_simulator(name)
    return name
