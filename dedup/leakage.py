"""Corpus-versus-benchmark matching: exact Jaccard and containment, without false negatives.

A benchmark answer often sits inside a larger corpus file, so Jaccard alone misses it and a
Jaccard LSH index cannot find it. Instead candidates come from prefix filtering: if a corpus
unit U contains at least a share m of a benchmark kernel B (m = the lower of the containment
and Jaccard thresholds; Jaccard >= t implies containment >= t), then U holds at least one of
any |B| - ceil(m*|B|) + 1 shingles of B. We take those shingles of B that are rarest in the
corpus, so the candidate lists are short, and then count the overlap of every candidate pair
exactly. Every pair that passes a threshold is found, and every reported score is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dedup.shingles import ShingleSets, indptr_of

_EPS = 1e-9


@dataclass(slots=True)
class PairScore:
    corpus: int  # document index in the corpus sets
    bench: int  # document index in the benchmark sets
    overlap: int  # shared distinct shingles
    jaccard: float
    containment: float  # overlap / |benchmark document|


def prefix_length(size: int, share: float) -> int:
    needed = math.ceil(share * size - _EPS)
    return max(1, min(size, size - needed + 1))


def _lookup(sorted_values: np.ndarray, queries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each query, its position in `sorted_values` and whether it is there."""
    if len(sorted_values) == 0:
        return np.zeros(len(queries), dtype=np.int64), np.zeros(len(queries), dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_values, queries), len(sorted_values) - 1)
    return pos, sorted_values[pos] == queries


def _postings(corpus: ShingleSets, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR postings over `wanted` (sorted distinct fingerprints): the corpus documents holding each."""
    pos, hit = _lookup(wanted, corpus.fps)
    docs = corpus.doc_index()[hit]
    order = np.argsort(pos[hit], kind="stable")
    return indptr_of(np.bincount(pos[hit], minlength=len(wanted))), docs[order]


def _frequency(corpus: ShingleSets, fps: np.ndarray) -> np.ndarray:
    """In how many corpus documents each fingerprint occurs (documents hold distinct shingles)."""
    everything = np.sort(corpus.fps)
    return np.searchsorted(everything, fps, side="right") - np.searchsorted(everything, fps, side="left")


def match_benchmark(
    corpus: ShingleSets,
    bench: ShingleSets,
    jaccard_threshold: float,
    containment_threshold: float,
    min_containment_shingles: int = 1,
) -> list[PairScore]:
    """Every (corpus doc, benchmark doc) pair whose Jaccard or containment passes its threshold."""
    if len(corpus) == 0 or len(bench) == 0 or len(bench.fps) == 0:
        return []
    frequency = _frequency(corpus, bench.fps)
    bench_sizes = bench.sizes()

    prefixes: list[np.ndarray] = []
    for j in range(len(bench)):
        lo, hi = int(bench.indptr[j]), int(bench.indptr[j + 1])
        ids = bench.fps[lo:hi]
        share = jaccard_threshold
        if len(ids) >= min_containment_shingles:
            share = min(share, containment_threshold)
        rarest = ids[np.lexsort((ids, frequency[lo:hi]))]
        prefixes.append(rarest[: prefix_length(len(ids), share)] if len(ids) else ids)
    wanted = np.unique(np.concatenate(prefixes))
    indptr, posting_docs = _postings(corpus, wanted)

    corpus_sizes = corpus.sizes()
    results: list[PairScore] = []
    for j, prefix in enumerate(prefixes):
        if len(prefix) == 0:
            continue
        slots, _ = _lookup(wanted, prefix)
        lists = [posting_docs[indptr[s] : indptr[s + 1]] for s in slots.tolist()]
        candidates = np.unique(np.concatenate(lists))
        if len(candidates) == 0:
            continue
        positions, owner = corpus.gather(candidates)
        _, shared = _lookup(bench.doc(j), corpus.fps[positions])
        overlap = np.bincount(owner[shared], minlength=len(candidates))
        size_b = int(bench_sizes[j])
        union = corpus_sizes[candidates] + size_b - overlap
        jac = overlap / np.maximum(union, 1)
        con = overlap / size_b
        passes = jac >= jaccard_threshold - _EPS
        if size_b >= min_containment_shingles:
            passes |= con >= containment_threshold - _EPS
        for k in np.flatnonzero(passes).tolist():
            results.append(PairScore(int(candidates[k]), j, int(overlap[k]), float(jac[k]), float(con[k])))
    return results
