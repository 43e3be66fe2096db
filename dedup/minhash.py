"""Hashes -> signatures: MinHash of many documents at once, equal to `datasketch.MinHash`.

datasketch hashes each shingle with sha1_hash32, applies `num_perm` random permutations drawn
from `np.random.RandomState(seed)` and keeps the minimum per permutation. Here the same
arithmetic runs in the same integer types over a batch of documents at a time: per permutation,
one vector of all the batch's permuted hashes and one segmented minimum per document
(`np.minimum.reduceat`). The sha1_hash32 values come from dedup.shingles; LSH bands over the
signatures are in dedup.lsh.

Schemes (datasketch >= 2.0):
- "affine32" (datasketch's default): h = fmix32(sha1_hash32(x)); value = a*h + b mod 2^32.
- "legacy" (datasketch < 2.0): value = ((a*h + b) mod 2^64 mod (2^61 - 1)) & (2^32 - 1),
  computed in uint64 where the product wraps, exactly as datasketch's numpy code does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from dedup.shingles import ShingleSets, sets_from_tokens

MERSENNE_PRIME = np.uint64((1 << 61) - 1)
MAX_HASH_32 = np.uint64((1 << 32) - 1)

# Shingles per batch: a permutation's values of a batch stay in cache.
_BATCH_ROWS = 1 << 16


def permutations(num_perm: int, seed: int, scheme: str = "affine32") -> tuple[np.ndarray, np.ndarray]:
    """The permutation parameters (a, b) datasketch draws for this seed and scheme."""
    gen = np.random.RandomState(seed)
    if scheme == "legacy":
        pairs = [
            (gen.randint(1, MERSENNE_PRIME, dtype=np.uint64), gen.randint(0, MERSENNE_PRIME, dtype=np.uint64))
            for _ in range(num_perm)
        ]
        a, b = np.array(pairs, dtype=np.uint64).T
        return a.copy(), b.copy()
    if scheme != "affine32":
        raise ValueError(f"unknown MinHash scheme {scheme!r}; use affine32 or legacy")
    a = gen.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=np.uint32)
    return a, b


def fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finalizer, the pre-mix of datasketch's affine32 scheme."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def premixed(h32: np.ndarray, scheme: str) -> np.ndarray:
    """The hashes as each scheme's permutations take them."""
    return fmix32(h32) if scheme == "affine32" else h32.astype(np.uint64)


def permuted(h: np.ndarray, a: np.unsignedinteger, b: np.unsignedinteger, scheme: str) -> np.ndarray:
    """One permutation (a, b) of the premixed hashes, in datasketch's integers."""
    with np.errstate(over="ignore"):
        if scheme == "affine32":
            return h * a + b  # uint32: wraps mod 2^32
        return ((h * a + b) % MERSENNE_PRIME) & MAX_HASH_32  # uint64: the product wraps mod 2^64


def _batches(indptr: np.ndarray, rows: int) -> Iterator[tuple[int, int]]:
    """Runs of consecutive documents with about `rows` shingles each (a big document alone)."""
    start = 0
    while start < len(indptr) - 1:
        stop = max(int(np.searchsorted(indptr, indptr[start] + rows, side="right")) - 1, start + 1)
        yield start, stop
        start = stop


def signatures(sets: ShingleSets, num_perm: int = 128, seed: int = 1, scheme: str = "affine32") -> np.ndarray:
    """One row of `num_perm` MinHash values per document (uint32 for affine32, uint64 for legacy).

    An empty document gets datasketch's empty signature (every value at the maximum hash).
    Documents go in batches of about _BATCH_ROWS shingles; per permutation, a batch's values
    are one vector and each document's minimum one segment of `np.minimum.reduceat` (faster
    than a shingles x permutations matrix, whose per-document minima run across rows).
    """
    a, b = permutations(num_perm, seed, scheme)
    out = np.full((len(sets), num_perm), MAX_HASH_32, dtype=a.dtype)
    sizes, h32 = sets.sizes(), sets.h32
    for lo, hi in _batches(sets.indptr, _BATCH_ROWS):
        docs = lo + np.flatnonzero(sizes[lo:hi])  # reduceat cannot take an empty segment
        if len(docs) == 0:
            continue
        h = premixed(h32[sets.indptr[lo] : sets.indptr[hi]], scheme)
        starts = sets.indptr[docs] - sets.indptr[lo]
        for k in range(num_perm):
            out[docs, k] = np.minimum.reduceat(permuted(h, a[k], b[k], scheme), starts)
    return out


def minhash_tokens(
    token_lists: Iterable[list[str]],
    ngram: int = 5,
    num_perm: int = 128,
    seed: int = 1,
    scheme: str = "affine32",
) -> np.ndarray:
    """MinHash signatures of tokenised documents, as datasketch would give for their shingles."""
    return signatures(sets_from_tokens(token_lists, ngram), num_perm, seed, scheme)
