#!/usr/bin/env bash
# Idempotent set-up on Debian 12: system packages, then the virtualenv at .venv with
# jupyter_codetrace installed editable plus its [test,lab] extras.
#
# Every clone has its own .venv, a real folder that runs that clone's code. It is made and
# filled by uv (from PyPI, installed once into the cache below), whose package cache links
# files instead of downloading them again: a second clone's set-up takes seconds. The cache:
#   ${CODETRACE_VENV_CACHE:-${XDG_CACHE_HOME:-~/.cache}/jupyter_codetrace-venvs}/
# (uv itself and uv's package cache; `rm -rf` it to free the space). The dependencies are
# installed again when pyproject.toml's dependency lists change; the editable install of the
# clone when its packaging files or the built panel change. If uv cannot be had, pip does the
# same in the clone's .venv (minutes instead of seconds).
#
# A .venv left by an earlier version of this script (a link into the cache, shared by every
# clone: the last clone set up was the one they all ran) is replaced by a folder of its own.
#
# Environment: PYTHON (default python3), CODETRACE_VENV_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd -P)
PYTHON=${PYTHON:-python3}
EXTRAS=test,lab
# Installed next to the project so that re-installs need no build isolation (no download):
# pyproject.toml's build-system requires, and editables for the editable install.
BUILD_TOOLS="hatchling editables hatch-jupyter-builder jupyter-builder"
CACHE=${CODETRACE_VENV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/jupyter_codetrace-venvs}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_PROGRESS_BAR=off

log() { printf '[bootstrap] %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        log "not root and no sudo: run as root: $*"
        exit 1
    fi
}

# --- System packages -------------------------------------------------------------------
missing=()
command -v dot >/dev/null || missing+=(graphviz)
command -v chromium >/dev/null || missing+=(chromium)          # the side panel's browser tests
command -v node >/dev/null || missing+=(nodejs npm)            # builds the side panel
"$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get install ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- The dependency set -----------------------------------------------------------------
# Changes with the interpreter, the extras installed, or any dependency list (build-system
# requires, dependencies, optional-dependencies) -- not with the version number, scripts or
# tool settings (those only redo the editable install, below).
key=$("$PYTHON" - "$EXTRAS $BUILD_TOOLS" <<'EOF'
import hashlib, json, os, sys
try:
    import tomllib
    with open("pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    project = data.get("project", {})
    deps = json.dumps([data.get("build-system", {}).get("requires"), project.get("dependencies"),
                       project.get("optional-dependencies")], sort_keys=True)
except ImportError:  # Python 3.10 has no tomllib: any change to pyproject.toml counts
    deps = open("pyproject.toml", encoding="utf-8").read()
ident = "\n".join([os.path.realpath(sys.executable), sys.version, sys.argv[1], deps])
print(f"py{sys.version_info[0]}.{sys.version_info[1]}-{hashlib.sha256(ident.encode()).hexdigest()[:16]}")
EOF
)

# The prebuilt side panel is mapped into the install (pyproject shared-data): the folder must
# exist before the first install, and is filled by the build below.
mkdir -p jupyter_codetrace/labextension

# --- uv, once per machine -------------------------------------------------------------------
mkdir -p "$CACHE"
export UV_CACHE_DIR=$CACHE/uv-cache UV_NO_PROGRESS=1
uv=$CACHE/uv-tool/bin/uv
if [ ! -x "$uv" ]; then
    exec 9>"$CACHE/uv-tool.lock"
    flock 9   # two clones setting up at once: the second waits, then reuses
    if [ ! -x "$uv" ]; then
        log "installing uv into $CACHE/uv-tool"
        rm -rf "$CACHE/uv-tool"
        { "$PYTHON" -m venv "$CACHE/uv-tool" && "$CACHE/uv-tool/bin/pip" install -q "uv>=0.13,<1"; } \
            || { log "uv could not be installed: pip sets up .venv instead (minutes)"; rm -rf "$CACHE/uv-tool"; }
    fi
    exec 9>&-
fi

install() {  # install ARGS... into .venv: with uv when it is there and works, else with pip
    # (UV_ONLY: options for uv alone)
    # shellcheck disable=SC2086
    if [ -x "$uv" ] && "$uv" pip install -q --python "$ROOT/.venv/bin/python" ${UV_ONLY:-} "$@"; then
        return 0
    fi
    [ -x .venv/bin/pip ] || .venv/bin/python -m ensurepip -q
    .venv/bin/python -m pip install -q "$@"
}

# --- The clone's own virtualenv ------------------------------------------------------------
if [ -L .venv ]; then
    log "replacing the .venv link into the shared cache by this clone's own environment"
    rm .venv
fi
venv=$ROOT/.venv
if [ ! -x .venv/bin/python ]; then
    log "creating .venv"
    rm -rf .venv
    if [ -x "$uv" ]; then
        "$uv" venv -q --seed --python "$PYTHON" .venv   # --seed: pip inside (tests build wheels with it)
    else
        "$PYTHON" -m venv .venv
    fi
fi
if [ "$(cat .venv/.codetrace-deps 2>/dev/null)" != "$key" ]; then
    log "installing the dependencies ([$EXTRAS])"
    # The side panel is built below; the editable install after it redoes this one.
    # Bytecode compiled now (pip does it by default, uv on request): where PYTHONDONTWRITEBYTECODE
    # is set, every process would otherwise compile what it imports (the MCP SDK: +1.9 s a start).
    SKIP_JUPYTER_BUILDER=1 UV_ONLY=--compile-bytecode install $BUILD_TOOLS -e ".[$EXTRAS]"
    printf '%s\n' "$key" >.venv/.codetrace-deps
    rm -f .venv/.codetrace-install
fi

# --- The side panel: build the JupyterLab extension when its sources changed ------------
# The same build (and freshness rule: a hash of the sources) that `pip wheel .` runs through
# hatch-jupyter-builder: jlpm install --immutable, then jlpm build:prod.
PATH="$venv/bin:$PATH" "$venv/bin/python" scripts/build_labextension.py >/dev/null
panel=$(cat jupyter_codetrace/labextension/.source-hash)

# What the editable install of this clone depends on: redone when this changes (the built
# panel's assets are copied by the install).
stamp="$key $ROOT $(cat pyproject.toml jupyter-config/server-config/*.json | sha256sum | cut -c1-16) $panel"

# --- The editable install of this clone ------------------------------------------------
if [ "$(cat .venv/.codetrace-install 2>/dev/null)" != "$stamp" ]; then
    log "installing this clone ($ROOT) into .venv"
    # copied, not linked from uv's cache: the editable install's .pth names this clone, and a cached
    # file linked into two clones' environments would name the last one in both
    UV_ONLY="--reinstall-package jupyter_codetrace --link-mode=copy" install --no-deps --no-build-isolation -e .
    printf '%s\n' "$stamp" >.venv/.codetrace-install
fi

# The clone's own bytecode (only what changed is compiled again): as above, for every process.
"$venv/bin/python" -m compileall -q jupyter_codetrace >/dev/null || log "compileall failed (imports compile at run time)"

# --- JupyterLab: no news or update-check toasts -----------------------------------------
overrides=$venv/share/jupyter/lab/settings/overrides.json
if [ ! -f "$overrides" ]; then
    mkdir -p "$(dirname "$overrides")"
    cat >"$overrides" <<'EOF'
{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}
EOF
fi

log "ready in ${SECONDS}s: .venv ($venv)"
