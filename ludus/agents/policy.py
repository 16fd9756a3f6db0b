"""Trained policies as bots: a small network read from a file, played with numpy.

A policy file (``.npz``) holds the weights of a multi-layer perceptron and a JSON header that
says which game and options it was trained on, which encoder and observation size it reads,
and the canonical key (:func:`~ludus.core.game.action_key`) of each of its outputs. Because the
outputs are named by key, not by number, a policy keeps working if an action list is reordered,
and an action it never saw is simply never chosen. Playing needs numpy only: training (with
PyTorch, in ``benchmarks/train_agent.py``) writes the file, and nothing here imports it.

The bot sees what any bot sees, its seat's :class:`~ludus.core.game.SeatView`: it encodes the
observation with the game's exact encoder (as the learning environments did in training) and
plays the legal action with the highest output (``greedy``, the default) or samples from the
masked soft-max with its own generator (``sample``).

Kinds: ``trained`` is the policy a game ships (``data/policy.npz`` in its package);
``policy:PATH`` is any policy file.
"""

from __future__ import annotations

import json
import math
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..core.agent import Agent
from ..core.encoding import ObservationEncoder
from ..core.errors import LudusError
from ..core.game import Action, Game, SeatView, action_key
from ..core.options import options_to_json
from ..games import get_plugin, observation_encoder

__all__ = ["FORMAT", "Policy", "PolicyAgent", "PolicyError", "load_policy", "save_policy", "shipped_policy_path"]

FORMAT = "ludus-policy/1"
ACTIVATIONS = ("tanh", "relu")
SHIPPED_POLICY = "data/policy.npz"
"""Where a game package keeps the policy its ``trained`` bot plays, if it ships one."""


class PolicyError(LudusError):
    """A policy file that cannot be used: missing, malformed, or made for another game."""


@dataclass(frozen=True)
class Policy:
    """A trained network: ``layers`` of (weights ``(in, out)``, bias ``(out,)``), hidden layers
    followed by ``activation``, the last one giving one output per entry of ``actions``."""

    game: str
    options: dict[str, Any]
    encoder: str
    observation_size: int
    actions: tuple[str, ...]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    activation: str = "tanh"
    info: dict[str, Any] | None = None
    """How it was made (library, steps, opponents, seed, figures); shown, never interpreted."""

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The network's outputs for one observation vector or a batch of them (float64)."""
        h = np.asarray(x, np.float64)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.tanh(h) if self.activation == "tanh" else np.maximum(h, 0.0)
        return h


def _header(policy: Policy) -> dict[str, Any]:
    return {"format": FORMAT, "game": policy.game, "options": policy.options, "encoder": policy.encoder,
            "observation_size": policy.observation_size, "actions": list(policy.actions),
            "activation": policy.activation, "layers": len(policy.layers), "info": policy.info or {}}


def save_policy(policy: Policy, path: str | Path, checks: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """Write ``policy`` to ``path``; ``checks`` (observations, the trainer's outputs for them) are
    stored beside it so a test can confirm that numpy plays the network the trainer trained."""
    arrays: dict[str, np.ndarray] = {"header": np.frombuffer(json.dumps(_header(policy)).encode(), np.uint8)}
    for i, (w, b) in enumerate(policy.layers):
        arrays[f"w{i}"] = np.asarray(w, np.float32)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    if checks is not None:
        arrays["check_x"] = np.asarray(checks[0], np.float32)
        arrays["check_logits"] = np.asarray(checks[1], np.float32)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]


