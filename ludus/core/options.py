"""Game options as frozen dataclasses, parsed and validated from plain mappings.

Each game declares its options as a frozen dataclass whose fields carry metadata made
with :func:`option` (help text, allowed values, bounds). :func:`parse_options` turns a
mapping of user input (CLI flags, JSON from a record or the web lobby) into a validated
instance, and :func:`describe_options` lists the options for ``ludus games`` and the lobby.
Cross-field checks live in the dataclass's ``__post_init__`` and raise
:class:`~ludus.core.errors.InvalidOptions`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..i18n import N_, gettext
from .errors import InvalidOptions, Message

__all__ = ["NO_LEGACY", "OptionInfo", "describe_options", "option", "options_to_json", "parse_options",
           "suggestion_label", "with_legacy_values"]

T = TypeVar("T")


class _NoLegacy:
    def __repr__(self) -> str:
        return "NO_LEGACY"


NO_LEGACY: Any = _NoLegacy()
"""Marks an option that every stored game already names (or whose default always applied)."""


def option(
    default: Any,
    help: str,
    *,
    choices: Sequence[Any] | None = None,
    min: int | None = None,
    max: int | None = None,
    host_path: bool = False,
    suggestions: Sequence[Mapping[str, Any]] | None = None,
    legacy: Any = NO_LEGACY,
) -> Any:
    """A dataclass field with the metadata :func:`parse_options` checks.

    ``host_path`` declares that the value names files on the machine running the game (a
    card-data file, say). Such options are for the person at that machine: the server never
    offers them and refuses them from players. It is declared, never guessed from a name or
    help text, so rewording the help cannot open the server's files to remote players.

    ``suggestions`` lists values worth offering in a list when the option stays open-ended
    (fighter types that card-set files can extend, team splits): each entry has ``value``
    and ``label``, and may say for how many ``players`` it fits. Unlike ``choices`` it
    restricts nothing. A label built from parts is given as a ``message`` and its ``words``
    instead, so that it can be said in another language (:func:`suggestion_label`).

    ``legacy`` is for an option added after games were stored: the value that a record, a
    position or a server table made before it existed was played under. Such stored games
    do not name the option; reading them with the new default could change their rules (a
    move once legal refused on replay). :func:`with_legacy_values` fills it in for them.
    """
    return dataclasses.field(
        default=default,
        metadata={"help": help, "choices": tuple(choices) if choices else None, "min": min, "max": max,
                  "host_path": host_path,
                  "suggestions": _suggestions(suggestions), "legacy": legacy},
    )


def _suggestions(entries: Sequence[Mapping[str, Any]] | None) -> tuple[dict[str, Any], ...] | None:
    if not entries:
        return None
    out = []
    for entry in entries:
        unknown = set(entry) - {"value", "label", "players", "message", "words"}
        if unknown or "value" not in entry:
            raise ValueError("an option suggestion needs 'value' (and may have 'label', 'players', 'message', "
                             f"'words'): {dict(entry)!r}")
        words = {str(k): str(v) for k, v in dict(entry.get("words") or {}).items()}
        message = str(entry["message"]) if entry.get("message") else None
        label = entry.get("label", message.format(**words) if message else entry["value"])
        out.append({"value": entry["value"], "label": str(label),
                    **({"players": int(entry["players"])} if entry.get("players") is not None else {}),
                    **({"message": message, "words": words} if message else {})})
    return tuple(out)


def suggestion_label(entry: Mapping[str, Any]) -> str:
    """A suggestion's label in the language in use. An entry may give its label as a catalog
    ``message`` (marked with ``N_``) whose ``{name}`` fields are filled with ``words``, each itself a
    message (a fighter type's name, say); else its English ``label`` goes through the catalog."""
    message = entry.get("message")
    if not message:
        return gettext(str(entry["label"]))
    return gettext(str(message), **{k: gettext(v) for k, v in dict(entry.get("words") or {}).items()})


@dataclass(frozen=True)
class OptionInfo:
    name: str
    kind: str  # "int", "bool", "str", "float"
    default: Any
    help: str
    choices: tuple[Any, ...] | None
    min: int | None
    max: int | None
    host_path: bool = False
    suggestions: tuple[dict[str, Any], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _kind(tp: Any) -> str:
    if tp in (bool, "bool"):
        return "bool"
    if tp in (int, "int"):
        return "int"
    if tp in (float, "float"):
        return "float"
    return "str"


def describe_options(cls: type) -> list[OptionInfo]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        md = f.metadata
        out.append(
            OptionInfo(
                name=f.name,
                kind=_kind(hints.get(f.name, f.type)),
                default=f.default,
                help=md.get("help", ""),
                choices=md.get("choices"),
                min=md.get("min"),
                max=md.get("max"),
                host_path=bool(md.get("host_path", False)),
                suggestions=md.get("suggestions"),
            )
        )
    return out


WHOLE_NUMBER = N_("option {name} must be a whole number, not {value}")


def _typed(value: Any) -> Any:
    """A value as a message shows it: a number as a number (the reader's digits), anything else
    as Python writes it (``'abc'``, ``True``), as the person typed it."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else repr(value)


def _coerce(info: OptionInfo, value: Any) -> Any:
    name = info.name.replace("_", "-")
    if info.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
            return False
        raise InvalidOptions(Message(N_("option {name} must be true or false, not {value}"), name=repr(name),
                                     value=_typed(value)))
    if info.kind == "int":
        if isinstance(value, bool):
            raise InvalidOptions(Message(WHOLE_NUMBER, name=repr(name), value=_typed(value)))
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise InvalidOptions(Message(WHOLE_NUMBER, name=repr(name), value=_typed(value)))
    if info.kind == "float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        try:
            return float(value)
        except (TypeError, ValueError):
            raise InvalidOptions(Message(N_("option {name} must be a number, not {value}"), name=repr(name),
                                         value=_typed(value))) from None
    if not isinstance(value, str):
        raise InvalidOptions(Message(N_("option {name} must be text, not {value}"), name=repr(name),
                                     value=_typed(value)))
    return value


def parse_options(cls: type[T], values: Mapping[str, Any] | None = None) -> T:
    """Build a validated options instance; unknown names and bad values raise InvalidOptions."""
    values = dict(values or {})
    infos = {i.name: i for i in describe_options(cls)}
    kwargs: dict[str, Any] = {}
    for raw_name, value in values.items():
        name = raw_name.replace("-", "_")
        if name not in infos:
            known = ", ".join(sorted(n.replace("_", "-") for n in infos))
            raise InvalidOptions(Message(N_("unknown option {name}; known options: {known}"), name=repr(raw_name),
                                         known=known))
        info = infos[name]
        if value is None:
            continue
        v = _coerce(info, value)
        if info.choices is not None and v not in info.choices:
            allowed = ", ".join(str(c) for c in info.choices)
            raise InvalidOptions(Message(N_("option {name} must be one of {allowed}; got {value}"),
                                         name=repr(name.replace("_", "-")), allowed=allowed, value=_typed(v)))
        if info.min is not None and v < info.min:
            raise InvalidOptions(Message(N_("option {name} must be at least {limit}; got {value}"),
                                         name=repr(name.replace("_", "-")), limit=info.min, value=_typed(v)))
        if info.max is not None and v > info.max:
            raise InvalidOptions(Message(N_("option {name} must be at most {limit}; got {value}"),
                                         name=repr(name.replace("_", "-")), limit=info.max, value=_typed(v)))
        kwargs[name] = v
    try:
        return cls(**kwargs)
    except InvalidOptions:
        raise
    except (TypeError, ValueError) as exc:  # pragma: no cover - defensive
        raise InvalidOptions(str(exc)) from exc


def with_legacy_values(cls: type, values: Mapping[str, Any] | None) -> dict[str, Any]:
    """Stored options (a record's, a position's, a server table's) completed with the
    ``legacy`` value of every option they do not name, so a game stored before an option
    existed keeps the rules it was played under. Input from a person never goes through this."""
    out = dict(values or {})
    named = {str(k).replace("-", "_") for k in out}
    for f in dataclasses.fields(cls):
        legacy = f.metadata.get("legacy", NO_LEGACY)
        if legacy is not NO_LEGACY and f.name not in named:
            out[f.name] = legacy
    return out


def options_to_json(opts: Any) -> dict[str, Any]:
    return {f.name: getattr(opts, f.name) for f in dataclasses.fields(opts)}
