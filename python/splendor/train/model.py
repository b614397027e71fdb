"""The policy/value MLP of ``docs/network.md`` and its safetensors file.

The module's parameter and buffer names are the tensor names of the network file
(``input.shift``, ``trunk.0.weight``, ``policy.bias``, ...), so export and load
are a plain ``state_dict`` round trip plus the header metadata. The derived input
features of ``features=needs`` (:mod:`splendor.train.features`) are computed in
``forward`` and hold no saved tensors.
"""

from __future__ import annotations

import itertools
import json
import os
import stat
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from safetensors.numpy import load as load_safetensors
from safetensors.torch import save_file
from torch import nn

import splendor
from splendor.errors import ConfigError, NetworkError
from splendor.train.features import NeedsFeatures, extra_size, features_problem

FORMAT = "splendor-net/1"
"""The ``format`` metadata string of a network file."""

REQUIRED_METADATA_KEYS = ("format", "variant", "players", "obs_size", "num_actions", "hidden")
"""The keys a loaded file must have (``features`` and ``provenance`` are optional, as in the
Rust loader; a file without ``features`` reads as ``raw``)."""

METADATA_KEYS = (*REQUIRED_METADATA_KEYS, "features", "provenance")
"""Every metadata key an exported network file carries (``docs/network.md``)."""

MAX_PLAYERS = 4


@dataclass(frozen=True)
class NetworkShape:
    """What a network is for and how wide it is."""

    variant: str
    players: int
    obs_size: int
    num_actions: int
    hidden: tuple[int, ...]
    features: str = "raw"
    """The input feature set: ``raw`` (the observation) or ``needs`` (with each seat's needs)."""

    def __post_init__(self) -> None:
        if self.players < 1 or self.obs_size < 1 or self.num_actions < 1:
            raise ValueError(f"bad network shape {self}")
        if not self.hidden or any(h < 1 for h in self.hidden):
            raise ValueError(f"hidden widths must be one or more positive ints, got {self.hidden}")
        problem = features_problem(self.features, self.variant, self.players)
        if problem:
            raise ValueError(problem)

    @property
    def input_size(self) -> int:
        """The trunk's input width: the observation and the extras of ``features``."""
        return self.obs_size + extra_size(self.features, self.variant, self.players)


class InputNorm(nn.Module):
    """``x' = (x - shift) * scale``, with shift and scale stored as buffers."""

    shift: torch.Tensor
    scale: torch.Tensor

    def __init__(self, size: int) -> None:
        super().__init__()
        self.register_buffer("shift", torch.zeros(size))
        self.register_buffer("scale", torch.ones(size))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.shift) * self.scale


class PolicyValueNet(nn.Module):
    """Input normalisation, a ReLU trunk, and policy and value heads.

    ``forward(obs)`` returns ``(policy_logits [n, A], value_logits [n, P])``; the
    prior is the softmax of the policy logits over the legal actions and the
    value the softmax of the value logits (column 0 = the mover).
    """

    def __init__(self, shape: NetworkShape) -> None:
        super().__init__()
        self.shape = shape
        self.extras = (
            NeedsFeatures(shape.variant, shape.players) if shape.features == "needs" else None
        )
        self.input = InputNorm(shape.input_size)
        widths = (shape.input_size, *shape.hidden)
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
        self.policy = nn.Linear(widths[-1], shape.num_actions)
        self.value = nn.Linear(widths[-1], shape.players)

    def input_features(self, obs: torch.Tensor) -> torch.Tensor:
        """The trunk's input before normalisation: ``obs [n, O]``, then the extras."""
        if self.extras is None:
            return obs
        return torch.cat([obs, self.extras(obs)], dim=1)

    def trunk_output(self, obs: torch.Tensor) -> torch.Tensor:
        """The last hidden layer's activations: what both heads (and an auxiliary
        head in training) read."""
        x = self.input(self.input_features(obs))
        for layer in self.trunk:
            x = torch.relu(layer(x))
        out: torch.Tensor = x
        return out

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk_output(obs)
        return self.policy(x), self.value(x)

    def set_input_normalization(
        self, shift: npt.NDArray[np.float32], scale: npt.NDArray[np.float32]
    ) -> None:
        """Stores the input shift and scale (computed from the training data, over
        :meth:`input_features`: ``shape.input_size`` values each)."""
        with torch.no_grad():
            self.input.shift.copy_(torch.as_tensor(shift, dtype=torch.float32))
            self.input.scale.copy_(torch.as_tensor(scale, dtype=torch.float32))

    def parameter_count(self) -> int:
        """Trainable parameters (the buffers are not counted)."""
        return sum(p.numel() for p in self.parameters())

    def metadata(self, provenance: Mapping[str, Any] | None = None) -> dict[str, str]:
        """The header strings of the network file."""
        return {
            "format": FORMAT,
            "variant": self.shape.variant,
            "players": str(self.shape.players),
            "obs_size": str(self.shape.obs_size),
            "num_actions": str(self.shape.num_actions),
            "hidden": ",".join(str(h) for h in self.shape.hidden),
            "features": self.shape.features,
            "provenance": json.dumps(dict(provenance or {}), sort_keys=True),
        }

    def export(
        self, path: str | os.PathLike[str], provenance: Mapping[str, Any] | None = None
    ) -> None:
        """Writes the network file: float32 tensors and every metadata key of the spec.

        Args:
            path: Where to write the ``.safetensors`` file (replaced atomically).
            provenance: How the network was trained (seeds, data, settings);
                stored as JSON in the ``provenance`` metadata string.
        """
        tensors = {
            name: tensor.detach().to(torch.float32).contiguous().cpu()
            for name, tensor in self.state_dict().items()
        }
        tmp = f"{os.fspath(path)}.tmp"
        save_file(tensors, tmp, metadata=self.metadata(provenance))
        os.replace(tmp, path)


