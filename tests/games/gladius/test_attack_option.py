"""The attack step, option ``attack``: compulsory (the rulebook's wording, the default) or optional.

The rulebook words the attack phase as an instruction (play one attack card your fighter can
use) where the defence phase says the opponent *may* defend. Under ``compulsory`` a fighter
holding an attack card it may play must play one; with none (or barred by an Evade or a Wild
Swing) it passes. Games stored before the option existed were played under ``optional`` and
must keep replaying.
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest
from rich.console import Console

from ludus.core import records
from ludus.core.errors import IllegalAction
from ludus.core.game import CHANCE
from ludus.core.options import options_to_json
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gladius.actions import NO_ATTACK, NO_DEFENCE, Attack, Defend
from ludus.games.gladius.game import GAME
from ludus.games.gladius.heuristic import GladiusHeuristic
from ludus.games.gladius.terminal import ADAPTER

from .helpers import DUCK, KICK, SHIELD_BLOCK, SS, TRIDENT, WITHDRAW, draw, position


def test_the_default_is_the_rulebooks_compulsory_attack():
    assert GAME.parse_options({}).attack == "compulsory"
    # a stored game (record, position, server table) without the key keeps the old rule
    assert GAME.parse_stored_options({}).attack == "optional"
    assert GAME.parse_stored_options({"attack": "compulsory"}).attack == "compulsory"


def test_compulsory_attack_refuses_no_attack_while_an_attack_can_be_played():
    state = position(hands=([TRIDENT, WITHDRAW, SS], []))
    assert state.legal_actions(0) == [Attack(TRIDENT)]
    why = state.why_illegal(NO_ATTACK, 0)
    assert why is not None and "compulsory" in why and "Trident Thrust" in why
    assert state.why_illegal(NO_ATTACK, 0) == state._plain_why_illegal(NO_ATTACK, 0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="attacking is compulsory"):
        state.apply(NO_ATTACK, 0)
    assert state.to_json() == before  # a refused move changes nothing


def test_compulsory_attack_still_passes_without_a_playable_attack():
    # only a defence and another fighter's attack card: nothing to attack with
    state = position(hands=([WITHDRAW, SS], []))
    assert state.legal_actions(0) == [NO_ATTACK]
    assert state.why_illegal(NO_ATTACK, 0) is None
    state.apply(NO_ATTACK, 0)
    assert state.active == 1


def test_compulsory_attack_does_not_override_an_evade_lockout():
    state = position(hands=([TRIDENT], [DUCK, SS]))
    state.apply(Attack(TRIDENT), 0)
    state.apply(Defend(DUCK), 1)
    draw(state, SS)
    assert state.legal_actions(1) == [NO_ATTACK]  # barred by its own Evade: passing is the only move
    state.apply(NO_ATTACK, 1)


def test_optional_attack_always_allows_no_attack():
    state = position({"attack": "optional"}, hands=([TRIDENT, KICK], []))
    assert state.legal_actions(0) == [Attack(KICK), Attack(TRIDENT), NO_ATTACK]
    state.apply(NO_ATTACK, 0)
    assert state.active == 1


def test_solo_player_must_attack_too():
    state = position({"solo": True}, hands=([TRIDENT, DUCK], []))
    assert NO_ATTACK not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="compulsory"):
        state.apply(NO_ATTACK, 0)


def test_explain_from_the_view_alone():
    state = position(hands=([TRIDENT], [SHIELD_BLOCK]))
    view = state.view(0)
    why = GAME.explain(view, NO_ATTACK)
    assert why == state.why_illegal(NO_ATTACK, 0)
    optional = position({"attack": "optional"}, hands=([TRIDENT], [SHIELD_BLOCK]))
    assert GAME.explain(optional.view(0), NO_ATTACK) is None


def test_terminal_shows_no_attack_as_not_allowed_with_the_reason():
    state = position(hands=([TRIDENT, WITHDRAW], []))
    view = state.view(0)
    choices = ADAPTER.choices(view)
    assert (NO_ATTACK, False) in choices and (Attack(TRIDENT), True) in choices
    out = io.StringIO()
    ADAPTER.render(Console(file=out, width=120, color_system=None), view, ["Ann", "Bob"])
    text = " ".join(out.getvalue().split())
    assert "No attack is not allowed: attacking is compulsory" in text
    free = position({"attack": "optional"}, hands=([TRIDENT], []))
    assert (NO_ATTACK, True) in ADAPTER.choices(free.view(0))


@pytest.mark.parametrize("options", [{}, {"solo": True}, {"fighter1": "murmillo", "fighter2": "thracian"}])
def test_heuristic_never_passes_when_it_must_attack(options):
    for seed in range(4):
        state = GAME.new_initial_state(options, seed=seed)
        bots = [GladiusHeuristic(seed), GladiusHeuristic(seed + 1)]
        while not state.is_terminal():
            seat = state.current_seats()[0]
            view = state.view(seat)
            action = bots[seat].act(view)
            assert action in view.legal_actions
            state.apply(action, seat)


def _old_record_text() -> tuple[str, dict[str, Any]]:
    """A record as Ludus wrote it before the option existed: options without ``attack``, and a
    "no attack" played while the Retiarius held an attack card it could use."""
    opts = options_to_json(GAME.parse_options({"attack": "optional"}))
    del opts["attack"]
    state = GAME.new_initial_state({"attack": "optional"}, seed=None)
    rng = Rng(11)
    passed_with_attack = False
    while not state.is_terminal() and len(state.history) < 400:
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        legal = state.legal_actions(seat)
        if state.observation(seat).phase == "attack" and len(legal) > 1 and not passed_with_attack:
            action = NO_ATTACK
            passed_with_attack = True
        else:
            action = legal[rng.below(len(legal))]
        state.apply(action, seat)
    assert passed_with_attack
    rec = dataclasses.replace(records.record_of(state, None), options=opts)
    return rec.dumps(), state._position()


def test_a_record_made_before_the_option_still_replays():
    text, final_position = _old_record_text()
    rec = records.loads(text)
    assert "attack" not in rec.options
    final = records.replay(rec, get_game)
    assert final.options.attack == "optional"
    assert final._position() == final_position


def test_the_same_record_under_the_compulsory_rule_is_refused():
    text, _ = _old_record_text()
    rec = records.loads(text)
    rec = dataclasses.replace(rec, options={**rec.options, "attack": "compulsory"})
    with pytest.raises(Exception, match="compulsory"):
        records.replay(rec, get_game)


def test_no_defence_stays_optional_under_compulsory_attack():
    state = position(phase="defend", active=1, hands=([DUCK], [SS]), table=SS)
    assert NO_DEFENCE in state.legal_actions(0)


def test_a_position_saved_before_the_option_keeps_the_old_rule():
    state = position(hands=([TRIDENT], []))
    data = state.to_json()
    assert data["options"]["attack"] == "compulsory"
    del data["options"]["attack"]  # as positions (and server tables) were written before
    old = GAME.state_from_json(data)
    assert old.options.attack == "optional" and NO_ATTACK in old.legal_actions(0)
