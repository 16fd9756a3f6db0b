"""Gladius rules: the state of a game, its legal moves, transitions, chance and scoring.

The rules as implemented, and every reading of an unclear rule, are in
``docs/games/gladius.md``. In short, a turn is Maneuver (draw, discard down to the hand
limit), Attack (one card; "no attack" only without a playable attack card, unless option
``attack`` is ``optional``), Defence (the other fighter answers with one card or none) and
Hit. Solo play is a one-seat game: the automated opponent of the solo rules has no hand and
no choices of its own, so its mini-hand draws are chance outcomes and its
plays are forced chance outcomes fixed by the rules.

Cards are kinds (a :class:`~ludus.games.gladius.cards.Card` with a count); each physical
copy has an index, copies of one kind are consecutive, and every pile or hand is an int
bitmask over those indices. Which copy of a kind sits where never matters, so positions
store counts and chance picks a kind with probability proportional to its count.

The per-options tables (:class:`Setup`, :func:`build_setup`) are here rather than in
``cards.py``: besides the deck they hold the prebuilt actions of every kind. Refusal
reasons (:func:`illegal_reason`) are here too, shared with the terminal's explanations.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.bits import popcount
from ...core.errors import IllegalAction, Refusal
from ...core.game import CHANCE, Action, Game, State
from ...core.memo import BoundedMemo
from ...core.rng import Rng
from .actions import (
    NO_ATTACK,
    NO_DEFENCE,
    PLAYER_ACTIONS,
    RESHUFFLE_ACTION,
    AdversaryAttack,
    AdversaryDefend,
    Attack,
    Defend,
    Discard,
    DrawCard,
    FirstPlayer,
    MiniDraw,
    Reshuffle,
    SkipTurn,
    card_label,
    card_name,
)
from .cards import SHARED_ID, Card, CardSet, Catalogue, load_catalogue, split_paths
from .fast import apply as fast_apply
from .fast import nth_card
from .fast import settle_chance as fast_settle_chance
from .fast import why_illegal as fast_why_illegal
from .options import GladiusOptions
from .views import (
    ADV_ATK,
    ADV_DEF,
    ATTACK,
    CHANCE_SEATS,
    DEAL,
    DECISIONS,
    DEFEND,
    DISCARD,
    DRAW,
    DRAW_PHASES,
    FIRST,
    MINI_ATK,
    MINI_DEF,
    OVER,
    RESHUFFLE,
    SKIP,
    build_observation,
)

__all__ = ["ATTACK_PHASE", "BLOCK_CANNOT_STOP", "COSTS_NEXT_ATTACK", "DEFENDING", "EVADED_LAST_TURN", "GAME_OVER",
           "MUST_ATTACK", "MUST_DISCARD", "NOT_AN_ATTACK", "NOT_A_DEFENCE", "NOT_A_MOVE", "NOT_HELD", "NOT_USABLE",
           "NOT_YOUR_DECISION", "NO_DECISION", "NO_SUCH_CARD", "SHARED_NOT_USABLE", "GladiusState", "Setup",
           "build_setup", "illegal_reason", "playable_attack", "unusable_reason"]


# ----------------------------------------------------------------------------- setup
@dataclass(frozen=True, eq=False)
class Setup:
    """Everything fixed for one game's options: the deck, who may use what, hit points.

    Besides the fields given to it, a setup precomputes lookup tables (``keys``, ``card_keys``,
    ``card_kind_mask`` ...) so that observations and bots do not rebuild card keys or walk
    masks bit by bit: they are derived from ``kinds`` and ``kind_mask`` alone.
    """

    catalogue: Catalogue
    sides: tuple[CardSet, CardSet]
    kinds: tuple[Card, ...]
    index: Mapping[str, int]
    kind_mask: tuple[int, ...]
    card_kind: tuple[int, ...]
    full: int
    usable: tuple[frozenset[int], frozenset[int]]
    attack_phys: tuple[int, int]
    defence_phys: tuple[int, int]
    evade_phys: int
    hit_points: tuple[int, int]
    mini_def: int
    mini_atk: int
    names: tuple[str, str]
    attack_actions: tuple[Attack, ...]
    defend_actions: tuple[Defend, ...]
    discard_actions: tuple[Discard, ...]
    draw_actions: tuple[tuple[DrawCard, ...], tuple[DrawCard, ...]]
    mini_actions: tuple[MiniDraw, ...]
    # derived tables (set in __post_init__)
    keys: tuple[str, ...] = field(init=False, repr=False)
    """``kinds[k].key`` for every kind (built once: ``Card.key`` formats a new string per call)."""
    card_keys: tuple[str, ...] = field(init=False, repr=False)
    """The key of every physical card index."""
    card_kind_mask: tuple[int, ...] = field(init=False, repr=False)
    """For every physical card index, the mask of all copies of its kind."""
    card_other: tuple[int, ...] = field(init=False, repr=False)
    """For every physical card index, ``~card_kind_mask[i]``: clears all copies of its kind."""
    kind_counts: tuple[int, ...] = field(init=False, repr=False)
    """Copies of each kind in the whole deck."""
    fighters: tuple[str, str] = field(init=False, repr=False)
    """The two fighter type ids."""
    count_pairs: tuple[tuple[tuple[str, int], ...], ...] = field(init=False, repr=False)
    """``count_pairs[k][n] == (keys[k], n)`` for every possible count ``n`` of kind ``k``."""
    kind_groups: tuple[tuple[int, int, tuple[int, ...], dict[int, tuple[tuple[str, int], ...]] | None], ...] = (
        field(init=False, repr=False))
    """Runs of consecutive kinds spanning at most ``_GROUP_BITS`` cards, as (first card index,
    mask of the run's width, kinds, memo of :meth:`kind_counts_of` for the run's sub-masks);
    a kind with more copies is a run of its own without a memo."""

    def __post_init__(self) -> None:
        keys = tuple(c.key for c in self.kinds)
        init = object.__setattr__
        init(self, "keys", keys)
        init(self, "card_keys", tuple(keys[k] for k in self.card_kind))
        init(self, "card_kind_mask", tuple(self.kind_mask[k] for k in self.card_kind))
        init(self, "card_other", tuple(~self.kind_mask[k] for k in self.card_kind))
        init(self, "kind_counts", tuple(c.count for c in self.kinds))
        init(self, "fighters", (self.sides[0].id, self.sides[1].id))
        init(self, "count_pairs", tuple(tuple((keys[k], n) for n in range(c.count + 1))
                                        for k, c in enumerate(self.kinds)))
        runs: list[tuple[int, int, list[int]]] = []  # (first card, end card, kinds)
        for k, km in enumerate(self.kind_mask):
            start, end = (km & -km).bit_length() - 1, km.bit_length()
            if runs and end - runs[-1][0] <= _GROUP_BITS:
                runs[-1] = (runs[-1][0], end, runs[-1][2] + [k])
            else:
                runs.append((start, end, [k]))
        init(self, "kind_groups", tuple((start, (1 << (end - start)) - 1, tuple(ks),
                                         {} if end - start <= _GROUP_BITS else None)
                                        for start, end, ks in runs))

    @property
    def n_cards(self) -> int:
        return len(self.card_kind)

    def counts(self) -> list[int]:
        return list(self.kind_counts)

    def set_name(self, set_id: str) -> str:
        if set_id == SHARED_ID:
            return "shared"
        s = self.catalogue.fighters.get(set_id)
        return s.name if s else set_id

    def kinds_in(self, mask: int) -> list[int]:
        """Distinct kinds among the cards of ``mask``, in deck order."""
        out: list[int] = []
        ck = self.card_kind
        other = self.card_other
        while mask:
            b = (mask & -mask).bit_length() - 1
            out.append(ck[b])
            mask &= other[b]  # skip the other copies of this kind
        return out

    def kind_actions(self, actions: tuple[Action, ...], mask: int) -> list[Action]:
        """``[actions[k] for k in kinds_in(mask)]``, in one pass."""
        out: list[Action] = []
        ck = self.card_kind
        other = self.card_other
        while mask:
            b = (mask & -mask).bit_length() - 1
            out.append(actions[ck[b]])
            mask &= other[b]
        return out

    def count_kinds(self, mask: int) -> list[int]:
        return [(mask & km).bit_count() for km in self.kind_mask]

    def kind_counts_of(self, mask: int) -> tuple[tuple[str, int], ...]:
        """``(key, copies)`` for each kind present in ``mask``, in deck order."""
        out: tuple[tuple[str, int], ...] = ()
        for shift, width, ks, memo in self.kind_groups:
            sub = (mask >> shift) & width
            if sub:
                part = None if memo is None else memo.get(sub)
                if part is None:
                    part = self._kind_counts(sub << shift, ks)
                    if memo is not None:
                        memo[sub] = part
                out += part
        return out

    def _kind_counts(self, mask: int, kinds: Iterable[int]) -> tuple[tuple[str, int], ...]:
        pairs = self.count_pairs
        kind_mask = self.kind_mask
        return tuple(pairs[k][(mask & kind_mask[k]).bit_count()] for k in kinds if mask & kind_mask[k])

    def keys_of(self, mask: int) -> tuple[str, ...]:
        keys = self.card_keys
        out = []
        while mask:
            low = mask & -mask
            out.append(keys[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    def keys_of_counts(self, counts: list[int]) -> tuple[str, ...]:
        """Each kind's key repeated by its count, in deck order."""
        if not any(counts):
            return ()
        keys = self.keys
        out: list[str] = []
        for k, n in enumerate(counts):
            if n:
                out += (keys[k],) * n
        return tuple(out)


