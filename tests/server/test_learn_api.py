"""The learn API (``/api/learn``): a tutorial's texts per step, the learner's own view at that
step in the live table's shape (and nothing of the other seats' hidden cards), and the answer
to each move the learner tries; every bad request gets the API's JSON error, never a traceback.

Most tests run on a small Gladius lesson kept beside this file (``learn_gladius.toml``), put in
place of Gladius's tutorial for the test, so they do not depend on the shipped scripts; the
shipped ones are checked for the same shapes and the same view as a live seat would get.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from ludus import games
from ludus.core.tutorial import NOTHING_TO_PLAY, Tutorial, load_tutorial
from ludus.i18n import gettext, use_language
from ludus.i18n.data import translate_text
from ludus.server import learn
from ludus.server.views import history_entries, seat_payload

LESSON = Path(__file__).with_name("learn_gladius.toml")
SHIPPED = [name for name, plugin in games.plugins().items() if plugin.tutorial]


def lesson() -> Tutorial:
    return load_tutorial(games.get_game("gladius"), LESSON.read_text(encoding="utf-8"), "learn_gladius.toml")


@pytest.fixture
def test_lesson(monkeypatch: pytest.MonkeyPatch) -> Tutorial:
    """Gladius's tutorial is the test lesson for this test (whatever Gladius ships)."""
    t = lesson()
    real_names, real_load = learn.tutorial_games, games.tutorial
    monkeypatch.setattr(learn, "tutorial_games", lambda: sorted(set(real_names()) | {"gladius"}))
    monkeypatch.setattr(games, "tutorial", lambda name: t if name == "gladius" else real_load(name))
    return t


def expect_error(r: httpx.Response, status: int, code: str | None = None) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "code"} and body["error"], body
    assert "Traceback" not in r.text and "File \"" not in r.text
    if code is not None:
        assert body["code"] == code, body
    return str(body["error"])


# ------------------------------------------------------------------ listing and the script
def test_the_list_names_games_with_a_tutorial(player, test_lesson):
    listed = {g["name"]: g for g in player.get("/api/learn").json()}
    assert "gladius" in listed
    assert listed["gladius"] == {"name": "gladius", "title": "Gladius", "tutorial": "Test lesson: Gladius", "steps": 3}
    assert set(listed) <= set(games.game_names())


def test_the_script_gives_titles_texts_seat_names_and_options(player, test_lesson):
    body = player.get("/api/learn/gladius").json()
    assert body == {"game": "gladius", "game_title": "Gladius", "title": "Test lesson: Gladius",
                    "intro": "A short test lesson: attack once, then defend once.",
                    "outro": "That is all this test lesson shows.", "seat": 0, "names": ["You", "Marcus"],
                    "options": {}, "play_options": {}, "steps": 3}


def test_a_game_without_tutorial_or_unknown_is_404(player, monkeypatch):
    monkeypatch.setattr(learn, "tutorial_games", lambda: [])
    assert "no such game" in expect_error(player.get("/api/learn/no-such-game"), 404, "no_tutorial")
    assert "no tutorial" in expect_error(player.get("/api/learn/gladius"), 404, "no_tutorial")
    expect_error(player.get("/api/learn/gladius/steps/0"), 404, "no_tutorial")
    expect_error(player.post("/api/learn/gladius/steps/0/try", {"action": {"attack": None}}), 404, "no_tutorial")
    assert player.get("/api/learn").json() == []


def test_a_script_that_no_longer_loads_is_not_served(player, monkeypatch):
    def broken(name: str) -> Tutorial:
        raise games.UnknownGame("step 3: not legal")

    monkeypatch.setattr(learn, "tutorial_games", lambda: ["gladius"])
    monkeypatch.setattr(games, "tutorial", broken)
    assert "not available" in expect_error(player.get("/api/learn/gladius"), 404, "no_tutorial")
    assert player.get("/api/learn").json() == []  # left out of the list, not an error there


# ------------------------------------------------------------------ steps
def test_a_reading_step_has_its_text_and_the_learners_view(player, test_lesson):
    body = player.get("/api/learn/gladius/steps/0").json()
    assert body["step"] == 0 and body["steps"] == 3 and body["end"] is False
    assert body["say"].startswith("Two fighters") and body["expect"] is False and body["wrong"] is None
    view = body["view"]
    assert view["type"] == "view" and view["you"] == 0 and view["names"] == ["You", "Marcus"]
    assert sorted(view["observation"]["hand"]) == ["both/Disarm", "both/Dodge", "both/Pommel"]
    assert view["history"]["from"] == 0 and len(view["history"]["entries"]) == 5
    assert view["table"]["game"] == "gladius" and view["table"]["options"] == {}


