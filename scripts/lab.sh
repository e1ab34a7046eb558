#!/usr/bin/env bash
# Set up (idempotent, see bootstrap.sh), then start JupyterLab on the demo repository.
# Arguments go to `jupyter lab` (for example --port=8899 --no-browser).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export VIRTUAL_ENV=$PWD/.venv PATH=$PWD/.venv/bin:$PATH
root=fixtures/demo
[ -d "$root" ] || root=fixtures
args=(
    --ServerApp.root_dir="$root"
    --LabApp.news_url=None
    --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
    --LabApp.extension_manager=readonly
)
[ "$(id -u)" -ne 0 ] || args+=(--allow-root)
exec jupyter lab "${args[@]}" "$@"
