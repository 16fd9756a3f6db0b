"""The fast paths behind quick heuristic rollouts agree with straightforward recomputation.

Observations, setup tables, legal moves, moves, draws, sampled positions and the heuristic's
choices are each checked against a plain version of the same computation (the code as it
was before it was tuned for speed) over seeded games in several modes.
"""

from __future__ import annotations

from math import comb

import pytest

from ludus.core.bits import iter_bits, nth_bit
from ludus.core.errors import IllegalAction
from ludus.core.frozen import same_as_constructed
from ludus.core.game import CHANCE, SeatView, State
from ludus.core.rng import Rng
from ludus.games.gladius.actions import Attack, Defend, Discard
from ludus.games.gladius.codec import position_to_state
from ludus.games.gladius.fast import nth_card
from ludus.games.gladius.game import GAME
from ludus.games.gladius.heuristic import GladiusHeuristic
from ludus.games.gladius.rules import GladiusState, unusable_reason
from ludus.games.gladius.views import ATTACK, DEFEND, PHASES, GladiusObservation

MODES = [
    {"fighter1": "retiarius", "fighter2": "secutor"},
    {"fighter1": "murmillo", "fighter2": "thracian", "first": "random"},
    {"fighter1": "samnite", "fighter2": "dimachaeri", "hand_limit": 3},
    {"fighter1": "postulati", "fighter2": "retiarius", "reshuffle": False},
    {"fighter1": "secutor", "fighter2": "secutor"},  # mirror: a kind with 16 copies
    {"solo": True},
    {"solo": True, "fighter1": "samnite", "fighter2": "lion", "solo_defence_hand": 3},
    # the attack step under both readings (the default above is compulsory)
    {"fighter1": "retiarius", "fighter2": "secutor", "attack": "optional"},
    {"solo": True, "fighter1": "murmillo", "attack": "optional"},
]


# ----------------------------------------------------------------------------- references
def ref_observation(state: GladiusState, seat: int | None) -> GladiusObservation:
    """The observation built field by field through the dataclass constructor."""
    s = state.setup

    def key(k):
        return None if k < 0 else s.kinds[k].key

    def keys_of(mask):
        return tuple(s.kinds[s.card_kind[b]].key for b in iter_bits(mask))

    def keys_of_counts(counts):
        return tuple(s.kinds[k].key for k, n in enumerate(counts) for _ in range(n))

    def pair(p):
        return None if p is None else (p[0], key(p[1]))

    cur = state.current_seats()
    own = seat is not None and 0 <= seat <= 1
    opp_known, opp_unknown, by_opp, unk_opp = (), 0, (), 0
    if own and not state.solo:
        opp_known, opp_unknown = keys_of_counts(state.known[seat]), state.unknown[seat]
        by_opp, unk_opp = keys_of_counts(state.known[1 - seat]), state.unknown[1 - seat]
    hand = keys_of(state.hands[seat]) if own else ()
    deciding = own and cur and cur[0] == seat and state.phase in (ATTACK, DEFEND)
    if deciding:  # the rules' own refusal of playing each card now
        play = Attack if state.phase == ATTACK else Defend
        notes = tuple(state._plain_why_illegal(play(k), seat) for k in hand)
    else:  # only another fighter type's card is marked
        notes = tuple(unusable_reason(s, seat, s.index[k]) for k in hand)
    disc = [0] * len(s.kinds)
    for b in iter_bits(state.discard):
        disc[s.card_kind[b]] += 1
    return GladiusObservation(
        seat=seat, solo=state.solo, fighters=(s.sides[0].id, s.sides[1].id), names=s.names,
        hit_points=(state.hp[0], state.hp[1]), max_hit_points=s.hit_points, phase=PHASES[state.phase],
        active=state.active, to_act=cur[0] if cur and cur[0] != CHANCE else None,
        first=None if state.first < 0 else state.first, turn=state.turn, turn_limit=state.options.turn_limit,
        dealt=state.dealt, hand=hand, hand_notes=notes,
        hand_sizes=(state.hands[0].bit_count(), state.hands[1].bit_count()), hand_limit=state.options.hand_limit,
        draw_pile=state.pile.bit_count(), discard=tuple((s.kinds[k].key, n) for k, n in enumerate(disc) if n),
        table=key(state.pending), mini_hand=keys_of(state.mini), mini_left=state.mini_left,
        locked=(key(state.lock[0]), key(state.lock[1])), barred=key(state.barred),
        skip=(state.skip[0], state.skip[1]), resume=None if state.resume < 0 else PHASES[state.resume],
        reshuffles=state.reshuffles, last_attack=pair(state.last_attack), last_defence=pair(state.last_defence),
        last_result=state.last_result, exchanges=state.exchanges,
        settled=None if state.settled is None else (state.settled[0], key(state.settled[1]), key(state.settled[2])),
        opponent_known=opp_known, opponent_unknown=opp_unknown,
        known_by_opponent=by_opp, unknown_to_opponent=unk_opp, end=state.end,
        winners=tuple(state.winning_sides()),
    )


