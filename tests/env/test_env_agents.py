"""The solver's strategies played through the environment, and the baselines."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import fastmine  # noqa: E402
from fastmine import solver  # noqa: E402
from fastmine.env import MinesweeperEnv  # noqa: E402
from fastmine.env.agents import SolverAgent  # noqa: E402
from fastmine.env.baselines import Baseline, main, play_random, play_strategy, wilson  # noqa: E402


def play(env, agent, seed=None):
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    return info


def test_best_through_the_environment_wins_the_games_the_solver_wins():
    env = MinesweeperEnv(9, 9, 10, "opening")
    agent = SolverAgent(env, "best")
    outcomes = []
    for s in range(25):
        info = play(env, agent, seed=s)
        game = fastmine.Game(9, 9, 10, rule="opening", seed=info["board_seed"])
        direct = solver.play(game, "best")
        outcomes.append(info["won"])
        assert info["won"] == (direct is fastmine.GameState.WON)
    assert sum(outcomes) >= 20


def test_auto_flags_and_chords_through_the_environment():
    env = MinesweeperEnv(16, 16, 40, "opening", flags=True, chord=True)
    agent = SolverAgent(env, "auto", seed=1)
    kinds = set()
    for s in range(6):
        obs, info = env.reset(seed=s)
        done = False
        while not done:
            a = agent.act(obs, info)
            kinds.add(env.options.decode(a)[0])
            obs, reward, terminated, truncated, info = env.step(a)
            assert reward != env.options.rewards.invalid or terminated   # never invalid
            done = terminated or truncated
    assert kinds == {"reveal", "flag", "chord"}


def test_agent_refusals():
    with pytest.raises(TypeError, match="MinesweeperEnv"):
        SolverAgent(object(), "best")
    with pytest.raises(ValueError, match="one_hot"):
        SolverAgent(MinesweeperEnv(one_hot=True))
    with pytest.raises(ValueError, match="unknown strategy"):
        SolverAgent(MinesweeperEnv(), "clever")
    env = MinesweeperEnv(9, 9, 10)
    agent = SolverAgent(env, "best")
    obs, info = env.reset(seed=2)
    obs, *_, info = env.step(agent.act(obs, info))
    obs, *_, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))   # not the agent's
    if not env._batch.done[0]:
        with pytest.raises(RuntimeError, match="agent's"):
            agent.act(obs, info)


def test_baselines_run_and_count_every_game():
    b = play_random("beginner", 100, seed=3, num_envs=32)
    assert b.games == 128 and 0 <= b.won <= b.games
    s = play_strategy("best", "beginner", 10, seed=3)
    assert isinstance(s, Baseline) and s.games == 10 and s.won >= 7
    assert s.row().startswith(f"| best | beginner | opening | 10 | {s.won} | ")
    lo, hi = wilson(s.won, s.games)
    assert lo <= s.rate <= hi


@pytest.mark.parametrize("argv, words", [
    (["--levels", "master"], "unknown level 'master'; choose from beginner, intermediate, expert"),
    (["--levels", ","], "name at least one level"),
    (["--strategies", "best,clever"], "unknown strategy 'clever'"),
    (["--random-games", "0"], "expected a whole number of at least 1, got '0'"),
    (["--auto-games", "many"], "expected a whole number of at least 1, got 'many'"),
    (["--seed", "-1"], "'-1' is not a seed from 0 to 2**64 - 1"),
    (["--rule", "safe"], "invalid choice: 'safe'"),
])
def test_baselines_command_refuses_bad_arguments_in_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err and "Traceback" not in captured.err


def test_baselines_command_prints_its_table(capsys):
    assert main(["--levels", "beginner", "--strategies", "random,best,inference",
                 "--random-games", "1,000", "--best-games", "5", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| agent | level | rule | games | won |")
    assert [line.split(" | ")[:4] for line in lines[2:]] == [
        ["| random", "beginner", "opening", "1,000"], ["| best", "beginner", "opening", "5"],
        ["| inference", "beginner", "opening", "5"]]
    best = play_strategy("best", "beginner", 5, seed=3)
    assert lines[3] == best.row()
