"""LSH banding over MinHash signatures: documents that agree on a whole band are candidates.

The band count b and rows per band r for a Jaccard threshold are datasketch's (the pair that
minimises the weighted false positive and false negative probabilities), so an index built
here behaves like a `datasketch.MinHashLSH` of the same threshold. Buckets are found with one
sort per band over all documents instead of one dictionary insert per document and band.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np


@functools.cache
def band_params(threshold: float, num_perm: int) -> tuple[int, int]:
    """(bands, rows per band) that datasketch's MinHashLSH picks for this threshold."""
    from datasketch import MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    return int(lsh.b), int(lsh.r)


# Odd 64-bit multipliers to fold a band's r values into one key. A collision only adds a
# candidate, and every candidate is confirmed with exact Jaccard, so it cannot cause a match.
_MULTIPLIERS = np.random.RandomState(20240611).randint(1, 1 << 62, 1024, dtype=np.uint64) | np.uint64(1)


def band_keys(signatures: np.ndarray, band: int, rows: int) -> np.ndarray:
    block = signatures[:, band * rows : (band + 1) * rows].astype(np.uint64)
    key = np.zeros(len(signatures), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(rows):
            key = (key ^ block[:, j]) * _MULTIPLIERS[j]
            key ^= key >> np.uint64(29)
    return key


def buckets(signatures: np.ndarray, bands: int, rows: int) -> Iterator[np.ndarray]:
    """Every group of two or more documents sharing one band, band after band (sorted members)."""
    n = len(signatures)
    if n < 2:
        return
    for band in range(bands):
        keys = band_keys(signatures, band, rows)
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        edges = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1
        starts = np.concatenate([[0], edges])
        ends = np.concatenate([edges, [n]])
        for lo, hi in zip(
            starts[ends - starts >= 2].tolist(), ends[ends - starts >= 2].tolist(), strict=True
        ):
            yield order[lo:hi]
