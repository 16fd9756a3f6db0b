"""Every installed game's tutorial (its guided first game) works, reads well and teaches its lessons.

Generic over :func:`ludus.games.plugins`: a game gets these checks as soon as its plugin names a
tutorial file. Loading already plays the script through the engine (see ludus.core.tutorial);
here each step is also tried the way a learner would: the expected move is done, the invited
wrong move is refused with the engine's reason, and another legal move gets the step's "other"
answer. The lessons issue 15 names for each game are checked by the words of the steps that
teach them; the Gorus Maximus and Gladius lessons also by what the engine shows at those steps.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ludus import games
from ludus.core.game import CHANCE
from ludus.core.tutorial import Tutorial

WITH_TUTORIAL = [name for name, plugin in games.plugins().items() if plugin.tutorial]

# The lessons of issue 15, per game: each entry is a group of words that one step's text (what it
# says, and what it explains after the move) must all contain, case-insensitively.
LESSONS: dict[str, list[tuple[str, ...]]] = {
    "gorus-maximus": [
        ("must", "follow"),  # following: what a player has to play
        ("challenge", "same rank"),
        ("preferred school", "beats"),
        ("end of the round", "0", "worth 5"),  # the round end with the preferred 0
        ("crowd support",),
    ],
    "gladius": [
        ("attack", "damage"),
        ("block",),
        ("evade",),
        ("immobilize", "lose"),
        ("may not attack",),  # the lock-out after an Evade
        ("more than 5", "discard"),  # the hand limit
    ],
    "circus-maximus": [("line",), ("villa",), ("ticket",), ("visitor",), ("favour",), ("event",)],
    "gorus-arena": [("plan",), ("auction",), ("attack",), ("buy",)],
}

# The rulebooks (outside the repository, beside it); texts must be in our own words.
RULEBOOKS = Path(__file__).resolve().parents[3] / "shared" / "rules"
MAX_SAY = 900  # characters in one step's text: a step teaches one idea
MAX_SHORT = 300  # characters in an answer (after, other, wrong_say)


@pytest.fixture(scope="module", params=WITH_TUTORIAL)
def tutorial(request: pytest.FixtureRequest) -> Tutorial:
    return games.tutorial(request.param)


def texts(t: Tutorial) -> list[tuple[str, str]]:
    """(where, text) for every text of the script that a learner reads."""
    out = [("intro", t.script.intro), ("outro", t.script.outro), ("title", t.script.title)]
    for i, step in enumerate(t.steps, 1):
        out += [(f"step {i} {field}", getattr(step, field)) for field in ("say", "after", "other", "wrong_say")
                if getattr(step, field)]
    return out


def test_shipped_games_have_tutorials():
    assert {"gorus-maximus", "circus-maximus", "gorus-arena"} <= set(WITH_TUTORIAL)


def test_it_loads_is_short_and_the_learner_holds_a_real_seat(tutorial: Tutorial):
    assert 5 <= len(tutorial) <= 16
    n = tutorial.state_at(0).num_seats()
    assert 0 <= tutorial.seat < n
    assert tutorial.names()[tutorial.seat] == "You"
    assert len(set(tutorial.names())) == n, "every seat needs its own name"
    assert sum(step.expect is not None for step in tutorial.steps) >= len(tutorial) // 2, "mostly doing, not reading"


def test_each_expected_move_is_done_and_is_the_learners_to_make(tutorial: Tutorial):
    for i, step in enumerate(tutorial.steps):
        state = tutorial.state_at(i)
        if step.expect is None:
            continue
        assert not state.is_terminal() and tutorial.seat in state.current_seats(), f"step {i + 1}"
        answer = tutorial.attempt(i, step.expect)
        assert answer.kind == "done", (i + 1, answer)
        assert answer.message == step.after and step.after.strip(), f"step {i + 1} must say what the move did"


def test_each_wrong_move_is_refused_with_a_reason(tutorial: Tutorial):
    wrongs = [i for i, step in enumerate(tutorial.steps) if step.wrong is not None]
    assert wrongs, "a tutorial lets the learner see at least one refusal"
    for i in wrongs:
        step = tutorial.steps[i]
        answer = tutorial.attempt(i, step.wrong)
        assert answer.kind == "refused", (i + 1, answer)
        assert len(answer.message.strip()) >= 10, f"step {i + 1}: the refusal must explain itself"
        assert step.wrong_say.strip(), f"step {i + 1}: a wrong move needs its invitation (wrong_say)"


def test_another_legal_move_is_answered_but_not_taken(tutorial: Tutorial):
    checked = 0
    for i, step in enumerate(tutorial.steps):
        if step.expect is None:
            continue
        state = tutorial.state_at(i)
        expected = tutorial.expected(i)
        others = [a for a in state.legal_actions(tutorial.seat) if a != expected]
        if not others:
            continue
        answer = tutorial.attempt(i, others[0].to_json())
        assert answer.kind == "other", (i + 1, answer)
        assert answer.message.strip()
        checked += 1
    assert checked, "some step must offer the learner a real choice"


def test_a_reading_step_takes_no_move(tutorial: Tutorial):
    for i, step in enumerate(tutorial.steps):
        state = tutorial.state_at(i)
        if step.expect is None and tutorial.seat in state.current_seats():
            legal = state.legal_actions(tutorial.seat)
            if legal:
                assert tutorial.attempt(i, legal[0].to_json()).kind == "other"


def test_steps_hand_over_the_game_without_replaying_it(tutorial: Tutorial):
    """Each step starts where the one before ended, after the learner's move and the scripted ones."""
    for i in range(1, len(tutorial)):
        before = tutorial.state_at(i - 1).history
        after = tutorial.state_at(i).history
        done = 1 if tutorial.steps[i - 1].expect is not None else 0
        assert after[:len(before)] == before
        assert len(after) == len(before) + done + len(tutorial.steps[i].before)
    last = tutorial.state_at(len(tutorial) - 1).history
    assert tutorial.final_state().history[:len(last)] == last


