"""The learn page (``/learn/<game>``) in a real browser: every tutorial is followed to its end by
clicking, as a player would, the control of the move each step asks for; the wrong move each
step offers is tried and its refusal read; the end opens a real table with the same settings.
One run is made with the keyboard only. Besides the games' own tutorials, a small test lesson
(``tests/server/learn_gladius.toml``, served by ``learn_lesson_server.py``) is always followed,
so the page is tested even where no game ships a tutorial.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludus import games
from ludus.core.tutorial import Tutorial, load_tutorial

from .browsing import DESKTOP, PHONE
from .conftest import ServerProcess

SHIPPED = [name for name, plugin in games.plugins().items() if plugin.tutorial]
LAUNCHER = Path(__file__).with_name("learn_lesson_server.py")
LESSON = Path(__file__).resolve().parents[1] / "server" / "learn_gladius.toml"
TEST_LESSON = "test-lesson"  # the test lesson's id here; the server serves it as Gladius's tutorial


class LessonServer(ServerProcess):
    """``ludus serve`` through the launcher that puts the test lesson in Gladius's place."""

    cwd = str(LAUNCHER.parents[2])

    def command(self) -> list[str]:
        return [sys.executable, str(LAUNCHER), "serve", "--port", str(self.port), "--database", str(self.db),
                "--bot-delay", str(self.bot_delay)]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ServerProcess]]:
    """One plain server for the shipped tutorials, one with the test lesson (started when asked)."""
    made: dict[str, ServerProcess] = {}

    class Lazy(dict[str, ServerProcess]):
        def __missing__(self, key: str) -> ServerProcess:
            folder = tmp_path_factory.mktemp(f"learn-{key}")
            made[key] = self[key] = (LessonServer if key == "lesson" else ServerProcess)(folder / "web.db")
            return made[key]

    yield Lazy()
    for server in made.values():
        server.stop()


def lesson_for(name: str) -> tuple[str, Tutorial, str]:
    """(game, tutorial, server kind) for a test id."""
    if name == TEST_LESSON:
        return "gladius", load_tutorial(games.get_game("gladius"), LESSON.read_text(encoding="utf-8")), "lesson"
    return name, games.tutorial(name), "plain"


def spaced(text: str) -> str:
    return " ".join(text.split())


def open_page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def wait_step(page: Any, k: int, n: int) -> None:
    text = f"Step {k + 1} of {n}" if k < n else "Lesson finished"
    page.wait_for_function("t => document.getElementById('progress').textContent.startsWith(t)", arg=text,
                           timeout=15_000)


def page_wording(game: str, action: dict[str, Any], label: str) -> str | None:
    """How a game's page begins the accessible name of a move's control (compared ignoring case),
    where it words the move differently from the engine's label (each case mirrors the game's page.js)."""
    if game == "circus-maximus":
        kind = action.get("type")
        if kind == "pass":
            return "Pass:"
        if kind == "take_favour":
            return f"Take {label.removeprefix('Take favour ')} ("
        if kind == "take_ticket":
            return f"Take a {label.removeprefix('Take ticket ')} ticket"
        if kind == "sell" and action.get("ticket"):
            where = label.removeprefix("Sell ").partition(" to a ")[0]  # "Sell Colosseum box to a Senator"
            return f"Sell your {where.split()[-1]} ticket"
        if kind == "extra_visitor":
            return "Play +Visitor"
        if kind == "place_visitor":
            return f"Send the visitor to the {label.split(' at ')[-1]}"
    if game == "gorus-arena":
        kind = action.get("do")
        if kind == "place":
            return f"Lay {label.removeprefix('plan ').split(' (')[0]} face down"  # "plan Tired Fighter (income 2)"
        if kind == "recruit":
            return f"Recruit {label.removeprefix('recruit ').split(' (')[0]} for"
        if kind == "attack":
            return f"{label.split(' #')[0]} of "  # "attack Tired Fighter of Marcus (position 1)"
    return None


