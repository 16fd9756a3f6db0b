"""The layer rule (README, Layout): i18n <- core <- games <- agents <- sim <- interop <- server <- web <- cli.

Checked with import-linter; the contract is in pyproject.toml ([tool.importlinter]). Every import
statement counts, including those inside functions and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = REPO / "pyproject.toml"


def test_lower_layers_never_import_higher_ones():
    # In its own process: import-linter writes through the process's stdout, which other tests'
    # imports (absl logging, pulled in by OpenSpiel) leave pointing at pytest's closed capture.
    script = ("import sys; from importlinter.cli import lint_imports; "
              f"sys.exit(lint_imports(config_filename={str(PYPROJECT)!r}, no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    report = done.stdout + done.stderr
    assert done.returncode == 0, f"import-linter found a broken contract:\n{report}"
    assert "1 kept, 0 broken" in report


LAYERS = ("i18n", "core", "games", "agents", "sim", "interop", "server", "web", "cli")  # lowest first


def test_module_names_in_strings_respect_the_layers():
    """import-linter sees import statements only; importlib.import_module("ludus.x...") and the
    registries of "module:attribute" strings are checked here: no layer names a higher one."""
    root = REPO / "ludus"
    pattern = re.compile(r"ludus\.([a-z_]+)")
    not_modules = {("core/plugin.py", "ludus.games")}  # the entry point group's name
    found = []
    for layer_index, layer in enumerate(LAYERS):
        for path in sorted((root / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    match = pattern.match(node.value)
                    if (str(path.relative_to(root)), node.value) in not_modules:
                        continue
                    if match and match[1] in LAYERS and LAYERS.index(match[1]) > layer_index:
                        found.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.value!r}")
    assert not found, "lower layers name higher ones:\n" + "\n".join(found)
