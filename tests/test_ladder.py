"""The strength ladder (splendor.ladder, `splendor ladder`): the Elo fit, the round robin,
resuming, the reference networks and bad arguments (issue 22, item 4)."""

from __future__ import annotations

import hashlib
import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("statsmodels")

from splendor import bots, cli, ladder, nets
from splendor.errors import ConfigError
from splendor.ladder import PairResult, fit_elo

TRUE = {"greedy": 0.0, "a": 200.0, "b": -300.0, "c": 500.0, "d": 50.0}


def synthetic(games: int, rng: np.random.Generator | None = None) -> list[PairResult]:
    """Every pair of TRUE's bots, scores drawn from (or, without rng, equal to) the Elo model."""
    results = []
    for a, b in combinations(TRUE, 2):
        p = ladder.elo_to_probability(TRUE[a] - TRUE[b])
        wins = float(rng.binomial(games, p)) if rng is not None else round(p * games, 3)
        results.append(PairResult(a, b, "base", 2, games, 0, wins, games - wins))
    return results


def test_the_fit_recovers_known_ratings_within_its_intervals() -> None:
    exact = {r.bot: r for r in fit_elo(synthetic(10_000), list(TRUE), prior_draws=0)}
    for bot, elo in TRUE.items():
        assert exact[bot].elo == pytest.approx(elo, abs=0.5)
    rng = np.random.default_rng(7)
    for _ in range(5):
        ratings = fit_elo(synthetic(400, rng), list(TRUE), prior_draws=0)
        for r in ratings:
            assert r.low <= TRUE[r.bot] <= r.high, r
            assert r.low < r.elo < r.high or r.bot == "greedy"
        # Best first, the anchor at 0 with no interval, games counted per bot.
        assert [r.bot for r in ratings] == sorted(TRUE, key=lambda b: -TRUE[b])
        anchor = next(r for r in ratings if r.bot == "greedy")
        assert (anchor.elo, anchor.low, anchor.high) == (0.0, 0.0, 0.0)
        assert all(r.games == 4 * 400 for r in ratings)


def test_anchoring_shifts_every_rating_and_more_games_narrow_the_intervals() -> None:
    results = synthetic(1000)
    by_greedy = {r.bot: r for r in fit_elo(results, list(TRUE), prior_draws=0)}
    by_b = {r.bot: r for r in fit_elo(results, list(TRUE), anchor="b", prior_draws=0)}
    assert by_b["b"].elo == 0.0 and by_b["greedy"].elo == pytest.approx(300, abs=1)
    for bot in TRUE:
        assert by_b[bot].elo - by_greedy[bot].elo == pytest.approx(by_b["greedy"].elo)
    # Without greedy in the ladder, the first bot is the anchor.
    assert fit_elo(results, ["a", "b", "c"], prior_draws=0)[1].bot == "a"
    wide = {r.bot: r.high - r.low for r in fit_elo(synthetic(100), list(TRUE), prior_draws=0)}
    narrow = {r.bot: r.high - r.low for r in fit_elo(results, list(TRUE), prior_draws=0)}
    assert all(narrow[b] < wide[b] / 2 for b in TRUE if b != "greedy")


def test_a_clean_sweep_has_a_finite_rating_through_the_virtual_draws() -> None:
    results = [
        PairResult("random", "greedy", "base", 2, 20, 0, 0.0, 20.0),
        PairResult("greedy", "mcts", "base", 2, 20, 0, 5.0, 15.0),
        # A game nobody won counts half to each side: mcts scores 19 of 20 here.
        PairResult("random", "mcts", "base", 2, 20, 0, 0.0, 18.0, truncated=2),
    ]
    assert results[2].score_b == 19.0
    ratings = {r.bot: r for r in fit_elo(results, ["random", "greedy", "mcts"])}
    assert -1500 < ratings["random"].elo < -300 < 0 < ratings["mcts"].elo
    assert np.isfinite([ratings["random"].low, ratings["random"].high]).all()
    # More virtual draws pull the ratings together.
    pulled = {r.bot: r for r in fit_elo(results, ["random", "greedy", "mcts"], prior_draws=10)}
    assert ratings["random"].elo < pulled["random"].elo < 0