def exact_control(page: Any, game: str, action: dict[str, Any], label: str) -> Any | None:
    """The control a player would pick for ``action``: the card it names, or the button with its label."""
    if game == "gorus-maximus" and set(action) == {"play"}:
        loc = page.locator(f"#board button[data-card='{action['play']}']")
        if loc.count() == 1:
            return loc
    aria = page_wording(game, action, label)
    if aria is not None:
        start = aria.replace("\\", "\\\\").replace('"', '\\"')
        named = f'button:enabled[aria-label^="{start}" i]'
        loc = page.locator(f"#moves {named}, #board {named}")
        if loc.count() >= 1:
            return loc.first  # two copies of one card are the same move
    buttons = page.locator("#moves button:enabled, #board button:enabled")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        text = spaced(b.inner_text())
        aria = spaced(b.get_attribute("aria-label") or "")
        if label and (text == label or text.startswith(label + " — ") or aria == label):
            return b
    return None


def answer_of(page: Any, click: Any, timeout: int = 10_000) -> dict[str, Any]:
    with page.expect_response(lambda r: r.url.endswith("/try") and r.request.method == "POST", timeout=timeout) as info:
        click()
    return dict(info.value.json())


def make_expected_move(page: Any, game: str, step: dict[str, Any], action: dict[str, Any],
                       keyboard: bool = False) -> None:
    """Click (or reach with Tab and press Enter on) the control of ``action``, found by its card,
    its label or what the game's page writes on it; the lesson must answer "done"."""
    label = next((m["label"] for m in step["view"]["legal"] if m["action"] == action), "")
    control = exact_control(page, game, action, label)
    if control is not None:
        answer = answer_of(page, (lambda: press_on(page, control)) if keyboard else control.click)
        assert answer["kind"] == "done", (action, answer)
        return
    raise AssertionError(f"no control on the page is labelled for the move {action} ({label!r})")


def press_on(page: Any, control: Any, limit: int = 120) -> None:
    """Tab forward until ``control`` has the focus, then press Enter (keyboard only)."""
    for _ in range(limit):
        if control.evaluate("e => e === document.activeElement"):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError("the control could not be reached with Tab")


def follow(page: Any, url: str, game: str, t: Tutorial, shots: Path | None, shot_name: str,
           keyboard: bool = False) -> None:
    n = len(t)
    page.goto(f"{url}/learn/{game}")
    wait_step(page, 0, n)
    assert spaced(t.script.intro)[:40] in spaced(page.locator("#intro").inner_text())
    shot_taken = False
    for k in range(n):
        lesson = t.steps[k]
        wait_step(page, k, n)
        step = httpx.get(f"{url}/api/learn/{game}/steps/{k}", timeout=10).json()
        assert spaced(lesson.say)[:60] in spaced(page.locator("#say").inner_text())
        if k and keyboard:  # each new step's text has the focus, so a screen reader reads it first
            assert page.evaluate("document.activeElement.id") == "say"
        if lesson.wrong is not None:
            reason = t.attempt(k, lesson.wrong).message
            button = page.locator("#try-wrong")
            assert button.inner_text().startswith("Try the wrong move: ")
            if keyboard:
                press_on(page, button)
            else:
                button.click()
            page.wait_for_selector("#answer[data-kind='refused']")
            text = spaced(page.locator("#answer").inner_text())
            assert text.startswith("Not allowed:") and spaced(reason) in text
            wait_step(page, k, n)  # a refusal keeps the learner on the same step
            if shots is not None and not shot_taken:
                page.screenshot(path=str(shots / f"learn-{shot_name}-desktop.png"), full_page=True)
                shot_taken = True
        expected = t.expected(k)
        if expected is None:
            assert page.locator("#next").is_visible()
        else:
            assert not page.locator("#next").is_visible()  # the move comes first
            make_expected_move(page, game, step, expected.to_json(), keyboard)
            page.wait_for_selector("#answer[data-kind='done']")
            if lesson.after:
                assert spaced(lesson.after)[:60] in spaced(page.locator("#answer").inner_text())
            if keyboard:
                assert page.evaluate("document.activeElement.id") == "next"
        if keyboard:
            if page.evaluate("document.activeElement.id") != "next":
                press_on(page, page.locator("#next"))
            else:
                page.keyboard.press("Enter")
        else:
            page.click("#next")
    wait_step(page, n, n)
    assert spaced(t.script.outro)[:60] in spaced(page.locator("#say").inner_text())
    if shots is not None and not shot_taken:
        page.screenshot(path=str(shots / f"learn-{shot_name}-desktop.png"), full_page=True)


