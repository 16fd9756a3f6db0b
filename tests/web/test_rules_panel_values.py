"""The Rules panel's list of values the rulebook does not print (``Game.data_values``), in a real
browser: each value with its mark, the marks explained, the values for the options where the panel
was opened (a table's own), on a desktop and a phone screen.

The server is started through this file (``python tests/web/test_rules_panel_values.py serve ...``),
which gives Gladius a fixed list of such values first, so the panel is tested whatever the games
themselves list at the moment.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

if __name__ == "__main__":  # the launcher: a server whose Gladius lists two values of each source
    sys.path.insert(0, str(ROOT))  # this checkout's ludus
    from ludus.cli.main import main
    from ludus.core.provenance import EXAMPLE, OURS, PRINTED, DataValue
    from ludus.games import get_game

    def _fixed_values(options=None):
        hit_points = getattr(options, "hit_points", 10)
        return [DataValue("Hit points of each fighter", str(hit_points), EXAMPLE,
                          "the worked example's blows add up to this"),
                DataValue("Copies of Dagger in the deck", "4", OURS, "as many as the other common weapons"),
                DataValue("Cards in a starting hand", "2", PRINTED)]

    get_game("gladius").data_values = _fixed_values  # type: ignore[method-assign]
    sys.exit(main(sys.argv[1:]))

import pytest  # noqa: E402

from ludus.core.provenance import EXAMPLE, OURS, SOURCE_TEXT  # noqa: E402
from ludus.games import game_names, get_game  # noqa: E402

from .browsing import AUTO_OFF, CREATE_JS, DESKTOP, PHONE  # noqa: E402
from .conftest import ServerProcess  # noqa: E402

LOADED = "#rules-dialog[open][data-loaded=true]"


class ValuesServer(ServerProcess):
    cwd = str(ROOT)

    def command(self) -> list[str]:
        return [sys.executable, str(Path(__file__)), "serve", "--port", str(self.port), "--database", str(self.db),
                "--bot-delay", str(self.bot_delay)]


@pytest.fixture
def server(tmp_path):
    made = ValuesServer(tmp_path / "web.db")
    yield made
    made.stop()


def rows(page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#rules-dialog .rules-values-table tbody tr",
        "trs => trs.map(tr => ({source: tr.dataset.valueSource, cells: [...tr.cells].map(c => c.innerText.trim()),"
        " title: tr.querySelector('.value-mark').title}))")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_panel_lists_a_tables_unprinted_values_with_their_marks(server, browser, shots, viewport):
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(AUTO_OFF)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    code = page.evaluate(CREATE_JS, {"game": "gladius", "options": {"hit_points": 7}, "name": "Ann",
                                     "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector("#rules-button:not(.hidden)")
    page.click("#rules-button")
    page.wait_for_selector(LOADED)
    assert page.inner_text("#rules-values-title") == "Values not printed in the rulebook"
    got = rows(page)
    assert [r["cells"][:2] for r in got] == [["Hit points of each fighter", "7"],  # this table's hit points
                                              ["Copies of Dagger in the deck", "4"]]  # the printed one left out
    assert [r["source"] for r in got] == [EXAMPLE, OURS]
    assert "from a worked example" in got[0]["cells"][2] and "ours (Ludus)" in got[1]["cells"][2]
    assert [r["title"] for r in got] == [SOURCE_TEXT[EXAMPLE], SOURCE_TEXT[OURS]]  # the mark's tooltip
    assert got[0]["cells"][3] == "the worked example's blows add up to this"
    legend = page.inner_text("#rules-dialog .rules-values > p")
    assert SOURCE_TEXT[EXAMPLE] in legend and SOURCE_TEXT[OURS] in legend  # each mark explained once
    box = page.eval_on_selector("#rules-dialog", "d => ({right: d.getBoundingClientRect().right, "
                                "scroll: d.scrollWidth, client: d.clientWidth})")
    assert box["right"] <= viewport["width"] and box["scroll"] <= box["client"], box
    page.eval_on_selector("#rules-dialog .rules-values", "s => s.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(shots / f"rules-values-{'phone' if viewport == PHONE else 'desktop'}.png"))
    page.keyboard.press("Escape")
    assert not errors, errors
    ctx.close()


def test_each_real_game_shows_its_list_or_says_all_is_printed(server, browser):
    import httpx

    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#create:enabled")
    for name in game_names():
        if name == "gladius":
            continue  # the launcher's own list, above
        served = httpx.get(f"{server.url}/api/games/{name}/rules", timeout=10).json()["data_values"]
        page.select_option("#game", name)
        page.wait_for_selector("#create:enabled")
        page.click("#rules-button")
        page.wait_for_selector(LOADED)
        text = page.inner_text("#rules-dialog .rules-values")
        if served:
            assert [r["cells"][0] for r in rows(page)] == [v["subject"] for v in served], name
        else:
            assert "Every value of this game's data is printed in its rulebook." in text, name
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.getElementById('rules-dialog').open")
    assert get_game("gorus-maximus")  # the registry the server reads is this checkout's
    ctx.close()
