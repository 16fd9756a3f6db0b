"""A person plays whole Gorus Arena games against two bots in Chromium, once with the mouse and
once with the keyboard alone: the page shows the market, the hand and the arena as cards with
strength and effect (our values marked as ours), the others' plans face down with nothing of
their identity in the page, names and never seat numbers, round breaks in the log, and a round
summary that stays until dismissed and can be reopened."""

from __future__ import annotations

import re
import time

from .browsing import DESKTOP, LAST_ENTRY, PHONE

# every log entry the page has received, shown or not

STATE_JS = """() => {
  const q = (sel) => [...document.querySelectorAll(sel)];
  const dialog = document.getElementById('summary-dialog');
  const over = !document.getElementById('summary').classList.contains('hidden');
  const rivals = q('.ga-seat:not(.you)').map((s) => {
    const plan = s.querySelector('.ga-plan.face-down');
    return plan ? { backs: plan.querySelectorAll('.ga-back').length, heading: s.querySelector('h4').textContent,
      identity: plan.querySelectorAll('[data-card], [data-kind], .ga-name').length, text: plan.innerText } : null;
  }).filter(Boolean);
  return {
    status: document.getElementById('status').textContent,
    phase: (document.getElementById('ga-round') || {}).textContent || '',
    choice: (document.getElementById('ga-choice') || {}).textContent || '',
    latest: q('#ga-latest li').map((e) => e.textContent),
    buttons: q('#moves button.move:enabled').map((b) => b.textContent),
    playable: q('#hand button.card.playable:enabled').length,
    handCards: q('#hand .ga-card').map((c) => ({ str: (c.querySelector('.ga-str') || {}).textContent || '',
      effect: (c.querySelector('.ga-effect') || {}).textContent || '', kind: c.dataset.kind,
      ours: (c.querySelector('.ga-ours') || {}).title || '',
      oursText: (c.querySelector('.ga-ours .visually-hidden') || {}).textContent || '' })),
    market: q('#market .ga-card').length,
    arena: q('.ga-arena .ga-card').length,
    rivals,
    dialogOpen: dialog.open,
    dialogTitle: document.getElementById('summary-dialog-title').textContent,
    page: document.body.innerText,
    log: """ + LAST_ENTRY + """,
    over,
    notice: document.getElementById('notice').textContent,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""

SEAT_NUMBER = re.compile(r"\bSeat \d")
RAW = re.compile(r"undefined|null|NaN|\[object|Traceback|#\d+")


def new_table(page, live) -> str:
    page.goto(live.url + "/")
    table = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: 'gorus-arena', options: {}, name: 'Ann',
          seats: [{kind: 'human'}, {kind: 'bot', bot: 'heuristic'}, {kind: 'bot', bot: 'heuristic'}]})});
      return await r.json();
    }""")
    page.goto(f"{live.url}/t/{table['code']}")
    page.wait_for_selector("#ga-round")
    return table["code"]


def check_view(st) -> None:
    """What must hold in every view: names not seat numbers, nothing raw, cards with strength and
    effect, and no identity at all in a rival's face-down plan."""
    assert not SEAT_NUMBER.search(st["page"]), st["page"]
    assert not RAW.search(st["page"]), RAW.search(st["page"])
    assert not st["notice"], st["notice"]
    for card in st["handCards"]:
        assert re.fullmatch(r"strength [1-5]", card["str"]), card
        assert re.match(r"(Attack|Guard|Recruit|Income): ", card["effect"]), card
        if card["kind"] in ("slave", "tired-fighter"):  # partly from the source text, the rest ours
            assert card["ours"].startswith("Our values:") and card["oursText"].strip("() ") == card["ours"], card
        if card["kind"] == "tired-fighter":  # the text gives its defence: not marked as ours
            assert "defence" not in card["ours"].split(".")[0] and "gives only the name and defence" in card["ours"]
    for rival in st["rivals"]:
        assert rival["identity"] == 0, rival
        assert re.fullmatch(r"[\d\s]*", rival["text"]), rival  # only position numbers
        assert rival["heading"].startswith(f"Plan: {rival['backs']} card"), rival