_GROUP_BITS = 12
"""Widest run of cards whose sub-masks :meth:`Setup.kind_counts_of` memoizes (4096 at most)."""


def build_setup(options: GladiusOptions) -> Setup:
    """The deck and tables for ``options`` (cached: options are immutable)."""
    return _SETUPS[(options, load_catalogue(split_paths(options.card_sets)))]


def _make_setup(key: tuple[GladiusOptions, Catalogue]) -> Setup:
    options, cat = key
    a, b = cat.fighter(options.fighter1), cat.fighter(options.fighter2)
    sets: list[CardSet] = [cat.shared, a]
    if b.id != a.id or options.mirror == "twice":
        sets.append(b)
    counts: dict[str, int] = {}
    proto: dict[str, Card] = {}
    for s in sets:
        for c in s.cards:
            counts[c.key] = counts.get(c.key, 0) + c.count
            proto.setdefault(c.key, c)
    kinds = tuple(Card(c.set_id, c.name, counts[k], c.type, c.damage, c.immobilize, c.defence,
                       c.no_attack_next_turn) for k, c in proto.items())
    kind_mask: list[int] = []
    card_kind: list[int] = []
    for i, c in enumerate(kinds):
        start = len(card_kind)
        card_kind.extend([i] * c.count)
        kind_mask.append(((1 << c.count) - 1) << start)
    usable = []
    attack_phys, defence_phys = [], []
    evade = 0
    for side in (a, b):
        u = set()
        am = dm = 0
        for i, c in enumerate(kinds):
            ok = c.set_id == side.id or (c.set_id == SHARED_ID and side.may_use_shared(c.name))
            if ok:
                u.add(i)
                if c.is_attack:
                    am |= kind_mask[i]
                else:
                    dm |= kind_mask[i]
        usable.append(frozenset(u))
        attack_phys.append(am)
        defence_phys.append(dm)
    for i, c in enumerate(kinds):
        if c.is_evade:
            evade |= kind_mask[i]
    hp = (options.hit_points or a.hit_points, options.hit_points or b.hit_points)
    names = (a.name, b.name) if a.id != b.id else (f"{a.name} 1", f"{b.name} 2")
    return Setup(
        catalogue=cat, sides=(a, b), kinds=kinds, index={c.key: i for i, c in enumerate(kinds)},
        kind_mask=tuple(kind_mask), card_kind=tuple(card_kind), full=(1 << len(card_kind)) - 1,
        usable=(usable[0], usable[1]), attack_phys=(attack_phys[0], attack_phys[1]),
        defence_phys=(defence_phys[0], defence_phys[1]), evade_phys=evade, hit_points=hp,
        mini_def=options.solo_defence_hand or b.solo_defence_hand,
        mini_atk=options.solo_attack_hand or b.solo_attack_hand, names=names,
        attack_actions=tuple(Attack(c.key) for c in kinds),
        defend_actions=tuple(Defend(c.key) for c in kinds),
        discard_actions=tuple(Discard(c.key) for c in kinds),
        draw_actions=(tuple(DrawCard(0, c.key) for c in kinds), tuple(DrawCard(1, c.key) for c in kinds)),
        mini_actions=tuple(MiniDraw(c.key) for c in kinds),
    )


