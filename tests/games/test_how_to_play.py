"""Each game's rules for players (``data/how-to-play.md``, shown by ``ludus rules`` and later the
browser): present, shaped alike, and naming exactly the options the game has, as its docs page does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ludus.core.errors import LudusError
from ludus.core.plugin import GamePlugin, PluginError
from ludus.games import game_names, get_game, get_plugin, how_to_play

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
SECTIONS = ["In one minute", "What is on the table", None, "Scoring and the end", "Where the rules leave a choice",
            "Options", "Words used"]  # None: "How a turn goes", "How a round goes", "How a day goes"
SHIPPED = ["gorus-maximus", "gladius", "circus-maximus", "gorus-arena"]


def section(markdown: str, title: str) -> str:
    """The text under one ``## title`` heading, up to the next ``##``."""
    m = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    assert m, f"no section {title!r}"
    return m.group(1)


def option_names(game_name: str, *, host: bool) -> set[str]:
    return {o.name.replace("_", "-") for o in get_game(game_name).describe_options() if host or not o.host_path}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_game_has_its_rules_in_the_same_shape(name):
    text = how_to_play(name)
    assert text.startswith(f"# {get_game(name).title}: how to play\n")
    headings = re.findall(r"^## (.+?)\s*$", text, re.M)
    assert len(headings) == len(SECTIONS), headings
    for want, got in zip(SECTIONS, headings, strict=True):
        assert got == want if want else re.fullmatch(r"How a (turn|round|day) goes", got), headings
    assert not re.search(r"^#{3,} ", text, re.M)  # one level of sections: the panel and the terminal stay flat
    assert "<" not in text.replace("<-", ""), "no HTML in a text that the browser will show"


@pytest.mark.parametrize("name", SHIPPED)
def test_the_options_section_names_every_option_and_only_real_ones(name):
    listed: set[str] = set()
    for line in section(how_to_play(name), "Options").splitlines():
        if line.startswith("- "):  # "- `a`, `b`: what they do" or "- `cf-table` replaces ..."
            head = line[2:].split(":", 1)[0] if ":" in line else line[2:]
            listed.update(re.findall(r"`([a-z0-9-]+)`", head)[:2] if "`" in head else [])
    assert listed <= option_names(name, host=True), listed - option_names(name, host=True)
    assert option_names(name, host=False) <= listed, option_names(name, host=False) - listed


@pytest.mark.parametrize("name", SHIPPED)
def test_the_docs_page_and_the_rules_text_agree_on_the_options_and_point_at_each_other(name):
    docs = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    mentioned = {n.replace("_", "-") for n in re.findall(r"`([a-z0-9_-]+)`", section(docs, "Options"))}
    assert option_names(name, host=False) <= mentioned, option_names(name, host=False) - mentioned
    package_path = get_plugin(name).package.replace(".", "/") + "/data/how-to-play.md"
    assert package_path in docs, f"docs/games/{name}.md should point players to {package_path}"


def test_an_unknown_game_or_a_game_without_rules_is_refused_plainly():
    with pytest.raises(LudusError, match="unknown game 'chess'"):
        how_to_play("chess")
    plugin = GamePlugin(name="bare", package="ludus.games.gladius", game=".game:GAME")
    assert plugin.how_to_play_text() is None
    for outside in ("../../etc/passwd", "../secret.md", "data/../../x.md", "/etc/x.md", "data\\x.md"):
        with pytest.raises(PluginError, match=r"must be a \.md file path inside its package"):
            GamePlugin(name="bad", package="ludus.games.gladius", game=".game:GAME", how_to_play=outside)
    missing = GamePlugin(name="gone", package="ludus.games.gladius", game=".game:GAME", how_to_play="data/nothing.md")
    with pytest.raises(PluginError, match="missing"):
        missing.how_to_play_text()


def test_every_listed_game_has_rules():
    assert set(SHIPPED) <= set(game_names())
