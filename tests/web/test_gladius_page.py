"""A person plays a whole Gladius game against a bot in Chromium: the page says, in words, why a
card in hand cannot be used now, what the last exchange did, and at the end who won and how."""

from __future__ import annotations

import re
import time

from .browsing import AUTO_OFF, DESKTOP, PHONE

# the newest log entry's number (the page shows at most 300 lines, so counting lines would stop)
LAST_ENTRY = "(document.querySelector('#log li:last-child') || {value: 0}).value"

STATE_JS = """() => {
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent);
  const s = document.getElementById('summary');
  return {
    buttons: [...document.querySelectorAll('#moves button.move:not([disabled])')].map((b) => b.textContent),
    log: """ + LAST_ENTRY + """,
    handWhy: text('#hand-cards .gl-unusable'),
    hand: document.querySelectorAll('#hand-cards .gcard').length,
    blocked: text('#blocked-moves li'),
    hp: text('.fighter .hp'),
    bot: document.querySelector('#fighter-1 h3').firstChild.textContent.split(' — ')[0],
    prompt: (document.getElementById('move-prompt') || {}).textContent || '',
    exchange: (document.getElementById('exchange-text') || {}).textContent || '',
    board: document.getElementById('board').innerText,
    moves: document.getElementById('moves').innerText,
    over: !!s && !s.classList.contains('hidden'),
    champions: (document.getElementById('champions') || {}).textContent || '',
    notice: document.getElementById('notice').textContent,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""

RAW = re.compile(r"\b(both|retiarius|secutor)/|undefined|null|NaN|\[object|Traceback|hand_notes|last_result")
EXCHANGE = re.compile(
    r"^(?:.+ attacked .+ with [A-Z][\w ]+\. (?:No defence: .+ (?:takes \d+ damage|is immobilized).*"
    r"|.+ (?:blocked it|evaded) with [A-Z][\w ]+: no damage.*|.+ must answer: a defence card, or no defence\.)"
    r"|.+ did not attack\.|.+ was immobilized and lost the turn\.)$")


def choose(buttons: list[str]) -> int:
    """Ann's plan: attack when she can, evade when she can (to be locked out next turn), else the first move."""
    for want in ("— Evade", "Attack: ", "Defend: "):
        for i, label in enumerate(buttons):
            if want in label:
                return i
    return 0


