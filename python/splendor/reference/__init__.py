"""The pure-Python reference engines: the executable specification.

Same public API and exceptions as :mod:`splendor`, the same game from the same
seed, written for clarity. Never imports ``splendor._core``.
"""
