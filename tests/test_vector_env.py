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
    packed = env.packed_mask
    assert packed.shape == (5, (env.num_actions + 63) // 64) and packed.dtype == np.uint64
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(250):
        # The packed mask is the mask, 64 actions per word, bit a % 64 of word a // 64.
        unpacked = np.unpackbits(packed.view(np.uint8), axis=1, bitorder="little")
        np.testing.assert_array_equal(unpacked[:, : env.num_actions].view(np.bool_), mask)
        assert not unpacked[:, env.num_actions :].any()
        for i in range(5):
            state = env.state(i)
            assert state.current_player == player[i]
            np.testing.assert_array_equal(mask[i], state.legal_action_mask())
            np.testing.assert_array_equal(obs[i], state.observation(int(player[i])))
        out = env.step(random_legal(mask, rng))
        # The same arrays every step: nothing is copied.
        assert out[0] is obs and out[1] is mask and out[2] is player
        assert env.packed_mask is packed
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


def test_random_legal_actions_draw_the_same_from_the_packed_mask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The packed mask gives the draws of the bool mask for the same generator, with
    # NumPy's bitwise_count (NumPy >= 2) and without it (the byte path).
    for variant in splendor.VARIANTS:
        env = splendor.VectorEnv(variant, 300, seed=4)
        rng = np.random.default_rng(6)
        for step in range(30):
            seed = int(rng.integers(2**30))
            from_bools = random_legal_actions(env.action_mask, np.random.default_rng(seed))
            from_words = random_legal_actions(env.packed_mask, np.random.default_rng(seed))
            np.testing.assert_array_equal(from_bools, from_words)
            if step % 10 == 0:
                with monkeypatch.context() as m:
                    m.delattr(np, "bitwise_count")
                    by_bytes = random_legal_actions(env.packed_mask, np.random.default_rng(seed))
                np.testing.assert_array_equal(by_bytes, from_words)
            env.step(from_words)
    with pytest.raises(ValueError, match="no legal action"):
        random_legal_actions(np.zeros((2, 3), dtype=np.uint64), rng)
    with pytest.raises(splendor.ConfigError, match="mask must be a 2-D NumPy array"):
        random_legal_actions(np.zeros(3, dtype=np.uint64), rng)


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


def _history(
    threads: int, opponents: list[str | None] | None, pipelined: bool
) -> list[npt.NDArray[np.generic]]:
    """Every array of 60 steps of two marvel envs, stepped by ``step`` or by the
    pipelined ``step_async`` / ``step_wait`` loop, from the same seeds and draws."""
    envs = [
        splendor.VectorEnv("marvel", 7, seed=s, threads=threads, opponents=opponents)
        for s in (8, 9)
    ]
    rng = np.random.default_rng(2)
    history: list[npt.NDArray[np.generic]] = []

    def record(env: splendor.VectorEnv, out: tuple[npt.NDArray[Any], ...]) -> None:
        assert out[0] is env.observation and out[3] is env.rewards
        history.extend(a.copy() for a in out)
        history.append(env.final_observation.copy())
        history.append(env.episode_length.copy())

    for _ in range(60):
        for env in envs:
            actions = random_legal(env.action_mask, rng)
            if pipelined:
                env.step_async(actions)
                actions.fill(-1)  # step_async copied them
                record(env, env.step_wait())
            else:
                record(env, env.step(actions))
    return history


def test_step_async_gives_the_arrays_of_step_for_any_thread_count() -> None:
    for opponents in (None, [None, "greedy"]):
        want = _history(1, opponents, pipelined=False)
        for threads in (1, 2, 3):
            got = _history(threads, opponents, pipelined=True)
            for a, b in zip(want, got, strict=True):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_pipelined_loop_gives_the_arrays_of_step(threads: int) -> None:
    # Two envs: one steps in the background while the other's actions are chosen,
    # and step_wait helps finish it (200 games: seven chunks to share out).
    sync = [splendor.VectorEnv("base", 200, seed=s, threads=2) for s in (1, 2)]
    piped = [splendor.VectorEnv("base", 200, seed=s, threads=threads) for s in (1, 2)]
    rng_sync, rng_piped = np.random.default_rng(3), np.random.default_rng(3)
    a, b = piped
    a.step_async(random_legal_actions(a.action_mask, rng_piped))
    for _ in range(100):
        for env in sync:
            env.step(random_legal_actions(env.action_mask, rng_sync))
        actions_b = random_legal_actions(b.action_mask, rng_piped)
        a.step_wait()
        np.testing.assert_array_equal(a.observation, sync[0].observation)
        b.step_async(actions_b)
        actions_a = random_legal_actions(a.action_mask, rng_piped)
        b.step_wait()
        np.testing.assert_array_equal(b.action_mask, sync[1].action_mask)
        np.testing.assert_array_equal(b.rewards, sync[1].rewards)
        a.step_async(actions_a)
    a.step_wait()


def test_step_async_checks_the_actions_first_and_changes_nothing() -> None:
    env = splendor.VectorEnv("base", 4, seed=1, threads=2)
    rng = np.random.default_rng(1)
    for _ in range(3):
        env.step(random_legal(env.action_mask, rng))
    before = [a.copy() for a in (env.observation, env.action_mask, env.current_player)]
    states = [env.state(i) for i in range(4)]
    actions = random_legal(env.action_mask, rng)
    actions[2] = int(np.flatnonzero(~env.action_mask[2])[0])
    bad: list[tuple[object, type[Exception], str]] = [
        (actions, splendor.IllegalActionError, r"^env 2: .* is not legal now"),
        (np.where(np.arange(4) == 1, -1, actions), splendor.InvalidActionError, r"^env 1: "),
        (actions.astype(np.float32), splendor.InvalidActionError, "integers"),
        (actions[:3], splendor.ConfigError, "expected 4 actions"),
        (env.episode_length, splendor.ConfigError, "in use"),
    ]
    for wrong, error, message in bad:
        with pytest.raises(error, match=message):
            env.step_async(wrong)  # type: ignore[arg-type]
        # Nothing started: there is no step to wait for, and any call works.
        with pytest.raises(splendor.InvalidStateError, match="no step in flight"):
            env.step_wait()
    after = (env.observation, env.action_mask, env.current_player)
    for got, want in zip(after, before, strict=True):
        np.testing.assert_array_equal(got, want)
    assert [env.state(i) for i in range(4)] == states


def test_every_other_call_raises_while_a_step_is_in_flight() -> None:
    env = splendor.VectorEnv("duel", 5, seed=4, threads=2)
    twin = splendor.VectorEnv("duel", 5, seed=4)
    actions = env.action_mask.argmax(axis=1)
    env.step_async(actions)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("step", lambda: env.step(actions)),
        ("step_async", lambda: env.step_async(actions)),
        ("reset", env.reset),
        ("state", lambda: env.state(0)),
        ("observation", lambda: env.observation),
        ("action_mask", lambda: env.action_mask),
        ("packed_mask", lambda: env.packed_mask),
        ("current_player", lambda: env.current_player),
        ("rewards", lambda: env.rewards),
        ("terminated", lambda: env.terminated),
        ("truncated", lambda: env.truncated),
        ("final_observation", lambda: env.final_observation),
        ("episode_length", lambda: env.episode_length),
    ]
    for name, call in calls:
        with pytest.raises(splendor.InvalidStateError, match=rf"^{name}: a step is in flight"):
            call()
    # The description stays readable.
    assert (env.num_envs, env.num_actions, env.threads) == (5, twin.num_actions, 2)
    assert env.observation_size == twin.observation_size
    # The refused calls changed nothing: the step in flight is the one started.
    got = env.step_wait()
    want = twin.step(actions)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(splendor.InvalidStateError, match="no step in flight"):
        env.step_wait()
    env.step(env.action_mask.argmax(axis=1))


