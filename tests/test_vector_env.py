"""splendor.VectorEnv and splendor.observation_spec from Python."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import splendor
from splendor.envs import random_legal_actions


def random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row of ``mask``."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)
    actions: npt.NDArray[np.int64] = cols[pick].astype(np.int64)
    return actions


@pytest.mark.parametrize(("variant", "players"), [("base", 2), ("duel", 2), ("marvel", 3)])
def test_arrays_describe_the_games(variant: str, players: int) -> None:
    env = splendor.VectorEnv(variant, 5, players=players, seed=3)
    obs, mask, player = env.reset()
    spec = splendor.observation_spec(variant, players)
    assert obs.shape == (5, spec.size) and obs.dtype == np.float32
    assert mask.shape == (5, env.num_actions) and mask.dtype == np.bool_
    assert player.shape == (5,) and player.dtype == np.int32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(250):
        for i in range(5):
            state = env.state(i)
            assert state.current_player == player[i]
            np.testing.assert_array_equal(mask[i], state.legal_action_mask())
            np.testing.assert_array_equal(obs[i], state.observation(int(player[i])))
        out = env.step(random_legal(mask, rng))
        # The same arrays every step: nothing is copied.
        assert out[0] is obs and out[1] is mask and out[2] is player
        rewards, terminated, truncated = out[3], out[4], out[5]
        assert rewards.shape == (5, players)
        assert rewards is env.rewards and terminated is env.terminated
        done = terminated | truncated
        ended += int(done.sum())
        assert (rewards[~done] == 0).all()
        assert (env.episode_length[done] > 0).all() and (env.episode_length[~done] == 0).all()
        assert np.allclose(rewards[terminated].sum(axis=1), 1.0)
    assert ended > 0


def test_illegal_actions_raise_naming_the_env_and_change_nothing() -> None:
    env = splendor.VectorEnv("base", 4, seed=1)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(3):
        env.step(random_legal(mask, rng))
    before = [a.copy() for a in (env.observation, env.action_mask, env.current_player)]
    states = [env.state(i) for i in range(4)]
    actions = random_legal(mask, rng)
    actions[1] = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(splendor.IllegalActionError, match=r"^env 1: "):
        env.step(actions)
    actions[1] = env.num_actions
    with pytest.raises(
        splendor.InvalidActionError, match=r"^env 1: action id must be between 0 and "
    ):
        env.step(actions)
    with pytest.raises(splendor.InvalidActionError, match="integers"):
        env.step(actions.astype(np.float64))
    with pytest.raises(splendor.ConfigError, match="expected 4 actions"):
        env.step(actions[:3])
    after = (env.observation, env.action_mask, env.current_player)
    for got, want in zip(after, before, strict=True):
        np.testing.assert_array_equal(got, want)
    assert [env.state(i) for i in range(4)] == states
    # Lists and other integer dtypes are accepted.
    env.step([int(a) for a in random_legal(mask, rng)])
    env.step(random_legal(mask, rng).astype(np.int32))


def test_actions_in_any_integer_layout_and_typed_errors_for_the_rest() -> None:
    rng = np.random.default_rng(4)
    Actions = npt.NDArray[np.int64]
    layouts: list[Callable[[Actions], object]] = [
        lambda a: a,
        lambda a: a.astype(np.int16),
        lambda a: a.astype(np.uint16),
        lambda a: a.astype(">i8"),  # not the machine's byte order
        lambda a: np.repeat(a, 2)[::2],  # strided
        lambda a: tuple(int(x) for x in a),
        lambda a: [np.int32(x) for x in a],
    ]
    envs = [splendor.VectorEnv("duel", 3, seed=2) for _ in layouts]
    for _ in range(20):
        actions = random_legal(envs[0].action_mask, rng)
        for env, layout in zip(envs, layouts, strict=True):
            env.step(layout(actions))  # type: ignore[arg-type]
        for env in envs[1:]:
            np.testing.assert_array_equal(env.observation, envs[0].observation)
    env = envs[0]
    before = env.observation.copy()
    good = env.action_mask.argmax(axis=1)
    bad: list[tuple[object, type[Exception], str]] = [
        (np.stack([good, good]), splendor.InvalidActionError, r"1-D array, got shape \(2, 3\)"),
        (5, splendor.InvalidActionError, r"1-D array, got shape \(\)"),
        (good.astype(bool), splendor.InvalidActionError, "integers, got dtype bool"),
        ("abc", splendor.InvalidActionError, "integers"),
        ([1, None, 2], splendor.InvalidActionError, "integers, got dtype object"),
        (
            np.full(3, 2**64 - 1, dtype=np.uint64),
            splendor.InvalidActionError,
            r"actions\[0\] must be between -9223372036854775808 and 9223372036854775807",
        ),
        (env.episode_length, splendor.ConfigError, "in use"),
        (good[:2], splendor.ConfigError, "expected 3 actions"),
    ]
    for wrong, error, message in bad:
        with pytest.raises(error, match=message):
            env.step(wrong)  # type: ignore[arg-type]
    np.testing.assert_array_equal(env.observation, before)


def run(threads: int, opponents: list[str | None] | None) -> list[npt.NDArray[np.generic]]:
    env = splendor.VectorEnv("marvel", 19, players=2, seed=8, threads=threads, opponents=opponents)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(2)
    history: list[npt.NDArray[np.generic]] = []
    for _ in range(120):
        history.extend(a.copy() for a in env.step(random_legal(mask, rng)))
        history.append(env.final_observation.copy())
    return history


def test_same_arrays_for_any_thread_count() -> None:
    for opponents in (None, [None, "greedy"]):
        one, two = run(1, opponents), run(2, opponents)
        for a, b in zip(one, two, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_a_forked_child_steps_without_the_parents_threads() -> None:
    # The worker threads stay in the parent: a child made by fork (multiprocessing's
    # default on Linux) steps every shard itself, and gets the same arrays.
    import multiprocessing

    env = splendor.VectorEnv("base", 16, seed=4, threads=2)
    rng = np.random.default_rng(6)
    env.step(random_legal(env.action_mask, rng))
    actions = random_legal(env.action_mask, rng)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_step_and_send, args=(env, actions, send))
    child.start()
    assert receive.poll(60), "the child did not step"
    from_child = receive.recv()
    child.join(60)
    assert child.exitcode == 0
    env.step(actions)
    np.testing.assert_array_equal(from_child, env.observation)


def _step_and_send(env: splendor.VectorEnv, actions: npt.NDArray[np.int64], send: Any) -> None:
    env.step(actions)
    send.send(env.observation.copy())
    del env  # dropping it in the child must not wait for the parent's threads


def test_reset_seed() -> None:
    env = splendor.VectorEnv("duel", 3, seed=5)
    first = env.reset(seed=9)[0].copy()
    np.testing.assert_array_equal(first, splendor.VectorEnv("duel", 3, seed=9).observation)
    assert not np.array_equal(first, env.reset(seed=10)[0])


def test_opponents_play_their_seats() -> None:
    env = splendor.VectorEnv("base", 6, players=3, opponents=["greedy", None, "random"], seed=2)
    assert env.opponents == ["greedy", None, "random"]
    _, mask, player = env.reset()
    rng = np.random.default_rng(3)
    for _ in range(100):
        assert (player == 1).all()
        env.step(random_legal(mask, rng))
    bad_opponents = (["greedy", "greedy"], ["nobot", None], "greedy", [None] * 4, [3, None])
    for bad in bad_opponents:
        with pytest.raises(splendor.ConfigError):
            splendor.VectorEnv("base", 2, opponents=bad)  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    for kwargs in ({"players": 5}, {"threads": 0}, {"turn_cap": 0}, {"seed": -1}):
        with pytest.raises(splendor.ConfigError):
            splendor.VectorEnv("base", 2, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(splendor.ConfigError):
        splendor.VectorEnv("chess", 2)
    with pytest.raises(splendor.ConfigError):
        splendor.VectorEnv("duel", 2, players=3)
    with pytest.raises(splendor.ConfigError):
        splendor.VectorEnv("base", 0)
    env = splendor.VectorEnv("base", 2)
    with pytest.raises(splendor.ConfigError):
        env.state(2)


def test_step_releases_the_gil() -> None:
    env = splendor.VectorEnv("base", 8, opponents=["mcts:3000", None], seed=1)
    mask = env.action_mask
    actions = random_legal(mask, np.random.default_rng(0))
    worker = threading.Thread(target=env.step, args=(actions,))
    count = 0
    start = time.perf_counter()
    worker.start()
    while worker.is_alive():
        count += 1
    worker.join()
    elapsed = time.perf_counter() - start
    assert elapsed > 0.01, "the step was too short to tell"
    # With the GIL held by the step this loop could not have run meanwhile.
    assert count > 1000


def test_normalized_observations() -> None:
    spec = splendor.observation_spec("base", 2)
    raw = splendor.VectorEnv("base", 4, seed=6)
    norm = splendor.VectorEnv("base", 4, seed=6, normalize=True)
    assert norm.normalize and not raw.normalize
    rng = np.random.default_rng(4)
    for _ in range(60):
        np.testing.assert_allclose(norm.observation, spec.normalize(raw.observation), rtol=1e-6)
        actions = random_legal(raw.action_mask, rng)
        raw.step(actions)
        norm.step(actions)
    bounded = norm.observation[:, spec.bounded]
    assert (bounded >= 0).all() and (bounded <= 1).all()


def test_observation_spec() -> None:
    for variant, size in (("base", 432), ("duel", 696), ("marvel", 503)):
        spec = splendor.observation_spec(variant)
        assert spec.size == size == len(spec.names) == len(set(spec.names))
        assert [f.offset for f in spec.features] == list(range(size))
        assert spec.scales.dtype == np.float32 and (spec.scales > 0).all()
    spec = splendor.observation_spec("base", 4)
    state = splendor.new_game("base", players=4, seed=0)
    obs = state.observation(0)
    assert obs[spec.offset("bank.w")] == 7
    assert obs[spec.offset("deck.l2")] == 26
    assert obs[spec.slice("seat0.tokens")].tolist() == [0] * 6
    seat1 = slice(spec.offset("seat1.tokens.w"), spec.offset("seat2.tokens.w"))
    assert spec.slice("seat1") == seat1
    with pytest.raises(KeyError):
        spec.offset("nothing")
    with pytest.raises(splendor.ConfigError):
        splendor.observation_spec("duel", 3)
    with pytest.raises(splendor.ConfigError):
        splendor.observation_spec("go")


def test_import_splendor_imports_no_rl_library() -> None:
    code = (
        "import sys, splendor, splendor.envs; "
        "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'torch') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_docs_show_the_spec_tables() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    for variant in splendor.VARIANTS:
        start = docs.index(f"<!-- spec table {variant} -->\n") + len(
            f"<!-- spec table {variant} -->\n"
        )
        end = docs.index("\n<!-- end spec table -->", start)
        assert docs[start:end] == splendor.observation_spec(variant).table()


def test_random_legal_actions_by_words_and_by_bytes_draw_the_same() -> None:
    # The word path (NumPy >= 2) and the byte path (older NumPy) pick the k-th legal
    # action of each row for the same k: the same draws for the same generator, for
    # any width (rows straddling words), density and memory order.
    from splendor.envs import sampling

    rng = np.random.default_rng(7)
    for trial in range(400):
        n, width = int(rng.integers(1, 40)), int(rng.integers(1, 700))
        mask = rng.random((n, width)) < rng.random() * 0.3
        mask[np.arange(n), rng.integers(0, width, n)] = True
        if trial % 3 == 0:
            mask = np.asfortranarray(mask)
        seed = int(rng.integers(2**30))
        words = random_legal_actions(mask, np.random.default_rng(seed))
        by_bytes = sampling._by_bytes(mask, np.random.default_rng(seed))
        np.testing.assert_array_equal(words, by_bytes)
        assert mask[np.arange(n), words].all()
    with pytest.raises(ValueError, match="no legal action"):
        sampling._by_bytes(np.zeros((2, 10), dtype=bool), rng)


def test_random_legal_actions_are_legal_and_uniform() -> None:
    env = splendor.VectorEnv("duel", 64, seed=2)
    rng = np.random.default_rng(5)
    for _ in range(50):
        mask = env.action_mask
        actions = random_legal_actions(mask, rng)
        assert mask[np.arange(64), actions].all()
        env.step(actions)
    row = env.action_mask[:1].copy()
    legal = np.flatnonzero(row[0])
    draws = np.concatenate([random_legal_actions(row, rng) for _ in range(200 * len(legal))])
    counts = np.bincount(draws, minlength=row.shape[1])
    assert counts.sum() == counts[legal].sum()
    # 200 expected draws per action: a bias of 2x either way would show.
    assert counts[legal].min() > 120 and counts[legal].max() < 290
    with pytest.raises(ValueError, match="no legal action"):
        random_legal_actions(np.zeros((2, 10), dtype=bool), rng)