def ref_p_holds_any(hits_known, pool_hits, pool_size, draws):
    if hits_known:
        return 1.0
    if draws <= 0 or pool_hits <= 0:
        return 0.0
    if draws > pool_size:
        return 1.0
    return 1.0 - comb(pool_size - pool_hits, draws) / comb(pool_size, draws)


def ref_act(view: SeatView):
    """The heuristic as first written: everything recomputed from keys at every move."""
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    obs = view.observation
    setup = view.game.setup(view.options)
    idx, kinds, me = setup.index, setup.kinds, obs.seat
    if obs.phase == "discard":
        defences = sum(1 for key in obs.hand if idx[key] in setup.usable[me] and kinds[idx[key]].is_defence)

        def value(action):
            k = idx[action.card]
            c = kinds[k]
            if k not in setup.usable[me]:
                return (-1.0, action.card)
            if c.is_defence:
                return (2.6 if defences <= 2 else 1.4, action.card)
            return (c.damage + (2.0 if c.immobilize else 0.0) - (1.0 if c.no_attack_next_turn else 0.0), action.card)

        return min(legal, key=value)
    if obs.phase == "attack":
        pool = setup.counts()
        for key in obs.hand + obs.mini_hand + obs.opponent_known:
            pool[idx[key]] -= 1
        if obs.table is not None:
            pool[idx[obs.table]] -= 1
        for key, n in obs.discard:
            pool[idx[key]] -= n

        def p_stopped(attack):
            stops = [k for k in setup.usable[1 - me]
                     if kinds[k].is_evade or (kinds[k].is_block and not attack.immobilize)]
            hits = sum(pool[k] for k in stops)
            if obs.solo:
                return ref_p_holds_any(0, hits, sum(pool), setup.mini_def)
            known = sum(1 for key in obs.opponent_known if idx[key] in stops)
            return ref_p_holds_any(known, hits, sum(pool), obs.opponent_unknown)

        cards = [(a, kinds[idx[a.card]]) for a in legal if isinstance(a, Attack) and a.card]
        damage_cards = [c for _, c in cards if c.damage]
        # compulsory attack: no "no attack" to fall back on, the best card is played
        best, best_value = legal[-1], (0.1 if legal[-1] == Attack(None) else -float("inf"))
        for action, c in cards:
            p = p_stopped(c)
            gain = float(c.damage)
            if c.damage >= obs.hit_points[1 - me]:
                gain += 20.0
            if c.immobilize:
                gain += 1.0 + 0.5 * max((d.damage for d in damage_cards if d is not c), default=0)
            if c.no_attack_next_turn:
                gain -= 1.5
            value = (1.0 - p) * gain + p * (0.6 - 0.15 * c.damage)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best
    attack = kinds[idx[obs.table]]
    options = [(a, kinds[idx[a.card]]) for a in legal if isinstance(a, Defend) and a.card]
    if not options:
        return legal[-1]
    options.sort(key=lambda ac: (ac[1].is_evade, ac[0].card))
    action, card = options[0]
    hp = obs.hit_points[me]
    mine = [kinds[idx[key]] for key in obs.hand if idx[key] in setup.usable[me]]
    held_defences = sum(1 for c in mine if c.is_defence)
    if attack.damage >= hp or (attack.damage and hp - attack.damage <= 3):
        return action
    threat = attack.damage + (2.5 if attack.immobilize else 0.0)
    keep = 2.5 if held_defences <= 1 else 1.5 if held_defences == 2 else 0.8
    if len(obs.hand) >= obs.hand_limit:
        keep = min(keep, 0.8)
    cost = keep + (1.5 if card.is_evade and any(c.is_attack for c in mine) else 0.0)
    return action if threat >= cost else legal[-1]


def check_observations(state: GladiusState) -> None:
    for seat in (0, 1, None):
        obs = state.observation(seat)
        ref = ref_observation(state, seat)
        assert same_as_constructed(obs)  # what new_observation built is the constructor's object
        assert obs == ref and repr(obs) == repr(ref) and obs.to_json() == ref.to_json()


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize("options", MODES)
def test_games_agree_with_the_plain_computations(options):
    opts = GAME.parse_options(options)
    for seed in range(3):
        state = GAME.new_initial_state(opts, seed=seed)
        agents = [GladiusHeuristic(seed), GladiusHeuristic(seed + 1)]
        while True:
            check_observations(state)
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            legal = tuple(state.legal_actions(seat))  # the shortcut for the seat to move
            assert legal == tuple(state.legal_actions())  # the general way
            assert state.legal_actions(1 - seat) == [] and state.legal_actions(CHANCE) == []
            view = SeatView(GAME, opts, seat, state.observation(seat), legal, ())
            action = agents[seat].act(view)
            assert action == ref_act(view)
            state.apply(action, seat)