def test_a_step_with_a_wrong_move_names_it_and_its_label(player, test_lesson):
    body = player.get("/api/learn/gladius/steps/1").json()
    assert body["expect"] is True and body["say"] == "Attack with the Pommel."
    assert body["wrong"] == {"action": {"attack": "both/Knockdown"}, "label": test_lesson.game.action_from_json(
        {"attack": "both/Knockdown"}).label}
    assert body["wrong_say"].startswith("Try attacking with a Knockdown")
    assert {"action": {"attack": "both/Pommel"}, "label": "Attack with Pommel"} in body["view"]["legal"] or any(
        m["action"] == {"attack": "both/Pommel"} for m in body["view"]["legal"])


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_the_view_is_the_live_seats_view_of_that_step(player, test_lesson, k):
    body = player.get(f"/api/learn/gladius/steps/{k}").json()
    state = test_lesson.state_at(k) if k < 3 else test_lesson.final_state()
    expected = json.loads(json.dumps(seat_payload(state, 0)))
    view = body["view"]
    for key, value in expected.items():
        assert view[key] == value, key
    assert view["observation"] == json.loads(json.dumps(state.observation(0).to_json()))
    assert view["history"]["entries"] == json.loads(json.dumps(history_entries(state, 0)))
    assert view["moves"] == sum(1 for actor, _ in state.visible_history(0) if actor == 0)


def test_the_other_seats_hidden_cards_never_show(player, test_lesson):
    # Marcus holds the Shield Block and the Kick at step 0, the Duck from step 2 on: the learner
    # holds none of them and has not seen them played, so no answer may name them
    for k, hidden in ((0, ["Shield Block", "both/Kick", "Duck"]), (1, ["Shield Block", "both/Kick", "Duck"]),
                      (2, ["Duck"]), (3, ["Duck"])):
        text = player.get(f"/api/learn/gladius/steps/{k}").text
        for card in hidden:
            assert card not in text, (k, card)
    entries = player.get("/api/learn/gladius/steps/2").json()["view"]["history"]["entries"]
    assert entries[1] == [-1, "hidden", None]  # Marcus's draw


def test_past_the_last_step_is_the_end_with_the_outro(player, test_lesson):
    body = player.get("/api/learn/gladius/steps/3").json()
    assert body["end"] is True and body["outro"] == "That is all this test lesson shows."
    assert body["say"] is None and body["expect"] is False
    assert body["view"]["history"]["entries"][-1][1] == {"defend": "both/Dodge"}


@pytest.mark.parametrize("k", ["4", "-1", "99999999999999999999"])
def test_a_step_outside_the_script_is_404(player, test_lesson, k):
    expect_error(player.get(f"/api/learn/gladius/steps/{k}"), 404, "no_step")


def test_a_step_that_is_not_a_number_is_refused(player, test_lesson):
    expect_error(player.get("/api/learn/gladius/steps/two"), 422, "bad_request")


# ------------------------------------------------------------------ trying moves
def test_the_expected_move_is_done_with_the_after_text(player, test_lesson):
    r = player.post("/api/learn/gladius/steps/1/try", {"action": {"attack": "both/Pommel"}})
    body = r.json()
    assert r.status_code == 200 and body["kind"] == "done" and body["message"] == "You attacked with the Pommel."
    # the board with the move made, before Marcus answers: his hand still unseen
    state = test_lesson.state_at(1)
    state.apply(test_lesson.game.action_from_json({"attack": "both/Pommel"}), 0)
    assert body["view"]["observation"] == json.loads(json.dumps(state.observation(0).to_json()))
    assert body["view"]["history"]["entries"][-1][1] == {"attack": "both/Pommel"}
    assert "Shield Block" not in r.text and body["view"]["to_move"] == [1]


def test_the_wrong_move_is_refused_with_the_rules_reason(player, test_lesson):
    r = player.post("/api/learn/gladius/steps/1/try", {"action": {"attack": "both/Knockdown"}})
    assert r.json() == {"kind": "refused", "message": "you do not hold Knockdown"}
    r = player.post("/api/learn/gladius/steps/2/try", {"action": {"defend": "both/Disarm"}})
    assert r.json()["kind"] == "refused" and "attack card" in r.json()["message"]


def test_another_legal_move_gets_the_lessons_note(player, test_lesson):
    r = player.post("/api/learn/gladius/steps/1/try", {"action": {"attack": "both/Disarm"}})
    assert r.json() == {"kind": "other", "message": "This lesson wants the Pommel."}  # no view: nothing happened
    r = player.post("/api/learn/gladius/steps/0/try", {"action": {"attack": "both/Pommel"}})
    assert r.json()["kind"] == "other" and "read" in r.json()["message"]


def test_trying_changes_nothing(player, test_lesson):
    before = player.get("/api/learn/gladius/steps/1").json()
    player.post("/api/learn/gladius/steps/1/try", {"action": {"attack": "both/Pommel"}})
    assert player.get("/api/learn/gladius/steps/1").json() == before


