"""Gladius: two gladiators, one shared deck of attack and defence cards, ten hit points each.

The rules as implemented, and every reading of an unclear rule, are in
``docs/games/gladius.md``. In short, a turn is Maneuver (draw, discard down to the hand
limit), Attack (one card or none), Defence (the other fighter answers with one card or
none) and Hit. Solo play is a one-seat game: the automated opponent of the solo rules has
no hand and no choices of its own, so its mini-hand draws are chance outcomes and its
plays are forced chance outcomes fixed by the rules.

Cards are kinds (a :class:`~ludus.games.gladius.cards.Card` with a count); each physical
copy has an index, copies of one kind are consecutive, and every pile or hand is an int
bitmask over those indices. Which copy of a kind sits where never matters, so positions
store counts and chance picks a kind with probability proportional to its count.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.bits import popcount
from ...core.errors import IllegalAction, InvalidOptions, RecordError
from ...core.fields import required, show, whole_number
from ...core.game import CHANCE, Action, Game, Observation, SeatView, State
from ...core.options import option
from ...core.rng import Rng
from .cards import SHARED_ID, Card, CardSet, Catalogue, load_catalogue, split_paths

# ----------------------------------------------------------------------------- phases
(FIRST, DEAL, DRAW, DISCARD, ATTACK, DEFEND, SKIP, RESHUFFLE, MINI_DEF, ADV_DEF, MINI_ATK, ADV_ATK,
 OVER) = range(13)
PHASES = ("first", "deal", "draw", "discard", "attack", "defend", "skip", "reshuffle", "mini-defence",
          "adversary-defence", "mini-attack", "adversary-attack", "over")
_PHASE_OF = {name: i for i, name in enumerate(PHASES)}
_DRAW_PHASES = (DEAL, DRAW, MINI_DEF, MINI_ATK)
_CHANCE_SEATS = (CHANCE,)
_DECISIONS = frozenset((ATTACK, DISCARD, DEFEND))
_NOT_CHANCE = _DECISIONS | {OVER}
END_REASONS = ("", "knockout", "deck", "turn-limit")


# ----------------------------------------------------------------------------- options
@dataclass(frozen=True)
class GladiusOptions:
    fighter1: str = option("retiarius", "fighter type of seat 1 (what --me picks)")
    fighter2: str = option("secutor", "fighter type of seat 2, or of the automated opponent in solo play")
    solo: bool = option(False, "solo rules: one person against the rule-driven opponent and its mini-hands")
    first: str = option("auto", "who moves first: auto = the Retiarius if exactly one fighter is one, "
                                "otherwise fighter 1", choices=("auto", "fighter1", "fighter2", "random"))
    mirror: str = option("twice", "mirror match (same type twice): its card set enters the deck twice "
                                  "(one per fighter) or once", choices=("twice", "once"))
    reshuffle: bool = option(True, "when the deck runs out, shuffle the discards into a new deck; if off, "
                                   "the game ends then and more hit points wins")
    hit_points: int = option(0, "starting hit points of both fighters; 0 = each type's own (10 for gladiators)",
                             min=0, max=99)
    starting_hand: int = option(2, "cards each fighter starts with", min=0, max=10)
    hand_limit: int = option(5, "most cards kept after the Maneuver draw", min=1, max=10)
    solo_defence_hand: int = option(0, "solo: cards in the opponent's defence mini-hand; 0 = its type's own",
                                    min=0, max=3)
    solo_attack_hand: int = option(0, "solo: cards in the opponent's attack mini-hand; 0 = its type's own",
                                   min=0, max=3)
    turn_limit: int = option(500, "the game ends after this many turns in all (0 = never); more hit points wins",
                             min=0, max=100_000)
    card_sets: str = option("", "extra card-set files (TOML), comma-separated paths: new fighters or animals",
                            host_path=True)

    def __post_init__(self) -> None:
        cat = load_catalogue(split_paths(self.card_sets))  # raises CardSetError (an InvalidOptions)
        cat.fighter(self.fighter1)
        cat.fighter(self.fighter2)
        if self.starting_hand > self.hand_limit:
            raise InvalidOptions(f"starting-hand ({self.starting_hand}) cannot exceed hand-limit "
                                 f"({self.hand_limit})")


# ----------------------------------------------------------------------------- actions
def card_name(key: str) -> str:
    """The printed name in a card key ("secutor/Armor" -> "Armor")."""
    return key.split("/", 1)[1] if "/" in key else key


def card_label(key: str) -> str:
    """Name plus owner for fighter cards: several types have a card called Armor."""
    owner, _, name = key.partition("/")
    if not name or owner == SHARED_ID:
        return name or key
    return f"{name} ({owner.replace('-', ' ').replace('_', ' ').title()})"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack phase: play an attack card, or ``None`` for no attack."""

    card: str | None

    @property
    def label(self) -> str:
        return "No attack" if self.card is None else f"Attack: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"attack": self.card}


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """Defence phase: answer the attack with a defence card, or ``None`` to take it."""

    card: str | None

    @property
    def label(self) -> str:
        return "No defence" if self.card is None else f"Defend: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"defend": self.card}


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Maneuver phase: discard a card (face up) to get down to the hand limit."""

    card: str

    @property
    def label(self) -> str:
        return f"Discard {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"discard": self.card}


@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    """Chance: ``seat`` draws ``card`` (seen by that seat only)."""

    seat: int
    card: str

    @property
    def label(self) -> str:
        return f"Draw {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"draw": self.card, "seat": self.seat}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True, slots=True)
class FirstPlayer(Action):
    """Chance (``first=random``): which fighter moves first."""

    seat: int

    @property
    def label(self) -> str:
        return f"Fighter {self.seat + 1} moves first"

    def to_json(self) -> Any:
        return {"first": self.seat}


@dataclass(frozen=True, slots=True)
class Reshuffle(Action):
    """Forced chance step: the discards become the new deck (public)."""

    @property
    def label(self) -> str:
        return "The discards are shuffled into a new deck"

    def to_json(self) -> Any:
        return {"reshuffle": True}


@dataclass(frozen=True, slots=True)
class SkipTurn(Action):
    """Forced chance step: an immobilized fighter loses this turn."""

    seat: int

    @property
    def label(self) -> str:
        return f"Fighter {self.seat + 1} is immobilized and loses the turn"

    def to_json(self) -> Any:
        return {"skip": self.seat}


@dataclass(frozen=True, slots=True)
class MiniDraw(Action):
    """Chance (solo): a card drawn face up into the automated opponent's mini-hand."""

    card: str

    @property
    def label(self) -> str:
        return f"Opponent's mini-hand: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"mini": self.card}


