"""Train a small Minesweeper agent on fastmine's exact labels and plot its win rate.

The agent looks at the 7x7 patch around each hidden cell and guesses the chance
of a mine there with a small neural network (one hidden layer, NumPy only); it
reveals the hidden cell it thinks safest.  It learns from the environment's
exact labels (``labels=True``: the solver's probability of a mine on every
cell) on the positions it meets itself while playing, so it trains on the
games it will play.  Every few iterations it plays a batch of fresh games
without exploring and its win rate is recorded; the plot shows how it climbs.

Needs the ``env`` extra (Gymnasium) and, for the plot, matplotlib (the ``plot``
extra).  About a minute and a half of CPU time with the defaults::

    python examples/train_agent.py --out win-rate.png

``--level`` picks the board (beginner, intermediate, expert).  For reference
(docs/env.md): random reveals win 0.02% of Beginner games, fastmine's ``best``
solver 97%.
"""

from __future__ import annotations

import argparse
import os
import time

# One BLAS thread, set before NumPy loads: a matrix product then adds its terms
# in one order, so a seed gives the same curve from run to run (with several
# threads the sums, and from them the whole training, differ in the last bits:
# 38.8/45.8/56.8% instead of 39.8/52.2/58.2% at iterations 200-600); the network
# is too small to gain from more.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from fastmine import DIFFICULTIES  # noqa: E402
from fastmine.env import MinesweeperVectorEnv  # noqa: E402

PATCH = 7
CODES = 11          # a patch cell: a number 0..8, hidden (or flagged), off the board


FEATURES = CODES * PATCH * PATCH + 1


def patches(views: np.ndarray, mines: int) -> np.ndarray:
    """Features of every cell, ``(B, rows, cols, FEATURES)``: the one-hot 7x7
    patch around it, and the share of the game's hidden cells that are mines."""
    b, rows, cols = views.shape
    half = PATCH // 2
    code = np.full((b, rows + 2 * half, cols + 2 * half), 10, np.int64)   # off the board
    code[:, half:-half, half:-half] = np.where(views >= 0, views, 9)       # numbers, hidden
    onehot = np.eye(CODES, dtype=np.float32)[code]                          # B, R, C, 11
    win = np.lib.stride_tricks.sliding_window_view(onehot, (PATCH, PATCH), axis=(1, 2))
    out = np.empty((b, rows, cols, FEATURES), np.float32)
    out[..., :-1] = win.reshape(b, rows, cols, CODES * PATCH * PATCH)
    hidden = np.maximum((views < 0).sum(axis=(1, 2)), 1)
    out[..., -1] = (mines / hidden)[:, None, None]
    return out


class Net:
    """features -> hidden ReLU units -> P(mine), trained with Adam on cross-entropy."""

    def __init__(self, n_in: int, hidden: int, rng: np.random.Generator) -> None:
        self.p = [rng.normal(0, np.sqrt(2 / n_in), (n_in, hidden)).astype(np.float32),
                  np.zeros(hidden, np.float32),
                  rng.normal(0, np.sqrt(1 / hidden), (hidden, 1)).astype(np.float32),
                  np.zeros(1, np.float32)]
        self.m = [np.zeros_like(p) for p in self.p]
        self.v = [np.zeros_like(p) for p in self.p]
        self.t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(x @ self.p[0] + self.p[1], 0)
        return h, (h @ self.p[2] + self.p[3])[..., 0]

    def prob(self, x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-self.forward(x)[1]))

    def train(self, x: np.ndarray, y: np.ndarray, lr: float = 3e-3) -> float:
        h, z = self.forward(x)
        p = 1 / (1 + np.exp(-z))
        eps = 1e-6
        loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
        dz = ((p - y) / len(y))[:, None].astype(np.float32)
        dh = (dz @ self.p[2].T) * (h > 0)
        grads = [x.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0)]
        self.t += 1
        for i, g in enumerate(grads):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mh = self.m[i] / (1 - 0.9 ** self.t)
            vh = self.v[i] / (1 - 0.999 ** self.t)
            self.p[i] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss


def choose(net: Net, views: np.ndarray, mines: int, masks: np.ndarray,
           rng: np.random.Generator, explore: float) -> np.ndarray:
    """The hidden cell the network finds safest in every game (a random valid
    reveal with probability ``explore``)."""
    b = views.shape[0]
    p = net.prob(patches(views, mines)).reshape(b, -1)
    n = p.shape[1]
    p = np.where(masks[:, :n], p, np.inf)
    actions = p.argmin(axis=1)
    wild = rng.random(b) < explore
    for i in np.flatnonzero(wild):
        actions[i] = rng.choice(np.flatnonzero(masks[i, :n]))
    return actions


