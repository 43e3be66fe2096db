"""The dedup stage: every unit marked keep / duplicate / leak in decisions.parquet, with the
leakage report in reports/ and the run recorded.

`dedup.decide.run_dedup` makes every decision; its heavy steps run on an engine. `local` runs
them in this process. `ray` runs them on Ray Data: shards of units are shingled and signed as
tasks; the LSH bands are grouped with a shuffle (rows of document, band and band key, grouped
by a hash of band and band key, so that every bucket is whole in one group), and each bucket's
pairs are confirmed with exact Jaccard inside its group, against the corpus's shingle sets
broadcast through the object store; the driver takes the connected components of the
confirmed pairs with a union-find. Each bucket is judged on its contents alone
(`dedup.cluster.bucket_edges`), and connected components do not depend on the order pairs
arrive in, so the clusters and decisions are the local engine's.

Why a union-find on the driver rather than label propagation on the cluster: the confirmed
pairs are few (at most one per unit and band, and only for near-duplicates), two integers
each, so they fit on the driver that holds the units anyway, and one pass over them is exact;
propagation would need as many shuffles as the longest chain of near-duplicates.
"""

from __future__ import annotations

import dataclasses
import pickle
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from curate.engines import check_engine, connect_ray
from curate.errors import UserError
from curate.sources import SHARD_ROWS
from curate.tasklevel import dedup_task_leaks
from curate.workspace import Workspace
from dedup.cluster import bucket_edges
from dedup.config import DedupConfig
from dedup.decide import LOCAL, DedupEngine, run_dedup
from dedup.lsh import band_keys, band_params
from dedup.minhash import signatures
from dedup.report import build_json, build_markdown, dump_json
from dedup.shingles import ShingleSets, build_shingle_sets, concat_sets
from schemas import BenchmarkItem, Decision, KernelUnit, read_records, write_records
from schemas.runs import DedupRun
from schemas.tables import write_text_atomic


@dataclass(slots=True)
class DedupSummary:
    counts: dict[str, int]
    notes: list[str]
    seconds: float


def _read_benchmark(ws: Workspace) -> list[BenchmarkItem] | None:
    if not ws.benchmark.exists():
        return None
    items = read_records(ws.benchmark, BenchmarkItem)
    if not items:
        raise UserError(
            f"{ws.benchmark} has no items: re-run `curate ingest BENCH --benchmark` with a benchmark that has tasks"
        )
    return items


# Rows (document x band) per shuffle partition, and an odd multiplier that spreads the bands.
_ROWS_PER_PARTITION = 1 << 20
_BAND_MIX = np.uint64(0x9E3779B97F4A7C15)


