"""A masked actor-critic (A2C) agent that learns to beat RandomBot at base Splendor, 2 players.

    python examples/train_pg.py --out docs/images/rl_learning_curve

Plain NumPy (no deep-learning library): a one-hidden-layer network with a
policy head (logits over the 329 action ids, illegal ones masked out) and a
value head, trained with n-step advantage actor-critic and Adam on rollouts
from ``splendor.VectorEnv``. The agent plays seat 0 in half of the games and
seat 1 in the other half; ``RandomBot`` plays the other seat inside the env.
The reward is the engine's return at the end of a game (1 win, 0 loss).

Writes ``OUT.png`` (the learning curve: win rate of the games finished in
each window, against environment steps) and ``OUT.json`` (settings, seeds,
the curve and the final evaluation). Needs matplotlib for the PNG.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass, field

# One BLAS thread: the machine is shared, and the matrices are small.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt
import splendor

F32 = npt.NDArray[np.float32]


@dataclass
class Net:
    """obs -> tanh hidden layer -> (policy logits, value)."""

    w1: F32
    b1: F32
    wp: F32
    bp: F32
    wv: F32
    bv: F32
    adam_m: list[F32] = field(default_factory=list)
    adam_v: list[F32] = field(default_factory=list)
    adam_t: int = 0

    @classmethod
    def create(cls, obs_size: int, hidden: int, actions: int, rng: np.random.Generator) -> Net:
        def init(fan_in: int, shape: tuple[int, ...], gain: float = 1.0) -> F32:
            return (rng.standard_normal(shape) * gain / np.sqrt(fan_in)).astype(np.float32)

        return cls(
            w1=init(obs_size, (obs_size, hidden)),
            b1=np.zeros(hidden, np.float32),
            wp=init(hidden, (hidden, actions), 0.01),
            bp=np.zeros(actions, np.float32),
            wv=init(hidden, (hidden, 1)),
            bv=np.zeros(1, np.float32),
        )

    def params(self) -> list[F32]:
        return [self.w1, self.b1, self.wp, self.bp, self.wv, self.bv]

    def forward(self, obs: F32, mask: npt.NDArray[np.bool_]) -> tuple[F32, F32, F32]:
        """(hidden, log-probabilities over the legal actions, value)."""
        h = np.tanh(obs @ self.w1 + self.b1)
        logits = np.where(mask, h @ self.wp + self.bp, np.float32(-1e9))
        logits -= logits.max(axis=1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        value = (h @ self.wv + self.bv)[:, 0]
        return h, logp.astype(np.float32), value

    def adam(self, grads: list[F32], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        if not self.adam_m:
            self.adam_m = [np.zeros_like(p) for p in self.params()]
            self.adam_v = [np.zeros_like(p) for p in self.params()]
        self.adam_t += 1
        for p, g, m, v in zip(self.params(), grads, self.adam_m, self.adam_v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1**self.adam_t)
            vhat = v / (1 - b2**self.adam_t)
            p -= (lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


def sample(logp: F32, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row from the probabilities ``exp(logp)`` (inverse CDF)."""
    cdf = np.cumsum(np.exp(logp), axis=1)
    u = rng.random((logp.shape[0], 1)) * cdf[:, -1:]
    return np.minimum((cdf < u).sum(axis=1), logp.shape[1] - 1).astype(np.int64)


def update(
    net: Net,
    obs: F32,
    mask: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    returns: F32,
    args: argparse.Namespace,
) -> None:
    """One gradient step of the A2C loss on a batch."""
    n = obs.shape[0]
    h, logp, value = net.forward(obs, mask)
    adv = returns - value
    adv = (adv - adv.mean()) / (adv.std() + 1e-6)
    p = np.exp(logp)
    onehot = np.zeros_like(p)
    onehot[np.arange(n), actions] = 1.0
    entropy = -(p * logp).sum(axis=1, keepdims=True)
    # d/dlogits of -adv*logp(a) - c*H.
    dlogits = (p - onehot) * adv[:, None] + args.entropy * p * (logp + entropy)
    dlogits /= n
    dvalue = (args.value_coef * (value - returns) / n)[:, None].astype(np.float32)
    dh = dlogits @ net.wp.T + dvalue @ net.wv.T
    dpre = dh * (1 - h * h)
    grads = [
        obs.T @ dpre,
        dpre.sum(axis=0),
        h.T @ dlogits,
        dlogits.sum(axis=0),
        h.T @ dvalue,
        dvalue.sum(axis=0),
    ]
    norm = np.sqrt(sum(float((g * g).sum()) for g in grads))
    scale = min(1.0, args.max_grad_norm / (norm + 1e-8))
    net.adam([(g * scale).astype(np.float32) for g in grads], args.lr)


