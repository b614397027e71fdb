"""SplitMix64 and the one shuffle used everywhere, bit for bit as in ``src/rng.rs``."""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class SplitMix64:
    """The SplitMix64 generator; the same seed gives the same bits as the Rust engine."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """Return the next 64 random bits."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``range(n)``: rejection below ``2**64 mod n``."""
        threshold = (1 << 64) % n
        while True:
            x = self.next_u64()
            if x >= threshold:
                return x % n

    def next_f64(self) -> float:
        """Return a uniform float in ``[0, 1)`` from the top 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, xs: list[T]) -> None:
        """Fisher-Yates from the top, in place."""
        for i in range(len(xs) - 1, 0, -1):
            j = self.below(i + 1)
            xs[i], xs[j] = xs[j], xs[i]
