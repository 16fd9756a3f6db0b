"""argparse's own words ("usage:", "options:", "show this help message and exit", its errors) in
the language in use.

CPython's argparse translates them through gettext's domain ``argparse``, which no catalog of
ours would reach; :func:`speak_argparse` routes argparse's ``_`` and ``ngettext`` to the Ludus
catalogs instead, and :data:`ARGPARSE_WORDS` lists argparse's messages (exactly as argparse
writes them, %-placeholders and all) so that they are extracted into ``ludus.po``. Our own help
texts are ``_()`` strings where each parser is built, after the language is chosen (``--lang`` is
taken out of the command line first, :func:`ludus.cli.main.take_language`).
"""

from __future__ import annotations

import argparse

from ..i18n import N_, get_language, ngettext, translator

__all__ = ["ARGPARSE_WORDS", "DEVELOPER_WORDS", "speak_argparse"]

# TRANSLATORS: argparse's own words (Python's "argparse" messages): keep every %(name)s, %r and %s
# as it is, and the line end of "%(prog)s: error: %(message)s\n".
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ignored explicit argument %r"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    # Python 3.13's argparse says these too
    N_("%(heading)s:"),
    N_(" (default: %(default)s)"),
    N_("subcommands"),
    N_("show program's version number and exit"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
)
"""The messages of argparse (Pythons 3.11 to 3.13) that a person meets: help headings, usage errors
and warnings."""
DEVELOPER_WORDS = frozenset({
    "%r is not callable", "'required' is an invalid argument for positionals", ".__call__() not defined",
    'argument "-" with mode %r', "cannot have multiple subparser arguments",
    "cannot merge actions - two groups are named %r", "conflicting subparser alias: %s", "conflicting subparser: %s",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "mutually exclusive arguments must be optional", "unexpected option string: %s",
    "conflicting option string: %s", "conflicting option strings: %s",
})
"""argparse's messages about a program's own mistakes in building a parser, never shown to a
player: left in English."""


def _gettext(message: str) -> str:
    return translator(get_language()).gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    """argparse's one plural message a person meets, by the language's plural rules; the others
    (a parser's own mistakes) in English."""
    if (singular, plural) == ("expected %s argument", "expected %s arguments"):
        # TRANSLATORS: argparse's own words: keep %s
        return ngettext("expected %s argument", "expected %s arguments", n)
    return singular if n == 1 else plural


def speak_argparse() -> None:
    """Make argparse say its own words in the language in use (idempotent; English is unchanged:
    the msgids are argparse's own text)."""
    setattr(argparse, "_", _gettext)  # noqa: B010 - argparse looks its ``_`` up as a module global
    setattr(argparse, "ngettext", _ngettext)  # noqa: B010