def evaluate(net: Net, games: int, seed: int, greedy: bool) -> float:
    """Win rate against RandomBot over ``games`` games, half in each seat."""
    rng = np.random.default_rng(seed)
    wins, done = 0.0, 0
    for seat in (0, 1):
        opponents: list[str | None] = ["random", "random"]
        opponents[seat] = None
        env = splendor.VectorEnv(
            "base", games // 2, opponents=opponents, seed=seed + seat, normalize=True
        )
        finished = np.zeros(games // 2, dtype=bool)
        while not finished.all():
            _, logp, _ = net.forward(env.observation, env.action_mask)
            actions = logp.argmax(axis=1) if greedy else sample(logp, rng)
            env.step(actions)
            ended = (env.terminated | env.truncated) & ~finished
            wins += float(env.rewards[ended, seat].sum())
            finished |= ended
        done += games // 2
    return wins / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--updates", type=int, default=600)
    parser.add_argument("--envs", type=int, default=256, help="games per seat")
    parser.add_argument("--horizon", type=int, default=16, help="steps per env per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=1.0)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--max-minutes", type=float, default=12.0, help="stop training after this long"
    )
    parser.add_argument("--out", default="rl_learning_curve")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    seats = (0, 1)
    envs = [
        splendor.VectorEnv(
            "base",
            args.envs,
            opponents=[None, "random"] if seat == 0 else ["random", None],
            seed=args.seed * 2 + seat,
            normalize=True,
        )
        for seat in seats
    ]
    spec = splendor.observation_spec("base", 2)
    net = Net.create(spec.size, args.hidden, envs[0].num_actions, rng)
    n = args.envs * len(seats)
    curve: list[tuple[int, float, int]] = []
    window_wins, window_games, steps = 0.0, 0, 0
    start = time.perf_counter()
    for u in range(args.updates):
        if time.perf_counter() - start > 60 * args.max_minutes:
            print(f"time limit reached after {u} updates")
            break
        obs_buf = np.zeros((args.horizon, n, spec.size), np.float32)
        mask_buf = np.zeros((args.horizon, n, envs[0].num_actions), bool)
        act_buf = np.zeros((args.horizon, n), np.int64)
        rew_buf = np.zeros((args.horizon, n), np.float32)
        done_buf = np.zeros((args.horizon, n), bool)
        for t in range(args.horizon):
            obs = np.concatenate([e.observation for e in envs])
            mask = np.concatenate([e.action_mask for e in envs])
            _, logp, _ = net.forward(obs, mask)
            actions = sample(logp, rng)
            obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, actions
            for k, (seat, env) in enumerate(zip(seats, envs, strict=True)):
                rows = slice(k * args.envs, (k + 1) * args.envs)
                env.step(actions[rows])
                done = env.terminated | env.truncated
                rew_buf[t, rows] = env.rewards[:, seat]
                done_buf[t, rows] = done
                window_wins += float(env.rewards[done, seat].sum())
                window_games += int(done.sum())
            steps += n
        # n-step returns, bootstrapped from the value of the state reached.
        last_obs = np.concatenate([e.observation for e in envs])
        last_mask = np.concatenate([e.action_mask for e in envs])
        _, _, ret = net.forward(last_obs, last_mask)
        returns = np.zeros((args.horizon, n), np.float32)
        for t in reversed(range(args.horizon)):
            ret = rew_buf[t] + args.gamma * ret * ~done_buf[t]
            returns[t] = ret
        update(
            net,
            obs_buf.reshape(-1, spec.size),
            mask_buf.reshape(-1, envs[0].num_actions),
            act_buf.reshape(-1),
            returns.reshape(-1),
            args,
        )
        if (u + 1) % 20 == 0:
            rate = window_wins / max(window_games, 1)
            curve.append((steps, rate, window_games))
            print(
                f"update {u + 1}: {steps} steps, win rate {rate:.3f} over {window_games} games, "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
            window_wins, window_games = 0.0, 0
    train_seconds = time.perf_counter() - start
    greedy = evaluate(net, args.eval_games, 10_000 + args.seed, greedy=True)
    sampled = evaluate(net, args.eval_games, 20_000 + args.seed, greedy=False)
    print(
        f"trained {train_seconds:.0f} s; vs RandomBot over {args.eval_games} games "
        f"(half in each seat): greedy policy {greedy:.3f}, sampling policy {sampled:.3f}"
    )
    record = {
        "settings": vars(args),
        "train_seconds": round(train_seconds, 1),
        "environment_steps": steps,
        "curve": [{"steps": s, "win_rate": r, "games": g} for s, r, g in curve],
        "eval_vs_random": {"games": args.eval_games, "greedy": greedy, "sampling": sampled},
    }
    with open(f"{args.out}.json", "w") as f:
        json.dump(record, f, indent=1)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no PNG")
        return
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    ax.plot([s / 1e6 for s, _, _ in curve], [r for _, r, _ in curve], label="training games")
    ax.axhline(0.5, color="grey", linestyle=":", label="RandomBot vs RandomBot")
    ax.axhline(greedy, color="green", linestyle="--", label=f"final, greedy: {greedy:.0%}")
    ax.set_xlabel("environment steps (millions)")
    ax.set_ylabel("win rate vs RandomBot")
    ax.set_ylim(0, 1)
    ax.set_title("Masked A2C (NumPy) on base Splendor, 2 players")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(f"{args.out}.png")
    print(f"wrote {args.out}.png and {args.out}.json")


if __name__ == "__main__":
    main()