def test_bad_fits_are_config_errors() -> None:
    results = synthetic(100)
    with pytest.raises(ConfigError, match="anchor 'e' is not one of the bots"):
        fit_elo(results, list(TRUE), anchor="e")
    with pytest.raises(ConfigError, match="no games join e to greedy"):
        fit_elo(results, [*TRUE, "e"])
    with pytest.raises(ConfigError, match="prior draws"):
        fit_elo(results, list(TRUE), prior_draws=-1)


def test_a_tiny_ladder_end_to_end_then_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ladder"
    args = ["ladder", "--bots", "random, greedy,mcts:50", "--games-per-pair", "4"]
    args += ["--out", str(out), "--seed", "3"]
    assert cli.main(args) == 0
    captured = capsys.readouterr()
    assert captured.err.count("pair ") == 3 and "pair 3/3: greedy" in captured.err
    assert "wrote" in captured.out and "mcts:50" in captured.out
    table = (out / "ladder.md").read_text()
    assert table.startswith("Ladder: base, 2 players, 4 games per pair")
    assert "| rank | bot | Elo | 95% interval | games | score |" in table
    for bot in ("random", "greedy", "mcts:50"):
        assert f"| `{bot}` |" in table
    assert "| `greedy` | +0 | anchor | 8 |" in table
    assert (out / "ladder.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    lines = (out / "results.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["a"], r["b"], r["games"], r["seed"]) for r in records] == [
        ("random", "greedy", 4, 3),
        ("random", "mcts:50", 4, 3),
        ("greedy", "mcts:50", 4, 3),
    ]
    assert records[0]["wins_b"] == 4.0  # random never beats greedy

    # A rerun plays nothing and writes the same table.
    assert cli.main(args) == 0
    assert "pair " not in capsys.readouterr().err
    assert (out / "results.jsonl").read_text().splitlines() == lines
    assert (out / "ladder.md").read_text() == table

    # A torn last line (a run killed while writing) is played again, and gives the same
    # result: the same seed, the same deals.
    torn = "\n".join(lines[:2]) + "\n" + lines[2][:20]
    (out / "results.jsonl").write_text(torn)
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    assert err.count("pair ") == 1 and "pair 3/3: greedy" in err
    again = (out / "results.jsonl").read_text().splitlines()
    redone = json.loads(again[-1])
    assert {k: v for k, v in redone.items() if k != "wall_s"} == {
        k: v for k, v in records[2].items() if k != "wall_s"
    }

    # Other settings are not mixed in: another seed plays every pair.
    played = ladder.run_ladder(["random", "greedy"], out, games_per_pair=2, seed=4)
    assert [(r.a, r.b, r.games, r.seed) for r in played] == [("random", "greedy", 2, 4)]


def test_more_games_per_pair_continue_each_match(tmp_path: Path) -> None:
    bots = ["greedy", "mcts:20"]
    whole = ladder.run_ladder(bots, tmp_path / "whole", games_per_pair=8, seed=5)
    ladder.run_ladder(bots, tmp_path / "grown", games_per_pair=4, seed=5)
    grown = ladder.run_ladder(bots[::-1], tmp_path / "grown", games_per_pair=8, seed=5)
    assert (grown[0].a, grown[0].games) == ("mcts:20", 8)
    assert (grown[0].score_b, grown[0].score_a) == (whole[0].score_a, whole[0].score_b)
    chunks = ladder.read_results(tmp_path / "grown" / "results.jsonl")
    assert [(c.a, c.first_game, c.games) for c in chunks] == [
        ("greedy", 0, 4),
        ("mcts:20", 4, 4),
    ]
    # Fewer games than recorded keep them all.
    assert ladder.run_ladder(bots, tmp_path / "grown", games_per_pair=2, seed=5)[0].games == 8