def test_moves_and_draws_match_the_generic_path():
    """The fast paths of fast.py: GladiusState.apply and _settle_chance are shortcuts of State's, and
    why_illegal of _plain_why_illegal: same results, same errors."""
    for options in MODES[:3] + MODES[5:6] + MODES[7:]:
        opts = GAME.parse_options(options)
        state = GAME.new_initial_state(opts, seed=7)
        rng = Rng(3)
        keys = [c.key for c in state.setup.kinds]
        tries = [Attack(k) for k in keys] + [Defend(k) for k in keys] + [Discard(k) for k in keys]
        tries += [Attack(None), Defend(None)]
        while not state.is_terminal():
            seat = state.current_seats()[0]
            for action in [rng.choice(tries) for _ in range(4)] + [state.legal_actions(seat)[0]]:
                for who in (0, 1):  # fast.why_illegal: the plain reasons, shortcut or not
                    assert state.why_illegal(action, who) == state._plain_why_illegal(action, who)
                for who in (seat, 1 - seat, CHANCE, None):
                    fast, slow = state.clone(), state.clone()
                    outcome = []
                    # the generic path settles chance the generic way too
                    slow._settle_chance = lambda c=slow: State._settle_chance(c)  # type: ignore[method-assign]
                    for copy, apply in ((fast, GladiusState.apply), (slow, State.apply)):
                        try:
                            apply(copy, action, who)
                            outcome.append((copy.to_json(), repr(copy.history)))
                        except IllegalAction as exc:
                            outcome.append(str(exc))
                    assert outcome[0] == outcome[1]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)


def test_setup_tables_agree_with_bit_by_bit_counting():
    rng = Rng(11)
    for options in MODES:
        s = GAME.setup(options)
        assert s.keys == tuple(c.key for c in s.kinds)
        assert s.card_keys == tuple(s.kinds[k].key for k in s.card_kind)
        assert s.counts() == [c.count for c in s.kinds] and s.counts() is not s.counts()
        for _ in range(200):
            mask = rng.next_u64() & s.full & rng.next_u64()
            ks = [s.card_kind[b] for b in iter_bits(mask)]
            counts = [ks.count(k) for k in range(len(s.kinds))]
            assert s.keys_of(mask) == tuple(s.kinds[k].key for k in ks)
            assert s.count_kinds(mask) == counts
            assert s.kinds_in(mask) == sorted(set(ks))
            assert s.kind_actions(s.discard_actions, mask) == [s.discard_actions[k] for k in sorted(set(ks))]
            expected = tuple((s.kinds[k].key, n) for k, n in enumerate(counts) if n)
            assert s.kind_counts_of(mask) == expected and s.kind_counts_of(mask) == expected  # memo hit too
            assert s.keys_of_counts(counts) == tuple(s.kinds[k].key for k, n in enumerate(counts) for _ in range(n))


def test_nth_card_is_the_nth_set_bit():
    rng = Rng(5)
    for bits in (8, 56, 64, 130):
        for _ in range(300):
            pile = rng.below_big(1 << bits) | 1 << rng.below(bits)
            r = rng.below(pile.bit_count())
            assert nth_card(pile, r) == nth_bit(pile, r)


def test_positions_hand_out_the_lowest_copies():
    """position_to_state gives each place the lowest free copies of a kind, in its fixed order."""
    for options in MODES:
        opts = GAME.parse_options(options)
        state = GAME.new_initial_state(opts, seed=4)
        rng = Rng(9)
        for _ in range(30):
            if state.is_terminal():
                break
            seat = state.current_seats()[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
        loaded = position_to_state(GAME, opts, None, state._position())
        s = state.setup
        places = [loaded.hands[0], loaded.hands[1], loaded.pile, loaded.discard, loaded.mini, loaded.table]
        wanted = [s.count_kinds(m) for m in (state.hands[0], state.hands[1], state.pile, state.discard, state.mini,
                                               state.table)]
        for k in range(len(s.kinds)):
            free = list(iter_bits(s.kind_mask[k]))
            for mask, counts in zip(places, wanted):
                given = [b for b in iter_bits(mask) if s.card_kind[b] == k]
                assert given == free[:counts[k]]
                free = free[counts[k]:]
        assert loaded._position() == state._position()


@pytest.mark.parametrize("options", [MODES[1], MODES[6]])
def test_observations_at_chance_nodes(options):
    """Explicit chance (no seed) shows the positions in between: deals, mini-hands, reshuffles."""
    opts = GAME.parse_options(options)
    state = GAME.new_initial_state(opts)
    agent, rng = GladiusHeuristic(1), Rng(8)
    seen_mini = False
    while not state.is_terminal():
        check_observations(state)
        seen_mini = seen_mini or bool(state.mini)
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(agent.act(state.view(seat)), seat)
    check_observations(state)
    assert seen_mini == opts.solo
