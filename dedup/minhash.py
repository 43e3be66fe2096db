"""MinHash signatures for many documents at once, equal bit for bit to `datasketch.MinHash`.

datasketch hashes each shingle with sha1_hash32, then applies `num_perm` random permutations
drawn from `np.random.RandomState(seed)` and keeps the minimum per permutation. We do the same
arithmetic in the same integer types, but over many documents per call instead of one: the
SHA-1 hashes come in batches from dedup.shingles, and the permutations and minima run in one
compiled loop per slice of documents (dedup.accel), on every core. Without numba the same
values come from numpy: per permutation, one multiply-add over all shingles of a batch and
one `np.minimum.reduceat` for the per-document minima.

Schemes (datasketch >= 2.0):
- "affine32" (datasketch's default): h = fmix32(sha1_hash32(x)); value = a*h + b mod 2^32.
- "legacy" (datasketch < 2.0): value = ((a*h + b) mod 2^64 mod (2^61 - 1)) & (2^32 - 1),
  computed in uint64 where the product wraps, exactly as datasketch's numpy code does.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from dedup import accel
from dedup.shingles import (
    ShingleSets,
    batched,
    hash_ranges,
    indptr_of,
    map_text_batches,
    sets_from_texts,
    sets_from_tokens,
)

MERSENNE_PRIME = np.uint64((1 << 61) - 1)
MAX_HASH_32 = np.uint64((1 << 32) - 1)

# Shingles per batch: one uint32 vector of this length per permutation stays in cache.
_BATCH_ROWS = 1 << 16


def permutations(num_perm: int, seed: int, scheme: str = "affine32") -> tuple[np.ndarray, np.ndarray]:
    """The permutation parameters (a, b) datasketch draws for this seed and scheme."""
    gen = np.random.RandomState(seed)
    if scheme == "legacy":
        pairs = [
            (gen.randint(1, MERSENNE_PRIME, dtype=np.uint64), gen.randint(0, MERSENNE_PRIME, dtype=np.uint64))
            for _ in range(num_perm)
        ]
        table = np.array(pairs, dtype=np.uint64).T
        return table[0].copy(), table[1].copy()
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


def empty_value(scheme: str) -> np.unsignedinteger:
    """What datasketch stores for a permutation that saw nothing."""
    return np.uint32(0xFFFFFFFF) if scheme == "affine32" else MAX_HASH_32


def _batches(sizes: np.ndarray, rows: int) -> list[tuple[int, int]]:
    """Split documents into runs of about `rows` shingles (a big document is alone)."""
    bounds: list[tuple[int, int]] = []
    start, total = 0, 0
    for i, size in enumerate(sizes.tolist()):
        if total and total + size > rows:
            bounds.append((start, i))
            start, total = i, 0
        total += size
    if start < len(sizes):
        bounds.append((start, len(sizes)))
    return bounds


def minhash_tokens(
    token_lists: Iterable[list[str]],
    ngram: int = 5,
    num_perm: int = 128,
    seed: int = 1,
    scheme: str = "affine32",
) -> np.ndarray:
    """MinHash signatures of tokenised documents, as datasketch would give for their shingles.

    Signatures only: repeated shingles are not removed first (the minimum is the same), which
    saves the per-document sort that exact set operations need.
    """
    return signatures(sets_from_tokens(token_lists, ngram, distinct=False), num_perm, seed, scheme)


def minhash_texts(
    codes: Iterable[str],
    ngram: int = 5,
    num_perm: int = 128,
    seed: int = 1,
    scheme: str = "affine32",
    workers: int | None = None,
) -> np.ndarray:
    """MinHash signatures from source text (comments removed, C++ tokens, n-gram shingles), equal
    to datasketch's for the same shingles: the compiled lexer, SHA-1 and permutations throughout,
    each batch of documents from text to its signature rows on one thread."""
    if not accel.AVAILABLE:
        return signatures(
            sets_from_texts(codes, ngram, workers, distinct=False), num_perm, seed, scheme, workers
        )
    a, b = permutations(num_perm, seed, scheme)

    def rows(h32: np.ndarray, per_doc: np.ndarray) -> np.ndarray:
        out = _empty_rows(len(per_doc), num_perm, scheme)
        _fold(h32, indptr_of(per_doc), a, b, scheme, out)
        return out

    return np.concatenate(map_text_batches(codes, ngram, rows, workers))


def _empty_rows(documents: int, num_perm: int, scheme: str) -> np.ndarray:
    """Signature rows of empty documents (every value at the maximum), for minima to fold into:
    uint32 for affine32, uint64 for legacy."""
    dtype = np.uint32 if scheme == "affine32" else np.uint64
    return np.full((documents, num_perm), empty_value(scheme), dtype=dtype)


def _fold(
    h32: np.ndarray, indptr: np.ndarray, a: np.ndarray, b: np.ndarray, scheme: str, out: np.ndarray
) -> None:
    """The compiled permutations and minima of documents h32[indptr[d]:indptr[d+1]] into out[d]."""
    if scheme == "affine32":
        accel.minhash_affine32(h32, indptr, a, b, out)
    else:
        accel.minhash_legacy(h32.astype(np.uint64), indptr, a, b, MERSENNE_PRIME, MAX_HASH_32, out)


def minhash_shingles(
    docs: Iterable[Sequence[bytes]],
    num_perm: int = 128,
    seed: int = 1,
    scheme: str = "affine32",
    workers: int | None = None,
    batch_docs: int = 4096,
) -> np.ndarray:
    """MinHash signatures of documents given as their shingles (bytes, what datasketch's
    `update_batch` takes): one row per document, equal to datasketch's. For callers with their
    own shingling; repeated shingles in a document are fine (a minimum does not change).
    Documents are hashed `batch_docs` at a time, so memory follows the batch, not the input."""
    return np.concatenate(
        [_shingle_batch(batch, num_perm, seed, scheme, workers) for batch in batched(docs, batch_docs)]
    )


def _shingle_batch(
    docs: list[Sequence[bytes]], num_perm: int, seed: int, scheme: str, workers: int | None
) -> np.ndarray:
    flat = [shingle for doc in docs for shingle in doc]
    lengths = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat))
    starts = indptr_of(lengths)[:-1]
    fps, h32 = hash_ranges(np.frombuffer(b"".join(flat), dtype=np.uint8), starts, lengths)
    sets = ShingleSets(indptr_of([len(doc) for doc in docs]), fps, h32, [""] * len(docs))
    return signatures(sets, num_perm, seed, scheme, workers)


def signatures(
    sets: ShingleSets,
    num_perm: int = 128,
    seed: int = 1,
    scheme: str = "affine32",
    workers: int | None = None,
    numpy_only: bool = False,
) -> np.ndarray:
    """One row of `num_perm` MinHash values per document (uint32 for affine32, uint64 for legacy).

    An empty document gets datasketch's empty signature (every value at the maximum hash).
    Per permutation, the shingle hashes of a batch are one contiguous vector: multiply, add and
    a segmented minimum run at full vector speed and the temporaries stay in cache.
    """
    a, b = permutations(num_perm, seed, scheme)
    out = _empty_rows(len(sets), num_perm, scheme)
    workers = workers or min(2, os.cpu_count() or 1)
    if accel.AVAILABLE and not numpy_only:

        def compiled(bounds: tuple[int, int]) -> None:
            lo, hi = bounds
            indptr = sets.indptr[lo : hi + 1] - sets.indptr[lo]
            _fold(sets.h32[sets.indptr[lo] : sets.indptr[hi]], indptr, a, b, scheme, out[lo:hi])

        step = max(1, -(-len(sets) // (4 * workers)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(compiled, [(lo, min(lo + step, len(sets))) for lo in range(0, len(sets), step)]))
        return out
    sizes = sets.sizes()

    def run(bounds: tuple[int, int]) -> None:
        lo, hi = bounds
        nonempty = np.flatnonzero(sizes[lo:hi])
        if len(nonempty) == 0:
            return
        h = sets.h32[sets.indptr[lo] : sets.indptr[hi]]
        h = fmix32(h) if scheme == "affine32" else h.astype(np.uint64)
        starts = (sets.indptr[lo:hi] - sets.indptr[lo])[nonempty]
        block = np.empty((len(nonempty), num_perm), dtype=out.dtype)
        buf = np.empty(len(h), dtype=out.dtype)
        with np.errstate(over="ignore"):
            for k in range(num_perm):
                np.multiply(h, a[k], out=buf)
                np.add(buf, b[k], out=buf)
                if scheme != "affine32":
                    np.remainder(buf, MERSENNE_PRIME, out=buf)
                    np.bitwise_and(buf, MAX_HASH_32, out=buf)
                block[:, k] = np.minimum.reduceat(buf, starts)
        out[lo + nonempty] = block

    # numpy releases the GIL in these loops, so threads use every core without copying data.
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(run, _batches(sizes, _BATCH_ROWS)))
    return out
