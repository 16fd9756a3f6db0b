"""Game data in TOML, checked against a pydantic model, with errors that name file and line.

Card lists and card sets are edited by hand (by us, and by players who add their own
sets), so a mistake must point at the line to fix: ``cards.toml, line 12: card 3: count:
Input should be greater than 0``. TOML syntax errors carry their own line; for a value that
parses but does not fit the model, :func:`line_of` finds the line from the error's location
(``("card", 2, "count")`` is the ``count`` key of the third ``[[card]]`` table). When a
value breaks several rules, an unknown key is reported first, since a misspelt key is
also seen as a missing one.

Every game's data loading goes through :func:`load_toml`, so each game only writes its model.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import DataError, LudusError

__all__ = ["TomlLines", "line_map", "line_of", "load_toml", "parse_toml"]

M = TypeVar("M", bound=BaseModel)

_HEADER_RE = re.compile(r"^\s*(\[\[|\[)\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")
_BARE_OR_QUOTED = r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)"""
_KEY_RE = re.compile(rf"^\s*({_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*)\s*=")
_PART_RE = re.compile(_BARE_OR_QUOTED)
_AT_LINE_RE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")

Loc = tuple[str | int, ...]
TomlLines = dict[Loc, int]


def _parts(dotted: str) -> list[str]:
    return [p.strip("\"'") for p in _PART_RE.findall(dotted)]


def line_map(text: str) -> TomlLines:
    """Where each table header and key starts: location tuple -> line number (1-based).

    ``[set]`` gives ``("set",)``, its key ``id`` gives ``("set", "id")``; the third
    ``[[card]]`` gives ``("card", 2)`` and its key ``count`` ``("card", 2, "count")``.
    Keys inside multi-line arrays or inline tables are not indexed; their errors point at
    the key that holds them.
    """
    out: TomlLines = {}
    table: Loc = ()
    counts: dict[tuple[str, ...], int] = {}
    in_string = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.count('"""') % 2 or line.count("'''") % 2:  # a multi-line string starts or ends here
            was, in_string = in_string, not in_string
            if was:
                continue
        elif in_string:
            continue
        header = _HEADER_RE.match(line)
        if header and not _KEY_RE.match(line):
            path = tuple(_parts(header.group(2)))
            if header.group(1) == "[[":
                index = counts.get(path, -1) + 1
                counts[path] = index
                # the last array-of-tables segment gets its index; earlier segments take their current one
                loc: list[str | int] = []
                for i in range(1, len(path) + 1):
                    loc.append(path[i - 1])
                    if path[:i] in counts and i < len(path):
                        loc.append(counts[path[:i]])
                table = (*loc, index)
                out.setdefault(table[:-1], n)  # the array as a whole: its first header
            else:
                table = path
            out.setdefault(table, n)
            continue
        key = _KEY_RE.match(line)
        if key:
            out.setdefault((*table, *_parts(key.group(1))), n)
    return out


def line_of(lines: TomlLines, loc: Sequence[str | int]) -> int:
    """The line of ``loc``, or of the nearest enclosing key or table that has one (else 1)."""
    loc = tuple(loc)
    for end in range(len(loc), 0, -1):
        found = lines.get(loc[:end])
        if found is not None:
            return found
    return 1


def parse_toml(text: str, source: str, error: type[LudusError] = DataError) -> dict[str, Any]:
    """The TOML document as a dict; a syntax error raises ``error`` as ``source, line N: ...``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = _AT_LINE_RE.search(message)
        if at:
            raise error(f"{source}, line {at.group(1)}, column {at.group(2)}: not valid TOML: "
                        f"{message[:at.start()]}") from None
        raise error(f"{source}: not valid TOML: {message}") from None


def _where(loc: Loc) -> str:
    out: list[str] = []
    for part in loc:
        if isinstance(part, int) and out:
            out[-1] = f"{out[-1]} {part + 1}"  # people count tables from 1
        else:
            out.append(str(part))
    return ": ".join(out)


def load_toml(text: str, source: str, model: type[M], error: type[LudusError] = DataError) -> M:
    """Parse ``text`` and validate it as ``model``; the first problem raises ``error`` with its line."""
    data = parse_toml(text, source, error)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        # a misspelt key shows up as both an unknown key and a missing one: name the typo
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc: Loc = tuple(first["loc"])
        line = line_of(line_map(text), loc)
        where = _where(loc)
        raise error(f"{source}, line {line}: {where + ': ' if where else ''}{first['msg']}") from None