def wait_for_change(page, before: int) -> None:
    page.wait_for_function(
        f"() => {LAST_ENTRY} > {before} || document.getElementById('summary-dialog').open"
        " || !document.getElementById('status').textContent.startsWith('Your turn')"
        " || document.getElementById('notice').textContent !== ''", timeout=30_000)


def pictures(page, shots, name: str) -> None:
    page.screenshot(path=str(shots / f"gorus-arena-{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => window.innerWidth === 390")
    assert page.evaluate(STATE_JS)["overflow"] <= 0, "the page is wider than a phone"
    page.screenshot(path=str(shots / f"gorus-arena-{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("() => window.innerWidth === 1280")


def test_a_whole_game_on_the_card_table(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = new_table(page, live)

    st = page.evaluate(STATE_JS)
    assert st["phase"].startswith("Round 1 of 6") and "Planning" in st["phase"]
    assert st["market"] >= 13 and len(st["handCards"]) == 3
    assert "Your choice: which card of your hand goes face down next" in st["choice"]
    # every market card shows a strength and an effect; the Professional's cost is the text's own
    market = page.evaluate("""() => [...document.querySelectorAll('#market .ga-card')].map((c) => ({
      kind: c.dataset.kind, str: c.querySelector('.ga-str').textContent,
      effect: c.querySelector('.ga-effect').textContent,
      ours: (c.querySelector('.ga-ours') || {}).title || ''}))""")
    assert all(re.fullmatch(r"strength [1-5]", c["str"]) and c["effect"] for c in market), market
    pro = next(c for c in market if c["kind"] == "professional")
    assert "cost" not in pro["ours"].split(".")[0] and "gives only the name and cost" in pro["ours"], pro
    secutor = next(c for c in market if c["kind"] == "secutor")
    assert secutor["ours"].startswith("Our values: name, cost, defence, points, strength, action."), secutor

    seen_face_down = seen_arena = seen_latest = seen_kill = False
    summary_checked = False
    pictured = pictured_plan = False
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        st = page.evaluate(STATE_JS)
        if st["dialogOpen"]:
            if st["dialogTitle"].startswith("Round") and not summary_checked:
                assert st["dialogTitle"] == "Round 1 of 6 is over", st["dialogTitle"]
                body = page.inner_text("#summary-dialog-body")
                assert "Standing now" in body and "Ann" in body
                page.wait_for_timeout(600)  # it stays until dismissed
                assert page.evaluate(STATE_JS)["dialogOpen"]
                page.click("#summary-close")
                assert not page.evaluate(STATE_JS)["dialogOpen"]
                page.click("#log-box summary")  # the log line reopens it
                page.click('#log button[data-summary="round-1"]')
                page.wait_for_function("() => document.getElementById('summary-dialog').open")
                assert page.inner_text("#summary-dialog-title") == "Round 1 of 6 is over"
                summary_checked = True
            if st["over"] and not st["dialogTitle"].startswith("Round"):
                break
            page.click("#summary-close")
            continue
        check_view(st)
        seen_face_down = seen_face_down or any(r["backs"] > 0 for r in st["rivals"])
        seen_arena = seen_arena or st["arena"] > 0
        seen_latest = seen_latest or bool(st["latest"])
        seen_kill = seen_kill or any(line.endswith(": killedkilled") for line in st["latest"])
        if st["over"]:
            break
        if not pictured_plan and "Round 2" in st["phase"] and any(r["backs"] for r in st["rivals"]):
            pictures(page, shots, "plan")  # the others' plans face down
            pictured_plan = True
        if st["arena"] and not pictured and "Round 2" in st["phase"]:
            pictures(page, shots, "mid")
            pictured = True
        if st["status"] != "Your turn." or not (st["buttons"] or st["playable"]):
            page.wait_for_timeout(50)
            continue
        # the plan is laid by clicking the hand's cards; later choices by the move buttons
        target = "#hand button.card.playable:enabled" if st["playable"] else "#moves button.move:enabled"
        page.locator(target).first.click()
        moves += 1
        wait_for_change(page, st["log"])
    else:
        raise AssertionError(f"not over after {moves} moves; server said {''.join(live.output[-20:])}")

    assert not errors, errors
    assert moves > 6 and seen_face_down and seen_arena and seen_latest and summary_checked
    assert pictured and pictured_plan
    # round breaks in the log, and the log counts rounds as the game did
    breaks = page.eval_on_selector_all("#log li.break", "(els) => els.map((e) => e.dataset.break)")
    assert breaks[:2] == ["Round 1", "Round 2"] and "Round 6" in breaks, breaks
    st = page.evaluate(STATE_JS)
    assert st["phase"].startswith("Round 6 of 6 — Game over")
    assert not SEAT_NUMBER.search(st["page"])
    assert "Ann" in page.inner_text("#standings")
    scoring = page.inner_text("#ga-scoring")  # how the points were made
    assert "Ann" in scoring and re.search(r"\d+ → \d+ points?", scoring), scoring
    if seen_kill:  # a kill the reveal showed is marked in the move log too
        assert page.locator('#log [data-mark="ko"]').count() > 0
    if page.evaluate(STATE_JS)["dialogOpen"]:
        page.click("#summary-close")
    pictures(page, shots, "over")
    # the replay draws the same table from each frame's observation, as Ann saw it
    page.goto(f"{live.url}/t/{code}/replay")
    page.wait_for_selector("#ga-round")
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    assert "Round" in page.inner_text("#ga-round")
    assert not SEAT_NUMBER.search(page.inner_text("#board"))
    assert not errors, errors
    ctx.close()


KEYBOARD_TURN = """() => {
  const a = document.activeElement;
  return !!a && a.matches('#moves button.move:enabled, #hand button.card.playable:enabled');
}"""


def test_a_whole_game_with_the_keyboard_alone(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_table(page, live)
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        st = page.evaluate(STATE_JS)
        if st["dialogOpen"]:
            if st["over"] and not st["dialogTitle"].startswith("Round"):
                break
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.getElementById('summary-dialog').open")
            continue
        if st["over"]:
            break
        if st["status"] != "Your turn." or not (st["buttons"] or st["playable"]):
            page.wait_for_timeout(50)
            continue
        for _ in range(400):  # Tab (from wherever the focus is) to a playable card or move button
            if page.evaluate(KEYBOARD_TURN):
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("no move button could be reached with Tab")
        page.keyboard.press("Enter")
        moves += 1
        wait_for_change(page, st["log"])
    else:
        raise AssertionError(f"not over after {moves} moves")
    assert not errors, errors
    assert moves > 6
    assert page.evaluate(STATE_JS)["over"]
    ctx.close()


def test_an_empty_hand_picks_its_refill_from_the_market(live, browser):
    """With used-cards=leave and refill=choose every hand is empty after round 1: the page says
    why, offers each market gladiator as a free pick, and logs the pick by name."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    table = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: 'gorus-arena', options: {'used-cards': 'leave', refill: 'choose'}, name: 'Ann',
          seats: [{kind: 'human'}, {kind: 'bot', bot: 'heuristic'}, {kind: 'bot', bot: 'heuristic'}]})});
      return await r.json();
    }""")
    page.goto(f"{live.url}/t/{table['code']}")
    page.wait_for_selector("#ga-round")
    deadline = time.monotonic() + 60
    picked = None
    while time.monotonic() < deadline:
        st = page.evaluate(STATE_JS)
        if st["dialogOpen"]:
            page.click("#summary-close")
            continue
        picks = [b for b in st["buttons"] if b.startswith("Take ")]
        if picks:
            assert "Your hand is empty after drawing: take a gladiator from the market, free (3 still to take)" \
                in st["choice"], st["choice"]
            assert all("from the market, free: your hand is empty" in b for b in picks), picks
            picked = picks[0].removeprefix("Take ").split(" from the market")[0]
            before = st["log"]
            page.locator("#moves button.move:enabled").first.click()
            wait_for_change(page, before)
            break
        if st["buttons"]:
            before = st["log"]
            page.locator("#moves button.move:enabled").first.click()
            wait_for_change(page, before)
        else:
            page.wait_for_timeout(100)
    assert picked, "no refill was offered"
    logged = f"Ann takes {picked} from the market (empty hand)"
    page.wait_for_function(  # the move log may be folded away: read its entries, not the visible text
        "(text) => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(text))",
        arg=logged, timeout=10_000)
    assert not errors, errors
    ctx.close()
