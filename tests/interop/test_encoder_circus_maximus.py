"""The exact Circus Maximus encoder: distinct observations get distinct vectors, the vector is a
function of the observation alone, every slot stays within its bounds, and the bridges use it.

Every option set that changes the vector's shape (players; a card file with other kinds and
counts) or what an observation can hold (the Caesar variant, the start-card reading) is walked.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.circus_maximus.actions import Sell
from ludus.games.circus_maximus.cards import DEFAULT_PATH, FAVOUR_KEYS
from ludus.games.circus_maximus.encoding import CircusMaximusEncoder
from ludus.interop.specs import encoder_for

GAME = get_game("circus-maximus")

# A card file with another ticket kind, another visitor kind and more III +Ticket favours: the
# ticket, visitor and sales pieces change size.
_OWN_CARDS = DEFAULT_PATH.read_text(encoding="utf-8").replace(
    'key = "double_sale"\ncoins = 1\ncount = 2', 'key = "double_sale"\ncoins = 1\ncount = 3') + """
[[ticket]]
venue = "theatre"
seat = "standing"
coins = 0
count = 3

[[visitor]]
key = "vestal"
name = "Vestal"
coins = 5
count = 2
"""

CASES: dict[str, dict[str, Any]] = {
    "3p": {"players": 3},
    "4p": {"players": 4},
    "5p": {"players": 5},
    "4p-caesar": {"players": 4, "caesar": True},
    "3p-caesar-extra-pick": {"players": 3, "caesar": True, "start_card": "extra-pick"},
    "4p-own-cards": {"players": 4, "caesar": True, "cards": "OWN"},
}


@pytest.fixture(scope="module")
def own_cards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cm-cards") / "own.toml"
    path.write_text(_OWN_CARDS, encoding="utf-8")
    return path


def _options(case: str, own_cards: Path) -> Any:
    values = dict(CASES[case])
    if values.get("cards") == "OWN":
        values["cards"] = str(own_cards)
    return GAME.parse_options(values)


def _walk(options: Any, seed: int, sell: bool = False) -> list[Any]:
    """Every state of one random game, chance nodes included (no state rng, so pending draws
    show), in order. Uniform moves rarely sell, so with ``sell`` a seat that can sell does
    (doubled when it can): more and longer sale lists, nearer their bound."""
    state = GAME.new_initial_state(options, seed=None)
    rng = Rng(seed)
    states = [state.clone()]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            legal = state.legal_actions(seat)
            sales = [a for a in legal if isinstance(a, Sell)]
            if sell and sales:
                legal = [a for a in sales if a.double] or sales
            state.apply(rng.choice(legal), seat)
        states.append(state.clone())
    return states


def _key(obs: Any) -> str:
    return json.dumps(obs.to_json(), sort_keys=True)


@pytest.mark.parametrize("case", list(CASES))
def test_distinct_observations_get_distinct_vectors_within_bounds(case, own_cards):
    options = _options(case, own_cards)
    enc = encoder_for(GAME, options)
    assert isinstance(enc, CircusMaximusEncoder)
    low, high = enc.bounds()
    n = options.players
    by_vector: dict[bytes, str] = {}
    by_obs: dict[str, bytes] = {}
    for seed in range(4):
        for state in _walk(options, seed, sell=seed % 2 == 1):
            for seat in [None, *range(n)]:
                obs = state.observation(seat)
                x = enc.encode(obs)
                assert x.shape == (enc.size,) and x.dtype == np.float32
                bad = [p.name for p, v in zip(enc.pieces, enc.views(x).values(), strict=True)
                       if (v < 0).any() or (v > p.high).any()]
                assert not bad, f"out of bounds: {bad}"
                assert (low <= x).all() and (x <= high).all()
                b, j = x.tobytes(), _key(obs)
                assert by_vector.setdefault(b, j) == j, "two different observations share a vector"
                assert by_obs.setdefault(j, b) == b, "one observation got two vectors"
    assert len(by_vector) > 500  # the walk did see many observations


@pytest.mark.parametrize("case", ["4p", "3p-caesar-extra-pick", "4p-own-cards"])
def test_the_vector_depends_on_the_observation_only(case, own_cards):
    options = _options(case, own_cards)
    warm = CircusMaximusEncoder(options)
    states = _walk(options, 5)
    for i, state in enumerate(states[::7]):
        if state.is_terminal():
            continue
        seats = state.current_seats()
        obs = state.observation(None)
        x = warm.encode(obs)
        assert (warm.encode(obs) == x).all()  # the same object twice
        assert (CircusMaximusEncoder(options).encode(obs) == x).all()  # no state kept between calls
        if seats[0] == CHANCE:
            continue
        seat = seats[0]
        view = state.view(seat)
        mine = warm.encode(view.observation)
        for k in range(2):  # a determinization gives the same observation, hence the same vector
            sample = GAME.sample_state(view, Rng(100 * i + k))
            assert sample.observation(seat) == view.observation
            assert (warm.encode(sample.observation(seat)) == mine).all()
            for other in [None, *range(options.players)]:
                assert (warm.encode(sample.observation(other)) == warm.encode(state.observation(other))).all()


def _counts(row: np.ndarray, keys: list[str]) -> Counter[str]:
    return Counter({k: int(c) for k, c in zip(keys, row, strict=True) if c})


def test_slots_decode_back_to_the_observation(own_cards):
    """The pieces mean what the docs say: lines, card zones, sales and draws read back exactly."""
    options = _options("4p-own-cards", own_cards)
    enc = CircusMaximusEncoder(options)
    d = GAME.cards(options)
    tickets, visitors = [t.key for t in d.tickets], [v.key for v in d.visitors]
    what = tickets + ["favour:" + f for f in FAVOUR_KEYS]
    lines = ("villa", "forum", "circus", "colosseum", "theatre")
    checked, with_sales = 0, 0
    for state in [s for seed in range(12, 16) for s in _walk(options, seed, sell=True)]:
        obs = state.observation(1)
        v = enc.views(enc.encode(obs))
        assert list(np.flatnonzero(v["seat"])) == [1]
        got: list[list[tuple[int, int, int, int]]] = [[] for _ in lines]
        for seat, rank, li in zip(*np.nonzero(v["trader_line"]), strict=True):
            got[li].append((int(v["trader_place"][seat, rank]), int(seat), int(rank) + 1,
                            int(v["trader_effective"][seat, rank])))
        assert tuple(tuple((s, r, e) for _p, s, r, e in sorted(line)) for line in got) == obs.lines
        assert all([p for p, *_ in sorted(line)] == list(range(1, len(line) + 1)) for line in got)
        assert _counts(v["forum"], tickets) == Counter(obs.forum)
        assert _counts(v["visitor_deck"], visitors) == Counter(obs.visitor_deck)
        assert _counts(v["favour_deck"], list(FAVOUR_KEYS)) == Counter(obs.favour_deck)
        for seat in range(4):
            assert _counts(v["tickets"][seat], tickets) == Counter(obs.tickets[seat])
            assert tuple(int(r) + 1 for r in np.flatnonzero(v["hands"][seat])) == obs.hands[seat]
            sold = [(what[int(np.argmax(w))], visitors[int(np.argmax(vis))], int(c))
                    for w, vis, c in zip(v["sales_what"][seat], v["sales_visitor"][seat],
                                         v["sales_coins"][seat], strict=True) if vis.any()]
            assert tuple(sold) == obs.sales[seat]
            for day, seats in enumerate(obs.past_sales):
                sold = [(what[int(np.argmax(w))], visitors[int(np.argmax(vis))], int(c))
                        for w, vis, c in zip(v["past_sales_what"][day, seat], v["past_sales_visitor"][day, seat],
                                             v["past_sales_coins"][day, seat], strict=True) if vis.any()]
                assert tuple(sold) == seats[seat]
        for venue in range(3):
            assert _counts(v["venues"][venue], visitors) == Counter(obs.venues[venue])
        queue = [(("F", "T", "S", "SV", "V", "VP", "TP")[int(np.argmax(t))], int(np.argmax(a)))
                 for t, a in zip(v["draws_task"], v["draws_arg"], strict=True) if t.any()]
        assert tuple(queue) == obs.draws
        assert v["scores"].tolist() == list(obs.scores)
        checked += 1
        with_sales += any(obs.sales)
    assert checked > 400 and with_sales > 10


def test_write_fills_openspiel_style_views_and_foreign_ones_alike():
    options = GAME.parse_options({"players": 3})
    enc = CircusMaximusEncoder(options)
    states = _walk(options, 2)[::40]
    tensor = np.zeros(enc.size * 2, np.float32)  # two seats side by side, as OpenSpiel's observer
    halves = [enc.views(tensor[i * enc.size:(i + 1) * enc.size]) for i in range(2)]
    foreign = {p.name: np.zeros(p.shape, np.float64) for p in enc.pieces}  # not one buffer
    for state in states:
        tensor.fill(0)
        for seat, views in enumerate(halves):
            enc.write(state.observation(seat), views)
        for seat in range(2):
            assert (tensor[seat * enc.size:(seat + 1) * enc.size] == enc.encode(state.observation(seat))).all()
        for part in foreign.values():
            part.fill(0)
        enc.write(state.observation(None), foreign)
        flat = np.concatenate([foreign[p.name].ravel() for p in enc.pieces])
        assert (flat == enc.encode(state.observation(None))).all()


def test_the_bridges_use_the_exact_encoder():
    pytest.importorskip("gymnasium")
    from ludus.interop.gymnasium_env import LudusSingleAgentEnv

    env = LudusSingleAgentEnv("circus-maximus", {"players": 3}, seat=0, opponents="random")
    assert isinstance(env.encoder, CircusMaximusEncoder)
    obs, _info = env.reset(seed=1)
    assert obs["observation"].shape == (CircusMaximusEncoder(GAME.parse_options({"players": 3})).size,)
    assert (obs["observation"] == env.encoder.encode(env.state.observation(0))).all()


UNENCODED = {"players", "cards", "phase_name"}
"""Fields the vector leaves out: the first two are fixed by the options the encoder is built
for, ``phase_name`` is a function of ``phase`` (see the docs)."""


@pytest.mark.parametrize("case", ["4p-caesar", "3p-caesar-extra-pick", "4p-own-cards"])
def test_each_field_alone_changes_the_vector(case, own_cards):
    """Walks give observations that differ in many fields at once; here one field at a time
    takes another reachable value (from another observation) and the vector must change, so
    no field's slots lose what tells two of its values apart."""
    import dataclasses

    options = _options(case, own_cards)
    enc = CircusMaximusEncoder(options)
    seen = [s.observation(seat) for seed in (1, 2) for s in _walk(options, seed, sell=True)
            for seat in (None, 0, 2)]
    assert UNENCODED | {f.name for f in dataclasses.fields(seen[0])} == {f.name for f in dataclasses.fields(seen[0])}
    names = [f.name for f in dataclasses.fields(seen[0]) if f.name not in UNENCODED]
    values = {name: list({repr(v): v for v in (getattr(o, name) for o in seen)}.values()) for name in names}
    rng = Rng(7)
    tried: Counter[str] = Counter()
    for obs in seen[::5]:
        x = enc.encode(obs)
        for name in names:
            for _ in range(3):
                value = rng.choice(values[name])
                if value == getattr(obs, name):
                    continue
                other = dataclasses.replace(obs, **{name: value})
                assert not (enc.encode(other) == x).all(), f"{name}: {value!r} encodes as the original"
                tried[name] += 1
    assert set(names) - set(tried) == {name for name in names if len(values[name]) == 1}
