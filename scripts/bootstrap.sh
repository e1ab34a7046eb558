#!/usr/bin/env bash
# Idempotent set-up on Debian 12: system packages, then the virtualenv at .venv with
# jupyter_codetrace installed editable plus its [test,lab] extras.
#
# .venv is a symlink into a cache of virtualenvs outside the clone,
#   ${CODETRACE_VENV_CACHE:-${XDG_CACHE_HOME:-~/.cache}/jupyter_codetrace-venvs}/<key>
# where <key> hashes the interpreter and the dependency lists of pyproject.toml. pip's
# download cache stays empty on these machines, so reusing a virtualenv is what makes a
# second set-up (a fresh clone, `rm .venv`) take seconds instead of minutes. Only the
# editable install of this clone is redone, without dependencies, when the clone's path or
# its packaging files change.
#
# A .venv that is a real folder (for example `python3 -m venv .venv`) is used in place
# instead: that is the way to opt out of the cache.
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

# --- Which virtualenv ------------------------------------------------------------------
# The key changes with the interpreter, the extras installed, or any dependency list
# (build-system requires, dependencies, optional-dependencies) -- not with the version
# number, scripts or tool settings (those only redo the editable install, below).
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

if [ -d .venv ] && [ ! -L .venv ]; then
    venv=$ROOT/.venv
    log "using the real folder .venv in place (delete it to use the shared cache)"
    # The panel's build (below) needs jlpm before the first install into a bare venv.
    "$venv/bin/python" -c 'import hatch_jupyter_builder, jupyter_builder' 2>/dev/null \
        || "$venv/bin/pip" install -q $BUILD_TOOLS
else
    venv=$CACHE/$key
    mkdir -p "$CACHE"
    exec 9>"$CACHE/$key.lock"
    flock 9  # two clones setting up at once: the second waits, then reuses
    if [ ! -f "$venv/.complete" ]; then
        log "creating $venv (a few minutes, once per dependency set)"
        rm -rf "$venv"
        "$PYTHON" -m venv "$venv"
        "$venv/bin/pip" install -q -U pip
        # The side panel is built below; the editable install after it redoes this one.
        SKIP_JUPYTER_BUILDER=1 "$venv/bin/pip" install -q $BUILD_TOOLS -e ".[$EXTRAS]"
        : >"$venv/.codetrace-install"  # the editable install below writes the real stamp
        touch "$venv/.complete"
    fi
    ln -sfn "$venv" .venv
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
if [ "$(cat "$venv/.codetrace-install" 2>/dev/null)" != "$stamp" ]; then
    if [ "$venv" = "$ROOT/.venv" ]; then
        [ -x "$venv/bin/pip" ] || "$PYTHON" -m venv "$venv"
        log "installing into .venv"
        "$venv/bin/pip" install -q $BUILD_TOOLS -e ".[$EXTRAS]"
    else
        log "installing this clone ($ROOT) into the cached virtualenv"
        "$venv/bin/pip" install -q --no-deps --no-build-isolation -e .
    fi
    printf '%s\n' "$stamp" >"$venv/.codetrace-install"
fi

# --- JupyterLab: no news or update-check toasts -----------------------------------------
overrides=$venv/share/jupyter/lab/settings/overrides.json
if [ ! -f "$overrides" ]; then
    mkdir -p "$(dirname "$overrides")"
    cat >"$overrides" <<'EOF'
{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}
EOF
fi

log "ready in ${SECONDS}s: .venv -> $venv"