def expected_tensor_shapes(shape: NetworkShape) -> dict[str, tuple[int, ...]]:
    """Every tensor name of a network file and its shape."""
    shapes: dict[str, tuple[int, ...]] = {
        "input.shift": (shape.input_size,),
        "input.scale": (shape.input_size,),
    }
    previous = shape.input_size
    for i, width in enumerate(shape.hidden):
        shapes[f"trunk.{i}.weight"] = (width, previous)
        shapes[f"trunk.{i}.bias"] = (width,)
        previous = width
    shapes["policy.weight"] = (shape.num_actions, previous)
    shapes["policy.bias"] = (shape.num_actions,)
    shapes["value.weight"] = (shape.players, previous)
    shapes["value.bias"] = (shape.players,)
    return shapes


def _parse_int(metadata: Mapping[str, str], key: str, path: str) -> int:
    try:
        value = int(metadata[key])
    except ValueError:
        raise NetworkError(f"{path}: metadata {key}={metadata[key]!r} is not an integer") from None
    if value < 1:
        raise NetworkError(f"{path}: metadata {key}={value} must be positive")
    return value


def shape_from_metadata(metadata: Mapping[str, str], path: str = "network") -> NetworkShape:
    """Reads and checks the header strings of a network file."""
    missing = [key for key in REQUIRED_METADATA_KEYS if key not in metadata]
    if missing:
        raise NetworkError(f"{path}: metadata lacks {', '.join(missing)}")
    if metadata["format"] != FORMAT:
        raise NetworkError(f"{path}: format is {metadata['format']!r}, expected {FORMAT!r}")
    try:
        hidden = tuple(int(h) for h in metadata["hidden"].split(","))
    except ValueError:
        raise NetworkError(
            f"{path}: metadata hidden={metadata['hidden']!r} is not comma-separated ints"
        ) from None
    if not hidden or min(hidden) < 1:
        raise NetworkError(f"{path}: metadata hidden={metadata['hidden']!r} has no positive widths")
    features = metadata.get("features", "raw")
    players = _parse_int(metadata, "players", path)
    problem = features_problem(features, metadata["variant"], players)
    if problem:
        raise NetworkError(f"{path}: {problem}")
    shape = NetworkShape(
        variant=metadata["variant"],
        players=players,
        obs_size=_parse_int(metadata, "obs_size", path),
        num_actions=_parse_int(metadata, "num_actions", path),
        hidden=hidden,
        features=features,
    )
    if shape.variant not in splendor.VARIANTS:
        raise NetworkError(f"{path}: unknown variant {shape.variant!r}")
    if shape.players > MAX_PLAYERS:
        raise NetworkError(
            f"{path}: metadata players must be between 1 and {MAX_PLAYERS}, got {shape.players}"
        )
    try:
        state = splendor.new_game(shape.variant, players=shape.players)
    except ConfigError as exc:
        raise NetworkError(
            f"{path}: {shape.players} players do not fit {shape.variant} ({exc})"
        ) from None
    sizes = (state.observation_size, state.num_actions)
    if (shape.obs_size, shape.num_actions) != sizes:
        raise NetworkError(
            f"{path}: obs_size/num_actions {shape.obs_size}/{shape.num_actions} are not "
            f"{shape.variant}'s {sizes[0]}/{sizes[1]}"
        )
    return shape


def _metadata(data: bytes) -> dict[str, str]:
    """The ``__metadata__`` strings of a safetensors file's header."""
    (size,) = struct.unpack_from("<Q", data)
    return dict(json.loads(data[8 : 8 + size]).get("__metadata__") or {})


#: Largest network file read, as the engine's ``Network.load`` (docs/network.md).
MAX_FILE_BYTES = 1 << 30