class RayEngine:
    """run_dedup's heavy steps as Ray Data tasks (see the module docstring)."""

    def __init__(self, shard_rows: int = SHARD_ROWS) -> None:
        self.ray = connect_ray()
        self.shard_rows = shard_rows
        self._signatures: np.ndarray | None = None

    def shingle(self, codes: list[str], cfg: DedupConfig) -> ShingleSets:
        """Shingle sets and signatures of each shard in one task; the signatures are kept for
        `sign` (the local engine signs every document too, and uses the rows it needs)."""
        ray = self.ray
        shards = [ray.put(codes[lo : lo + self.shard_rows]) for lo in range(0, len(codes), self.shard_rows)]

        def work(row: dict[str, Any]) -> dict[str, Any]:
            sets = build_shingle_sets(ray.get(shards[row["shard"]]), cfg.ngram, cfg.abstract_identifiers)
            signed = signatures(sets, cfg.num_perm, cfg.seed, cfg.scheme)
            return {"shard": row["shard"], "result": pickle.dumps((sets, signed))}

        rows = ray.data.from_items([{"shard": i} for i in range(len(shards))]).map(work).take_all()
        rows.sort(key=lambda r: r["shard"])
        parts = [pickle.loads(r["result"]) for r in rows]
        self._signatures = np.concatenate([signed for _, signed in parts])
        return concat_sets([sets for sets, _ in parts])

    def sign(self, corpus: ShingleSets, cfg: DedupConfig) -> np.ndarray:
        if self._signatures is None or len(self._signatures) != len(corpus):
            raise RuntimeError("RayEngine.sign: the corpus was not shingled by this engine")
        return self._signatures

    def confirm(
        self, sig: np.ndarray, docs: np.ndarray, corpus: ShingleSets, cfg: DedupConfig
    ) -> tuple[list[tuple[int, int]], int]:
        """One row per document and band (band, band key, document), shuffled by a hash of
        (band, band key) into a few partitions: every bucket lands whole in one partition,
        which sorts its rows and judges its buckets. (A group per bucket would cost a Python
        call for each of the documents x bands rows, nearly all of them alone in their bucket.)"""
        ray = self.ray
        bands, rows = band_params(cfg.threshold, cfg.num_perm)
        band = np.repeat(np.arange(bands, dtype=np.uint64), len(docs))
        key = np.concatenate([band_keys(sig, b, rows) for b in range(bands)])
        parts = max(2 * int(ray.cluster_resources().get("CPU", 1)), len(key) // _ROWS_PER_PARTITION)
        with np.errstate(over="ignore"):
            part = ((key ^ (band * _BAND_MIX)) % np.uint64(parts)).astype(np.int64)
        table = pa.table(
            {"part": part, "band": band, "key": key, "doc": np.tile(docs.astype(np.int64), bands)}
        )
        shared = ray.put((corpus.indptr, corpus.fps))  # read without a copy by every task
        threshold = cfg.threshold

        def judge(group: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            """The buckets of one partition: the pairs scored and their verdicts."""
            indptr, fps = ray.get(shared)
            order = np.lexsort((group["doc"], group["key"], group["band"]))
            band, key, doc = group["band"][order], group["key"][order], group["doc"][order]
            breaks = np.flatnonzero((band[1:] != band[:-1]) | (key[1:] != key[:-1])) + 1
            starts, ends = np.concatenate([[0], breaks]), np.concatenate([breaks, [len(doc)]])
            judged: dict[tuple[int, int], bool] = {}
            for lo, hi in zip(starts.tolist(), ends.tolist(), strict=True):
                if hi - lo >= 2:  # members in increasing order, as the local engine has them
                    bucket_edges(
                        doc[lo:hi].tolist(), lambda d: fps[indptr[d] : indptr[d + 1]], threshold, judged
                    )
            pairs = np.array(list(judged), dtype=np.int64).reshape(-1, 2)
            return {"a": pairs[:, 0], "b": pairs[:, 1], "edge": np.array(list(judged.values()), dtype=bool)}

        dataset = ray.data.from_arrow(table).groupby("part").map_groups(judge, batch_format="numpy")
        found = list(dataset.iter_batches(batch_format="numpy", batch_size=None))
        a = np.concatenate([np.zeros(0, dtype=np.int64), *(f["a"] for f in found)])
        b = np.concatenate([np.zeros(0, dtype=np.int64), *(f["b"] for f in found)])
        edge = np.concatenate([np.zeros(0, dtype=bool), *(f["edge"] for f in found)])
        scored = len(np.unique(a * len(corpus) + b))  # a pair shares several bands: scored once
        return list(zip(a[edge].tolist(), b[edge].tolist(), strict=True)), scored


def run_dedup_stage(
    ws: Workspace, config: DedupConfig, engine: str = "local", shard_rows: int = SHARD_ROWS
) -> DedupSummary:
    check_engine(engine)
    if shard_rows < 1:
        raise UserError(f"--shard-rows must be at least 1, got {shard_rows}")
    ws.require_inputs("dedup")
    with ws.locked():
        started = time.perf_counter()
        units = read_records(ws.units, KernelUnit)
        if not units:
            raise UserError(f"{ws.units} has no units: ingest a source with kernels first")
        items = _read_benchmark(ws)
        runner: DedupEngine = RayEngine(shard_rows) if engine == "ray" else LOCAL
        result = run_dedup(units, items, config, runner)
        report = build_json(result.findings, units, items or [], config, result.counts)
        tasks_section = dedup_task_leaks(units, items, result.decisions, config.task_leaks, report)
        result.counts.update({k: v for k, v in report["counts"].items() if k.startswith("task_")})
        write_records(ws.decisions, Decision, result.decisions)
        json_path, markdown_path = ws.leakage_reports()
        write_text_atomic(json_path, dump_json(report))
        write_text_atomic(markdown_path, build_markdown(report) + tasks_section)
        seconds = round(time.perf_counter() - started, 3)
        ws.record_run(DedupRun(config=dataclasses.asdict(config), counts=result.counts, seconds=seconds))
    return DedupSummary(result.counts, result.notes, seconds)
