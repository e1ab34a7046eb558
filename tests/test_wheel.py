"""The wheel is the whole product: built from a clean copy of this clone by `pip wheel`, installed
into a throwaway virtualenv, it brings the side panel (`jupyter labextension list` -> enabled OK),
the server extension (`jupyter server extension list` -> enabled), and a working `codetrace`.

The wheel is built once for the module. To stay fast and offline:
- the clean copy is the working tree's tracked and unignored files (what a clone of a commit of
  this tree would hold: no node_modules, no built panel), so the build hook has to build the
  panel itself; yarn reads its packages from this clone's cache (YARN_CACHE_FOLDER);
- the build runs without build isolation, with this environment's hatchling,
  hatch-jupyter-builder and jupyter-builder (pyproject's build-system requires, checked below);
- the throwaway virtualenv sees this environment's packages through a .pth file pointing at a
  folder of links to them, leaving out this clone's own editable jupyter_codetrace, and the wheel
  is installed with --no-index: a dependency the wheel needs and nothing provides fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "fixtures" / "graph_py"

pytestmark = pytest.mark.timeout(900)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _output(result: subprocess.CompletedProcess) -> str:
    return _ANSI.sub("", result.stdout + result.stderr)


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, cmd))} exited {result.returncode}:\n" \
                                   f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result


def _clean_copy(destination: Path) -> Path:
    listed = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def _isolated_env(tmp: Path) -> dict[str, str]:
    """No user or system Jupyter folders: only what the throwaway environment holds counts."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "PYTHONPATH", "PIP_"))}
    for name in ("JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        env[name] = str(tmp / "home" / name.lower())
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    clone = _clean_copy(tmp / "clone")
    assert not (clone / "jupyter_codetrace" / "labextension").exists()
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    cache = ROOT / "labextension" / ".yarn" / "cache"
    if cache.is_dir():
        env["YARN_CACHE_FOLDER"] = str(cache)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"),
          str(clone)], env=env)
    wheel, = (tmp / "dist").glob("jupyter_codetrace-*.whl")
    return {"tmp": tmp, "clone": clone, "wheel": wheel, "env": env}


def test_the_build_requirements_are_what_the_no_isolation_build_used():
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    import importlib.metadata

    for requirement in requires:
        name = re.split(r"[<>=!~; \[]", requirement, maxsplit=1)[0]
        importlib.metadata.version(name)  # raises if this environment lacks it


def test_the_wheel_carries_the_panel_and_the_server_config(built):
    names = zipfile.ZipFile(built["wheel"]).namelist()
    data = [n for n in names if ".data/data/" in n]
    panel = [n for n in data if "/share/jupyter/labextensions/jupyter_codetrace/" in n]
    assert any(n.endswith("/labextensions/jupyter_codetrace/package.json") for n in panel), data
    assert any(n.endswith("/static/style.js") for n in panel) and any("remoteEntry." in n for n in panel), panel
    assert any(n.endswith("etc/jupyter/jupyter_server_config.d/jupyter_codetrace.json") for n in data), data
    # the package itself: query files and the JSON schema travel with the code
    assert any(n.endswith(".scm") for n in names) and any(n.endswith("results.schema.json") for n in names)
    # the panel once (as shared data), not twice
    assert not any(n.startswith("jupyter_codetrace/labextension/") for n in names)


@pytest.fixture(scope="module")
def installed(built) -> dict:
    tmp = built["tmp"]
    target = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    # This environment's packages, minus this clone's own (editable) jupyter_codetrace.
    links = tmp / "site-links"
    links.mkdir()
    for site in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        for entry in Path(site).iterdir():
            name = entry.name.lower()
            if "codetrace" in name or entry.suffix == ".pth" or name in ("__pycache__", "editables") \
                    or (links / entry.name).exists():
                continue
            (links / entry.name).symlink_to(entry)
    purelib = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    (purelib / "_codetrace_test_base.pth").write_text(f"{links}\n")
    env = _isolated_env(tmp)
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", str(built["wheel"])], env=env)
    return {"python": python, "env": env, "prefix": target}


def test_the_installed_package_is_the_wheels(installed):
    where = _run([str(installed["python"]), "-c", "import jupyter_codetrace; print(jupyter_codetrace.__file__)"],
                 env=installed["env"], cwd=installed["prefix"]).stdout.strip()
    assert Path(where).is_relative_to(installed["prefix"]), where


def test_jupyter_labextension_list_shows_the_panel_enabled(installed):
    result = _run([str(installed["python"]), "-m", "jupyterlab.labextensions", "list"],
                  env=installed["env"], cwd=installed["prefix"])
    output = _output(result)
    line = next((l for l in output.splitlines() if "jupyter_codetrace" in l), None)
    assert line and re.search(r"jupyter_codetrace v\S+ .*enabled.*OK", line), output
    assert str(installed["prefix"] / "share" / "jupyter" / "labextensions") in output, output


def test_jupyter_server_extension_list_shows_it_enabled(installed):
    result = _run([str(installed["python"]), "-m", "jupyter_server.extension.serverextension", "list"],
                  env=installed["env"], cwd=installed["prefix"])
    output = _output(result)
    # enabled by the wheel's own etc/jupyter/jupyter_server_config.d, and importable
    assert re.search(rf"Config dir: {re.escape(str(installed['prefix']))}/etc/jupyter\n\s+jupyter_codetrace\s+enabled",
                     output), output
    assert re.search(r"jupyter_codetrace \S+ OK", output), output


def test_the_installed_codetrace_command_answers(installed):
    result = subprocess.run([str(installed["prefix"] / "bin" / "codetrace"), "--root", str(FIXTURE), "--json",
                             "symbols", "round_price"], capture_output=True, text=True, env=installed["env"])
    assert result.returncode == 0, result.stderr
    assert '"round_price"' in result.stdout


def test_a_wheel_built_from_the_sdist_needs_no_node(built, tmp_path):
    """The sdist carries the built panel: a wheel built from it runs no jlpm (no Node.js on PATH)."""
    _run([sys.executable, "-c", f"from hatchling.build import build_sdist; print(build_sdist({str(tmp_path)!r}))"],
         cwd=built["clone"], env=built["env"])
    sdist, = tmp_path.glob("jupyter_codetrace-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        assert any(n.endswith("jupyter_codetrace/labextension/static/style.js") for n in names)
        # the panel's build tools stay out (fixtures/*/node_modules are test data: packages to resolve into)
        assert not any("labextension/node_modules" in n for n in names)
        archive.extractall(tmp_path / "unpacked", filter="data")
    source, = (tmp_path / "unpacked").iterdir()
    env = {**built["env"], "PATH": str(tmp_path / "no-node")}  # neither node nor jlpm
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "dist"),
          str(source)], env=env)
    wheel, = (tmp_path / "dist").glob("*.whl")
    assert any(n.endswith("labextensions/jupyter_codetrace/package.json") for n in zipfile.ZipFile(wheel).namelist())