_SETUPS: BoundedMemo[tuple[GladiusOptions, Catalogue], Setup] = BoundedMemo(_make_setup, 256)
"""Setups by options and catalogue (a catalogue hashes by identity, and the key keeps it alive)."""


def _low(mask: int) -> int:
    return mask & -mask


# ----------------------------------------------------------------------------- reasons
# The codes of the reasons a move is refused (a Refusal's code; its params in the comment, codes
# and numbers only): a client writes the reason in its reader's language from them (docs/i18n.md).
NOT_A_MOVE = "gladius.not-a-move"  # (none): a chance outcome or the solo opponent's play
GAME_OVER = "game-over"  # (none): the core code, every client knows it
NO_DECISION = "gladius.no-decision"  # (none)
MUST_DISCARD = "gladius.must-discard"  # count: cards held; limit: the hand limit
ATTACK_PHASE = "gladius.attack-phase"  # (none)
DEFENDING = "gladius.defending"  # (none)
MUST_ATTACK = "gladius.must-attack"  # card: the key ("secutor/Sword Stab") of a playable attack
NO_SUCH_CARD = "gladius.no-such-card"  # card: the key asked for
NOT_HELD = "gladius.not-held"  # card: the key
NOT_AN_ATTACK = "gladius.not-an-attack"  # card: the key (a defence card)
EVADED_LAST_TURN = "gladius.evaded-last-turn"  # card: the key of the Evade that bars the attack
COSTS_NEXT_ATTACK = "gladius.costs-next-attack"  # card: the key of the attack that bars this one
NOT_A_DEFENCE = "gladius.not-a-defence"  # card: the key (an attack card)
BLOCK_CANNOT_STOP = "gladius.block-cannot-stop"  # card: the key of the immobilizing attack
SHARED_NOT_USABLE = "gladius.shared-not-usable"  # card: the key; fighter: the type's id
NOT_USABLE = "gladius.not-usable"  # card: the key; owner: the set's id; fighter: the type's id
NOT_YOUR_DECISION = "gladius.not-your-decision"  # (none): a view's seat that does not decide now