def test_bad_ladder_arguments_exit_2_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ladder"
    cases = [
        (["--players", "3"], "2 players only, got 3"),
        (["--games-per-pair", "3"], "games per pair must be a positive multiple of 2"),
        (["--bots", "random,random"], "a bot is listed twice in the ladder: random"),
        (["--bots", "random"], "a ladder needs at least two bots"),
        (["--bots", "random,mcts:0"], "unknown bot `mcts:0`"),
        (["--anchor", "mcts:100"], "the anchor 'mcts:100' is not one of the bots"),
        (["--bots", "random,net:5@b132d65", "--variant", "base", "--players", "4"], "2 players"),
        (["--bots", "random,net:5@no-such-reference"], "no-such-reference"),
        (["--games-per-pair", "0"], "between 2 and 1000000"),
        (["--prior-draws", "-1"], "between 0.0 and 1000.0"),
    ]
    for extra, message in cases:
        args = ["ladder", "--bots", "random,greedy", "--out", str(out), *extra]
        assert cli.main(args) == 2, extra
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, (extra, err)
        assert not (out / "results.jsonl").exists()
    with pytest.raises(ConfigError, match="2 players only"):
        ladder.run_ladder(["random", "greedy"], out, players=3, games_per_pair=3)
    with pytest.raises(ConfigError, match="is for duel with 2 players, not base"):
        ladder.check_bots(["random", f"net:5@{nets.NETS_DIR / 'duel-2p.safetensors'}"], "base", 2)


def test_the_reference_networks_stay_spellable_and_shipped() -> None:
    # The networks shipped at b132d65, kept as fixed opponents: net:N@b132d65.
    for variant in ("base", "duel", "marvel"):
        spec = bots.resolve_bot_spec(f"net:100@{ladder.REFERENCE_NETWORKS}", variant, 2)
        path = Path(spec.split("@", 1)[1])
        assert path == nets.REFERENCE_DIR / "b132d65" / f"{variant}-2p.safetensors"
        assert path.is_file()
    base = nets.REFERENCE_DIR / "b132d65" / "base-2p.safetensors"
    assert hashlib.sha256(base.read_bytes()).hexdigest().startswith("744fa98812c2")
    assert bots.resolve_bot_spec("net:0.5s@b132d65", "duel", 2).startswith("net:0.5s@/")
    # A name that is no reference folder stays a path, as before.
    assert bots.resolve_bot_spec("net:5@best.safetensors", "base", 2) == "net:5@best.safetensors"
    with pytest.raises(ConfigError, match="have none for base with 3 players"):
        bots.resolve_bot_spec("net:5@b132d65", "base", 3)
    assert ladder.default_bots("duel")[-1] == "net:840@b132d65"
    # The reference opponents keep b132d65's iterations when today's default AI changes
    # (base 2 players ships a wider network at net:1000:batch=4 since issue 22).
    assert ladder.default_bots("base")[-1] == "net:1070@b132d65"
    assert bots.default_bot_spec("base", 2) != "net:1070"
    assert ladder.default_bots("base", 3) == list(ladder.REFERENCE_SEARCHES)
    # Every shipped network together stays small (the wheel carries them).
    total = sum(f.stat().st_size for f in nets.NETS_DIR.rglob("*.safetensors"))
    assert total < 10 * 2**20


def test_ratings_that_round_to_zero_print_without_a_minus() -> None:
    from splendor.ladder import elo_text

    assert [elo_text(x) for x in (-0.3, -0.0, 0.2, 12.6, -40.4)] == ["+0", "+0", "+0", "+13", "-40"]


def test_a_ladder_can_play_only_the_pairs_given(tmp_path: Path) -> None:
    # The AI levels' ladder (benches/levels_ladder.py) places many cheap bots by their
    # neighbours and a few references, not a round robin.
    bots = ["random", "greedy", "mcts:8", "level:1"]
    played = ladder.run_ladder(
        bots,
        tmp_path,
        games_per_pair=2,
        seed=3,
        pairs=[("Level: 1", "greedy"), ("mcts:8", "random")],
    )
    assert [(r.a, r.b, r.games) for r in played] == [
        ("level:1", "greedy", 2),
        ("mcts:8", "random", 2),
    ]
    assert len(ladder.read_results(tmp_path / ladder.RESULTS_FILE)) == 2
    with pytest.raises(ConfigError, match="a pair names a bot not in the ladder: mcts:9"):
        ladder.run_ladder(bots, tmp_path, games_per_pair=2, seed=3, pairs=[("mcts:9", "greedy")])
