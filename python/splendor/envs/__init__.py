"""Reinforcement-learning environments.

:class:`splendor.VectorEnv` (the batched Rust environment) and
:func:`splendor.observation_spec` need nothing beyond NumPy, nor does
:func:`random_legal_actions` (a fast uniform choice from a batch of masks). The adapters are
imported on demand, each needing its optional extra:

- ``splendor.envs.gymnasium``: Gymnasium single and vector envs (``splendor[rl]``);
- ``splendor.envs.pettingzoo``: PettingZoo AEC envs (``splendor[rl]``);
- ``splendor.envs.openspiel``: the games as OpenSpiel Python games (``splendor[openspiel]``).
"""

from __future__ import annotations

from splendor.envs.sampling import random_legal_actions
from splendor.envs.spec import Feature, ObservationSpec, observation_spec

__all__ = ["Feature", "ObservationSpec", "observation_spec", "random_legal_actions"]