def test_step_async_returns_before_the_step_ends() -> None:
    # A step with a searching opponent takes a while: step_async hands it over.
    env = splendor.VectorEnv("base", 2, opponents=[None, "mcts:3000"], seed=1)
    twin = splendor.VectorEnv("base", 2, opponents=[None, "mcts:3000"], seed=1)
    actions = env.action_mask.argmax(axis=1)
    start = time.perf_counter()
    twin.step(actions)
    step_time = time.perf_counter() - start
    start = time.perf_counter()
    env.step_async(actions)
    handed_over = time.perf_counter() - start
    env.step_wait()
    assert step_time > 0.01, "the step was too short to tell"
    assert handed_over < step_time / 4
    np.testing.assert_array_equal(env.observation, twin.observation)


def test_step_wait_plays_part_of_the_step_unless_a_search_bot_plays() -> None:
    # The calling thread's CPU time inside step_wait: helping, it plays a share of the
    # games; waiting, it only polls (~0.3 ms, then it sleeps, waking every 20 ms to
    # look for Ctrl-C). A greedy seat makes each step long (~20 ms here), longer than a
    # scheduler's time slice, so that the caller plays its share even on a busy machine.
    def wait_cpu(env: splendor.VectorEnv, rng: np.random.Generator) -> float:
        env.step_async(random_legal(env.action_mask, rng))
        start = time.thread_time()
        env.step_wait()
        return time.thread_time() - start

    rng = np.random.default_rng(0)
    env = splendor.VectorEnv("base", 4_000, seed=1, opponents=[None, "greedy"])
    steps = []
    for _ in range(3):
        actions = random_legal(env.action_mask, rng)
        start = time.thread_time()
        env.step(actions)
        steps.append(time.thread_time() - start)
    whole_step = float(np.median(steps))
    helped = sum(wait_cpu(env, rng) for _ in range(10))
    # Ten steps, about half of each played here (~5 whole steps); waiting, ~6 ms in all.
    assert helped > whole_step, (helped, whole_step)
    # A search bot's seat: its games are long, and step_wait waits (answering Ctrl-C);
    # 64 games are two chunks, one of which a helping caller would play.
    searching = splendor.VectorEnv("base", 64, opponents=[None, "mcts:200"], seed=1)
    start = time.perf_counter()
    waited = wait_cpu(searching, rng)
    assert waited < 0.25 * (time.perf_counter() - start), waited