@pytest.mark.parametrize("body, code", [
    ({"action": {"attack": 5}}, "bad_action"),
    ({"action": "attack"}, "bad_action"),
    ({"action": None}, "bad_action"),
    ({"action": {}}, "bad_action"),
])
def test_a_malformed_action_is_400(player, test_lesson, body, code):
    expect_error(player.post("/api/learn/gladius/steps/1/try", body), 400, code)


@pytest.mark.parametrize("raw", [b"{", b"[]", b'{"move": {}}', b'{"action": {}, "extra": 1}', b"\xff\xfe",
                                 b'{"action": ' + b"[" * 40 + b"]" * 40 + b"}"])
def test_a_malformed_body_gets_the_apis_error(player, test_lesson, raw):
    r = httpx.post(player.server.url + "/api/learn/gladius/steps/1/try", content=raw,
                   headers={"content-type": "application/json"}, timeout=10)
    assert r.status_code in (400, 422)
    expect_error(r, r.status_code)


def test_a_try_must_be_json_and_in_range(player, test_lesson):
    r = httpx.post(player.server.url + "/api/learn/gladius/steps/1/try", content=b"action=x",
                   headers={"content-type": "application/x-www-form-urlencoded"}, timeout=10)
    expect_error(r, 415, "bad_content_type")
    expect_error(player.post("/api/learn/gladius/steps/3/try", {"action": {"attack": None}}), 404, "no_step")
    expect_error(player.post("/api/learn/gladius/steps/-1/try", {"action": {"attack": None}}), 404, "no_step")


# ------------------------------------------------------------------ the shipped tutorials
@pytest.mark.parametrize("name", SHIPPED or [pytest.param("none", marks=pytest.mark.skip("no game ships one yet"))])
def test_every_shipped_tutorial_is_served_step_by_step(player, name):
    t = games.tutorial(name)
    meta = player.get(f"/api/learn/{name}").json()
    assert meta["steps"] == len(t) and meta["seat"] == t.seat
    for k in range(len(t) + 1):
        body = player.get(f"/api/learn/{name}/steps/{k}").json()
        state = t.state_at(k) if k < len(t) else t.final_state()
        view = body["view"]
        assert view["observation"] == json.loads(json.dumps(state.observation(t.seat).to_json()))
        assert view["legal"] == json.loads(json.dumps(seat_payload(state, t.seat)["legal"]))
        assert view["history"]["entries"] == json.loads(json.dumps(history_entries(state, t.seat)))
        if k < len(t) and t.steps[k].expect is not None:
            expected = t.expected(k)
            assert expected is not None
            r = player.post(f"/api/learn/{name}/steps/{k}/try", {"action": expected.to_json()})
            assert r.json()["kind"] == "done"
            if t.steps[k].wrong is not None:
                r = player.post(f"/api/learn/{name}/steps/{k}/try", {"action": t.steps[k].wrong})
                assert r.json()["kind"] == "refused" and r.json()["message"]


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_a_shipped_tutorial_speaks_the_readers_language(player, lang):
    """The script's texts, titles and seats' names as ``ludus learn`` says them in the language of
    the request (here its Accept-Language)."""
    name = "gorus-maximus"
    t = games.tutorial(name)
    said = {"Accept-Language": lang}
    en, there = player.get(f"/api/learn/{name}").json(), player.http.get(f"/api/learn/{name}", headers=said).json()
    with use_language(lang):
        assert there["intro"] == translate_text(en["intro"]) != en["intro"]
        assert there["title"] == translate_text(en["title"]) != en["title"]
        assert there["game_title"] == gettext(en["game_title"])
        listed = {g["name"]: g for g in player.http.get("/api/learn", headers=said).json()}
        assert listed[name]["tutorial"] == there["title"]
        reading = next(k for k, step in enumerate(t.steps) if step.expect is None)
        step = player.http.get(f"/api/learn/{name}/steps/{reading}", headers=said).json()
        assert step["say"] == translate_text(t.steps[reading].say) != t.steps[reading].say
        assert step["view"]["table"]["title"] == there["game_title"] and step["view"]["names"] == there["names"]
        end = player.http.get(f"/api/learn/{name}/steps/{len(t)}", headers=said).json()
        assert end["outro"] == there["outro"] != en["outro"]


def test_the_lessons_answer_to_an_unwanted_move_is_translated(player, test_lesson):
    """A move on a step that only asks to read gets the lesson's answer in the reader's language
    (here by the switcher's cookie)."""
    player.http.cookies.set("ludus_lang", "es")
    r = player.post("/api/learn/gladius/steps/0/try", {"action": {"attack": "both/Pommel"}})
    with use_language("es"):
        assert r.json() == {"kind": "other", "message": translate_text(NOTHING_TO_PLAY)}
    assert r.json()["message"] != NOTHING_TO_PLAY
