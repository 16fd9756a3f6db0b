"""Choosing the language, plural forms and numbers (ludus.i18n)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ludus import i18n
from ludus.i18n import format_number, ngettext, normalize_language, pick_language, text_direction, use_language


@pytest.mark.parametrize("value, lang", [
    ("es_ES.UTF-8", "es"), ("es", "es"), ("es-MX", "es"), ("fa_IR", "fa"), ("fa_IR.UTF-8", "fa"), ("FA", "fa"),
    ("en_GB.UTF-8", "en"), ("C", "en"), ("C.UTF-8", "en"), ("POSIX", "en"), ("de_DE.UTF-8", None), ("", None),
    ("sr_RS@latin", None), ("es_ES@euro", "es"),
])
def test_locale_names_map_to_languages(value, lang):
    assert normalize_language(value) == lang


@pytest.mark.parametrize("explicit, environ, lang", [
    (None, {}, "en"),
    (None, {"LANG": "es_ES.UTF-8"}, "es"),
    (None, {"LANG": "fa_IR"}, "fa"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),  # a language Ludus does not speak
    (None, {"LANG": "es_ES.UTF-8", "LC_MESSAGES": "fa_IR.UTF-8"}, "fa"),
    (None, {"LANG": "es_ES.UTF-8", "LC_MESSAGES": "fa_IR", "LC_ALL": "en_US.UTF-8"}, "en"),
    (None, {"LANG": "fa_IR", "LC_ALL": "es_ES"}, "es"),
    (None, {"LANG": "fa_IR", "LC_ALL": ""}, "fa"),  # an empty variable is not set
    (None, {"LANG": "fa_IR", "LC_ALL": "de_DE"}, "en"),  # the first one set decides, as in POSIX
    ("es", {"LC_ALL": "fa_IR"}, "es"),  # --lang beats everything
    ("fa_IR.UTF-8", {"LANG": "es_ES"}, "fa"),
    ("en", {"LANG": "es_ES"}, "en"),
    ("xx", {"LANG": "es_ES"}, "en"),
])
def test_pick_language_order(explicit, environ, lang):
    assert pick_language(explicit, environ) == lang


def test_plural_forms_follow_each_language():
    forms = ("{count} gladiator", "{count} gladiators")
    with use_language("en"):
        assert [ngettext(*forms, n, count=n) for n in (0, 1, 2)] == ["0 gladiators", "1 gladiator", "2 gladiators"]
    with use_language("es"):
        assert [ngettext(*forms, n, count=n) for n in (0, 1, 2, 1_000_000)] == [
            "0 gladiadores", "1 gladiador", "2 gladiadores", "1000000 de gladiadores"]
    with use_language("fa"):
        assert ngettext(*forms, 1, count=1) == "۱ گلادیاتور"
        assert ngettext(*forms, 12, count=12) == "۱۲ گلادیاتور"


def test_numbers_in_persian_digits_only_in_persian():
    assert format_number(1234567, "en") == "1234567"  # no grouping: a seed stays as typed
    assert format_number(-3, "en") == "-3"
    assert format_number(1234567, "es") == "1234567"
    assert format_number(1234567, "fa") == "۱۲۳۴۵۶۷"
    assert format_number(2.5, "fa") == "۲٫۵"
    assert "۳" in format_number(-3, "fa")
    # Python reads Persian digits back: a seed or a move number typed in them works
    assert int(format_number(905, "fa")) == 905


def test_placeholders_get_localized_numbers():
    with use_language("fa"):
        assert i18n._("Round {number}", number=12) == "دور ۱۲"
    with use_language("es"):
        assert i18n._("Round {number}", number=12) == "Ronda 12"
    assert i18n._("Round {number}", number=12) == "Round 12"  # English by default


def test_direction_and_names():
    assert text_direction("fa") == "rtl"
    assert text_direction("es") == text_direction("en") == "ltr"
    assert i18n.language_name("es") == "español"
    assert i18n.language_name("fa") == "فارسی"


def test_use_language_restores_and_unknown_languages_are_refused():
    assert i18n.get_language() == "en"
    with use_language("fa"):
        assert i18n.get_language() == "fa"
    assert i18n.get_language() == "en"
    with pytest.raises(ValueError):
        i18n.set_language("de")


def test_the_i18n_layer_imports_nothing_of_ludus():
    """The lowest layer: the standard library and Babel only (the import-linter contract says so too)."""
    root = Path(i18n.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert not (node.module or "").startswith("ludus"), path
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                raise AssertionError(f"{path} imports from above ludus.i18n")
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("ludus") for a in node.names), path