@pytest.mark.parametrize("name", [TEST_LESSON, *SHIPPED])
def test_every_tutorial_is_followed_to_a_real_game(servers, browser, shots, name):
    game, t, kind = lesson_for(name)
    server = servers[kind]
    ctx, page, errors = open_page(browser, DESKTOP)
    follow(page, server.url, game, t, shots, name)
    # the end: a real game with the tutorial's settings, the learner in their seat, bots elsewhere
    page.fill("#real-name", "Tiro")
    page.click("#play-real")
    page.wait_for_url(lambda u: "/t/" in u, timeout=15_000)
    code = page.url.rstrip("/").split("/t/")[1]
    info = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
    assert info["game"] == game
    # the table writes every option out, so compare what they mean
    assert t.game.parse_options(info["options"]) == t.game.parse_options(t.play_options)
    assert [s["kind"] for s in info["seats"]] == ["human" if i == t.seat else "bot" for i in range(len(info["seats"]))]
    assert info["seats"][t.seat]["name"] == "Tiro"
    assert info["hints"] is True  # a first game: the learner may ask what the bot would play
    page.wait_for_selector("#board *", timeout=15_000)
    page.wait_for_selector("#hint-row:not(.hidden)", timeout=15_000)
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("name", [TEST_LESSON, *SHIPPED])
def test_a_lesson_step_on_a_phone_resumes_from_the_address(servers, browser, shots, name):
    game, t, kind = lesson_for(name)
    server = servers[kind]
    k = next((i for i, s in enumerate(t.steps) if s.wrong is not None), 0)
    ctx, page, errors = open_page(browser, PHONE)
    page.goto(f"{server.url}/learn/{game}?step={k + 1}")
    wait_step(page, k, len(t))
    assert spaced(t.steps[k].say)[:60] in spaced(page.locator("#say").inner_text())
    if t.steps[k].wrong is not None:
        page.click("#try-wrong")
        page.wait_for_selector("#answer[data-kind='refused']")
    # nothing is wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.screenshot(path=str(shots / f"learn-{name}-phone.png"), full_page=True)
    if t.steps[k].expect is not None:  # the moves may be far below the lesson: one button takes you there
        page.click("#to-moves")
        where = page.evaluate("""() => { const e = document.activeElement, r = e.getBoundingClientRect();
            return { button: e.tagName === "BUTTON" && !e.disabled, inside: !!e.closest("#moves, #board"),
                     seen: r.top >= 0 && r.bottom <= innerHeight }; }""")
        assert where == {"button": True, "inside": True, "seen": True}
    page.reload()
    wait_step(page, k, len(t))  # a reload stays at the same step
    if k:
        page.click("#back")
        wait_step(page, k - 1, len(t))
        assert f"step={k}" in page.url
        page.go_back()
        wait_step(page, k, len(t))
    page.click("#restart")
    wait_step(page, 0, len(t))
    assert errors == []
    ctx.close()


def test_the_test_lesson_with_the_keyboard_only(servers, browser):
    game, t, kind = lesson_for(TEST_LESSON)
    ctx, page, errors = open_page(browser, DESKTOP)
    follow(page, servers[kind].url, game, t, None, TEST_LESSON, keyboard=True)
    assert page.evaluate("document.activeElement.id") == "say"
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("name", SHIPPED[:1])
def test_a_shipped_tutorial_with_the_keyboard_only(servers, browser, name):
    game, t, kind = lesson_for(name)
    ctx, page, errors = open_page(browser, DESKTOP)
    follow(page, servers[kind].url, game, t, None, name, keyboard=True)
    assert errors == []
    ctx.close()


def test_a_game_without_a_tutorial_says_so(servers, browser):
    ctx, page, _ = open_page(browser, DESKTOP)
    page.goto(f"{servers['plain'].url}/learn/no-such-game")
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('no tutorial')")
    assert page.locator("#lesson-title").inner_text() == "No lesson here"
    ctx.close()
