"""Training the policy/value network by self-play (optional extra ``splendor[train]``).

Needs PyTorch, safetensors, matplotlib and tqdm (``pip install 'splendor[train]'``);
``import splendor`` never imports this package. The formats it reads and writes
(self-play shards, the network file) are specified in ``docs/network.md``; how to
run it and reproduce a shipped network is in ``docs/training.md``.
"""

from __future__ import annotations

from splendor.train.data import Samples, input_normalization, load_runs, read_shard
from splendor.train.errors import NetworkError, ShardError
from splendor.train.loop import TrainConfig, resume, train
from splendor.train.model import (
    NetworkShape,
    PolicyValueNet,
    load,
    numpy_forward,
    read_network_file,
)

__all__ = [
    "NetworkError",
    "NetworkShape",
    "PolicyValueNet",
    "Samples",
    "ShardError",
    "TrainConfig",
    "input_normalization",
    "load",
    "load_runs",
    "numpy_forward",
    "read_network_file",
    "read_shard",
    "resume",
    "train",
]
