"""The replay page's Analyse: progress, then the win-chance plot, the marked moves and marks on the frames."""

from __future__ import annotations

import time

import httpx
import pytest

from .browsing import CREATE_JS, DESKTOP, PHONE


def finished_gladius(live, page) -> str:
    """A Gladius between two random bots, played to its end; its table code."""
    page.goto(live.url + "/")
    code = page.evaluate(CREATE_JS, {"game": "gladius", "options": {}, "name": None,
                                     "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    deadline = time.time() + 120
    while httpx.get(f"{live.url}/api/tables/{code}").json()["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return code


def serious_axe_violations(page) -> list[str]:
    """axe-core's serious or critical findings on the page as it is now (none checked without axe)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return []
    violations = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']}" for v in violations if v["impact"] in ("serious", "critical")]


def analyse(page, seat: int) -> None:
    page.select_option("#analysis-seat", str(seat))
    page.click("#analyse")
    page.wait_for_selector("#analysis-progress:not(.hidden)")
    page.wait_for_selector("#analysis-result:not(.hidden)", timeout=180_000)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_analyse_shows_a_plot_marks_and_jumps_to_a_move(live, browser, shots, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = finished_gladius(live, page)
    page.goto(f"{live.url}/t/{code}/replay")
    page.wait_for_selector("#board h2")
    assert page.locator("#analysis-progress").get_attribute("role") == "status"
    analyse(page, 0)
    review = httpx.get(f"{live.url}/api/tables/{code}/analysis?seat=0").json()["review"]
    assert page.input_value("#viewer") == "0"  # the game is seen as the analysed player saw it
    # the plot: one point per analysed decision, one dot per marked move, with a text alternative
    assert page.locator("#analysis-plot svg polyline").count() == (1 if review["curve"] else 0)
    marked = [d for d in review["decisions"] if d["mark"] in ("inaccuracy", "mistake", "blunder")]
    assert page.locator("#analysis-plot svg circle.dot").count() == len(marked)
    assert "win chance" in (page.locator("#analysis-plot svg > title").text_content() or "")
    items = page.locator("#analysis-marks li")
    assert items.count() == max(1, len(marked))
    summary = page.inner_text("#analysis-summary")
    assert review["totals"]["analysed"] > 1 and f"{review['totals']['analysed']} decisions analysed" in summary
    assert page.locator("#analysis-plot svg circle.point").count() == len(review["curve"])
    if marked:
        first = marked[0]
        page.locator("#analysis-plot svg circle.dot").first.click()
        assert page.input_value("#slider") == str(first["ply"])
        assert "best was" in page.inner_text("#step")
        page.click("#first")
        page.locator("#analysis-marks li button").first.click()  # the list does the same, by keyboard too
        assert page.input_value("#slider") == str(first["ply"])
        page.locator("#analysis-plot svg circle.dot").first.focus()
        page.keyboard.press("Enter")
        assert page.input_value("#slider") == str(first["ply"])
    else:
        assert "No move is marked" in items.first.inner_text()
    assert serious_axe_violations(page) == []
    # nothing wider than the screen
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    name = "desktop" if viewport is DESKTOP else "phone"
    page.locator("#analysis").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"analysis-{name}.png"), full_page=True)
    # a reload finds the finished analysis at once
    page.reload()
    page.select_option("#analysis-seat", "0")
    page.wait_for_selector("#analysis-result:not(.hidden)", timeout=10_000)
    assert errors == []
    ctx.close()
