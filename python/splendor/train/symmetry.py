"""Colour symmetry of the training data (``--augment colours``, docs/training.md).

The rules of base Splendor and of Splendor: Marvel treat their five card colours alike: rename
the colours of a position and of a move and the move is as good in the renamed position. A
training sample can therefore be shown to the network under any of the 5! = 120 renamings,
which multiplies the positions it learns from without playing a game. The card *sets* are
not quite symmetric (no renaming but the identity maps the base deck onto itself), so a
renamed position can show a card that does not exist; the network sees only the visible
cards' attributes and the decks' sizes, so what it learns from such a position is the value of
a very close game. Whether that helps is measured, not assumed: on base with 4 players it did not
(docs/training.md, *Four players: data window and colour augmentation*), so it is off by default.

A renaming moves columns only: the observation's per-colour features (named ``...<colour>``
by :func:`splendor.observation_spec`) and the actions named by colour letters (``take wug``,
``return w``, ``pay gold wwk``). Both maps are built from those names, so they follow the
engine's layout instead of restating it. The value target is the same in both positions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import splendor
from splendor.errors import ConfigError
from splendor.train.data import Samples

AUGMENTATIONS = ("none", "colours")
"""The allowed values of the ``augment`` training setting."""

COLOUR_NAMES = {
    "base": ("w", "u", "g", "r", "k"),
    "marvel": ("purple", "blue", "red", "orange", "yellow"),
}
"""Per variant, the interchangeable colours as the observation's feature names end."""

COLOUR_LETTERS = {
    "base": ("w", "u", "g", "r", "k"),
    "marvel": ("p", "b", "r", "o", "y"),
}
"""The same colours, in the same order, as the action texts write them."""

COLOUR_ACTIONS = {
    "base": ("take", "return", "pay gold"),
    "marvel": ("take", "return", "pay grey"),
}
"""The action kinds whose last word lists colours (the rest do not name a colour)."""


@dataclass(frozen=True)
class ColourSymmetry:
    """Every renaming of a variant's colours as column maps.

    Row ``k`` of ``observation`` (of ``actions``) maps renaming ``k``: the renamed
    observation is ``obs[:, observation[k]]`` and the renamed policy ``policy[:, actions[k]]``.
    Row 0 is the identity.
    """

    observation: npt.NDArray[np.int64]
    actions: npt.NDArray[np.int64]

    def augment(self, batch: Samples, rng: np.random.Generator) -> Samples:
        """``batch`` with each row renamed by a renaming drawn uniformly (the identity too)."""
        pick = rng.integers(0, len(self.observation), size=len(batch))
        rows = np.arange(len(batch))[:, None]
        columns = self.actions[pick]
        return Samples(
            batch.obs[rows, self.observation[pick]],
            batch.mask[rows, columns],
            batch.policy[rows, columns],
            batch.returns,
            batch.game_key,
            batch.points,
        )


def _rename_feature(name: str, colours: dict[str, str]) -> str:
    head, dot, last = name.rpartition(".")
    return f"{head}{dot}{colours[last]}" if dot and last in colours else name


def _action_key(text: str, variant: str, letters: str) -> tuple[str, str] | None:
    """``(kind, colour letters in canonical order)`` of an action that names colours."""
    for kind in COLOUR_ACTIONS[variant]:
        if text.startswith(kind + " "):
            word = text[len(kind) + 1 :]
            if word and all(ch in letters for ch in word):
                return kind, "".join(sorted(word, key=letters.index))
    return None


def colour_symmetry(variant: str, players: int) -> ColourSymmetry:
    """The 120 colour renamings of ``variant`` with ``players`` seats.

    Raises:
        ConfigError: The variant has no interchangeable colours here (Duel's colours
            differ in the rules: its royal cards and privileges are not symmetric).
    """
    if variant not in COLOUR_NAMES:
        raise ConfigError(
            f"colour augmentation is defined for {', '.join(COLOUR_NAMES)}, not {variant}"
        )
    names = [feature.name for feature in splendor.observation_spec(variant, players).features]
    index = {name: i for i, name in enumerate(names)}
    colour_names, colour_letters = COLOUR_NAMES[variant], COLOUR_LETTERS[variant]
    letters = "".join(colour_letters)
    game = splendor.new_game(variant, players=players, seed=0)
    texts = [str(game.action_from_id(i)) for i in range(game.num_actions)]
    keys = [_action_key(text, variant, letters) for text in texts]
    by_key = {key: i for i, key in enumerate(keys) if key is not None}
    observation_maps, action_maps = [], []
    for order in itertools.permutations(range(5)):
        renamed_names = {colour_names[i]: colour_names[j] for i, j in enumerate(order)}
        renamed_letters = {colour_letters[i]: colour_letters[j] for i, j in enumerate(order)}
        # New column renamed(c) holds what old column c held.
        obs_map = np.empty(len(names), dtype=np.int64)
        for i, name in enumerate(names):
            obs_map[index[_rename_feature(name, renamed_names)]] = i
        act_map = np.arange(len(texts), dtype=np.int64)
        for i, key in enumerate(keys):
            if key is not None:
                kind, word = key
                word = "".join(sorted((renamed_letters[ch] for ch in word), key=letters.index))
                act_map[by_key[(kind, word)]] = i
        observation_maps.append(obs_map)
        action_maps.append(act_map)
    return ColourSymmetry(np.stack(observation_maps), np.stack(action_maps))