def evaluate(net: Net, level: str, games: int, seed: int) -> float:
    """Win rate of the greedy agent over ``games`` fresh games (each game of
    the batch plays one episode)."""
    rows, cols, mines = DIFFICULTIES[level]
    envs = MinesweeperVectorEnv(games, rows=rows, cols=cols, mines=mines)
    obs, info = envs.reset(seed=seed)
    done = np.zeros(games, bool)
    won = np.zeros(games, bool)
    rng = np.random.default_rng(seed)
    while not done.all():
        a = choose(net, obs["view"], mines, info["action_mask"], rng, explore=0.0)
        obs, _, terminated, truncated, info = envs.step(a)
        won |= info["won"] & ~done
        done |= terminated | truncated
    return float(won.mean())


def positive(text: str) -> int:
    """An argparse type: the counts below are whole numbers from 1 (an example uses
    fastmine's public API only; the commands share fastmine's own check)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text):,} characters)"
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {shown}")
    return int(text)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="beginner", choices=list(DIFFICULTIES)[:3])
    ap.add_argument("--iterations", type=positive, default=1200)
    ap.add_argument("--envs", type=positive, default=64, help="games played side by side")
    ap.add_argument("--eval-every", type=positive, default=200)
    ap.add_argument("--eval-games", type=positive, default=500)
    ap.add_argument("--hidden", type=positive, default=96, help="units of the hidden layer")
    ap.add_argument("--buffer", type=positive, default=200_000, help="cells remembered")
    ap.add_argument("--updates", type=positive, default=8, help="gradient steps per iteration")
    ap.add_argument("--batch", type=positive, default=1024, help="cells per gradient step")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the win-rate plot here (PNG; needs matplotlib)")
    args = ap.parse_args(argv)
    if args.out:
        # Before training, not after minutes of it.
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            ap.error("--out needs matplotlib: pip install 'fastmine[plot]'")
    rows, cols, mines = DIFFICULTIES[args.level]
    rng = np.random.default_rng(args.seed)
    net = Net(FEATURES, args.hidden, rng)
    envs = MinesweeperVectorEnv(args.envs, rows=rows, cols=cols, mines=mines, labels=True)
    obs, info = envs.reset(seed=args.seed)
    curve: list[tuple[int, float]] = [(0, evaluate(net, args.level, args.eval_games, 10**6))]
    print(f"iteration 0: win rate {curve[-1][1]:.1%}", flush=True)
    ended = np.zeros(args.envs, bool)
    # The cells met lately (a ring of samples): each iteration adds the hidden
    # cells of the positions in play and takes a few gradient steps on a sample.
    bx = np.zeros((args.buffer, FEATURES), np.float32)
    by = np.zeros(args.buffer, np.float32)
    filled = at = 0
    t0 = time.perf_counter()
    for it in range(1, args.iterations + 1):
        views, probs = obs["view"], info["probabilities"]
        x = patches(views, mines).reshape(-1, FEATURES)
        # The hidden cells of the games in play (an ended game's view shows its mines).
        hidden = np.flatnonzero(((views == -1) & ~ended[:, None, None]).ravel())
        for i in np.array_split(hidden, max(1, -(-len(hidden) // args.buffer))):
            k = len(i)
            idx = (at + np.arange(k)) % args.buffer
            bx[idx], by[idx] = x[i], probs.ravel()[i]
            at, filled = (at + k) % args.buffer, min(filled + k, args.buffer)
        for _ in range(args.updates):
            pick = rng.integers(filled, size=min(args.batch, filled))
            net.train(bx[pick], by[pick])
        explore = max(0.05, 0.5 * (1 - it / (0.5 * args.iterations)))
        obs, _, terminated, truncated, info = envs.step(
            choose(net, views, mines, info["action_mask"], rng, explore))
        ended = terminated | truncated
        if it % args.eval_every == 0 or it == args.iterations:
            # Fresh games, never trained on: seeds from 10**6 on.
            curve.append((it, evaluate(net, args.level, args.eval_games, 10**6 + it)))
            print(f"iteration {it}: win rate {curve[-1][1]:.1%} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.out:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.5))
        ax.plot([c[0] for c in curve], [100 * c[1] for c in curve], marker="o")
        ax.set_xlabel(f"training iteration (a step of {args.envs} games, "
                      f"{args.updates} gradient steps)")
        ax.set_ylabel(f"{args.level} win rate, %")
        ax.set_title("A 7x7-patch network trained on fastmine's exact labels")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.out, dpi=100)
        print(f"wrote {args.out}")
    return {"curve": curve}


if __name__ == "__main__":
    main()