@dataclass(frozen=True, slots=True)
class AdversaryAttack(Action):
    """Forced chance step (solo): the opponent attacks with its best card, or cannot."""

    card: str | None

    @property
    def label(self) -> str:
        return "Opponent has no attack" if self.card is None else f"Opponent attacks: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"adversary_attack": self.card}


@dataclass(frozen=True, slots=True)
class AdversaryDefend(Action):
    """Forced chance step (solo): the opponent defends from its mini-hand, or cannot."""

    card: str | None

    @property
    def label(self) -> str:
        return ("Opponent has no defence" if self.card is None
                else f"Opponent defends: {card_label(self.card)}")

    def to_json(self) -> Any:
        return {"adversary_defend": self.card}


NO_ATTACK = Attack(None)
NO_DEFENCE = Defend(None)
RESHUFFLE_ACTION = Reshuffle()
PLAYER_ACTIONS = (Attack, Defend, Discard)


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

_SETUPS: dict[tuple[Any, ...], Setup] = {}


def build_setup(options: GladiusOptions) -> Setup:
    """The deck and tables for ``options`` (cached: options are immutable)."""
    cat = load_catalogue(split_paths(options.card_sets))
    key = (options, id(cat))
    hit = _SETUPS.get(key)
    if hit is not None and hit.catalogue is cat:
        return hit
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
    setup = Setup(
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
    if len(_SETUPS) > 256:
        _SETUPS.clear()
    _SETUPS[key] = setup
    return setup


def _low(mask: int) -> int:
    return mask & -mask


def _nth_card(pile: int, r: int) -> int:
    """Index of the ``r``-th card of ``pile`` (0-based, lowest first): 16 cards at a time, then
    bit by bit (a draw picks one this way, so it runs for every draw of every rollout)."""
    base = 0
    while True:
        n = (pile & 0xFFFF).bit_count()
        if r < n:
            break
        r -= n
        pile >>= 16
        base += 16
    for _ in range(r):
        pile &= pile - 1
    return base + (pile & -pile).bit_length() - 1


# ----------------------------------------------------------------------------- reasons
def illegal_reason(setup: Setup, *, phase: int, side: int, held: Collection[int], hand_size: int,
                   hand_limit: int, barred: int, pending: int, action: Action) -> str | None:
    """Why fighter ``side`` may not play ``action`` now (player-readable), or None if it may.

    Shared by :meth:`GladiusState.why_illegal` and the terminal, which explains every card
    in hand from the seat's observation alone.
    """
    t = type(action)
    if t not in PLAYER_ACTIONS:
        return "that is not a player's move: it belongs to the deck or to the solo opponent"
    if phase == OVER:
        return "the game is over"
    expected = {DISCARD: Discard, ATTACK: Attack, DEFEND: Defend}.get(phase)
    if expected is None:
        return "no fighter decides anything now"
    if t is not expected:
        if phase == DISCARD:
            return f"you hold {hand_size} cards: first discard down to {hand_limit}"
        if phase == ATTACK:
            return "this is your attack phase: play an attack card, or no attack"
        return "you are defending: play a defence card, or no defence"
    card = action.card  # type: ignore[attr-defined]
    if card is None:
        return None
    k = setup.index.get(card)
    if k is None:
        return f"there is no {card_name(card)} card in this game"
    c = setup.kinds[k]
    label = card_label(card)
    if k not in held:
        return f"you do not hold {label}"
    if t is Discard:
        return None
    me = setup.sides[side].name
    if k not in setup.usable[side]:
        if c.set_id == SHARED_ID:
            return f"{label} is a shared card, but a {me} cannot use it"
        return f"{label} is a {setup.set_name(c.set_id)} card; a {me} cannot use it"
    if t is Attack:
        if not c.is_attack:
            return f"{label} is a defence card, not an attack"
        if barred >= 0:
            b = setup.kinds[barred]
            if b.is_evade:
                return f"you may not attack this turn: you evaded with {b.name} last turn"
            return f"you may not attack this turn: a {b.name} costs your next attack"
        return None
    if not c.is_defence:
        return f"{label} is an attack card; to defend play a Block or an Evade"
    if pending >= 0 and c.is_block and setup.kinds[pending].immobilize:
        return f"a Block cannot stop {setup.kinds[pending].name}, which immobilizes; only an Evade can"
    return None


# ----------------------------------------------------------------------------- observation
@dataclass(frozen=True)
class GladiusObservation(Observation):
    """What one seat (or a spectator, ``seat=None``) sees; sides are 0 and 1, the opponent in solo is 1."""

    seat: int | None
    solo: bool
    fighters: tuple[str, str]
    names: tuple[str, str]
    hit_points: tuple[int, int]
    max_hit_points: tuple[int, int]
    phase: str
    active: int
    to_act: int | None
    first: int | None
    turn: int
    turn_limit: int
    dealt: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, int]
    hand_limit: int
    draw_pile: int
    discard: tuple[tuple[str, int], ...]
    table: str | None
    mini_hand: tuple[str, ...]
    mini_left: int
    locked: tuple[str | None, str | None]
    barred: str | None
    skip: tuple[bool, bool]
    resume: str | None
    reshuffles: int
    last_attack: tuple[int, str | None] | None
    last_defence: tuple[int, str | None] | None
    last_result: str
    opponent_known: tuple[str, ...]
    opponent_unknown: int
    known_by_opponent: tuple[str, ...]
    unknown_to_opponent: int
    end: str
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            v = getattr(self, name)
            if isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[name] = v
        return out


