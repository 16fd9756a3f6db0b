"""Terminal adapters, one per game, imported on demand."""

from __future__ import annotations

import importlib

from ..adapter import CliAdapter

_ADAPTERS = {
    "gorus-maximus": "ludus.cli.adapters.gorus_maximus:ADAPTER",
    "gladius": "ludus.cli.adapters.gladius:ADAPTER",
    "circus-maximus": "ludus.cli.adapters.circus_maximus:ADAPTER",
    "gorus-arena": "ludus.cli.adapters.gorus_arena:ADAPTER",
}


def get_adapter(game_name: str) -> CliAdapter:
    target = _ADAPTERS.get(game_name)
    if target is None:
        return CliAdapter()
    module_name, attr = target.split(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except ModuleNotFoundError:
        return CliAdapter()
