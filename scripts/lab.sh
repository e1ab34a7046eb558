#!/usr/bin/env bash
# Set up (idempotent, see bootstrap.sh), then start JupyterLab with the Code Trace panel.
#
#   scripts/lab.sh [REPO] [ARGUMENTS FOR jupyter lab …]    # make lab [REPO=…] [LAB_ARGS="…"]
#
# Without REPO the panel traces the demo repository (fixtures/demo) while JupyterLab shows this
# whole checkout, opened on the tutorials (notebooks/). With REPO, a folder, JupyterLab and the
# panel are both on it. Other arguments go to `jupyter lab` (for example --port=8899
# --no-browser); a --ServerApp.root_dir or --ServerApp.default_url of yours replaces ours.
# CODETRACE_LAB_DRY_RUN=1 prints the command, one argument a line, instead of running it.
set -euo pipefail
repo=""
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
    # Resolved before the cd below: REPO is relative to where the script was called from.
    [ -d "$1" ] || { echo "lab.sh: $1 is not a folder (usage: scripts/lab.sh [REPO] [jupyter lab arguments])" >&2; exit 2; }
    repo=$(cd "$1" && pwd -P)
    shift
fi
cd "$(dirname "$0")/.."
checkout=$(pwd -P)

if [ -n "$repo" ]; then
    root_dir=$repo trace_root=$repo default_url=/lab
else
    # The tutorials are notebooks/ of the checkout: serving the checkout keeps them one click
    # away, and the panel maps the demo's paths into it (the status route's contents_path).
    root_dir=$checkout trace_root=$checkout/fixtures/demo default_url=/lab/tree/notebooks
    [ -d "$trace_root" ] || trace_root=$checkout/fixtures
fi

args=(
    --Codetrace.root="$trace_root"
    --LabApp.news_url=None
    --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
    --LabApp.extension_manager=readonly
)
# Traitlets refuse a setting given twice ("root_dir only accepts one value"): yours wins.
[[ " $* " == *" --ServerApp.root_dir"* || " $* " == *" --notebook-dir"* ]] || args+=(--ServerApp.root_dir="$root_dir")
[[ " $* " == *" --ServerApp.default_url"* || " $* " == *" --LabApp.default_url"* ]] || args+=(--LabApp.default_url="$default_url")
[ "$(id -u)" -ne 0 ] || args+=(--allow-root)

if [ -n "${CODETRACE_LAB_DRY_RUN:-}" ]; then
    printf '%s\n' jupyter lab "${args[@]}" "$@"
    exit 0
fi
scripts/bootstrap.sh
export VIRTUAL_ENV=$PWD/.venv PATH=$PWD/.venv/bin:$PATH
exec jupyter lab "${args[@]}" "$@"