_OBS_FIELDS = tuple(GladiusObservation.__dataclass_fields__)


def _new_observation(values: dict[str, Any]) -> GladiusObservation:
    """The observation with exactly these field values.

    The same object as ``GladiusObservation(**values)`` (the class has no defaults and no
    ``__post_init__``), without the frozen ``__init__``'s 35 guarded attribute writes, which
    cost as much as computing the values. ``values`` must name every field (``_OBS_FIELDS``),
    in declaration order; the tests check that observations equal the constructor's.
    """
    obs = object.__new__(GladiusObservation)
    object.__setattr__(obs, "__dict__", values)
    return obs


# ----------------------------------------------------------------------------- state
class GladiusState(State[GladiusOptions]):
    """A Gladius position. Sides 0 and 1 are fighter 1 and 2 (in solo, side 1 is the automated opponent)."""

    def __init__(self, game: Game, options: GladiusOptions, rng: Rng | None, setup: Setup) -> None:
        super().__init__(game, options, rng)
        self.setup = setup
        self.solo = options.solo
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
        self.known = [[0] * nk, [0] * nk]
        self.unknown = [0, 0]
        self.end = ""
        # what observations last showed, with what it was computed from (a copy): the discards,
        # and per side the cards it knows the other holds; both change far less often than
        # observations are made
        self._seen_discard: tuple[int, tuple[tuple[str, int], ...]] = (0, ())
        self._seen_known: tuple[tuple[list[int], tuple[str, ...]], ...] = (([0] * nk, ()), ([0] * nk, ()))

    def _start(self) -> None:
        """Resolve who moves first (or leave it to chance) and begin the deal."""
        opt = self.options.first
        if opt == "random":
            self.phase = FIRST
            return
        if opt == "fighter1":
            first = 0
        elif opt == "fighter2":
            first = 1
        else:
            ids = [s.id for s in self.setup.sides]
            first = 1 if ids.count("retiarius") == 1 and ids[1] == "retiarius" else 0
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
        return _CHANCE_SEATS

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        p = self.phase
        if seat is None or seat != (1 - self.active if p == DEFEND else self.active) or p not in _DECISIONS:
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

    def why_illegal(self, action: Action, seat: int) -> str | None:
        t = type(action)
        p = self.phase
        # fast path for the common legal moves
        if t is Attack and p == ATTACK and seat == self.active:
            if action.card is None:  # type: ignore[attr-defined]
                return None
            k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
            if (k is not None and self.barred < 0 and self.hands[seat] & self.setup.kind_mask[k]
                    & self.setup.attack_phys[seat]):
                return None
        elif t is Defend and p == DEFEND and seat != self.active:
            if action.card is None:  # type: ignore[attr-defined]
                return None
            k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
            if k is not None:
                m = self.hands[seat] & self.setup.kind_mask[k] & self.setup.defence_phys[seat]
                if m and (m & self.setup.evade_phys or not self.setup.kinds[self.pending].immobilize):
                    return None
        elif t is Discard and p == DISCARD and seat == self.active:
            k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
            if k is not None and self.hands[seat] & self.setup.kind_mask[k]:
                return None
        hand = self.hands[seat] if 0 <= seat <= 1 else 0
        return illegal_reason(self.setup, phase=p, side=seat, held=set(self.setup.kinds_in(hand)),
                              hand_size=popcount(hand), hand_limit=self.options.hand_limit,
                              barred=self.barred, pending=self.pending, action=action)

    def apply(self, action: Action, seat: int | None = None) -> None:
        # State.apply without its generic checks for the common case, the seat to move
        # playing a legal move; anything else goes the general way (and raises there)
        p = self.phase
        if (seat is not None and p in _DECISIONS and seat == (1 - self.active if p == DEFEND else self.active)
                and self.why_illegal(action, seat) is None):
            self._apply(seat, action)
            self.history.append((seat, action))
            if self.rng is not None:
                self._settle_chance()
            return
        super().apply(action, seat)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        p = self.phase
        s = self.setup
        if p in _DRAW_PHASES:
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
        if p in _DRAW_PHASES:
            s = self.setup
            pile = self.pile
            k = s.card_kind[_nth_card(pile, rng.below(pile.bit_count()))]
            if p in (MINI_DEF, MINI_ATK):
                return s.mini_actions[k]
            return s.draw_actions[self._draw_target()][k]
        if p == FIRST:
            return FirstPlayer(rng.below(2))
        return self.chance_outcomes()[0][0]

    def _settle_chance(self) -> None:
        # State._settle_chance with the chance test inlined: every phase but the decisions
        # and the end is a chance node (see current_seats)
        rng = self.rng
        assert rng is not None
        history = self.history
        while True:
            p = self.phase
            if p == DRAW:
                # the turn's draw, the commonest chance step: sample_chance and _apply inlined
                s = self.setup
                side = self.active
                pile = self.pile
                k = s.card_kind[_nth_card(pile, rng.below(pile.bit_count()))]
                m = pile & s.kind_mask[k]
                bit = m & -m
                self.pile = pile ^ bit
                self.hands[side] |= bit
                if not self.solo:
                    self.unknown[1 - side] += 1
                self._after_maneuver()
                history.append((CHANCE, s.draw_actions[side][k]))
                continue
            if p in _NOT_CHANCE:
                return
            outcome = self.sample_chance(rng)
            self._apply(CHANCE, outcome)
            history.append((CHANCE, outcome))

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

    # ----------------------------------------------------------------- views
    def _key(self, k: int) -> str | None:
        return None if k < 0 else self.setup.keys[k]

    def _keys_of_counts(self, counts: list[int]) -> tuple[str, ...]:
        return self.setup.keys_of_counts(counts)

    def _pair(self, p: tuple[int, int] | None) -> tuple[int, str | None] | None:
        return None if p is None else (p[0], self._key(p[1]))

    def observation(self, seat: int | None) -> GladiusObservation:
        # Runs for every decision of every heuristic rollout, so it avoids helper calls and
        # the frozen dataclass __init__ (see _new_observation); the values are exactly those
        # of the straightforward construction, which the tests check.
        s = self.setup
        keys = s.keys
        p = self.phase
        if p in (ATTACK, DISCARD):
            to_act: int | None = self.active
        elif p == DEFEND:
            to_act = 1 - self.active
        else:  # chance nodes and the end
            to_act = None
        own = seat is not None and 0 <= seat <= 1
        opp_known: tuple[str, ...] = ()
        opp_unknown = 0
        by_opp: tuple[str, ...] = ()
        unk_opp = 0
        if own and not self.solo:
            assert seat is not None
            known = self.known
            seen = self._seen_known
            if known[0] == seen[0][0] and known[1] == seen[1][0]:
                keys0, keys1 = seen[0][1], seen[1][1]
            else:
                keys0, keys1 = s.keys_of_counts(known[0]), s.keys_of_counts(known[1])
                self._seen_known = ((list(known[0]), keys0), (list(known[1]), keys1))
            opp_known, by_opp = (keys0, keys1) if seat == 0 else (keys1, keys0)
            opp_unknown = self.unknown[seat]
            unk_opp = self.unknown[1 - seat]
        hands = self.hands
        hp = self.hp
        lock = self.lock
        options = self.options
        pending, barred, first, resume = self.pending, self.barred, self.first, self.resume
        la, ld = self.last_attack, self.last_defence
        seen_discard = self._seen_discard
        if seen_discard[0] == self.discard:
            discard = seen_discard[1]
        else:
            discard = s.kind_counts_of(self.discard)
            self._seen_discard = (self.discard, discard)
        if p == OVER:
            a, b = hp
            winners: tuple[int, ...] = (0,) if a > b else (1,) if b > a else (0, 1)
        else:
            winners = ()
        return _new_observation({
            "seat": seat, "solo": self.solo, "fighters": s.fighters, "names": s.names,
            "hit_points": tuple(hp), "max_hit_points": s.hit_points, "phase": PHASES[p],
            "active": self.active, "to_act": to_act, "first": None if first < 0 else first,
            "turn": self.turn, "turn_limit": options.turn_limit, "dealt": self.dealt,
            "hand": s.keys_of(hands[seat]) if own else (),  # type: ignore[index]
            "hand_sizes": (hands[0].bit_count(), hands[1].bit_count()), "hand_limit": options.hand_limit,
            "draw_pile": self.pile.bit_count(),
            "discard": discard,
            "table": None if pending < 0 else keys[pending],
            "mini_hand": s.keys_of(self.mini) if self.mini else (), "mini_left": self.mini_left,
            "locked": (None if lock[0] < 0 else keys[lock[0]], None if lock[1] < 0 else keys[lock[1]]),
            "barred": None if barred < 0 else keys[barred],
            "skip": tuple(self.skip), "resume": None if resume < 0 else PHASES[resume],
            "reshuffles": self.reshuffles,
            "last_attack": None if la is None else (la[0], None if la[1] < 0 else keys[la[1]]),
            "last_defence": None if ld is None else (ld[0], None if ld[1] < 0 else keys[ld[1]]),
            "last_result": self.last_result,
            "opponent_known": opp_known, "opponent_unknown": opp_unknown, "known_by_opponent": by_opp,
            "unknown_to_opponent": unk_opp, "end": self.end, "winners": winners,
        })

    # ----------------------------------------------------------------- copies
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

    def _counts_json(self, mask: int) -> dict[str, int]:
        s = self.setup
        return {s.kinds[k].key: n for k, n in enumerate(s.count_kinds(mask)) if n}

    def _position(self) -> dict[str, Any]:
        s = self.setup
        return {
            "phase": PHASES[self.phase],
            "active": self.active,
            "first": None if self.first < 0 else self.first,
            "turn": self.turn,
            "dealt": self.dealt,
            "hp": list(self.hp),
            "hands": [list(s.keys_of(self.hands[0])), list(s.keys_of(self.hands[1]))],
            "pile": self._counts_json(self.pile),
            "discard": self._counts_json(self.discard),
            "table": self._key(self.pending),
            "mini": list(s.keys_of(self.mini)),
            "mini_left": self.mini_left,
            "lock": [self._key(self.lock[0]), self._key(self.lock[1])],
            "barred": self._key(self.barred),
            "skip": list(self.skip),
            "resume": None if self.resume < 0 else PHASES[self.resume],
            "reshuffles": self.reshuffles,
            "last_attack": None if self.last_attack is None else list(self._pair(self.last_attack)),  # type: ignore[arg-type]
            "last_defence": None if self.last_defence is None else list(self._pair(self.last_defence)),  # type: ignore[arg-type]
            "last_result": self.last_result,
            "known": [list(self._keys_of_counts(self.known[0])), list(self._keys_of_counts(self.known[1]))],
            "unknown": list(self.unknown),
            "end": self.end,
        }