def illegal_reason(setup: Setup, *, phase: int, side: int, held: Collection[int], hand_size: int,
                   hand_limit: int, barred: int, pending: int, action: Action,
                   compulsory: bool = False) -> Refusal | None:
    """Why fighter ``side`` may not play ``action`` now (the English sentence, with its code), or None if it may.

    Shared by :meth:`GladiusState.why_illegal` and the terminal, which explains every card
    in hand from the seat's observation alone. ``compulsory`` is the option ``attack =
    compulsory``: then "no attack" is refused while ``held`` has an attack the fighter may play.
    """
    t = type(action)
    if t not in PLAYER_ACTIONS:
        return Refusal("that is not a player's move: it belongs to the deck or to the solo opponent", NOT_A_MOVE)
    if phase == OVER:
        return Refusal("the game is over", GAME_OVER)
    expected = {DISCARD: Discard, ATTACK: Attack, DEFEND: Defend}.get(phase)
    if expected is None:
        return Refusal("no fighter decides anything now", NO_DECISION)
    if t is not expected:
        if phase == DISCARD:
            return Refusal(f"you hold {hand_size} cards: first discard down to {hand_limit}", MUST_DISCARD,
                           {"count": hand_size, "limit": hand_limit})
        if phase == ATTACK:
            return Refusal("this is your attack phase: play an attack card, or no attack", ATTACK_PHASE)
        return Refusal("you are defending: play a defence card, or no defence", DEFENDING)
    card = action.card  # type: ignore[attr-defined]
    if card is None:
        if t is Attack and compulsory and barred < 0:
            playable = playable_attack(setup, side, held)
            if playable >= 0:
                return Refusal(f"attacking is compulsory (option attack = compulsory, the rulebook's reading): "
                               f"you hold {card_label(setup.keys[playable])}, which you can play", MUST_ATTACK,
                               {"card": setup.keys[playable]})
        return None
    k = setup.index.get(card)
    if k is None:
        return Refusal(f"there is no {card_name(card)} card in this game", NO_SUCH_CARD, {"card": card})
    c = setup.kinds[k]
    label = card_label(card)
    if k not in held:
        return Refusal(f"you do not hold {label}", NOT_HELD, {"card": card})
    if t is Discard:
        return None
    why = unusable_reason(setup, side, k)
    if why is not None:
        return why
    if t is Attack:
        if not c.is_attack:
            return Refusal(f"{label} is a defence card, not an attack", NOT_AN_ATTACK, {"card": card})
        if barred >= 0:
            b = setup.kinds[barred]
            if b.is_evade:
                return Refusal(f"you may not attack this turn: you evaded with {b.name} last turn", EVADED_LAST_TURN,
                               {"card": b.key})
            return Refusal(f"you may not attack this turn: a {b.name} costs your next attack", COSTS_NEXT_ATTACK,
                           {"card": b.key})
        return None
    if not c.is_defence:
        return Refusal(f"{label} is an attack card; to defend play a Block or an Evade", NOT_A_DEFENCE, {"card": card})
    if pending >= 0 and c.is_block and setup.kinds[pending].immobilize:
        return Refusal(f"a Block cannot stop {setup.kinds[pending].name}, which immobilizes; only an Evade can",
                       BLOCK_CANNOT_STOP, {"card": setup.kinds[pending].key})
    return None