def _read(source: Any, name: str) -> tuple[Policy, tuple[np.ndarray, np.ndarray] | None]:
    try:
        with np.load(source, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise PolicyError(f"{name}: not a policy file ({exc})") from exc
    try:
        header = json.loads(arrays["header"].tobytes().decode())
    except (KeyError, ValueError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{name}: its header is missing or not JSON") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise PolicyError(f"{name}: not a {FORMAT} file")
    try:
        n_layers = int(header["layers"])
        layers = tuple((arrays[f"w{i}"].astype(np.float64), arrays[f"b{i}"].astype(np.float64))
                       for i in range(n_layers))
        actions = tuple(str(a) for a in header["actions"])
        size = int(header["observation_size"])
        activation = str(header["activation"])
        policy = Policy(str(header["game"]), dict(header["options"]), str(header["encoder"]), size, actions,
                        layers, activation, dict(header.get("info") or {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise PolicyError(f"{name}: its header or weights are incomplete ({exc})") from exc
    if activation not in ACTIVATIONS:
        raise PolicyError(f"{name}: unknown activation {activation!r} (known: {', '.join(ACTIVATIONS)})")
    width = size
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise PolicyError(f"{name}: layer {i} has shape {w.shape} / {b.shape}, expected ({width}, n) / (n,)")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise PolicyError(f"{name}: layer {i} holds non-finite weights")
        width = w.shape[1]
    if not layers or width != len(actions):
        raise PolicyError(f"{name}: {width} outputs for {len(actions)} actions")
    checks = (arrays["check_x"], arrays["check_logits"]) if "check_x" in arrays else None
    return policy, checks


def load_policy(path: str | Path) -> Policy:
    """A policy file, checked (shapes, names, finite weights); PolicyError says what is wrong."""
    return _read(Path(path), str(path))[0]


def load_checks(path: str | Path) -> tuple[Policy, tuple[np.ndarray, np.ndarray] | None]:
    """The policy and the trainer's own outputs stored with it (for tests)."""
    return _read(Path(path), str(path))


def shipped_policy_path(game: Game) -> Any:
    """The game's shipped policy as an importlib resource, or None when it ships none."""
    package = get_plugin(game.name).package
    ref = resources.files(package).joinpath(SHIPPED_POLICY)
    return ref if ref.is_file() else None


class PolicyAgent(Agent):
    """Plays a :class:`Policy` on its game. ``PolicyAgent(seed, path=...)``; without a path it
    plays the shipped policy of the game it is first asked to move in."""

    name = "trained"

    def __init__(self, seed: int = 0, path: str | Path | None = None, mode: str = "greedy") -> None:
        super().__init__(seed)
        if mode not in ("greedy", "sample"):
            raise PolicyError(f"mode must be 'greedy' or 'sample', not {mode!r}")
        self.mode = mode
        self.path = None if path is None else Path(path)
        self.policy: Policy | None = None if path is None else load_policy(path)
        self._encoders: dict[str, ObservationEncoder] = {}
        self._index: dict[str, int] = {} if self.policy is None else {k: i for i, k in enumerate(self.policy.actions)}
        self._keys: dict[Action, str] = {}

    @classmethod
    def for_game(cls, game: Game, seed: int = 0, path: str | Path | None = None) -> PolicyAgent:
        """An agent checked against ``game`` now (so a lineup with a wrong file fails before play)."""
        agent = cls(seed, path)
        agent._load_for(game)
        return agent

    def _load_for(self, game: Game) -> Policy:
        if self.policy is None:
            ref = shipped_policy_path(game)
            if ref is None:
                raise PolicyError(f"{game.title} ships no trained policy; give one with policy:PATH")
            with resources.as_file(ref) as file:
                self.policy = _read(file, f"{game.name}'s shipped policy")[0]
            self._index = {k: i for i, k in enumerate(self.policy.actions)}
        if self.policy.game != game.name:
            raise PolicyError(f"this policy was trained on {self.policy.game!r}, not {game.name!r}")
        return self.policy

    def _encoder(self, game: Game, options: Any) -> ObservationEncoder:
        key = json.dumps(options_to_json(options), sort_keys=True)
        encoder = self._encoders.get(key)
        if encoder is None:
            policy = self._load_for(game)
            encoder = observation_encoder(game, options)
            if type(encoder).__name__ != policy.encoder or encoder.size != policy.observation_size:
                raise PolicyError(
                    f"this policy reads {policy.encoder} observations of {policy.observation_size} values; "
                    f"{game.title} with these options gives {type(encoder).__name__} of {encoder.size}"
                )
            self._encoders[key] = encoder
        return encoder

    def scores(self, view: SeatView) -> list[tuple[Action, float]]:
        """Each legal action with the network's output for it (-inf for one it has no output for)."""
        encoder = self._encoder(view.game, view.options)
        policy = self.policy
        assert policy is not None
        logits = policy.logits(encoder.encode(view.observation))
        out = []
        for action in view.legal_actions:
            key = self._keys.get(action)
            if key is None:
                key = self._keys[action] = action_key(action)
            j = self._index.get(key)
            out.append((action, float(logits[j]) if j is not None else -math.inf))
        return out

    def act(self, view: SeatView) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        scored = self.scores(view)
        if self.mode == "greedy" or all(s == -math.inf for _, s in scored):
            best = max(range(len(scored)), key=lambda i: scored[i][1])
            return scored[best][0]
        top = max(s for _, s in scored)
        weights = [math.exp(s - top) for _, s in scored]
        pick = self.rng.random() * sum(weights)
        for (action, _), w in zip(scored, weights):
            pick -= w
            if pick < 0:
                return action
        return scored[-1][0]


def policy_agent(kind: str, game: Game, seed: int) -> PolicyAgent:
    """The agent of a ``trained`` or ``policy:PATH`` kind, checked against ``game``."""
    name, _, arg = kind.partition(":")
    if name.strip().lower() == "trained":
        return PolicyAgent.for_game(game, seed)
    if not arg.strip():
        raise PolicyError("write policy:PATH, the path of a policy file")
    return PolicyAgent.for_game(game, seed, arg.strip())