def test_a_whole_game_says_why_what_and_who_won(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(AUTO_OFF)  # Ann plays every move herself here (forced moves: the test below)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    table = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: 'gladius', options: {}, name: 'Ann',
                              seats: [{kind: 'human'}, {kind: 'bot', bot: 'heuristic'}]})});
      return await r.json();
    }""")
    page.goto(f"{live.url}/t/{table['code']}")
    page.wait_for_selector("#fighter-0 .hp")
    assert "Ann" in page.inner_text("#fighter-0 h3") and "Retiarius" in page.inner_text("#fighter-0 h3")

    whys: set[str] = set()  # reasons shown on cards in hand
    beside: set[str] = set()  # reasons shown beside the moves
    exchanges: set[str] = set()
    evaded = locked_out = False
    pictured = False
    moves = 0
    deadline = time.time() + 240
    while time.time() < deadline:
        st = page.evaluate(STATE_JS)
        assert not RAW.search(st["board"] + st["moves"]), st["board"] + st["moves"]
        assert not st["notice"], st["notice"]
        whys.update(st["handWhy"])
        if st["exchange"]:
            assert EXCHANGE.match(st["exchange"]), st["exchange"]
            exchanges.add(st["exchange"])
        if st["over"]:
            break
        if not st["buttons"]:
            page.wait_for_function("() => document.querySelectorAll('#moves button.move:not([disabled])').length"
                                   " || !document.getElementById('summary').classList.contains('hidden')",
                                   timeout=30_000)
            continue
        beside.update(st["blocked"])
        # every card the hand marks is listed beside the moves too, with the same reason
        if st["blocked"]:
            assert len(st["blocked"]) <= len(st["handWhy"])
        if "you evaded with" in st["prompt"] or any("you evaded with" in b for b in st["blocked"]):
            locked_out = True  # the one move left is No attack, and the page says why
            assert st["buttons"] == ["No attack"], st["buttons"]
            assert "you evaded with" in st["prompt"]
        if st["blocked"] and not pictured and moves >= 2:
            page.screenshot(path=str(shots / "gladius-why-desktop.png"), full_page=True)
            page.set_viewport_size(PHONE)
            page.wait_for_function("() => window.innerWidth === 390")
            assert page.evaluate(STATE_JS)["overflow"] <= 0, "the page is wider than a phone"
            page.screenshot(path=str(shots / "gladius-why-phone.png"), full_page=True)
            page.set_viewport_size(DESKTOP)
            pictured = True
        pick = choose(st["buttons"])
        label = st["buttons"][pick]
        evaded = evaded or "— Evade" in label
        button = page.locator("#moves button.move").nth(pick)
        if moves % 2:  # every other move by keyboard
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        moves += 1
        page.wait_for_function(f"() => {LAST_ENTRY} > {st['log']}", timeout=30_000)
    else:
        raise AssertionError(f"the game did not finish after {moves} moves; server said {''.join(live.output[-20:])}")

    assert not errors, errors
    assert moves >= 3 and pictured
    # a card Ann could not use was marked with the rules' reason, in the hand and beside the moves
    assert any("cannot use it" in w and ("Not yours" in w) for w in whys), whys
    assert any("cannot use it" in b or "defence card, not an attack" in b or "attack card; to defend" in b
               for b in beside), beside
    if evaded:  # an Evade locks Ann out of her next attack, and the page says so
        assert locked_out or page.evaluate(STATE_JS)["over"]
    # the exchanges in words, with what they did
    assert any(re.search(r"takes \d+ damage|blocked it|evaded|immobilized", e) for e in exchanges), exchanges
    # the end: who won and how
    st = page.evaluate(STATE_JS)
    champions = st["champions"]
    knockout = re.fullmatch(r"(.+) \((Retiarius|Secutor)\) wins: (.+)'s hit points fell to zero "
                            r"\(Ann (\d+) — .+ (\d+) hit points\)\.", champions)
    by_limit = re.fullmatch(r"The turn limit \(500 turns\) was reached(: .+ wins with more| with equal) hit points.+",
                            champions)
    assert knockout or by_limit, champions
    if knockout:  # the loser's hit points are 0 on the board too, and the winner is the other fighter
        winner, _, loser, ann_hp, bot_hp = knockout.groups()
        assert {winner, loser} == {"Ann", st["bot"]}
        assert (ann_hp == "0") == (loser == "Ann") and (bot_hp == "0") == (loser != "Ann")
        assert st["hp"][0 if loser == "Ann" else 1] == "0 / 10 hit points", st["hp"]
    # the log marks who won each exchange, and the knock-out on the blow that ended the fight
    lines = page.eval_on_selector_all("#log li.move", """ls => ls.map((l) => ({
      text: l.querySelector('.text').firstChild.textContent,
      marks: [...l.querySelectorAll('.log-mark')].map((m) => [m.dataset.mark, m.textContent])}))""")
    answers = [ln for ln in lines if re.search(r": (No defence|Defend: )", ln["text"])]
    assert answers, lines[-10:]
    for ln in answers:
        won = [label for kind, label in ln["marks"] if kind == "winner"]
        assert len(won) == 1, ln
        assert won[0].endswith("lands the blow" if ": No defence" in ln["text"] else "stops the attack"), ln
    assert all(not ln["marks"] for ln in lines if ln not in answers)
    kos = [i for i, ln in enumerate(lines) if any(kind == "ko" for kind, _ in ln["marks"])]
    if knockout:
        assert kos == [lines.index(answers[-1])] and ": No defence" in answers[-1]["text"], kos
    else:
        assert kos == []
    page.screenshot(path=str(shots / "gladius-over-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => window.innerWidth === 390")
    assert page.evaluate(STATE_JS)["overflow"] <= 0
    page.screenshot(path=str(shots / "gladius-over-phone.png"), full_page=True)
    ctx.close()


def gladius_table(page, live, options=None) -> str:
    page.goto(live.url + "/")
    table = page.evaluate("""async (options) => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: 'gladius', options, name: 'Ann',
                              seats: [{kind: 'human'}, {kind: 'bot', bot: 'random'}]})});
      return await r.json();
    }""", options or {})
    page.goto(f"{live.url}/t/{table['code']}")
    page.wait_for_selector("#fighter-0 .hp")
    return table["code"]


FORCED_JS = """() => {
  const b = [...document.querySelectorAll('#moves button.move')];
  return b.length === 1 && /^No (attack|defence)/.test(b[0].textContent) && !b[0].disabled ? b[0].textContent : null;
}"""


# Scroll the newest marked log line into view in one step inside the page: the bot keeps playing
# and the log is redrawn, so a handle to the line taken from outside can be gone by the time it is used.
SHOW_MARKED_JS = """() => {
  const marks = document.querySelectorAll('#log li .log-mark[data-mark=auto]');
  if (marks.length) marks[marks.length - 1].closest('li').scrollIntoView({ block: 'nearest' });
}"""


def play_first_of_a_choice(page) -> None:
    """Ann clicks her first move when she has a choice (a forced move is left to the page), else waits a moment."""
    buttons = page.locator("#moves button.move:enabled")
    if buttons.count() > 1:
        logged = page.evaluate(LAST_ENTRY)
        buttons.first.click()
        page.wait_for_function(f"() => {LAST_ENTRY} > {logged}", timeout=15_000)
    else:
        page.wait_for_timeout(30)


def test_forced_moves_are_played_for_the_player_and_marked_unless_the_switch_is_off(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # attack optional: with the default (compulsory) rule a forced "No attack" is rarer, and this
    # test is about forced moves, not about the attack rule
    gladius_table(page, live, {"hit_points": 30, "attack": "optional"})
    switch = page.locator("#auto-forced")
    assert switch.is_checked()  # on by default
    assert "Play forced moves for me" in page.inner_text("#auto-row")
    # 1. Switch on: Ann clicks her first move whenever she has a choice; a forced "No attack" is
    # played by the page, said beforehand in #auto-note, and marked in her log.
    deadline = time.time() + 40
    note_seen = ""
    while time.time() < deadline:
        marked = page.locator("#log li .log-mark[data-mark=auto]").evaluate_all(
            "(ms) => ms.map((m) => m.parentElement.textContent)")
        if any(t.startswith("Ann: No attack") for t in marked):
            break
        note = page.inner_text("#auto-note")
        if "Your only move is" in note:
            note_seen = note
        play_first_of_a_choice(page)
        assert not page.evaluate(STATE_JS)["over"], "the game ended before a forced No attack"
    else:
        raise AssertionError("no forced No attack was played automatically")
    assert re.fullmatch(r"Your only move is “No (attack|defence)”: playing it for you…", note_seen), note_seen
    line = page.locator("#log li:has(.log-mark[data-mark=auto])").last
    assert "played automatically (forced)" in line.text_content()  # the log is folded: text, not inner_text
    page.click("#log-box summary")  # the log open, the marked line in sight, for the pictures
    page.evaluate(SHOW_MARKED_JS)
    page.screenshot(path=str(shots / "gladius-auto-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => window.innerWidth === 390")
    page.evaluate(SHOW_MARKED_JS)
    assert page.evaluate(STATE_JS)["overflow"] <= 0, "the page is wider than a phone"
    page.screenshot(path=str(shots / "gladius-auto-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert not page.inner_text("#notice")
    autos_before = page.locator("#log .log-mark[data-mark=auto]").count()

    # 2. Switch off (kept across a reload, in this browser): the forced move waits for Ann.
    switch.uncheck()
    page.reload()
    page.wait_for_selector("#fighter-0 .hp")
    assert not page.locator("#auto-forced").is_checked()
    deadline = time.time() + 40
    while time.time() < deadline:
        forced = page.evaluate(FORCED_JS)
        if forced:
            break
        play_first_of_a_choice(page)
    else:
        raise AssertionError("no forced move came with the switch off")
    logged = page.evaluate(LAST_ENTRY)
    page.wait_for_timeout(1500)  # well past the page's pause: nothing may have been played
    assert page.evaluate(FORCED_JS) == forced and page.evaluate(LAST_ENTRY) == logged
    assert page.inner_text("#auto-note") == ""
    page.locator("#moves button.move").first.click()
    page.wait_for_function(f"() => {LAST_ENTRY} > {logged}", timeout=15_000)
    assert page.locator("#log .log-mark[data-mark=auto]").count() == autos_before
    assert not errors, errors
    ctx.close()


def test_compulsory_attack_offers_no_pass_and_says_why(live, browser):
    """The default rule (attack = compulsory): holding an attack card, Ann is offered no "No
    attack", and the prompt says why."""
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gladius_table(page, live, {"hit_points": 30})
    deadline = time.time() + 90  # the loop ends at Ann's first attack; a loaded machine (full suite) is slow
    while time.time() < deadline:
        prompt = page.locator("#move-prompt")
        buttons = page.locator("#moves button.move:enabled").all_text_contents()
        if prompt.count() and prompt.inner_text().startswith("Your attack") and any(
                b.startswith("Attack") for b in buttons):
            assert not any(b.startswith("No attack") for b in buttons), buttons
            assert "No attack is not allowed: attacking is compulsory" in prompt.inner_text()
            break
        play_first_of_a_choice(page)
    else:
        raise AssertionError("Ann never had an attack to play")
    assert not errors, errors
    ctx.close()


def test_the_lion_is_marked_as_ours_and_the_mark_is_explained(live, browser, shots):
    """The Lion is not in the rulebook: its fighter and cards carry the mark, and one visible line
    explains it (a tooltip alone would leave a player guessing)."""
    for viewport in (DESKTOP, PHONE):
        ctx = browser.new_context(viewport=viewport)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        gladius_table(page, live, {"fighter2": "lion"})
        page.wait_for_selector("#ours-legend")
        assert page.inner_text("#ours-legend").strip().startswith("✱ Not in the rulebook")
        assert page.locator("#fighter-1 .gl-ours[data-source=ours]").count() == 1
        assert page.locator("#fighter-0 .gl-ours").count() == 0  # the Retiarius is printed
        name = "desktop" if viewport == DESKTOP else "phone"
        page.screenshot(path=str(shots / f"gladius-lion-{name}.png"), full_page=True)
        assert not errors, errors
        ctx.close()
    # a table without the Lion has no such line
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    gladius_table(page, live, {})
    page.wait_for_selector("#fighter-1")
    assert page.locator("#ours-legend").count() == 0
    ctx.close()