def test_the_arrays_cannot_be_resized_under_a_step() -> None:
    env = splendor.VectorEnv("base", 3)
    for array in (env.observation, env.action_mask, env.episode_length):
        with pytest.raises(ValueError, match="does not own its data"):
            array.resize((1,), refcheck=False)


def test_dropping_an_env_with_a_step_in_flight() -> None:
    # The drop waits for the step (which writes into the env's arrays), its bots
    # told to answer at once: a 10-minute search does not hold it up.
    env = splendor.VectorEnv("base", 2, opponents=[None, "mcts:600s"], seed=1)
    env.step_async(env.action_mask.argmax(axis=1))
    time.sleep(0.05)
    start = time.perf_counter()
    del env
    assert time.perf_counter() - start < 5
    # The step threads are shared by the envs: the next env still steps.
    other = splendor.VectorEnv("base", 2, seed=1)
    other.step_async(other.action_mask.argmax(axis=1))
    other.step_wait()
    # At exit too: an interpreter ending with a step in flight exits cleanly.
    code = (
        "import splendor\n"
        "env = splendor.VectorEnv('marvel', 64, threads=2, opponents=[None, 'mcts:600s'])\n"
        "env.step_async(env.action_mask.argmax(axis=1))\n"
        "print('started', flush=True)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout == "started\n"


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_a_forked_child_steps_asynchronously_without_the_parents_threads() -> None:
    import multiprocessing

    env = splendor.VectorEnv("base", 16, seed=4, threads=2)
    rng = np.random.default_rng(6)
    env.step_async(random_legal(env.action_mask, rng))  # starts a step thread
    env.step_wait()
    actions = random_legal(env.action_mask, rng)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_step_async_and_send, args=(env, actions, send))
    child.start()
    assert receive.poll(60), "the child did not step"
    from_child = receive.recv()
    child.join(60)
    assert child.exitcode == 0
    env.step(actions)
    np.testing.assert_array_equal(from_child, env.observation)


def _step_async_and_send(
    env: splendor.VectorEnv, actions: npt.NDArray[np.int64], send: Any
) -> None:
    env.step_async(actions)
    send.send(env.step_wait()[0].copy())
    del env


def test_the_docs_examples_of_the_batched_env_run() -> None:
    # docs/rl.md's examples, the pipelined loop among them, in one namespace: a read
    # of an env with a step in flight would raise.
    docs = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    section = docs[docs.index("## The batched environment") : docs.index("## The observation spec")]
    blocks = section.split("```python\n")[1:]
    assert len(blocks) == 2
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(block[: block.index("```")], namespace)
    assert namespace["a"].num_envs == namespace["b"].num_envs == 512
    assert namespace["obs_b"].shape == (512, splendor.observation_spec("base").size)