def test_the_learner_never_plays_a_scripted_move(tutorial: Tutorial):
    for i, step in enumerate(tutorial.steps):
        seats = {seat for seat, _move in step.before}
        assert tutorial.seat not in seats, f"step {i + 1} moves for the learner"
        assert seats <= {CHANCE, *range(tutorial.state_at(0).num_seats())}


def test_texts_are_plain_sentences_of_a_readable_length(tutorial: Tutorial):
    for where, text in texts(tutorial):
        assert not re.search(r"[<>*_`#\[\]{}]", text), f"{where}: plain text, no markup: {text!r}"
        assert "  " not in text.replace("\n", " ").replace(".  ", ". "), f"{where}: stray spaces"
        limit = MAX_SAY if where.endswith(("say", "intro", "outro")) and "wrong" not in where else MAX_SHORT
        if where == "title":
            limit = 60
        assert len(text) <= limit, f"{where} is {len(text)} characters (at most {limit})"
        if where == "title":
            continue
        for paragraph in text.strip().split("\n\n"):
            paragraph = paragraph.strip()
            assert paragraph, f"{where}: empty paragraph"
            assert not paragraph[0].islower(), f"{where}: a paragraph starts a sentence: {paragraph[:30]!r}"
            assert paragraph[-1] in ".!?:", f"{where}: a paragraph ends a sentence: {paragraph[-30:]!r}"
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                assert len(sentence.split()) <= 45, f"{where}: a sentence of {len(sentence.split())} words"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the rulebooks are not beside this checkout")
def test_texts_are_in_our_own_words(tutorial: Tutorial):
    """No run of 9 words of a tutorial text is copied from a rulebook."""
    book = " ".join(" ".join(_words(p.read_text(encoding="utf-8", errors="replace")))
                    for p in sorted(RULEBOOKS.glob("*.en.*")))
    for where, text in texts(tutorial):
        words = _words(text)
        for k in range(len(words) - 8):
            run = " ".join(words[k:k + 9])
            assert f" {run} " not in f" {book} ", f"{where} copies the rulebook: {run!r}"


def test_the_lessons_of_the_issue_are_each_taught(tutorial: Tutorial):
    lessons = LESSONS.get(tutorial.game.name)
    if lessons is None:
        pytest.skip(f"no lesson list for {tutorial.game.name}")
    step_texts = [" ".join((s.say, s.after)).lower() for s in tutorial.steps]
    for words in lessons:
        assert any(all(w in text for w in words) for text in step_texts), f"no step teaches {words}"


# ------------------------------------------------------------------ what the lessons show in the game
def test_gorus_maximus_shows_each_lesson_in_the_game():
    if "gorus-maximus" not in WITH_TUTORIAL:
        pytest.skip("Gorus Maximus has no tutorial")
    t = games.tutorial("gorus-maximus")

    def seen(i: int):  # what the learner sees at step i (never more)
        return t.state_at(i).view(t.seat).observation

    def after(i: int):
        state = t.state_at(i)
        state.apply(t.expected(i), t.seat)
        return state.view(t.seat).observation

    first = seen(0)
    assert first.preferred < 0 and not first.bout and first.players == 3
    lead = t.expected(0)
    assert after(0).preferred == lead.card >> 4  # the round's first card sets the preferred school
    challenges = []
    for i, step in enumerate(t.steps):
        if step.expect is None:
            continue
        obs = seen(i)
        if obs.bout:
            rank_before = obs.bout[-1][1] & 15
            card = t.expected(i).card
            if card & 15 == rank_before and card >> 4 != obs.preferred:
                challenges.append(i)
                assert after(i).preferred == card >> 4, f"step {i + 1}: a Challenge makes its school preferred"
    assert len(challenges) >= 2, challenges
    follows = [i for i, s in enumerate(t.steps) if s.wrong is not None and "follow" in t.attempt(i, s.wrong).message]
    assert follows, "a wrong move shows the following rule"
    end = t.final_state() if t.steps[-1].expect is not None else t.state_at(len(t) - 1)
    summary = end.view(t.seat).observation.last_round
    assert summary is not None and summary.round == 1, "the lesson reaches the end of the round"
    assert summary.preferred_zero_side == t.seat, "the learner's 0 of the preferred school is worth 5"
    assert summary.support_gained[t.seat] == 1 and max(summary.crowd_favour) == summary.crowd_favour[t.seat]


def test_gladius_shows_each_lesson_in_the_game():
    if "gladius" not in WITH_TUTORIAL:
        pytest.skip("Gladius has no tutorial registered")
    t = games.tutorial("gladius")
    kinds = [next(iter(s.expect)) if isinstance(s.expect, dict) else None for s in t.steps]
    assert {"attack", "defend", "discard"} <= set(kinds)
    limit = [i for i, k in enumerate(kinds) if k == "discard"]
    assert limit and len(t.state_at(limit[0]).view(t.seat).observation.hand) > 5
    refusals = " ".join(t.attempt(i, s.wrong).message for i, s in enumerate(t.steps) if s.wrong is not None)
    assert "discard" in refusals and "Block cannot" in refusals and "may not attack" in refusals
    damaged = [i for i in range(1, len(t)) if t.state_at(i).view(t.seat).observation.hit_points[1] < 10]
    assert damaged, "an attack lands"
