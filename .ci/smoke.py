"""Smoke test of an installed splendor (a wheel, in an environment with no Rust toolchain).

Run by ``.ci/run`` and by ``.github/workflows/release.yml`` on each wheel it builds: the
package imports from site-packages, every variant deals and plays, a search runs with each
shipped network (the data files are in the wheel), a bot match and random games run, and
the version matches the installed metadata. Prints one line per check; exits non-zero on
the first failure. Standard library and the package only (no pytest).
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import sys
import time

import splendor
from splendor import nets


def main() -> None:
    t0 = time.perf_counter()
    package = pathlib.Path(splendor.__file__).resolve().parent
    assert "site-packages" in package.parts, f"splendor imported from {package}, not installed"
    version = importlib.metadata.version("splendor")
    assert splendor.__version__ == version, (splendor.__version__, version)
    info = splendor._core.build_info()
    print(f"splendor {version} from {package}; {info['rustc']}, {info['target']}")

    for variant in splendor.VARIANTS:
        state = splendor.new_game(variant, players=2, seed=7)
        legal = state.legal_actions()
        assert legal and state.legal_action_mask().sum() == len(legal)
        state.apply(legal[0])
        assert splendor.from_json(state.to_json()) == state
        network = nets.shipped_network_path(variant, 2)
        result = splendor.search(state, iterations=64, seed=1, network=network)
        assert result.action in state.legal_actions() and result.iterations == 64
        totals = splendor.random_games(variant, 20, seed=3)
        assert totals["games"] == 20 and totals["decisions"] > 0
        print(
            f"{variant}: {len(legal)} legal actions, network search -> {result.action}, "
            f"20 random games in {totals['elapsed'] * 1000:.1f} ms"
        )

    outcome = splendor.match(["greedy", "random"], games=4, variant="base", seed=5)
    assert outcome.games == 4
    print(f"match greedy vs random: {[bot['wins'] for bot in outcome.bots]} wins")
    print(f"smoke test passed in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
    sys.exit(0)