def playable_attack(setup: Setup, side: int, held: Iterable[int]) -> int:
    """The first kind in ``held`` that is an attack fighter ``side`` may use, or -1 (a lock-out
    is not looked at here)."""
    usable, kinds = setup.usable[side], setup.kinds
    for k in sorted(held):
        if k in usable and kinds[k].is_attack:
            return k
    return -1


def unusable_reason(setup: Setup, side: int, k: int) -> Refusal | None:
    """Why fighter ``side`` can never play a card of kind ``k`` (another type's card), or None.

    The first check of :func:`illegal_reason` once the card is held; observations use it to
    mark such cards in a hand whatever the phase.
    """
    if k in setup.usable[side]:
        return None
    c = setup.kinds[k]
    label = card_label(c.key)
    me = setup.sides[side].name
    if c.set_id == SHARED_ID:
        return Refusal(f"{label} is a shared card, but a {me} cannot use it", SHARED_NOT_USABLE,
                       {"card": c.key, "fighter": setup.sides[side].id})
    return Refusal(f"{label} is a {setup.set_name(c.set_id)} card; a {me} cannot use it", NOT_USABLE,
                   {"card": c.key, "owner": c.set_id, "fighter": setup.sides[side].id})


# ----------------------------------------------------------------------------- state
class GladiusState(State[GladiusOptions]):
    """A Gladius position. Sides 0 and 1 are fighter 1 and 2 (in solo, side 1 is the automated opponent)."""

    def __init__(self, game: Game, options: GladiusOptions, rng: Rng | None, setup: Setup) -> None:
        super().__init__(game, options, rng)
        self.setup = setup
        self.solo = options.solo
        self.compulsory = options.attack == "compulsory"
        """Option ``attack = compulsory``: no "no attack" while an attack card can be played."""
        nk = len(setup.kinds)
        self.phase = DEAL
        self.active = 0
        self.first = -1
        self.turn = 0
        self.dealt = 0
        self.hp = list(setup.hit_points)
        self.hands = [0, 0]
        self.pile = setup.full
        self.discard = 0
        self.table = 0
        self.pending = -1
        self.mini = 0
        self.mini_left = 0
        self.lock = [-1, -1]
        self.barred = -1
        self.skip = [False, False]
        self.resume = -1
        self.reshuffles = 0
        self.last_attack: tuple[int, int] | None = None
        self.last_defence: tuple[int, int] | None = None
        self.last_result = ""
        # the log's, not the game's: what this state's history holds, kept as it grows so that
        # a log can tell how an exchange ended that chance settled unseen (a solo opponent's
        # defence between two recorded moves). Like the history they are not part of a
        # position (a state loaded from one starts them afresh) and no rule reads them.
        self.exchanges = 0
        """Exchanges settled in this state's history (attacks answered or not)."""
        self.settled: tuple[int, int, int] | None = None
        """(attacker, attack kind, defence kind or -1) of the last exchange settled in the history:
        unlike ``last_attack`` it survives the next attack."""
        self.known = [[0] * nk, [0] * nk]
        self.unknown = [0, 0]
        self.end = ""
        # what observations last showed, with what it was computed from (a copy): the discards,
        # and per side the cards it knows the other holds; both change far less often than
        # observations are made
        self._seen_discard: tuple[int, tuple[tuple[str, int], ...]] = (0, ())
        self._seen_known: tuple[tuple[list[int], tuple[str, ...]], ...] = (([0] * nk, ()), ([0] * nk, ()))

    def _first_by_rule(self) -> int:
        """Who moves first by the options: the Retiarius when exactly one fighter is one (the
        rulebook), otherwise fighter 1 (ours), or as option ``first`` says; -1 for a coin toss."""
        opt = self.options.first
        if opt == "random":
            return -1
        if opt == "fighter1":
            return 0
        if opt == "fighter2":
            return 1
        ids = [s.id for s in self.setup.sides]
        return 1 if ids.count("retiarius") == 1 and ids[1] == "retiarius" else 0

    def _start(self) -> None:
        """Resolve who moves first (or leave it to chance) and begin the deal."""
        first = self._first_by_rule()
        if first < 0:
            self.phase = FIRST
            return
        self.first = first
        self._begin_deal()

    # ----------------------------------------------------------------- queries
    def current_seats(self) -> tuple[int, ...]:
        p = self.phase
        if p in (ATTACK, DISCARD):
            return (self.active,)
        if p == DEFEND:
            return (1 - self.active,)
        if p == OVER:
            return ()
        return CHANCE_SEATS

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        p = self.phase
        if seat is None or seat != (1 - self.active if p == DEFEND else self.active) or p not in DECISIONS:
            seat = self._acting_seat(seat)
            if seat is None:
                return []
            if seat == CHANCE:
                return [a for a, _ in self.chance_outcomes()]
        s = self.setup
        hand = self.hands[seat]
        if p == ATTACK:
            if self.barred >= 0:
                return [NO_ATTACK]
            out = s.kind_actions(s.attack_actions, hand & s.attack_phys[seat])
            if not out or not self.compulsory:
                out.append(NO_ATTACK)
            return out
        if p == DEFEND:
            m = hand & s.defence_phys[seat]
            if s.kinds[self.pending].immobilize:
                m &= s.evade_phys
            out = s.kind_actions(s.defend_actions, m)
            out.append(NO_DEFENCE)
            return out
        return s.kind_actions(s.discard_actions, hand)

    def _plain_why_illegal(self, action: Action, seat: int) -> str | None:
        """The reason :func:`~ludus.games.gladius.fast.why_illegal` gives, without its shortcut."""
        p = self.phase
        hand = self.hands[seat] if 0 <= seat <= 1 else 0
        return illegal_reason(self.setup, phase=p, side=seat, held=set(self.setup.kinds_in(hand)),
                              hand_size=popcount(hand), hand_limit=self.options.hand_limit,
                              barred=self.barred, pending=self.pending, action=action,
                              compulsory=self.compulsory)

    # the fast paths (fast.py): bound here as methods, so they cost no extra call
    why_illegal = fast_why_illegal
    apply = fast_apply
    _settle_chance = fast_settle_chance

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        p = self.phase
        s = self.setup
        if p in DRAW_PHASES:
            total = popcount(self.pile)
            acts = s.mini_actions if p in (MINI_DEF, MINI_ATK) else s.draw_actions[self._draw_target()]
            out: list[tuple[Action, float]] = []
            for k, km in enumerate(s.kind_mask):
                n = popcount(self.pile & km)
                if n:
                    out.append((acts[k], n / total))
            return out
        if p == FIRST:
            return [(FirstPlayer(0), 0.5), (FirstPlayer(1), 0.5)]
        if p == RESHUFFLE:
            return [(RESHUFFLE_ACTION, 1.0)]
        if p == SKIP:
            return [(SkipTurn(self.active), 1.0)]
        if p == ADV_DEF:
            k = self._adversary_defence()
            return [(AdversaryDefend(None if k < 0 else s.kinds[k].key), 1.0)]
        if p == ADV_ATK:
            k = self._adversary_attack()
            return [(AdversaryAttack(None if k < 0 else s.kinds[k].key), 1.0)]
        raise IllegalAction("this is not a chance node")

    def sample_chance(self, rng: Rng) -> Action:
        p = self.phase
        if p in DRAW_PHASES:
            s = self.setup
            pile = self.pile
            k = s.card_kind[nth_card(pile, rng.below(pile.bit_count()))]
            if p in (MINI_DEF, MINI_ATK):
                return s.mini_actions[k]
            return s.draw_actions[self._draw_target()][k]
        if p == FIRST:
            return FirstPlayer(rng.below(2))
        return self.chance_outcomes()[0][0]

    def _draw_target(self) -> int:
        if self.phase == DEAL:
            return 0 if self.solo else (self.first + self.dealt) % 2
        return self.active

    def scores(self) -> list[float]:
        return [float(self.hp[0])] if self.solo else [float(self.hp[0]), float(self.hp[1])]

    def winning_sides(self) -> list[int]:
        """Sides (0, 1; 1 is the automated opponent in solo) that won; empty before the end."""
        if self.phase != OVER:
            return []
        a, b = self.hp
        if a > b:
            return [0]
        if b > a:
            return [1]
        return [0, 1]

    def winners(self) -> list[int]:
        sides = self.winning_sides()
        if self.solo:
            return [0] if sides == [0] else []
        return sides

    # ----------------------------------------------------------------- flow
    def _deal_total(self) -> int:
        return self.options.starting_hand * (1 if self.solo else 2)

    def _begin_deal(self) -> None:
        if self._deal_total() == 0:
            self._begin_turn(self.first)
        else:
            self._want_draw(DEAL)

    def _want_draw(self, phase: int) -> None:
        """Go to draw ``phase``, first refilling an empty deck from the discards if allowed."""
        if self.pile:
            self.phase = phase
        elif self.discard and self.options.reshuffle:
            self.phase = RESHUFFLE
            self.resume = phase
        elif not self.options.reshuffle:
            self._finish("deck")
        else:  # every card is in a hand or on the table: nothing to draw
            if phase in (MINI_DEF, MINI_ATK):
                self.mini_left = 1
            self._drawn(phase)

    def _drawn(self, phase: int) -> None:
        """Continue after a card was drawn (or could not be) in ``phase``."""
        if phase == DEAL:
            self.dealt += 1
            if self.dealt < self._deal_total():
                self._want_draw(DEAL)
            else:
                self._begin_turn(self.first)
        elif phase == DRAW:
            self._after_maneuver()
        else:
            self.mini_left -= 1
            if self.mini_left > 0:
                self._want_draw(phase)
            else:
                self.phase = ADV_DEF if phase == MINI_DEF else ADV_ATK

    def _after_maneuver(self) -> None:
        self.phase = DISCARD if self.hands[self.active].bit_count() > self.options.hand_limit else ATTACK

    def _begin_turn(self, side: int) -> None:
        self.turn += 1
        limit = self.options.turn_limit
        if limit and self.turn > limit:
            self.turn = limit
            self._finish("turn-limit")
            return
        self.active = side
        if self.skip[side]:
            self.phase = SKIP
            return
        self.barred = self.lock[side]
        self.lock[side] = -1
        if self.solo and side == 1:
            if self.barred >= 0:
                self.phase = ADV_ATK
            else:
                self.mini_left = self.setup.mini_atk
                self._want_draw(MINI_ATK)
        elif self.pile:  # _want_draw(DRAW) when there is a deck, the usual case
            self.phase = DRAW
        else:
            self._want_draw(DRAW)

    def _end_turn(self) -> None:
        self._begin_turn(1 - self.active)

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.end = reason

    def _saw_play(self, side: int, k: int) -> None:
        """Card counting: the other fighter saw ``side`` reveal a card of kind ``k`` from hand."""
        if self.solo:
            return
        v = 1 - side
        known = self.known[v]
        if known[k]:
            known[k] -= 1
        else:
            self.unknown[v] -= 1

    def _resolve(self, defender: int, defence: int) -> None:
        """End of the Defence and Hit phases: apply the blow if unanswered, clear the table."""
        s = self.setup
        self.exchanges += 1
        self.settled = (1 - defender, self.pending, defence)
        if defence < 0:
            atk = s.kinds[self.pending]
            self.hp[defender] = max(0, self.hp[defender] - atk.damage)
            if atk.immobilize:
                self.skip[defender] = True
            self.last_result = "hit"
        elif s.kinds[defence].is_evade:
            self.lock[defender] = defence
            self.last_result = "evaded"
        else:
            self.last_result = "blocked"
        self.last_defence = (defender, defence)
        self.discard |= self.table
        self.table = 0
        self.pending = -1
        if self.hp[defender] == 0:
            self._finish("knockout")
        else:
            self._end_turn()

    def _play_attack(self, side: int, k: int, bit: int) -> None:
        s = self.setup
        self.table = bit
        self.pending = k
        if s.kinds[k].no_attack_next_turn:
            self.lock[side] = k
        self.last_attack = (side, k)
        self.last_defence = None
        self.last_result = ""

    def _adversary_defence(self) -> int:
        """Solo: the defence the opponent's mini-hand gives: a Block if one works, else an Evade."""
        s = self.setup
        m = self.mini & s.defence_phys[1]
        if s.kinds[self.pending].immobilize:
            m &= s.evade_phys
        if not m:
            return -1
        kinds = s.kinds_in(m)
        for k in kinds:
            if s.kinds[k].is_block:
                return k
        return kinds[0]

    def _adversary_attack(self) -> int:
        """Solo: the opponent's best attack in its mini-hand (most damage, then immobilizing,
        then without a next-turn penalty, then deck order)."""
        s = self.setup
        best, best_key = -1, None
        for k in s.kinds_in(self.mini & s.attack_phys[1]):
            c = s.kinds[k]
            key = (c.damage, c.immobilize, not c.no_attack_next_turn)
            if best_key is None or key > best_key:
                best, best_key = k, key
        return best

    def _apply(self, seat: int, action: Action) -> None:
        s = self.setup
        t = type(action)
        if t is DrawCard:
            m = self.pile & s.kind_mask[s.index[action.card]]  # type: ignore[attr-defined]
            bit = m & -m
            self.pile ^= bit
            to = action.seat  # type: ignore[attr-defined]
            self.hands[to] |= bit
            if not self.solo:
                self.unknown[1 - to] += 1
            self._drawn(self.phase)
        elif t is Attack:
            self.barred = -1
            card = action.card  # type: ignore[attr-defined]
            if card is None:
                self.last_attack = (seat, -1)
                self.last_defence = None
                self.last_result = "no attack"
                self._end_turn()
                return
            k = s.index[card]
            bit = _low(self.hands[seat] & s.kind_mask[k])
            self.hands[seat] ^= bit
            self._saw_play(seat, k)
            self._play_attack(seat, k, bit)
            if self.solo:
                self.mini_left = s.mini_def
                self._want_draw(MINI_DEF)
            else:
                self.phase = DEFEND
        elif t is Defend:
            card = action.card  # type: ignore[attr-defined]
            k = -1
            if card is not None:
                k = s.index[card]
                bit = _low(self.hands[seat] & s.kind_mask[k])
                self.hands[seat] ^= bit
                self.discard |= bit
                self._saw_play(seat, k)
            self._resolve(seat, k)
        elif t is Discard:
            k = s.index[action.card]  # type: ignore[attr-defined]
            bit = _low(self.hands[seat] & s.kind_mask[k])
            self.hands[seat] ^= bit
            self.discard |= bit
            self._saw_play(seat, k)
            self._after_maneuver()
        elif t is MiniDraw:
            k = s.index[action.card]  # type: ignore[attr-defined]
            bit = _low(self.pile & s.kind_mask[k])
            self.pile ^= bit
            self.mini |= bit
            self._drawn(self.phase)
        elif t is AdversaryDefend:
            card = action.card  # type: ignore[attr-defined]
            k = -1 if card is None else s.index[card]
            self.discard |= self.mini
            self.mini = 0
            self._resolve(1, k)
        elif t is AdversaryAttack:
            self.barred = -1
            card = action.card  # type: ignore[attr-defined]
            if card is None:
                self.discard |= self.mini
                self.mini = 0
                self.last_attack = (1, -1)
                self.last_defence = None
                self.last_result = "no attack"
                self._end_turn()
                return
            k = s.index[card]
            bit = _low(self.mini & s.kind_mask[k])
            self.mini ^= bit
            self.discard |= self.mini
            self.mini = 0
            self._play_attack(1, k, bit)
            self.phase = DEFEND
        elif t is SkipTurn:
            side = action.seat  # type: ignore[attr-defined]
            self.skip[side] = False
            self.lock[side] = -1
            self.barred = -1
            self.last_attack = None
            self.last_defence = None
            self.last_result = "skipped"
            self._end_turn()
        elif t is Reshuffle:
            self.pile = self.discard
            self.discard = 0
            self.reshuffles += 1
            if not self.solo:
                for v in (0, 1):
                    self.known[v] = s.count_kinds(self.hands[1 - v])
                    self.unknown[v] = 0
            phase, self.resume = self.resume, -1
            self._want_draw(phase)
        elif t is FirstPlayer:
            self.first = action.seat  # type: ignore[attr-defined]
            self._begin_deal()
        else:  # pragma: no cover - apply() validated it
            raise AssertionError(action)

    # ----------------------------------------------------------------- views and copies
    observation = build_observation  # views.py

    def clone(self) -> GladiusState:
        c = GladiusState.__new__(GladiusState)
        c.__dict__.update(self.__dict__)
        c.rng = None if self.rng is None else self.rng.clone()
        c.history = list(self.history)
        c.hp = list(self.hp)
        c.hands = list(self.hands)
        c.lock = list(self.lock)
        c.skip = list(self.skip)
        c.known = [list(self.known[0]), list(self.known[1])]
        c.unknown = list(self.unknown)
        return c

    def _position(self) -> dict[str, Any]:
        from .codec import state_to_position  # codec.py imports this module

        return state_to_position(self)
