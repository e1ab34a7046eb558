#!/usr/bin/env bash
# Set up (idempotent, see bootstrap.sh), then run the test suite. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export VIRTUAL_ENV=$PWD/.venv PATH=$PWD/.venv/bin:$PATH
exec python -m pytest "$@"
