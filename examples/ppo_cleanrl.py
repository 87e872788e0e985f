"""PPO with action masks on fastmine's batched environment, in CleanRL's one-file style.

The rollout comes straight from the batched kernel (``MinesweeperVectorEnv``,
B games a step, Gymnasium's same-step auto-reset), the policy is a small fully
convolutional network that scores every cell (its reveal logit) and pools for
the value, and invalid actions are masked out of the policy with the
environment's ``action_mask``.  The loop is CleanRL's ``ppo.py``: GAE,
clipped surrogate, value loss, entropy bonus, minibatch epochs.

Needs the ``env`` extra and PyTorch (CPU is fine)::

    python examples/ppo_cleanrl.py --total-steps 2000000 --threads 1

prints, every update, the steps a second and the win rate of the episodes that
ended; ``--eval-games`` plays fresh greedy games at the end.  ``--threads``
caps PyTorch's threads (1 leaves the other cores free).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

from fastmine import DIFFICULTIES
from fastmine.env import MinesweeperVectorEnv


class Agent(nn.Module):
    """One-hot view planes (and the share of hidden cells that are mines) ->
    a reveal logit per cell and a value."""

    def __init__(self, channels: int = 64, layers: int = 4) -> None:
        super().__init__()
        body: list[nn.Module] = [nn.Conv2d(15, channels, 3, padding=1), nn.ReLU()]
        for _ in range(layers - 1):
            body += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
        self.body = nn.Sequential(*body)
        self.logit = nn.Conv2d(channels, 1, 1)
        self.value = nn.Sequential(nn.Linear(channels, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        return self.logit(h).flatten(1), self.value(h.mean(dim=(2, 3))).squeeze(1)


def features(obs: dict[str, np.ndarray], mines: int) -> torch.Tensor:
    """(B, 15, rows, cols) float: the 14 one-hot planes and the mine density of
    the hidden cells (the planes come from ``one_hot=True``)."""
    planes = obs["view"].astype(np.float32)
    hidden = np.maximum(planes[:, 9:11].sum(axis=(1, 2, 3)), 1.0)      # hidden and flagged
    density = (obs["mines_left"][:, 0] / hidden).astype(np.float32)
    dens = np.broadcast_to(density[:, None, None, None], (len(planes), 1, *planes.shape[2:]))
    return torch.from_numpy(np.concatenate([planes, dens], axis=1))


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
    return torch.distributions.Categorical(logits=torch.where(mask, logits, -1e8))


def evaluate(agent: Agent, rows: int, cols: int, mines: int, games: int, seed: int) -> float:
    """Win rate of the greedy policy over ``games`` fresh games (one episode each)."""
    envs = MinesweeperVectorEnv(games, rows=rows, cols=cols, mines=mines, one_hot=True)
    obs, info = envs.reset(seed=seed)
    done = np.zeros(games, bool)
    won = np.zeros(games, bool)
    while not done.all():
        with torch.no_grad():
            logits, _ = agent(features(obs, mines))
        mask = torch.from_numpy(info["action_mask"])
        actions = torch.where(mask, logits, -1e8).argmax(1).numpy()
        obs, _, term, trunc, info = envs.step(actions)
        won |= info["won"] & ~done          # each game's first episode only
        done |= term | trunc
    return float(won.mean())


def positive(text: str) -> int:
    """An argparse type: a whole number from 1."""
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text[:40]!r}")
    return int(text)


def main(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="beginner", choices=list(DIFFICULTIES)[:3])
    ap.add_argument("--num-envs", type=positive, default=64)
    ap.add_argument("--num-steps", type=positive, default=32, help="rollout length per update")
    ap.add_argument("--total-steps", type=positive, default=1_000_000)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=positive, default=4)
    ap.add_argument("--minibatches", type=positive, default=4)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--channels", type=positive, default=64)
    ap.add_argument("--threads", type=positive, default=1, help="PyTorch threads")
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rows, cols, mines = DIFFICULTIES[args.level]
    n, t_len = args.num_envs, args.num_steps
    envs = MinesweeperVectorEnv(n, rows=rows, cols=cols, mines=mines, one_hot=True,
                                autoreset_mode=AutoresetMode.SAME_STEP)
    agent = Agent(args.channels)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    cells = rows * cols
    x_buf = torch.zeros((t_len, n, 15, rows, cols))
    m_buf = torch.zeros((t_len, n, cells), dtype=torch.bool)
    a_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf, r_buf, d_buf, v_buf = (torch.zeros((t_len, n)) for _ in range(4))
    obs, info = envs.reset(seed=args.seed)
    x, mask = features(obs, mines), torch.from_numpy(info["action_mask"])
    done = torch.zeros(n)
    wins = ended = steps = 0
    log: list[tuple[int, float, float]] = []
    t0 = time.process_time()
    for _ in range(args.total_steps // (n * t_len)):
        for t in range(t_len):
            x_buf[t], m_buf[t], d_buf[t] = x, mask, done
            with torch.no_grad():
                logits, value = agent(x)
                dist = masked(logits, mask)
                action = dist.sample()
            a_buf[t], logp_buf[t], v_buf[t] = action, dist.log_prob(action), value
            obs, reward, term, trunc, info = envs.step(action.numpy())
            end = term | trunc
            if end.any():
                wins += int(info["final_info"]["won"][end].sum())
                ended += int(end.sum())
            r_buf[t] = torch.from_numpy(reward.astype(np.float32))
            x, mask = features(obs, mines), torch.from_numpy(info["action_mask"])
            done = torch.from_numpy(end.astype(np.float32))
        steps += n * t_len
        with torch.no_grad():          # GAE, as CleanRL's ppo.py
            next_value = agent(x)[1]
            adv = torch.zeros_like(r_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nonterminal = 1.0 - (done if t == t_len - 1 else d_buf[t + 1])
                nv = next_value if t == t_len - 1 else v_buf[t + 1]
                delta = r_buf[t] + args.gamma * nv * nonterminal - v_buf[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            ret = adv + v_buf
        bx, bm, ba = x_buf.flatten(0, 1), m_buf.flatten(0, 1), a_buf.flatten()
        blp, badv, bret = logp_buf.flatten(), adv.flatten(), ret.flatten()
        size = n * t_len
        mb = size // args.minibatches
        for _ in range(args.epochs):
            order = torch.randperm(size)
            for s in range(0, size, mb):
                i = order[s:s + mb]
                logits, value = agent(bx[i])
                dist = masked(logits, bm[i])
                ratio = (dist.log_prob(ba[i]) - blp[i]).exp()
                a = badv[i]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                loss = (pg + args.vf_coef * 0.5 * ((value - bret[i]) ** 2).mean()
                        - args.ent_coef * dist.entropy().mean())
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                opt.step()
        cpu = time.process_time() - t0
        rate = wins / ended if ended else 0.0
        log.append((steps, rate, cpu))
        print(f"steps {steps:,}  episodes {ended:,}  win rate {rate:.1%}  "
              f"({steps / cpu:,.0f} steps/s of CPU)", flush=True)
        wins = ended = 0
    result: dict[str, object] = {"log": log}
    if args.eval_games > 0:
        result["eval"] = evaluate(agent, rows, cols, mines, args.eval_games, 10**6)
        print(f"greedy win rate over {args.eval_games:,} fresh games: {result['eval']:.1%}")
    return result


if __name__ == "__main__":
    main()
