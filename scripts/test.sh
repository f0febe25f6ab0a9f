#!/usr/bin/env bash
# The whole test suite (the README's second command). Extra arguments go to pytest,
# e.g. `bash scripts/test.sh -m "not slow"` to skip long simulations locally.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m pytest -n 2 -q -p no:cacheprovider "$@"
