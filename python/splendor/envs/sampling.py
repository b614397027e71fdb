"""Uniformly random legal actions from a batch of action masks, in NumPy."""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from splendor._arguments import typed_errors
from splendor.errors import ConfigError


def _select_table(bit_order: str) -> npt.NDArray[np.int64]:
    """``table[b, j]``: the element (0-7) of the ``j``-th set bit of the byte ``b``, for
    a byte that ``np.packbits`` made in ``bit_order`` ("big": its first element is the
    byte's high bit)."""
    table = np.zeros((256, 8), dtype=np.int64)
    for b in range(256):
        if bit_order == "big":
            positions = [t for t in range(8) if b >> (7 - t) & 1]
        else:
            positions = [t for t in range(8) if b >> t & 1]
        table[b, : len(positions)] = positions
    return table


_SELECT = _select_table("big")
_SELECT_LITTLE = _select_table("little").reshape(-1)
_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)
_ONES = np.uint64(0x0101_0101_0101_0101)
_HIGHS = np.uint64(0x8080_8080_8080_8080)
_BYTE = np.uint64(0xFF)
_THREE = np.uint64(3)


@typed_errors
def random_legal_actions(
    mask: npt.NDArray[np.bool_] | npt.NDArray[np.uint64], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One action id per row of ``mask``, uniform over the row's legal actions.

    ``mask`` is either bool ``[n, num_actions]`` (``VectorEnv.action_mask``) or the
    same mask packed into uint64 ``[n, words]``, bit ``a % 64`` of word ``a // 64``
    (``VectorEnv.packed_mask``), from which it draws about 1.5x faster. Both give
    the same draws for the same ``rng``.

    It works on the mask packed into 64-bit words: the word, then the byte, then the
    bit holding the ``k``-th legal action of each row are found with a few vectorised
    operations, several times faster than ``np.nonzero`` on a wide mask. Every row
    must have a legal action. The draws depend only on the mask and ``rng``.
    """
    if not isinstance(mask, np.ndarray) or mask.ndim != 2:
        raise ConfigError(
            "mask must be a 2-D NumPy array (bool [n, num_actions] or packed uint64"
            f" [n, words]), got {_describe(mask)}"
        )
    if not isinstance(rng, np.random.Generator):
        raise ConfigError(
            f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), got"
            f" {_describe(rng)}"
        )
    fast = hasattr(np, "bitwise_count")  # NumPy >= 2.0; else the byte path
    if mask.dtype == np.uint64:
        if fast:
            # Row-aligned words: the rows' words side by side, [words, n].
            return _draw(mask.T.copy(), 0, rng)
        mask = np.unpackbits(mask.view(np.uint8), axis=1, bitorder="little").view(np.bool_)
    bools: npt.NDArray[np.bool_] = mask.astype(np.bool_, copy=False)
    n, width = bools.shape
    if not fast:
        return _by_bytes(bools, rng)
    words_of_row, own_bits, first_bit = _layout(n, width)
    bits = np.packbits(bools.reshape(-1), bitorder="little")
    if bits.size % 8:
        bits = np.concatenate([bits, np.zeros(8 - bits.size % 8, dtype=np.uint8)])
    words = bits.view("<u8")
    # Row r's bits in the words it touches, [span, n]: one column per row, so that
    # the running sums below go a row of words at a time.
    row_words = words.take(words_of_row)
    row_words &= own_bits
    return _draw(row_words, first_bit, rng)


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return type(value).__name__


def _draw(
    row_words: npt.NDArray[np.uint64],
    first_bit: npt.NDArray[np.int64] | int,
    rng: np.random.Generator,
) -> npt.NDArray[np.int64]:
    """The draws from ``row_words`` ``[span, n]`` (column ``r``: the words holding
    row ``r``'s actions, only its bits set; ``first_bit``: the offset of its action 0
    from the first word's bit 0, zero or less)."""
    span, n = row_words.shape
    counts = np.bitwise_count(row_words).astype(np.int32)
    # np.cumsum along axis 0 goes element by element; a row at a time is vectorised.
    running = counts.copy()
    for w in range(1, span):
        np.add(running[w - 1], running[w], out=running[w])
    total = running[-1]
    if n and int(total.min()) == 0:
        raise ConfigError("a row of the mask has no legal action")
    k = (rng.random(n) * total).astype(np.int32)
    # The word holding each row's k-th legal action: how many running sums are <= k.
    which = (running <= k).view(np.uint8).sum(axis=0, dtype=np.uint8).astype(np.int64)
    at = which * n
    at += _columns(n)
    word = row_words.reshape(-1).take(at)
    running -= counts  # now the legal actions before each word
    j = (k - running.reshape(-1).take(at)).astype(np.uint64)
    # Then its byte, in SWAR: byte i of `through` counts the set bits of bytes 0 to i
    # (at most 64, so no carry between bytes), and the high bit of each byte of
    # (0x80 + j - through) is set where through <= j: their number is the byte.
    per_byte = np.bitwise_count(word.view(np.uint8)).view("<u8")
    through = per_byte * _ONES
    byte = np.bitwise_count(((j * _ONES) | _HIGHS) - through & _HIGHS).astype(np.uint64)
    shift = byte << _THREE
    j -= (through - per_byte) >> shift & _BYTE
    value = word >> shift & _BYTE
    actions: npt.NDArray[np.int64] = which * 64 + first_bit + shift.astype(np.int64)
    actions += _SELECT_LITTLE.take(((value << _THREE) | j).astype(np.intp))
    return actions


@functools.lru_cache(maxsize=16)
def _columns(n: int) -> npt.NDArray[np.int64]:
    columns = np.arange(n, dtype=np.int64)
    columns.setflags(write=False)
    return columns


@functools.lru_cache(maxsize=16)
def _layout(
    n: int, width: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Where the rows of an ``[n, width]`` mask lie once packed flat into 64-bit words
    (row ``r`` is bits ``r * width`` to ``r * width + width - 1``): per row, the
    ``span`` words it touches ``[span, n]`` (past the last word: the last word, with
    none of its bits), the masks of its own bits in them, and the offset of its first
    bit from the first word's."""
    start = np.arange(n, dtype=np.int64) * width
    span = (width + 62) // 64 + 1
    words = (start >> 6)[None, :] + np.arange(span, dtype=np.int64)[:, None]
    low = words * 64

    def below(bit: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
        # Masks of the bits below `bit` (0 to 64) of a word.
        b = np.clip(bit, 0, 64).astype(np.uint64)
        full = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
        part = (np.uint64(1) << (b & np.uint64(63))) - np.uint64(1)
        mask: npt.NDArray[np.uint64] = np.where(b >= 64, full, part)
        return mask

    own = below(start + width - low) & ~below(start - low)
    last = max((n * width + 63) // 64 - 1, 0)
    own[words > last] = 0
    np.minimum(words, last, out=words)
    first = low[0] - start
    for array in (words, own, first):
        array.setflags(write=False)
    return words, own, first


def _by_bytes(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """The same draws byte by byte, for NumPy without ``bitwise_count``."""
    n = mask.shape[0]
    packed = np.packbits(mask, axis=1)
    per_byte = _POPCOUNT[packed]
    cumulative = np.cumsum(per_byte, axis=1, dtype=np.int32)
    if n and int(cumulative[:, -1].min()) == 0:
        raise ConfigError("a row of the mask has no legal action")
    k = (rng.random(n) * cumulative[:, -1]).astype(np.int32)
    byte = np.argmax(cumulative > k[:, None], axis=1)
    rows = np.arange(n)
    j = k - cumulative[rows, byte] + per_byte[rows, byte]
    actions: npt.NDArray[np.int64] = byte * 8 + _SELECT[packed[rows, byte], j]
    return actions
