"""The rules of Three cards, written against Ludus's core protocol only.

A deck of three cards (1, 2, 3). Each of the two players puts ``ante`` chips in the pot and
is dealt one card face down; the third card is never seen. Seat 1 passes or bets one chip.
After a pass, seat 2 passes (showdown) or bets; facing a bet, a player folds (the other
takes the pot) or calls (showdown). At a showdown both cards are shown and the higher one
takes the pot. A seat's score is its net gain in chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ludus.core.errors import RecordError
from ludus.core.game import CHANCE, Action, Game, Observation, SeatView, State
from ludus.core.options import option
from ludus.core.rng import Rng

__all__ = ["CARDS", "GAME", "Deal", "Move", "ThreeCards", "ThreeCardsOptions", "ThreeCardsState"]

CARDS = (1, 2, 3)
BET = 1  # chips a bet (and a call) adds to the pot


@dataclass(frozen=True)
class ThreeCardsOptions:
    """The one option: the ante each player pays before the deal."""

    ante: int = option(1, "chips each player puts in the pot before the deal", min=1, max=5)


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Move(Action):
    """A betting decision: ``pass``, ``bet``, ``call`` or ``fold`` (public)."""

    kind: str

    @property
    def label(self) -> str:
        return {"pass": "pass", "bet": f"bet {BET}", "call": "call", "fold": "fold"}[self.kind]

    def to_json(self) -> Any:
        return {"move": self.kind}


@dataclass(frozen=True)
class Deal(Action):
    """Chance: ``seat`` is dealt ``card`` face down (only that seat sees it)."""

    seat: int
    card: int

    @property
    def label(self) -> str:
        return f"Seat {self.seat + 1} is dealt card {self.card}"

    def to_json(self) -> Any:
        return {"deal": self.seat, "card": self.card}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


PASS, BET_MOVE, CALL, FOLD = (Move(k) for k in ("pass", "bet", "call", "fold"))
MOVES = {m.kind: m for m in (PASS, BET_MOVE, CALL, FOLD)}
DEALS = {(s, c): Deal(s, c) for s in (0, 1) for c in CARDS}

# Betting so far -> (seat to act, legal moves); a sequence not listed here has ended the game.
NEXT: dict[tuple[str, ...], tuple[int, tuple[Move, ...]]] = {
    (): (0, (PASS, BET_MOVE)),
    ("pass",): (1, (PASS, BET_MOVE)),
    ("pass", "bet"): (0, (FOLD, CALL)),
    ("bet",): (1, (FOLD, CALL)),
}


# --------------------------------------------------------------------------- observation
@dataclass(frozen=True)
class ThreeCardsObservation(Observation):
    """What one seat (or a spectator, ``seat=None``) may see."""

    seat: int | None
    your_card: int | None
    dealt: int
    ante: int
    stakes: tuple[int, int]
    moves: tuple[str, ...]
    to_act: int | None
    shown: tuple[int | None, int | None]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "your_card": self.your_card,
            "dealt": self.dealt,
            "ante": self.ante,
            "pot": sum(self.stakes),
            "stakes": list(self.stakes),
            "moves": list(self.moves),
            "to_act": self.to_act,
            "shown": list(self.shown),
            "winner": self.winner,
        }


# --------------------------------------------------------------------------- state
class ThreeCardsState(State[ThreeCardsOptions]):
    """Two cards (None until dealt) and the public betting sequence."""

    def __init__(self, game: Game, options: ThreeCardsOptions, rng: Rng | None) -> None:
        super().__init__(game, options, rng)
        self.cards: list[int | None] = [None, None]
        self.moves: list[str] = []

    # ----------------------------------------------------------------- queries
    def _dealt(self) -> int:
        return sum(c is not None for c in self.cards)

    def current_seats(self) -> tuple[int, ...]:
        if self._dealt() < 2:
            return (CHANCE,)
        nxt = NEXT.get(tuple(self.moves))
        return () if nxt is None else (nxt[0],)

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        acting = self._acting_seat(seat)
        if acting is None or acting == CHANCE:
            return ()
        return NEXT[tuple(self.moves)][1]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        seat = self._dealt()
        left = [c for c in CARDS if c not in self.cards]
        return [(DEALS[seat, c], 1.0 / len(left)) for c in left]

    def stakes(self) -> tuple[int, int]:
        """Chips each seat has put in the pot."""
        put = [self.options.ante, self.options.ante]
        for i, kind in enumerate(self.moves):
            if kind in ("bet", "call"):
                put[self._mover(i)] += BET
        return put[0], put[1]

    @staticmethod
    def _mover(index: int) -> int:
        """Who made the ``index``-th betting move (seats alternate, seat 0 first)."""
        return index % 2

    def showdown(self) -> bool:
        return self.is_terminal() and self.moves[-1] != "fold"

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        if self.moves[-1] == "fold":
            return [1 - self._mover(len(self.moves) - 1)]
        c0, c1 = self.cards
        assert c0 is not None and c1 is not None
        return [0 if c0 > c1 else 1]

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        win = self.winners()[0]
        stakes = self.stakes()
        gain = float(stakes[1 - win])
        return [gain if s == win else -gain for s in (0, 1)]

    def observation(self, seat: int | None) -> ThreeCardsObservation:
        show = self.showdown()
        seats = self.current_seats()
        return ThreeCardsObservation(
            seat=seat,
            your_card=None if seat is None else self.cards[seat],
            dealt=self._dealt(),
            ante=self.options.ante,
            stakes=self.stakes(),
            moves=tuple(self.moves),
            to_act=seats[0] if seats and seats[0] != CHANCE else None,
            shown=(self.cards[0], self.cards[1]) if show else (None, None),
            winner=self.winners()[0] if self.is_terminal() else None,
        )

    # ----------------------------------------------------------------- moves
    def _apply(self, seat: int, action: Action) -> None:
        if isinstance(action, Deal):
            self.cards[action.seat] = action.card
        else:
            assert isinstance(action, Move)
            self.moves.append(action.kind)

    # ----------------------------------------------------------------- copies
    def clone(self) -> ThreeCardsState:
        new = ThreeCardsState(self.game, self.options, None if self.rng is None else self.rng.clone())
        new.cards = list(self.cards)
        new.moves = list(self.moves)
        new.history = list(self.history)
        return new

    def _position(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "moves": list(self.moves)}


# --------------------------------------------------------------------------- game
class ThreeCards(Game):
    """The ruleset: two seats, one option, three cards."""

    name = "three-cards"
    title = "Three cards"
    summary = "Each player gets one of three cards face down, then a round of pass, bet, call or fold."
    Options = ThreeCardsOptions
    min_seats = 2
    max_seats = 2

    def num_seats(self, options: Any) -> int:
        return 2

    def _new_state(self, options: ThreeCardsOptions, rng: Rng | None) -> ThreeCardsState:
        return ThreeCardsState(self, options, rng)

    def _state_from_position(self, options: ThreeCardsOptions, rng: Rng | None, data: Any) -> ThreeCardsState:
        cards = data.get("cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise RecordError("position 'cards' must be a list of two entries")
        for c in cards:
            if c is not None and (not isinstance(c, int) or isinstance(c, bool) or c not in CARDS):
                raise RecordError(f"position 'cards': {c!r} is not a card (1, 2, 3 or null)")
        if cards[0] is None and cards[1] is not None:
            raise RecordError("position 'cards': seat 1 is dealt before seat 2")
        if cards[0] is not None and cards[0] == cards[1]:
            raise RecordError("position 'cards': both seats hold the same card")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("position 'moves' must be a list of move names")
        if moves and None in cards:
            raise RecordError("position 'moves': betting before both cards are dealt")
        state = ThreeCardsState(self, options, rng)
        state.cards = list(cards)
        for i, kind in enumerate(moves):
            nxt = NEXT.get(tuple(moves[:i]))
            if nxt is None or kind not in (m.kind for m in nxt[1]):
                raise RecordError(f"position 'moves': {kind!r} cannot follow {moves[:i]!r}")
            state.moves.append(kind)
        return state

    def action_from_json(self, data: Any) -> Action:
        if isinstance(data, dict) and set(data) == {"move"} and data["move"] in MOVES:
            return MOVES[data["move"]]
        if isinstance(data, dict) and set(data) == {"deal", "card"}:
            key = (data["deal"], data["card"])
            if all(isinstance(v, int) and not isinstance(v, bool) for v in key) and key in DEALS:
                return DEALS[key]
        raise RecordError(f"not a three-cards action: {data!r}")

    def sample_state(self, view: SeatView, rng: Rng) -> ThreeCardsState:
        """Deal the cards the seat cannot see at random among those left, and replay the
        public betting: the sampled past looks to the seat exactly like the real one."""
        obs: ThreeCardsObservation = view.observation
        cards: list[int | None] = list(obs.shown) if obs.shown[0] is not None else [None, None]
        cards[view.seat] = obs.your_card
        for s in range(obs.dealt):
            if cards[s] is None:
                cards[s] = rng.choice([c for c in CARDS if c not in cards])
        state = ThreeCardsState(self, view.options, None)
        for s in range(obs.dealt):
            card = cards[s]
            assert card is not None
            state.apply(DEALS[s, card], CHANCE)
        for kind in obs.moves:
            state.apply(MOVES[kind])
        state.rng = rng.spawn()  # the sample's own future chance (none is left once both are dealt)
        return state


GAME = ThreeCards()
