"""Install the Three cards toy (``tests/plugins/ludus_toy_dist``) as a separate distribution.

Ludus finds games from other distributions through the ``ludus.games`` entry point group,
which :mod:`importlib.metadata` reads from the ``*.dist-info`` folders on ``sys.path``. So the
toy is installed the way a user would install it, into a temporary folder (``pip install
--target``), and that folder is put on ``sys.path`` (in-process tests) or ``PYTHONPATH``
(subprocesses). Nothing in Ludus is edited or re-installed.

Offline, pip can build the toy from its ``pyproject.toml`` only where setuptools can make a
wheel without the network (setuptools 70.1 or later, or the ``wheel`` package beside an
older one). Elsewhere (this repository's venv pins an older setuptools and no ``wheel``; the
Python 3.12/3.13 CI venvs may have no setuptools at all) the wheel is built here, with the
standard library, from the same ``pyproject.toml``, and pip installs that wheel; where pip
itself is missing the wheel is unpacked, which is all that installing a pure wheel does.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

DIST = Path(__file__).resolve().parent / "ludus_toy_dist"
PACKAGE = "ludus_three_cards"
GAME = "three-cards"
DIST_NAME = "ludus-three-cards"

PIP = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
       "--quiet", "--no-compile"]


@dataclass(frozen=True)
class Installed:
    """Where the toy was installed, and how (``pip-build``, ``pip-wheel`` or ``unpacked-wheel``)."""

    path: Path
    how: str

    def env(self) -> dict[str, str]:
        """An environment for a subprocess that sees the toy (wide, plain rich output)."""
        env = plain_env()
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(self.path), env.get("PYTHONPATH", "")) if p)
        return env


def plain_env() -> dict[str, str]:
    """This process's environment with wide, plain rich output (the toy only if it is there already)."""
    return dict(os.environ, COLUMNS="200", NO_COLOR="1", TERM="dumb")


def can_build_offline() -> bool:
    """Whether pip can build the toy from source here without downloading anything."""
    if importlib.util.find_spec("pip") is None or importlib.util.find_spec("setuptools") is None:
        return False
    if importlib.util.find_spec("wheel") is not None:
        return True
    from importlib.metadata import version

    major, minor, *_ = (int(p) if p.isdigit() else 0 for p in version("setuptools").split(".") + ["0"])
    return (major, minor) >= (70, 1)  # setuptools ships bdist_wheel itself from 70.1


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(src: Path, out: Path) -> Path:
    """A pure-Python wheel of the distribution in ``src``, from its ``pyproject.toml``."""
    meta = tomllib.loads((src / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    name, version = project["name"], project["version"]
    stem = f"{name.replace('-', '_')}-{version}"
    info = f"{stem}.dist-info"
    files: dict[str, bytes] = {}
    for package in meta["tool"]["setuptools"]["packages"]:
        for path in sorted((src / package).rglob("*.py")):
            files[path.relative_to(src).as_posix()] = path.read_bytes()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
             f"Summary: {project.get('description', '')}"]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {dep}" for dep in project.get("dependencies", [])]
    files[f"{info}/METADATA"] = ("\n".join(lines) + "\n").encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: ludus-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    groups = project.get("entry-points", {})
    text = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
                   for group, eps in groups.items())
    files[f"{info}/entry_points.txt"] = text.encode()
    record = [_record_line(n, data) for n, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in files.items():
            zf.writestr(n, data)
    return wheel


def install(work: Path) -> Installed:
    """Install the toy under ``work`` (``work/site`` is the folder for ``sys.path``)."""
    src = work / "src"
    shutil.copytree(DIST, src, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = work / "site"
    if can_build_offline():  # a real PEP 517 build of the copy (setuptools writes build files there)
        subprocess.run(PIP + ["--no-build-isolation", "--target", str(target), str(src)], check=True,
                       capture_output=True, timeout=300)
        how = "pip-build"
    else:
        wheel = build_wheel(src, work / "wheels")
        if importlib.util.find_spec("pip") is not None:
            subprocess.run(PIP + ["--target", str(target), str(wheel)], check=True, capture_output=True,
                           timeout=300)
            how = "pip-wheel"
        else:
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(target)
            how = "unpacked-wheel"
    return Installed(target, how)


def _forget_toy_modules() -> None:
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@contextmanager
def on_sys_path(installed: Installed) -> Iterator[None]:
    """The toy visible in this process (``sys.path`` and Ludus's registry), and gone afterwards."""
    from ludus.games import reload_plugins

    sys.path.insert(0, str(installed.path))
    importlib.invalidate_caches()  # importlib.metadata caches what each sys.path entry holds
    reload_plugins()
    try:
        yield
    finally:
        sys.path.remove(str(installed.path))
        _forget_toy_modules()
        importlib.invalidate_caches()
        reload_plugins()
