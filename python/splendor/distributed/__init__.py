"""Matches and self-play on a Ray cluster (``pip install 'splendor[ray]'``).

:func:`match` and :func:`selfplay` cut the work into chunks of seeded games,
run each chunk as a Ray task on whatever cluster ``ray.init(address=...)``
reaches (a new local one by default) and stream the results to a folder as
chunks finish: JSON lines for a match, shards for self-play, each with a
``manifest.json``. Every game is a pure function of the seeds, so the results
equal the single-machine run's, whatever the number of workers; a worker's
lost chunk is retried; running the same call again resumes a run whose driver
died. See ``docs/distributed.md``.

Ray itself is imported only when a run connects to it.
"""

from splendor.distributed.cluster import ClusterError
from splendor.distributed.match_chunks import MATCH_CHUNK, load_results, match
from splendor.distributed.selfplay_chunks import SELFPLAY_CHUNK, selfplay

__all__ = ["MATCH_CHUNK", "SELFPLAY_CHUNK", "ClusterError", "load_results", "match", "selfplay"]