# ----------------------------------------------------------------------------- reading positions
def _kind(setup: Setup, key: Any, what: str, allow_none: bool = True) -> int:
    if key is None and allow_none:
        return -1
    if not isinstance(key, str) or key not in setup.index:
        raise RecordError(f"{what}: unknown card {show(key, 40)}")
    return setup.index[key]


def _count_list(setup: Setup, keys: Any, what: str) -> list[int]:
    if not isinstance(keys, list):
        raise RecordError(f"{what} must be a list of cards")
    out = [0] * len(setup.kinds)
    for key in keys:
        out[_kind(setup, key, what, False)] += 1
    return out


def _count_map(setup: Setup, data: Any, what: str) -> list[int]:
    if not isinstance(data, Mapping):
        raise RecordError(f"{what} must be an object of card counts")
    out = [0] * len(setup.kinds)
    for key, n in data.items():
        out[_kind(setup, key, what, False)] = whole_number(n, f"{what} count of {key}", 0, 10_000)
    return out


def _pair_in(setup: Setup, v: Any, what: str) -> tuple[int, int] | None:
    if v is None:
        return None
    if not isinstance(v, list) or len(v) != 2:
        raise RecordError(f"{what} must be [side, card] or null")
    return (whole_number(v[0], f"{what} side", 0, 1), _kind(setup, v[1], what))


