"""``ludus serve`` whose Gladius tutorial is the small test lesson (tests/server/learn_gladius.toml).

The learn page's browser tests start this instead of ``python -m ludus.cli.main`` so they have
a lesson to follow whether or not the games ship theirs yet. Run from the repository root:
``python tests/web/learn_lesson_server.py serve --port 0``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # this checkout's ludus, not another one installed in the environment

from ludus import games  # noqa: E402
from ludus.cli.main import main  # noqa: E402
from ludus.core.tutorial import Tutorial, load_tutorial  # noqa: E402
from ludus.server import learn  # noqa: E402

LESSON = ROOT / "tests" / "server" / "learn_gladius.toml"
_real_tutorial = games.tutorial
_real_names = learn.tutorial_games


def tutorial(name: str) -> Tutorial:
    if name == "gladius":
        return load_tutorial(games.get_game("gladius"), LESSON.read_text(encoding="utf-8"), LESSON.name)
    return _real_tutorial(name)


games.tutorial = tutorial  # type: ignore[assignment]
learn.tutorial_games = lambda: sorted(set(_real_names()) | {"gladius"})

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
