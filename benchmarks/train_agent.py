"""Train a masked-action agent on a Ludus game, plot its learning curve, evaluate it, export it.

The reference training run of ``docs/interop.md`` ("Train your first agent"): Maskable PPO
from sb3-contrib (Stable-Baselines3 on PyTorch, CPU) learns one seat's policy against Ludus
bots through :class:`~ludus.interop.vector_env.LudusVectorEnv`. Every ``--eval-every`` steps
the policy so far is exported to a policy file and played as the ``policy:PATH`` bot kind in
ordinary Ludus tournaments (seats rotated) against ``random`` and ``heuristic``; the win
shares with their 95% Wilson intervals make the learning curve. At the end it plays a longer
evaluation, saves the curve as a PNG and the policy as ``policy.npz`` (numpy only to play:
``ludus tournament --agents policy:OUT/policy.npz,heuristic``).

    pip install torch==2.13.0   # the CPU build; a plain "torch" from PyPI pulls CUDA (GBs)
    pip install -e '.[train]'
    python benchmarks/train_agent.py --game gladius --steps 300000 --out train-gladius
    python benchmarks/train_agent.py --game gorus-maximus --options '{"players": 4}' --steps 3000000 \
        --envs 8 --eval-every 500000 --scale-inputs --out train-gm4

What is measured: win share of the trained policy (greedy: the highest-scoring legal action)
over ``--final-games`` tournament games against each opponent kind; a fair share is 1/seats.
Training is seeded (``--seed``) but PyTorch on several threads need not repeat bit for bit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ImportError as exc:  # pragma: no cover - an optional install
    sys.exit(f"training needs PyTorch and sb3-contrib ({exc}): pip install torch==2.13.0 && pip install -e '.[train]'")

from ludus.agents.policy import Policy, save_policy
from ludus.core.game import action_key
from ludus.games import get_game
from ludus.interop.vector_env import LudusVectorEnv
from ludus.sim.stats import wilson
from ludus.sim.tournament import make_spec, play_chunk


class LudusSB3Env(VecEnv):
    """Several :class:`LudusVectorEnv` (one per learner seat and opponent kind) as one
    Stable-Baselines3 ``VecEnv``: flat observations, masks through ``env_method("action_masks")``,
    and SB3's same-step reset (a finished game's last observation goes into
    ``infos[i]["terminal_observation"]`` and row ``i`` holds the next game's first one)."""

    def __init__(self, game: str, options: dict[str, Any] | None, opponents: list[str], envs_per: int, seed: int):
        self.parts: list[LudusVectorEnv] = []
        n_seats = get_game(game).num_seats(get_game(game).parse_options(options))
        for kind in opponents:
            for seat in range(n_seats):
                self.parts.append(LudusVectorEnv(game, envs_per, options, seat=seat, opponents=kind,
                                                 illegal_action="raise"))
        first = self.parts[0]
        super().__init__(envs_per * len(self.parts), first.single_observation_space["observation"],
                         first.single_action_space)
        self.envs_per = envs_per
        self.seed_base = seed
        self._actions = np.zeros(self.num_envs, np.int64)
        self.compiled = all(p.compiled for p in self.parts)
        self.scale: np.ndarray | None = None
        """Per-slot input scale (``--scale-inputs``), applied to every row the learner sees and folded
        into the exported policy's first layer, so the policy file reads the encoder's raw rows."""

    def measure_scale(self, steps: int = 4000) -> None:
        """1 / the largest value each slot took over ``steps`` random masked steps (at least 1),
        in a separate environment: counts such as hand and stock sizes come down to about 1."""
        probe = LudusVectorEnv(self.parts[0].game.name, 16, self.parts[0].options, seat=0, opponents="random")
        rng = np.random.default_rng(self.seed_base)
        obs, _ = probe.reset(seed=self.seed_base - 1)
        top = np.abs(obs["observation"]).max(axis=0)
        for _ in range(steps // 16):
            obs, *_ = probe.step((rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1))
            np.maximum(top, np.abs(obs["observation"]).max(axis=0), out=top)
        self.scale = (1.0 / np.maximum(top, 1.0)).astype(np.float32)

    def _scaled(self, rows: np.ndarray) -> np.ndarray:
        return rows if self.scale is None else rows * self.scale

    def reset(self) -> np.ndarray:
        obs = []
        for k, part in enumerate(self.parts):
            o, _ = part.reset(seed=self.seed_base + 100_003 * k)
            obs.append(o["observation"])
        return self._scaled(np.concatenate(obs))

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs_parts, rewards, dones, infos = [], [], [], []
        m = self.envs_per
        for k, part in enumerate(self.parts):
            o, r, term, trunc, _ = part.step(self._actions[k * m:(k + 1) * m])
            done = np.logical_or(term, trunc)
            rows = o["observation"]
            info: list[dict[str, Any]] = [{} for _ in range(m)]
            if done.any():
                for i in np.flatnonzero(done):
                    info[i]["terminal_observation"] = self._scaled(rows[i])
                o, _ = part.reset(options={"reset_mask": done})  # same-step reset, generators go on
                rows = o["observation"]
            obs_parts.append(rows)
            rewards.append(r)
            dones.append(done)
            infos.extend(info)
        return (self._scaled(np.concatenate(obs_parts)), np.concatenate(rewards).astype(np.float32),
                np.concatenate(dones), infos)

    def action_masks(self) -> np.ndarray:
        return np.concatenate([p._mask.astype(bool) for p in self.parts])

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(method_name)
        masks = self.action_masks()
        return list(masks if indices is None else masks[indices])

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks] * self.num_envs
        raise AttributeError(attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(attr_name)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def close(self) -> None:
        for part in self.parts:
            part.close()


def export(model: Any, env: LudusSB3Env, path: Path, info: dict[str, Any]) -> Policy:
    """The actor of ``model`` as a Ludus policy file (numpy weights), with check outputs."""
    policy_net = model.policy.mlp_extractor.policy_net
    linears = [m for m in policy_net if isinstance(m, torch.nn.Linear)] + [model.policy.action_net]
    layers = tuple((lin.weight.detach().cpu().numpy().T.astype(np.float64), lin.bias.detach().cpu().numpy()
                    .astype(np.float64)) for lin in linears)
    if env.scale is not None:  # the network read scaled rows: fold the scale into its first layer
        (w, b), *rest = layers
        layers = ((w * env.scale.astype(np.float64)[:, None], b), *rest)
    part = env.parts[0]
    policy = Policy(part.game.name, _options_json(part), type(part.encoder).__name__, part.encoder.size,
                    tuple(action_key(a) for a in part.space.player), layers, "tanh", info)
    x = np.random.default_rng(0).random((8, part.encoder.size)).astype(np.float32)
    with torch.no_grad():
        latent = model.policy.mlp_extractor.forward_actor(torch.as_tensor(env._scaled(x)))
        logits = model.policy.action_net(latent).numpy()
    save_policy(policy, path, (x, logits))
    return policy


def _options_json(part: LudusVectorEnv) -> dict[str, Any]:
    from ludus.core.options import options_to_json

    return options_to_json(part.options)


def evaluate(game: str, options: dict[str, Any] | None, policy_path: Path, opponent: str, games: int,
             seed: int) -> dict[str, Any]:
    """Win share of ``policy:PATH`` against ``opponent`` in every other seat, seats rotated."""
    g = get_game(game)
    n = g.num_seats(g.parse_options(options))
    spec = make_spec(game, options or {}, [f"policy:{policy_path}"] + [opponent] * (n - 1), games, seed)
    results = play_chunk(spec, range(games))
    share = sum(r.shares[r.seating.index(0)] for r in results)
    lo, hi = wilson(share, games)
    return {"opponent": opponent, "games": games, "share": share / games, "ci": [lo, hi], "fair": 1 / n}


class Curve(BaseCallback):
    """Exports and evaluates the policy every ``every`` steps (the learning curve)."""

    def __init__(self, args: argparse.Namespace, env: LudusSB3Env, out: Path) -> None:
        super().__init__()
        self.args, self.env, self.out = args, env, out
        self.points: list[dict[str, Any]] = []
        self.next_at = 0
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at += self.args.eval_every
            self.measure()
        return True

    def measure(self) -> None:
        path = self.out / "checkpoint.npz"
        export(self.model, self.env, path, {"steps": self.num_timesteps})
        point: dict[str, Any] = {"steps": self.num_timesteps, "seconds": time.perf_counter() - self.started}
        for k, opponent in enumerate(self.args.eval_opponents):
            point[opponent] = evaluate(self.args.game, self.args.options, path, opponent, self.args.eval_games,
                                       self.args.seed + 7 + k)
        self.points.append(point)
        print(json.dumps(point), flush=True)


def plot(points: list[dict[str, Any]], opponents: list[str], path: Path, title: str) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    steps = [p["steps"] for p in points]
    for opponent in opponents:
        share = [p[opponent]["share"] for p in points]
        lo = [p[opponent]["ci"][0] for p in points]
        hi = [p[opponent]["ci"][1] for p in points]
        ax.plot(steps, share, marker="o", label=f"against {opponent}")
        ax.fill_between(steps, lo, hi, alpha=0.2)
    fair = points[0][opponents[0]]["fair"]
    ax.axhline(fair, color="grey", linestyle="--", label=f"fair share {fair:.2f}")
    ax.set_xlabel("agent steps trained")
    ax.set_ylabel("win share of the trained policy (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="gladius")
    ap.add_argument("--options", type=json.loads, default=None, help="JSON options of the game")
    ap.add_argument("--steps", type=int, default=300_000, help="agent steps to train")
    ap.add_argument("--opponents", default="random,heuristic", help="training opponents, one env group each")
    ap.add_argument("--envs", type=int, default=16, help="sub-environments per (seat, opponent) group")
    ap.add_argument("--hidden", default="128,128")
    ap.add_argument("--eval-every", type=int, default=50_000)
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--eval-opponents", default="random,heuristic")
    ap.add_argument("--final-games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    ap.add_argument("--out", type=Path, default=Path("train-out"))
    ap.add_argument("--scale-inputs", action="store_true",
                    help="divide each input slot by the largest value it took in random play (folded into the "
                         "exported policy)")
    args = ap.parse_args()
    args.eval_opponents = [k.strip() for k in args.eval_opponents.split(",") if k.strip()]
    args.out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    env = LudusSB3Env(args.game, args.options, [k.strip() for k in args.opponents.split(",")], args.envs, args.seed)
    if args.scale_inputs:
        env.measure_scale()
    hidden = [int(h) for h in args.hidden.split(",")]
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=512, n_epochs=4, learning_rate=3e-4,
                        gamma=0.997, gae_lambda=0.95, ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": torch.nn.Tanh})
    curve = Curve(args, env, args.out)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=curve)
    train_seconds = time.perf_counter() - start
    curve.measure()  # the last point of the curve
    info = {"library": f"sb3-contrib MaskablePPO (torch {torch.__version__})", "steps": model.num_timesteps,
            "opponents": args.opponents, "seed": args.seed, "hidden": hidden, "train_seconds": round(train_seconds),
            "compiled_env": env.compiled, "scale_inputs": env.scale is not None}
    final = args.out / "policy.npz"
    export(model, env, final, info)
    results = [evaluate(args.game, args.options, final, k, args.final_games, args.seed + 1000 + i)
               for i, k in enumerate(args.eval_opponents)]
    info["evaluation"] = results
    export(model, env, final, info)  # the file says how it did
    (args.out / "curve.json").write_text(json.dumps({"points": curve.points, "final": results, "info": info},
                                                    indent=1))
    plot(curve.points, args.eval_opponents, args.out / "curve.png",
         f"{get_game(args.game).title}{f' {json.dumps(args.options)}' if args.options else ''}: "
         "Maskable PPO, learner against bots")
    load = os.getloadavg()[0]
    print(f"trained {model.num_timesteps} steps in {train_seconds:.0f} s "
          f"({model.num_timesteps / train_seconds:.0f} steps/s, compiled env: {env.compiled}, load {load:.1f})")
    for r in results:
        print(f"  against {r['opponent']}: {r['share']:.3f} [{r['ci'][0]:.3f}-{r['ci'][1]:.3f}] over {r['games']} "
              f"games (fair {r['fair']:.2f})")
    print(f"policy: {final}  curve: {args.out / 'curve.png'}  median eval point time: "
          f"{statistics.median([p['seconds'] for p in curve.points]):.0f} s")


if __name__ == "__main__":
    main()