def read_file_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a network file, with the engine's rules: a regular file of
    at most :data:`MAX_FILE_BYTES`, checked before it is opened and on the
    opened file, opened non-blocking (a FIFO cannot block) and read with a bound.

    Raises:
        NetworkError: Missing or unreadable, not a regular file, or too big.
    """
    name = os.fspath(path)

    def check(info: os.stat_result) -> None:
        if stat.S_ISDIR(info.st_mode):
            raise NetworkError(f"cannot read network file {name}: it is a folder")
        if not stat.S_ISREG(info.st_mode):
            raise NetworkError(f"cannot read network file {name}: it is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise NetworkError(
                f"cannot read network file {name}: it holds {info.st_size} bytes, over the "
                f"limit of {MAX_FILE_BYTES} (1 GiB)"
            )

    try:
        check(os.stat(name))
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise NetworkError(f"{name}: no such network file") from None
    except OSError as exc:
        raise NetworkError(f"cannot read network file {name}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        check(os.fstat(fd))
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise NetworkError(f"cannot read network file {name}: it grew over the limit while read")
    return data


def read_network_file(
    path: str | os.PathLike[str],
) -> tuple[NetworkShape, dict[str, str], dict[str, npt.NDArray[np.float32]]]:
    """Reads and validates a network file as NumPy arrays.

    Returns:
        The shape, the metadata strings and the tensors by name.

    Raises:
        NetworkError: Unreadable file, missing or bad metadata, a missing,
            extra or wrongly shaped tensor, a non-float32 tensor, a NaN or
            infinite weight.
    """
    name = os.fspath(path)
    data = read_file_bytes(name)
    try:
        tensors: dict[str, npt.NDArray[np.float32]] = load_safetensors(data)
        metadata = _metadata(data)
    except Exception as exc:  # safetensors raises its own error types for corrupt headers
        raise NetworkError(f"{name}: not a readable safetensors file ({exc})") from None
    shape = shape_from_metadata(metadata, name)
    expected = expected_tensor_shapes(shape)
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing:
        raise NetworkError(f"{name}: missing tensors {', '.join(missing)}")
    if extra:
        raise NetworkError(f"{name}: unexpected tensors {', '.join(extra)}")
    for key, want in expected.items():
        array = tensors[key]
        if array.dtype != np.float32:
            raise NetworkError(f"{name}: tensor {key} is {array.dtype}, expected float32")
        if tuple(array.shape) != want:
            raise NetworkError(
                f"{name}: tensor {key} has shape {tuple(array.shape)}, expected {want}"
            )
        if not np.isfinite(array).all():
            raise NetworkError(f"{name}: tensor {key} holds NaN or infinite values")
    _check_magnitude(tensors, shape, name)
    return shape, metadata, tensors


#: The engine's bound (docs/network.md): for every input with ``|x| <= MAX_INPUT``
#: each pre-activation of a forward pass stays within ``MAX_ACTIVATION``.
MAX_INPUT = 65536.0
MAX_ACTIVATION = 1e30


def _check_magnitude(
    tensors: Mapping[str, npt.NDArray[np.float32]], shape: NetworkShape, name: str
) -> None:
    """Refuses weights with which a forward pass could overflow float32, by the
    engine's rule (``src/nn/mod.rs``, ``check_magnitude``): each layer's bound
    ``|b| + |W| m``, ``m`` the bound below, on the normalisation folded into
    the first layer, computed in float64."""
    t = {k: v.astype(np.float64) for k, v in tensors.items()}
    scale, shift = t["input.scale"], t["input.shift"]
    bound = np.full(shape.input_size, MAX_INPUT)
    layers = [f"trunk.{i}" for i in range(len(shape.hidden))] + ["policy", "value"]
    with np.errstate(over="ignore", invalid="ignore"):
        for layer in layers:
            weight, bias = t[f"{layer}.weight"], t[f"{layer}.bias"]
            if layer == "trunk.0":
                weight, bias = weight * scale, bias - weight @ (shift * scale)
            out = np.abs(bias) + np.abs(weight) @ bound
            top = float(np.max(out))
            if not top <= MAX_ACTIVATION:
                raise NetworkError(
                    f"{name}: the weights are too large: {layer} can reach {top:.3e} for inputs "
                    f"within ±{MAX_INPUT:g} (a network must stay within {MAX_ACTIVATION:g})"
                )
            if layer.startswith("trunk."):
                bound = out  # both heads read the last trunk layer


def load(path: str | os.PathLike[str]) -> tuple[PolicyValueNet, dict[str, str]]:
    """Loads a network file into a :class:`PolicyValueNet` (in eval mode).

    Returns:
        The network and the file's metadata strings.

    Raises:
        NetworkError: See :func:`read_network_file`.
    """
    shape, metadata, tensors = read_network_file(path)
    model = PolicyValueNet(shape)
    model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in tensors.items()})
    model.eval()
    return model, metadata


def numpy_forward(
    tensors: Mapping[str, npt.NDArray[np.float32]],
    hidden: Sequence[int],
    obs: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The network's forward pass in plain NumPy, straight from the file's tensors.

    An independent reading of the spec, used to check the PyTorch module and the
    Rust evaluator against the file. ``obs`` is the trunk's input: the observation,
    followed by the extras when the file's ``features`` has any.
    """
    x = (obs.astype(np.float32) - tensors["input.shift"]) * tensors["input.scale"]
    for i in range(len(hidden)):
        x = np.maximum(x @ tensors[f"trunk.{i}.weight"].T + tensors[f"trunk.{i}.bias"], 0.0)
    policy = x @ tensors["policy.weight"].T + tensors["policy.bias"]
    value = x @ tensors["value.weight"].T + tensors["value.bias"]
    return policy.astype(np.float32), value.astype(np.float32)
