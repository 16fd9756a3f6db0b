"""``hand_notes``: why a seat cannot use each card in its hand, in the rules' own words.

The notes must agree with the legal moves (a card is noted exactly when playing it now is
refused, with the refusal's own reason), and they must hold nothing hidden: a spectator gets
none, and every state the seat cannot tell apart from the real one gives the same notes.
"""

from __future__ import annotations

import json

import pytest

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.gladius.actions import Attack, Defend, card_label, card_name
from ludus.games.gladius.game import GAME
from ludus.games.gladius.rules import unusable_reason

MODES = [
    {},
    {"fighter1": "murmillo", "fighter2": "thracian", "first": "random"},
    {"fighter1": "samnite", "fighter2": "dimachaeri", "hand_limit": 3},
    {"fighter1": "secutor", "fighter2": "secutor"},
    {"fighter1": "postulati", "fighter2": "retiarius", "starting_hand": 5},
    {"solo": True},
    {"solo": True, "fighter1": "murmillo", "fighter2": "lion"},
]


def play(options: dict, seed: int):
    """Each decision of a seeded game with random moves: (state, seat to act)."""
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed + 1)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        assert seat != CHANCE
        yield state, seat
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    yield state, None


@pytest.mark.parametrize("options", MODES)
def test_notes_match_the_rules_and_hide_nothing(options):
    seen: set[str] = set()
    for seed in range(4):
        rng = Rng(seed ^ 0xBEEF)
        for state, to_act in play(options, seed):
            setup = state.setup
            spectator = state.observation(None)
            assert spectator.hand_notes == () and spectator.to_json()["hand_notes"] == []
            assert spectator.to_json()["hand_reasons"] == []
            for seat in range(state.num_seats()):
                obs = state.observation(seat)
                assert len(obs.hand_notes) == len(obs.hand)
                legal = state.legal_actions(seat) if seat == to_act else []
                for key, note in zip(obs.hand, obs.hand_notes):
                    if seat == to_act and obs.phase in ("attack", "defend"):
                        play_it = Attack(key) if obs.phase == "attack" else Defend(key)
                        assert (note is None) == (play_it in legal), (key, note)
                        assert note == state.why_illegal(play_it, seat)
                    else:  # discarding, or not this seat's decision: only another type's card
                        assert note == unusable_reason(setup, seat, setup.index[key])
                    if note is not None:
                        seen.add(note)
                        # besides this card, a note names only public cards
                        rest = f" {note.replace(card_label(key), '').replace(card_name(key), '')} "
                        public = {card_name(k) for k in (obs.barred, obs.table) if k}
                        named = {card_name(k) for k in setup.keys if f" {card_name(k)}" in rest}
                        assert named <= public, (note, named)
                if seat == to_act and state.num_seats() == 2 and rng.below(4) == 0:
                    # whatever the other hand and the deck hold, the seat gets the same notes
                    for _ in range(2):
                        other = GAME.sample_state(state.view(seat), rng)
                        assert other.observation(seat).hand_notes == obs.hand_notes
                data = json.loads(json.dumps(obs.to_json()))
                # the same notes language-neutrally: each one's code and params, naming no hidden card
                assert [r and r["code"] for r in data["hand_reasons"]] == [n and n.code for n in obs.hand_notes]
                for key, note, reason in zip(obs.hand, obs.hand_notes, data["hand_reasons"]):
                    if reason is not None:
                        assert reason["params"] == note.params
                        assert reason["params"].get("card", key) in {key, obs.barred, obs.table}, reason
    if options.get("fighter1", "retiarius") != options.get("fighter2", "secutor"):
        assert any("cannot use it" in n for n in seen), seen  # another type's cards were held
    assert seen


def test_every_kind_of_reason_is_stated():
    """Over a few seeded games: another type's card, the wrong phase, the lock after an Evade,
    and a Block against an immobilizing attack each get their reason."""
    found = {"owner": False, "phase": False, "evaded": False, "block": False}
    for seed in range(40):
        for state, to_act in play({}, seed):
            if to_act is None:
                continue
            for note in state.observation(to_act).hand_notes:
                if note is None:
                    continue
                found["owner"] |= "cannot use it" in note
                found["phase"] |= "is a defence card, not an attack" in note or "is an attack card; to defend" in note
                found["evaded"] |= note.startswith("you may not attack this turn: you evaded with")
                found["block"] |= note.startswith("a Block cannot stop")
        if all(found.values()):
            break
    assert all(found.values()), found
