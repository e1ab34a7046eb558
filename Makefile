# Two commands for a fresh Debian 12 machine (root, or a user with sudo); both idempotent.
#   make lab    set up, then start JupyterLab on the demo repository (REPO=path: on yours)
#   make test   set up, then run the tests (PYTEST_ARGS="-k definition" to narrow)
# The work is in scripts/: bootstrap.sh (apt packages, the cached .venv), lab.sh, test.sh.

PYTEST_ARGS ?=
LAB_ARGS ?=
REPO ?=

.PHONY: lab test setup

lab:
	scripts/lab.sh $(REPO) $(LAB_ARGS)

test:
	scripts/test.sh $(PYTEST_ARGS)

setup:
	scripts/bootstrap.sh