_RESULTS = ("", "hit", "evaded", "blocked", "no attack", "skipped")
"""Every value ``last_result`` takes."""


def position_to_state(game: Game, options: GladiusOptions, rng: Rng | None, data: Any) -> GladiusState:
    """Inverse of ``GladiusState._position``. Every field is checked, every card of the deck must be
    in one place, and the position as a whole must be one the rules stop at (see
    :func:`_check_position`); anything else raises RecordError naming the field."""
    if not isinstance(data, Mapping):
        raise RecordError("a Gladius position must be an object")
    setup = build_setup(options)
    st = GladiusState(game, options, rng, setup)
    phase = required(data, "phase")
    if not isinstance(phase, str) or phase not in _PHASE_OF:
        raise RecordError(f"position field 'phase': unknown phase {show(phase, 40)}")
    st.phase = _PHASE_OF[phase]
    st.active = whole_number(required(data, "active"), "active", 0, 1)
    first = data.get("first")
    st.first = -1 if first is None else whole_number(first, "first", 0, 1)
    st.turn = whole_number(required(data, "turn"), "turn", 0, 10**9)
    st.dealt = whole_number(required(data, "dealt"), "dealt", 0, 1000)
    hp = required(data, "hp")
    if not isinstance(hp, list) or len(hp) != 2:
        raise RecordError("hp must be two numbers")
    st.hp = [whole_number(hp[0], "hp", 0, 999), whole_number(hp[1], "hp", 0, 999)]
    hands = required(data, "hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise RecordError("hands must be two lists")
    counts = {
        "hand 1": _count_list(setup, hands[0], "hand 1"),
        "hand 2": _count_list(setup, hands[1], "hand 2"),
        "pile": _count_map(setup, required(data, "pile"), "pile"),
        "discard": _count_map(setup, required(data, "discard"), "discard"),
        "mini": _count_list(setup, required(data, "mini"), "mini"),
    }
    table = _kind(setup, data.get("table"), "table")
    st.pending = table
    tab = [0] * len(setup.kinds)
    if table >= 0:
        tab[table] = 1
    for k, total in enumerate(map(sum, zip(*counts.values(), tab))):
        c = setup.kinds[k]
        if total != c.count:
            raise RecordError(f"the position holds {total} of {c.key}, the deck has {c.count}")
    # hand out physical copies of each kind, lowest first: the copies of a kind are
    # consecutive bits, so each place gets a run of them (in the order of ``counts``)
    masks = dict.fromkeys(counts, 0)
    places = list(counts.items())
    table_mask = 0
    for k, km in enumerate(setup.kind_mask):
        pos = (km & -km).bit_length() - 1
        for name, place_counts in places:
            n = place_counts[k]
            if n:
                masks[name] |= ((1 << n) - 1) << pos
                pos += n
        if tab[k]:
            table_mask = 1 << pos
    st.hands = [masks["hand 1"], masks["hand 2"]]
    st.pile, st.discard, st.mini, st.table = masks["pile"], masks["discard"], masks["mini"], table_mask
    st.mini_left = whole_number(required(data, "mini_left"), "mini_left", 0, 3)
    lock = required(data, "lock")
    if not isinstance(lock, list) or len(lock) != 2:
        raise RecordError("lock must be two entries")
    st.lock = [_kind(setup, lock[0], "lock"), _kind(setup, lock[1], "lock")]
    st.barred = _kind(setup, data.get("barred"), "barred")
    skip = required(data, "skip")
    if not isinstance(skip, list) or len(skip) != 2 or not all(isinstance(x, bool) for x in skip):
        raise RecordError("skip must be two true/false values")
    st.skip = list(skip)
    resume = data.get("resume")
    if resume is not None and (not isinstance(resume, str) or resume not in _PHASE_OF):
        raise RecordError(f"position field 'resume': unknown phase {show(resume, 40)}")
    st.resume = -1 if resume is None else _PHASE_OF[resume]
    st.reshuffles = whole_number(required(data, "reshuffles"), "reshuffles", 0, 10**9)
    st.last_attack = _pair_in(setup, data.get("last_attack"), "last_attack")
    st.last_defence = _pair_in(setup, data.get("last_defence"), "last_defence")
    result = data.get("last_result", "")
    if result not in _RESULTS:
        raise RecordError(f"last_result must be one of {', '.join(map(repr, _RESULTS))}, not {show(result, 40)}")
    st.last_result = result
    known = required(data, "known")
    unknown = required(data, "unknown")
    if not isinstance(known, list) or len(known) != 2 or not isinstance(unknown, list) or len(unknown) != 2:
        raise RecordError("known and unknown must have one entry per fighter")
    st.known = [_count_list(setup, known[0], "known"), _count_list(setup, known[1], "known")]
    st.unknown = [whole_number(unknown[0], "unknown", 0, 1000), whole_number(unknown[1], "unknown", 0, 1000)]
    end = data.get("end", "")
    if not isinstance(end, str) or end not in END_REASONS:
        raise RecordError(f"unknown end reason {show(end, 40)}")
    st.end = end
    # consistency checks a hand-edited position might break
    if (st.end != "") != (st.phase == OVER):
        raise RecordError("'end' must be given exactly when the phase is 'over'")
    if st.solo and (st.hands[1] or any(st.known[0]) or any(st.known[1]) or any(st.unknown)):
        raise RecordError("in solo play the opponent holds no hand")
    if not st.solo and st.mini:
        raise RecordError("only solo play has a mini-hand")
    awaiting = st.phase in (DEFEND, MINI_DEF, ADV_DEF) or (st.phase == RESHUFFLE and st.resume == MINI_DEF)
    if st.phase != OVER and (st.pending >= 0) != awaiting:
        raise RecordError("an attack card is on the table exactly while a defence is awaited")
    if st.phase in (DEFEND, ADV_DEF, MINI_DEF) and not setup.kinds[st.pending].is_attack:
        raise RecordError("the card on the table must be an attack")
    if (st.phase in (FIRST,) and st.first >= 0) or (st.phase != FIRST and st.first < 0):
        raise RecordError("'first' is unset exactly while the first player is being drawn")
    if st.phase == RESHUFFLE and st.resume not in _DRAW_PHASES:
        raise RecordError("a reshuffle must say which draw it resumes")
    if not st.solo:
        for v in (0, 1):
            hand = setup.count_kinds(st.hands[1 - v])
            if any(a > b for a, b in zip(st.known[v], hand)) or sum(st.known[v]) + st.unknown[v] != sum(hand):
                raise RecordError("card-counting knowledge does not match the hands")
    _check_position(st)
    return st


def _check_position(st: GladiusState) -> None:
    """Whole-position rules: who may act in each phase, hand sizes, hit points, what a chance
    node needs to draw, and how the game ended (the fields are already in range)."""
    o, s, p = st.options, st.setup, st.phase
    name = PHASES[p]
    total = st._deal_total()
    if (p == DEAL and st.dealt >= total) or (p == FIRST and st.dealt):
        raise RecordError(f"position field 'dealt' does not fit phase {name!r} ({total} cards are dealt)")
    if p != OVER and (p in (FIRST, DEAL) or (p == RESHUFFLE and st.resume == DEAL)) != (st.turn == 0):
        raise RecordError("position field 'turn' is 0 exactly until the deal is over")
    if o.turn_limit and st.turn > o.turn_limit:
        raise RecordError(f"position field 'turn' is past the turn limit ({o.turn_limit})")
    for side in (0, 1):
        if st.hp[side] > s.hit_points[side]:
            raise RecordError(f"position field 'hp': fighter {side + 1} has more than "
                              f"{s.hit_points[side]} hit points")
    if (0 in st.hp) != (st.end == "knockout"):
        raise RecordError("position field 'end' is 'knockout' exactly when a fighter has no hit points left")
    if (st.end == "deck" and o.reshuffle) or (st.end == "turn-limit" and st.turn != o.turn_limit):
        raise RecordError(f"position field 'end': the game cannot have ended by {st.end!r} with these options")
    if st.resume >= 0 and p != RESHUFFLE:
        raise RecordError("position field 'resume' is set only while the discards are reshuffled")
    if p == RESHUFFLE and (not st.discard or not o.reshuffle or st.pile):
        raise RecordError("position phase 'reshuffle' needs an empty deck, discards and the reshuffle option")
    draw = st.resume if p == RESHUFFLE else p
    if p in _DRAW_PHASES and not st.pile:
        raise RecordError(f"position phase {name!r} needs a card in the deck to draw")
    if p == OVER:
        return  # an empty deck without reshuffling can end the game in the middle of anything
    if (draw in (MINI_DEF, MINI_ATK)) != (st.mini_left > 0):
        raise RecordError("position field 'mini_left' counts the mini-hand cards still to draw, only while they are")
    if st.mini and not (draw in (MINI_DEF, MINI_ATK) or p in (ADV_DEF, ADV_ATK)):
        raise RecordError("position field 'mini': the mini-hand exists only while the opponent draws and plays it")
    if st.solo:
        sides = {ATTACK: 0, DISCARD: 0, DRAW: 0, DEFEND: 1, MINI_DEF: 0, ADV_DEF: 0, MINI_ATK: 1, ADV_ATK: 1}
        if p in sides and st.active != sides[p]:
            raise RecordError(f"position field 'active' must be {sides[p]} in phase {name!r} of solo play")
        if draw in (MINI_DEF, MINI_ATK) and st.mini.bit_count() + st.mini_left > (
                s.mini_def if draw == MINI_DEF else s.mini_atk):
            raise RecordError("position field 'mini': more cards than the opponent's mini-hand holds")
    elif p in (MINI_DEF, ADV_DEF, MINI_ATK, ADV_ATK) or draw in (MINI_DEF, MINI_ATK):
        raise RecordError(f"position phase {name!r} belongs to solo play")
    if p == SKIP and not st.skip[st.active]:
        raise RecordError("position phase 'skip': the active fighter must be the one that skips a turn")
    limit = o.hand_limit
    if p not in (FIRST, DEAL) and not (p == RESHUFFLE and st.resume == DEAL):
        hands = [h.bit_count() for h in st.hands]
        if hands[1 - st.active] > limit or hands[st.active] > limit + 1:
            raise RecordError(f"position field 'hands': a fighter holds more than the hand limit ({limit}) allows")
        if (p == DISCARD and hands[st.active] <= limit) or (p == ATTACK and hands[st.active] > limit):
            raise RecordError(f"position phase {name!r} does not fit the active fighter's hand size")
    elif max(h.bit_count() for h in st.hands) > o.starting_hand:
        raise RecordError("position field 'hands': more cards than the deal gives")


# ----------------------------------------------------------------------------- game
class GladiusGame(Game):
    name = "gladius"
    title = "Gladius"
    summary = ("Two gladiators, one shared deck: maneuver, attack, defend, hit. Seven fighter types, "
               "solo rules with mini-hands, and user card sets (new fighters or animals).")
    Options = GladiusOptions
    min_seats = 1
    max_seats = 2

    def num_seats(self, options: GladiusOptions) -> int:
        return 1 if options.solo else 2

    def seat_names(self, options: GladiusOptions) -> list[str]:
        names = list(build_setup(options).names)
        return names[:1] if options.solo else names

    def setup(self, options: Any) -> Setup:
        """The deck and card tables for these options (for adapters and agents)."""
        return build_setup(self.parse_options(options))

    def _new_state(self, options: GladiusOptions, rng: Rng | None) -> GladiusState:
        st = GladiusState(self, options, rng, build_setup(options))
        st._start()
        return st

    def _state_from_position(self, options: GladiusOptions, rng: Rng | None, data: Any) -> State:
        return position_to_state(self, options, rng, data)

    def action_from_json(self, data: Any) -> Action:
        if not isinstance(data, Mapping) or not data:
            raise RecordError(f"a Gladius action must be an object, not {data!r}")
        keys = set(data)

        def card(field: str, allow_none: bool) -> str | None:
            v = data[field]
            if v is None and allow_none:
                return None
            if not isinstance(v, str) or "/" not in v:
                raise RecordError(f"{field!r} must name a card as 'set/Name', not {v!r}")
            return v

        def seat(field: str) -> int:
            v = data[field]
            if not isinstance(v, int) or isinstance(v, bool) or v not in (0, 1):
                raise RecordError(f"{field!r} must be 0 or 1, not {v!r}")
            return v

        if keys == {"attack"}:
            return Attack(card("attack", True))
        if keys == {"defend"}:
            return Defend(card("defend", True))
        if keys == {"discard"}:
            return Discard(card("discard", False))  # type: ignore[arg-type]
        if keys == {"draw", "seat"}:
            return DrawCard(seat("seat"), card("draw", False))  # type: ignore[arg-type]
        if keys == {"mini"}:
            return MiniDraw(card("mini", False))  # type: ignore[arg-type]
        if keys == {"adversary_attack"}:
            return AdversaryAttack(card("adversary_attack", True))
        if keys == {"adversary_defend"}:
            return AdversaryDefend(card("adversary_defend", True))
        if keys == {"skip"}:
            return SkipTurn(seat("skip"))
        if keys == {"first"}:
            return FirstPlayer(seat("first"))
        if keys == {"reshuffle"}:
            if data["reshuffle"] is not True:
                raise RecordError("'reshuffle' must be true")
            return RESHUFFLE_ACTION
        raise RecordError(f"unknown Gladius action {dict(data)!r}")

    def explain(self, view: SeatView, action: Action) -> str | None:
        """Why the viewing seat may not play ``action`` now, from its view alone (for clients)."""
        obs: GladiusObservation = view.observation
        setup = build_setup(view.options)
        held = {setup.index[k] for k in obs.hand}
        phase = _PHASE_OF[obs.phase]
        if obs.to_act != view.seat:
            return "the game is over" if phase == OVER else "it is not your decision now"
        return illegal_reason(setup, phase=phase, side=view.seat, held=held, hand_size=len(obs.hand),
                              hand_limit=obs.hand_limit,
                              barred=-1 if obs.barred is None else setup.index[obs.barred],
                              pending=-1 if obs.table is None else setup.index[obs.table], action=action)

    def sample_state(self, view: SeatView, rng: Rng) -> State:
        """A full state agreeing with all ``view.seat`` knows: its hand, every public card, and
        the cards it knows the opponent holds; the rest of the opponent's hand is drawn at random
        from the cards not accounted for, and the deck is whatever remains."""
        obs: GladiusObservation = view.observation
        options = view.options
        setup = build_setup(options)
        v = view.seat
        nk = len(setup.kinds)
        pool = setup.counts()
        hands: list[list[str]] = [[], []]
        known: list[list[str]] = [[], []]
        unknown = [0, 0]

        def take(keys: Any) -> None:
            for key in keys:
                pool[setup.index[key]] -= 1

        take(obs.hand)
        take(obs.mini_hand)
        if obs.table is not None:
            take([obs.table])
        for key, n in obs.discard:
            pool[setup.index[key]] -= n
        hands[v] = list(obs.hand)
        if not obs.solo:
            o = 1 - v
            take(obs.opponent_known)
            cards = [k for k in range(nk) for _ in range(pool[k])]
            n = obs.opponent_unknown
            for i in range(n):  # partial Fisher-Yates: n cards at random from the pool
                j = i + rng.below(len(cards) - i)
                cards[i], cards[j] = cards[j], cards[i]
            drawn = cards[:n]
            for k in drawn:
                pool[k] -= 1
            hands[o] = list(obs.opponent_known) + [setup.kinds[k].key for k in drawn]
            known[v] = list(obs.opponent_known)
            known[o] = list(obs.known_by_opponent)
            unknown[v] = obs.opponent_unknown
            unknown[o] = obs.unknown_to_opponent
        if any(n < 0 for n in pool):  # pragma: no cover - observations are consistent
            raise RecordError("observation is inconsistent with the deck")
        position = {
            "phase": obs.phase, "active": obs.active, "first": obs.first, "turn": obs.turn,
            "dealt": obs.dealt, "hp": list(obs.hit_points), "hands": hands,
            "pile": {setup.kinds[k].key: n for k, n in enumerate(pool) if n},
            "discard": dict(obs.discard), "table": obs.table,
            "mini": list(obs.mini_hand), "mini_left": obs.mini_left, "lock": list(obs.locked),
            "barred": obs.barred, "skip": list(obs.skip), "resume": obs.resume,
            "reshuffles": obs.reshuffles,
            "last_attack": None if obs.last_attack is None else list(obs.last_attack),
            "last_defence": None if obs.last_defence is None else list(obs.last_defence),
            "last_result": obs.last_result, "known": known, "unknown": unknown, "end": obs.end,
        }
        return position_to_state(self, options, Rng(rng.next_u64()), position)


GAME = GladiusGame()
