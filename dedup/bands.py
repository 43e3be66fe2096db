"""Dedup's heavy steps spread over shards: the engine `curate dedup --engine ray` runs, written
against any executor (an object with `map`, `share` and `map_groups`; curate's local and Ray
executors are two), with no Ray in it.

- shingle: the documents in shards; each shard's shingle sets and signatures in one task;
- confirm: one row per document and LSH band (band, band key, document), shuffled by a hash of
  (band, band key) into a few partitions, so that every bucket is whole in one partition; each
  partition sorts its rows and judges its buckets with exact Jaccard (`dedup.cluster.bucket_edges`)
  against the corpus's shingle sets, shared once with every task.

Each bucket is judged on its contents alone, and the caller takes connected components of the
confirmed pairs, which do not depend on the order pairs arrive in: the clusters and decisions are
the local engine's (`dedup.decide.LocalEngine`). Why a union-find on the driver rather than label
propagation on the cluster: the confirmed pairs are few (at most one per unit and band, and only
for near-duplicates), two integers each; propagation would need as many shuffles as the longest
chain of near-duplicates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

import numpy as np

from dedup.cluster import bucket_edges
from dedup.config import DedupConfig
from dedup.lsh import band_keys, band_params
from dedup.minhash import signatures
from dedup.shingles import ShingleSets, build_shingle_sets, concat_sets

T = TypeVar("T")
R = TypeVar("R")

# Rows (document x band) per shuffle partition, and an odd multiplier that spreads the bands.
ROWS_PER_PARTITION = 1 << 20
_BAND_MIX = np.uint64(0x9E3779B97F4A7C15)

Columns = dict[str, np.ndarray]


class Shared(Protocol):
    def get(self) -> Any: ...


class Executor(Protocol):
    """What this engine needs of an executor (see curate.executor)."""

    @property
    def workers(self) -> int: ...

    def share(self, value: Any) -> Shared: ...

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...

    def map_groups(self, columns: Columns, key: str, fn: Callable[[Columns], Columns]) -> list[Columns]: ...


def band_rows(sig: np.ndarray, docs: np.ndarray, cfg: DedupConfig, workers: int) -> Columns:
    """One row per document and band: its partition, band, band key and document."""
    bands, rows = band_params(cfg.threshold, cfg.num_perm)
    band = np.repeat(np.arange(bands, dtype=np.uint64), len(docs))
    key = np.concatenate([band_keys(sig, b, rows) for b in range(bands)])
    parts = max(2 * workers, len(key) // ROWS_PER_PARTITION)
    with np.errstate(over="ignore"):
        part = ((key ^ (band * _BAND_MIX)) % np.uint64(parts)).astype(np.int64)
    return {"part": part, "band": band, "key": key, "doc": np.tile(docs.astype(np.int64), bands)}


def judge_partition(group: Columns, indptr: np.ndarray, fps: np.ndarray, threshold: float) -> Columns:
    """The buckets of one partition: the pairs scored (a, b) and whether each is an edge."""
    order = np.lexsort((group["doc"], group["key"], group["band"]))
    band, key, doc = group["band"][order], group["key"][order], group["doc"][order]
    breaks = np.flatnonzero((band[1:] != band[:-1]) | (key[1:] != key[:-1])) + 1
    starts, ends = np.concatenate([[0], breaks]), np.concatenate([breaks, [len(doc)]])
    judged: dict[tuple[int, int], bool] = {}
    for lo, hi in zip(starts.tolist(), ends.tolist(), strict=True):
        if hi - lo >= 2:  # members in increasing order, as the local engine has them
            bucket_edges(doc[lo:hi].tolist(), lambda d: fps[indptr[d] : indptr[d + 1]], threshold, judged)
    pairs = np.array(list(judged), dtype=np.int64).reshape(-1, 2)
    return {"a": pairs[:, 0], "b": pairs[:, 1], "edge": np.array(list(judged.values()), dtype=bool)}


def gather_edges(found: list[Columns], documents: int) -> tuple[list[tuple[int, int]], int]:
    """The confirmed pairs of every partition, and the distinct pairs scored (a pair shares
    several bands: scored once)."""
    a = np.concatenate([np.zeros(0, dtype=np.int64), *(f["a"] for f in found)])
    b = np.concatenate([np.zeros(0, dtype=np.int64), *(f["b"] for f in found)])
    edge = np.concatenate([np.zeros(0, dtype=bool), *(f["edge"] for f in found)])
    scored = len(np.unique(a * documents + b))
    return list(zip(a[edge].tolist(), b[edge].tolist(), strict=True)), scored


class BandShuffleEngine:
    """`dedup.decide.DedupEngine` over an executor (see the module docstring)."""

    def __init__(self, executor: Executor, shard_rows: int) -> None:
        self.executor = executor
        self.shard_rows = shard_rows
        self._signatures: np.ndarray | None = None

    def shingle(self, codes: list[str], cfg: DedupConfig) -> ShingleSets:
        """Shingle sets and signatures of each shard in one task; the signatures are kept for
        `sign` (the local engine signs every document too, and uses the rows it needs)."""
        size = max(1, min(self.shard_rows, -(-len(codes) // self.executor.workers)))  # every worker busy
        shards = [codes[lo : lo + size] for lo in range(0, len(codes), size)]

        def work(shard: list[str]) -> tuple[ShingleSets, np.ndarray]:
            sets = build_shingle_sets(shard, cfg.ngram, cfg.abstract_identifiers)
            return sets, signatures(sets, cfg.num_perm, cfg.seed, cfg.scheme)

        parts = list(self.executor.map(work, shards))
        self._signatures = np.concatenate([signed for _, signed in parts])
        return concat_sets([sets for sets, _ in parts])

    def sign(self, corpus: ShingleSets, cfg: DedupConfig) -> np.ndarray:
        if self._signatures is None or len(self._signatures) != len(corpus):
            raise RuntimeError("BandShuffleEngine.sign: the corpus was not shingled by this engine")
        return self._signatures

    def confirm(
        self, sig: np.ndarray, docs: np.ndarray, corpus: ShingleSets, cfg: DedupConfig
    ) -> tuple[list[tuple[int, int]], int]:
        rows = band_rows(sig, docs, cfg, self.executor.workers)
        shared = self.executor.share((corpus.indptr, corpus.fps))  # read without a copy by every task
        threshold = cfg.threshold

        def judge(group: Columns) -> Columns:
            indptr, fps = shared.get()
            return judge_partition(group, indptr, fps, threshold)

        return gather_edges(self.executor.map_groups(rows, "part", judge), len(corpus))
