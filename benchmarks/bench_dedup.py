"""Dedup throughput: this project's MinHash against datasketch, LSH, and a whole `run_dedup`.

    python benchmarks/bench_dedup.py                 # 100k units, 3 repeats
    python benchmarks/bench_dedup.py -n 200000 --repeat 1 --compare 5000
    python benchmarks/bench_dedup.py -n 20000 --skip-dedup    # the MinHash ratio only, quickly
    python benchmarks/bench_dedup.py --real WORKSPACE_OR_DIR   # per core, on real units, vs rensa too
    python benchmarks/bench_dedup.py --engines 20000          # `curate dedup` local vs --engine ray

--real reads the units of a curate workspace (units.parquet) or the code files of a directory
and measures, on one core and side by side in one run (best of --repeat), source text to
datasketch-equal signatures (dedup.minhash.minhash_texts, one worker) and each of its compiled
stages alone (lexing, interning each unit's distinct shingles, their SHA-1, the permutations),
against rensa (`pip install rensa`, a benchmark-only dependency; given its distinct shingle
strings prebuilt, and from the same source text through code_tokens) and datasketch (given its
distinct shingle bytes prebuilt; all units once, or with --datasketch-units a random sample
scaled by its share of the shingles; and datasketch from the same source text, through
code_tokens and shingle_strings, as a datasketch user would run it). Figures of 2026-11-23,
sixth session (best of 5, 128 permutations, 2 cores shared, so the single timed runs of
datasketch and rensa move by +-15%); per repository: code files, distinct shingles per file
mean/median, ours, then ours against datasketch from text, datasketch prebuilt, rensa from text
and rensa prebuilt:
  hicann ops-math          8,510  547/258      0.28 s  24.1x  11.0x  12.9x  0.68x
  hicann ops-nn           13,250  750/420      0.61 s  22.7x   9.5x  12.6x  0.66x
  hicann ops-transformer   2,253  1,026/467    0.16 s  19.7x   7.9x  11.4x  0.57x
  hicann cann-samples        487  1,111/897    0.03 s  20.8x  10.0x  10.4x  0.71x
  Hayden727 cann-ops       2,764  900/562      0.13 s  22.8x  10.5x  11.5x  0.74x
  cannmirror asc-devkit    5,830  570/322      0.22 s  22.8x   9.4x  12.6x  0.63x
  ops-math assembled units   518  2,705/1,306  0.10 s  19.4x   7.0x  11.9x  0.51x  (a curate workspace)
Parts, each timed alone: lexing 36-47%, interning 18-30%, SHA-1 20-26%, permutations 4-7%.
Handed the same prebuilt shingle bytes as datasketch (dedup.minhash.minhash_shingles), ours is
1.6-2.2x slower than from source text: gathering millions of Python bytes objects into one
buffer costs more than lexing the text (rensa reads its str objects from Rust). What changed
since the fifth session (the figures above move within this machine's noise; in alternating
in-process runs against the fifth session's code, 1-5% faster: ops-math 283 -> 270 ms,
asc-devkit 210 -> 207 ms, assembled units 113 -> 112 ms): the lexer ends runs of blanks and
identifiers with 64-byte class masks instead of a test per byte, hashes each token as it copies
it, and keeps its buffers from batch to batch. Fifth session (from the fourth's ops-math
0.31 s, ops-nn 0.73 s, assembled units 0.13 s): SHA-1 runs on the CPU's SHA extensions (x86
SHA-NI) where it has them, four one-block messages interleaved (0.089 -> 0.072 s on ops-math;
the whole 0.310 -> 0.288 s in alternating runs, the rest of the difference from the fourth
session's figures is the shared machine). Fourth session: the
permutations run one at a time over a unit's pre-mixed hashes, with the running minimum in a
register (0.037 -> 0.014 s on ops-math), and the interning hashes tokens and shingles in
branch-free loops (0.096 -> 0.073 s). Third session: ops-math 0.35 s (10.3x datasketch
prebuilt, 0.56x rensa prebuilt), ops-nn 0.89 s (7.4x, 0.47x), after eight-byte unaligned loads
replaced an array of big-endian words, short SHA-1 messages filled half a block and comments
were masked in place. Second session: ops-math 0.48 s (6.7x, 0.42x). First session: ops-math
0.68 s (5.2x, 0.30x), ops-nn 1.60 s (4.1x, 0.28x).

--engines N writes a workspace of N synthetic units and runs the dedup stage with the local
engine and then twice with the Ray engine on a local runtime (the runtime's start is not timed;
the first Ray run includes starting and warming its workers), and checks that the decisions and
counts are identical.

Generates N synthetic AscendC kernel variants (elementwise kernels with random operators,
types, tile sizes and identifier names; about 5% exact copies and 10% lightly edited copies of
earlier units), then reports, as the median of --repeat runs:
- signatures/s of `dedup.minhash.minhash_tokens` (shingling, SHA-1 and permutations, every
  core) and of `datasketch.MinHash.update_batch` (one MinHash per document, shingle bytes given)
  on the same tokenised documents, in the same run (the ratio, wall and CPU time), on the first
  --compare documents (datasketch is too slow for all of them);
- documents/s from source text to signatures (tokenising and exact shingle sets included)
  on all N documents;
- LSH build+query time: our banding plus exact-Jaccard confirmation over N signatures, and
  datasketch.MinHashLSH insert+query over the --compare subset;
- the whole `dedup.decide.run_dedup` on N units (wall time and peak RSS of a child process).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import random
import resource
import statistics
import time
from collections.abc import Callable

import numpy as np

OPS = [
    ("Add", "Add(zLocal, xLocal, yLocal, {n})"),
    ("Sub", "Sub(zLocal, xLocal, yLocal, {n})"),
    ("Mul", "Mul(zLocal, xLocal, yLocal, {n})"),
    ("Div", "Div(zLocal, xLocal, yLocal, {n})"),
    ("Max", "Max(zLocal, xLocal, yLocal, {n})"),
    ("Min", "Min(zLocal, xLocal, yLocal, {n})"),
    ("Relu", "Relu(zLocal, xLocal, {n})"),
    ("Exp", "Exp(zLocal, xLocal, {n})"),
    ("Abs", "Abs(zLocal, xLocal, {n})"),
    ("Sqrt", "Sqrt(zLocal, xLocal, {n})"),
    ("Adds", "Adds(zLocal, xLocal, ({t}){c}, {n})"),
    ("Muls", "Muls(zLocal, xLocal, ({t}){c}, {n})"),
]
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "tile",
    "block",
    "core",
    "local",
    "queue",
    "buf",
    "src",
    "dst",
    "in",
    "out",
    "tmp",
    "acc",
    "sum",
    "len",
    "num",
    "idx",
    "pos",
]


def _name(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)}{rng.choice(WORDS).title()}{rng.randint(0, 999)}"


def synthetic_kernel(rng: random.Random) -> str:
    op, call = rng.choice(OPS)
    t = rng.choice(["half", "float", "int16_t", "bfloat16_t"])
    n = _name(rng)
    cls, tile, blocks = (
        f"Kernel{op}{rng.randint(0, 9999)}",
        rng.choice([64, 128, 256, 512, 1024]),
        rng.randint(1, 48),
    )
    names = {k: _name(rng) for k in ("len", "tile", "x", "y", "z", "pipe", "qx", "qy", "qz")}
    extra = "\n".join(
        f"        {_name(rng)} = {_name(rng)} * {rng.randint(2, 99)} + {rng.randint(0, 99)};"
        for _ in range(rng.randint(2, 8))
    )
    body = call.format(n=f"this->{names['tile']}", t=t, c=rng.randint(1, 9))
    return f"""/**
 * Copyright (c) {rng.randint(2020, 2025)} Example Org. Licensed under the Apache License 2.0.
 */
#include "kernel_operator.h"
constexpr int32_t BUFFER_NUM = {rng.choice([1, 2])};
constexpr int32_t TILE_NUM = {rng.choice([4, 8, 16])};
constexpr uint32_t BLOCK_DIM = {blocks};
class {cls} {{
public:
    __aicore__ inline {cls}() {{}}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t {names["len"]}) {{
        this->{names["len"]} = {names["len"]} / AscendC::GetBlockNum();
        this->{names["tile"]} = this->{names["len"]} / TILE_NUM / BUFFER_NUM;
        {names["x"]}.SetGlobalBuffer((__gm__ {t} *)x + this->{names["len"]} * AscendC::GetBlockIdx(), this->{names["len"]});
        {names["y"]}.SetGlobalBuffer((__gm__ {t} *)y + this->{names["len"]} * AscendC::GetBlockIdx(), this->{names["len"]});
        {names["z"]}.SetGlobalBuffer((__gm__ {t} *)z + this->{names["len"]} * AscendC::GetBlockIdx(), this->{names["len"]});
        {names["pipe"]}.InitBuffer({names["qx"]}, BUFFER_NUM, this->{names["tile"]} * sizeof({t}));
        {names["pipe"]}.InitBuffer({names["qy"]}, BUFFER_NUM, this->{names["tile"]} * sizeof({t}));
        {names["pipe"]}.InitBuffer({names["qz"]}, BUFFER_NUM, this->{names["tile"]} * sizeof({t}));
{extra}
    }}
    __aicore__ inline void Process() {{
        int32_t loopCount = TILE_NUM * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {{
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }}
    }}

private:
    __aicore__ inline void CopyIn(int32_t progress) {{
        AscendC::LocalTensor<{t}> xLocal = {names["qx"]}.AllocTensor<{t}>();
        AscendC::LocalTensor<{t}> yLocal = {names["qy"]}.AllocTensor<{t}>();
        AscendC::DataCopy(xLocal, {names["x"]}[progress * this->{names["tile"]}], this->{names["tile"]});
        AscendC::DataCopy(yLocal, {names["y"]}[progress * this->{names["tile"]}], this->{names["tile"]});
        {names["qx"]}.EnQue(xLocal);
        {names["qy"]}.EnQue(yLocal);
    }}
    __aicore__ inline void Compute(int32_t progress) {{
        AscendC::LocalTensor<{t}> xLocal = {names["qx"]}.DeQue<{t}>();
        AscendC::LocalTensor<{t}> yLocal = {names["qy"]}.DeQue<{t}>();
        AscendC::LocalTensor<{t}> zLocal = {names["qz"]}.AllocTensor<{t}>();
        AscendC::{body};
        {names["qz"]}.EnQue<{t}>(zLocal);
        {names["qx"]}.FreeTensor(xLocal);
        {names["qy"]}.FreeTensor(yLocal);
    }}
    __aicore__ inline void CopyOut(int32_t progress) {{
        AscendC::LocalTensor<{t}> zLocal = {names["qz"]}.DeQue<{t}>();
        AscendC::DataCopy({names["z"]}[progress * this->{names["tile"]}], zLocal, this->{names["tile"]});
        {names["qz"]}.FreeTensor(zLocal);
    }}

private:
    AscendC::TPipe {names["pipe"]};
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> {names["qx"]}, {names["qy"]};
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> {names["qz"]};
    AscendC::GlobalTensor<{t}> {names["x"]};
    AscendC::GlobalTensor<{t}> {names["y"]};
    AscendC::GlobalTensor<{t}> {names["z"]};
    uint32_t {names["len"]};
    uint32_t {names["tile"]};
}};

extern "C" __global__ __aicore__ void {n}(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{{
    {cls} op;
    op.Init(x, y, z, {tile} * BLOCK_DIM);
    op.Process();
}}
"""


def synthetic_corpus(n: int, seed: int = 0) -> list[str]:
    """n kernels: ~85% fresh, ~5% exact copies, ~10% copies with one line edited."""
    rng = random.Random(seed)
    codes: list[str] = []
    for _ in range(n):
        roll = rng.random()
        if codes and roll < 0.05:
            codes.append(rng.choice(codes))
        elif codes and roll < 0.15:
            lines = rng.choice(codes).split("\n")
            lines[rng.randrange(4, len(lines))] = f"    int32_t {_name(rng)} = {rng.randint(0, 99)};"
            codes.append("\n".join(lines))
        else:
            codes.append(synthetic_kernel(rng))
    return codes


def _units(codes: list[str]) -> list:
    from schemas import KernelUnit

    return [
        KernelUnit(
            unit_id=f"u{i:07d}",
            source="bench",
            origin_url="",
            commit="",
            path=f"k{i}.cpp",
            layout="standalone",
            op_name="",
            kernel_name="",
            code=code,
            license="Apache-2.0",
        )
        for i, code in enumerate(codes)
    ]


def _median(fn: Callable[[], float], repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process, all threads) of one call, with the garbage
    collector off as timeit does (millions of live token strings make its passes costly)."""
    gc.collect()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.enable()


def bench_signatures(codes: list[str], compare: int, repeat: int, num_perm: int) -> dict[str, float]:
    """The ratio: both sides start from the same tokenised documents (the first `compare`).
    datasketch is handed its shingle bytes ready-made (building them is not timed); ours builds,
    hashes and signs them inside the timing. Both are warmed up, and timed with the garbage
    collector off. Then ours alone from source text (tokenising included) on all documents."""
    from datasketch import MinHash

    from dedup.minhash import minhash_tokens, signatures
    from dedup.normalize import code_tokens
    from dedup.shingles import build_shingle_sets, shingle_strings

    subset = [code_tokens(c) for c in codes[:compare]]  # shared input, not timed
    subset_bytes = [[s.encode() for s in shingle_strings(t, 5)] for t in subset]

    def theirs() -> None:
        for doc in subset_bytes:
            m = MinHash(num_perm=num_perm)
            m.update_batch(doc)

    minhash_tokens(subset[:50], 5, num_perm)  # warm-up
    runs = [_timed(lambda: minhash_tokens(subset, 5, num_perm)) for _ in range(repeat)]
    ours_wall, ours_cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
    theirs_wall, theirs_cpu = _timed(theirs)  # once: it is the slow side
    from_text = statistics.median(
        _timed(lambda: signatures(build_shingle_sets(codes), num_perm))[0] for _ in range(repeat)
    )
    return {
        "compare_docs": len(subset),
        "ours_wall": ours_wall,
        "ours_cpu": ours_cpu,
        "theirs_wall": theirs_wall,
        "theirs_cpu": theirs_cpu,
        "from_text_s": from_text,
        "shingles_per_doc": statistics.mean(len(s) for s in subset_bytes),
    }


def bench_lsh(codes: list[str], compare: int, repeat: int, num_perm: int) -> dict[str, float]:
    from datasketch import MinHash, MinHashLSH

    from dedup.cluster import confirm_buckets
    from dedup.lsh import band_params, buckets
    from dedup.minhash import signatures
    from dedup.shingles import build_shingle_sets

    sets = build_shingle_sets(codes, 5)
    sig = signatures(sets, num_perm)
    bands, rows = band_params(0.7, num_perm)
    docs = np.arange(len(codes), dtype=np.int64)

    def ours() -> float:
        start = time.perf_counter()
        confirm_buckets(buckets(sig, bands, rows), sets, docs, 0.7)
        return time.perf_counter() - start

    sketches = [
        MinHash(num_perm=num_perm, hashvalues=sig[i], scheme="affine32")
        for i in range(min(compare, len(codes)))
    ]

    def theirs() -> float:
        start = time.perf_counter()
        lsh = MinHashLSH(threshold=0.7, num_perm=num_perm)
        for i, m in enumerate(sketches):
            lsh.insert(i, m)
        for m in sketches:
            lsh.query(m)
        return time.perf_counter() - start

    return {
        "bands": bands,
        "rows": rows,
        "ours_all_s": _median(ours, repeat),
        "datasketch_subset_s": _median(theirs, repeat),
    }


def _dedup_child(n: int, seed: int, queue: multiprocessing.Queue) -> None:
    from dedup.config import DedupConfig
    from dedup.decide import run_dedup

    units = _units(synthetic_corpus(n, seed))
    start = time.perf_counter()
    result = run_dedup(units, None, DedupConfig())
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((seconds, peak_mb, result.counts))


def bench_run_dedup(n: int, repeat: int) -> dict[str, object]:
    ctx = multiprocessing.get_context("spawn")
    runs = []
    for r in range(repeat):
        queue = ctx.Queue()
        proc = ctx.Process(target=_dedup_child, args=(n, r, queue))
        proc.start()
        runs.append(queue.get())
        proc.join()
    return {
        "seconds_median": statistics.median(s for s, _, _ in runs),
        "seconds_all": [round(s, 2) for s, _, _ in runs],
        "peak_rss_mb": max(m for _, m, _ in runs),
        "counts_first_run": runs[0][2],
    }


def _real_codes(source: str) -> list[str]:
    from pathlib import Path

    path = Path(source)
    if (path / "units.parquet").exists():
        import pyarrow.parquet as pq

        return [
            c for c in pq.read_table(path / "units.parquet", columns=["code"]).column("code").to_pylist() if c
        ]
    exts = (".cpp", ".h", ".hpp", ".asc", ".cc")
    return [
        p.read_text(encoding="utf-8", errors="replace") for p in sorted(path.rglob("*")) if p.suffix in exts
    ]


def _real_parts(codes: list[str], best: Callable[[Callable[[], object]], float]) -> dict[str, float]:
    """Each compiled stage of ours alone, over the same batches `minhash_texts` makes."""
    from dedup import accel
    from dedup.lex import LexBuffers, lex_tokens
    from dedup.shingles import _BATCH_DOCS

    batches = [codes[i : i + _BATCH_DOCS] for i in range(0, len(codes), _BATCH_DOCS)]
    lexed = [lex_tokens(batch) for batch in batches]
    buffers = LexBuffers()  # as minhash_texts lexes: each batch into the same arrays
    present = [x.counts[x.counts > 0].astype(np.int64) for x in lexed]
    totals = [int(accel.shingle_counts(c, 5).sum()) for c in present]
    interned: list[tuple[np.ndarray, int, np.ndarray, np.ndarray]] = []

    def intern() -> None:
        interned.clear()
        for x, counts, total in zip(lexed, present, totals, strict=True):
            buf = accel.padded(x.joined)
            starts, lengths = np.empty(total, dtype=np.int64), np.empty(total, dtype=np.int64)
            per_doc = np.zeros(len(counts), dtype=np.int64)
            distinct = accel._intern_shingles(
                buf, counts, x.token_starts, x.token_hashes, 5, starts, lengths, per_doc
            )
            interned.append((buf, len(x.joined), starts[:distinct], lengths[:distinct]))

    def sha1() -> None:
        for buf, size, starts, lengths in interned:
            accel.sha1_padded(buf, size, starts, lengths)

    return {
        "lex (comments masked, tokens)": best(lambda: [lex_tokens(batch, buffers) for batch in batches]),
        "intern (each unit's distinct shingles)": best(intern),
        f"SHA-1 of the distinct shingles ({sum(len(p[2]) for p in interned):,})": best(sha1),
    }


def bench_real(source: str, repeat: int, num_perm: int, datasketch_docs: int) -> None:
    """Per core (one thread everywhere), source text to signatures on real units."""
    from datasketch import MinHash

    from dedup import accel
    from dedup.minhash import minhash_shingles, minhash_texts, signatures
    from dedup.normalize import code_tokens
    from dedup.shingles import sets_from_texts, shingle_strings

    codes = _real_codes(source)
    tokens = [code_tokens(c) for c in codes]
    shingles = [list(shingle_strings(t, 5)) for t in tokens]
    counts = sorted(len(s) for s in shingles)
    n = len(codes)
    print(
        f"{n} real units from {source}: distinct 5-gram shingles per unit mean {statistics.mean(counts):,.0f}, "
        f"median {statistics.median(counts):,.0f}, max {counts[-1]:,}, total {sum(counts):,}; tokens per "
        f"unit mean {statistics.mean(len(t) for t in tokens):,.0f}; {sum(map(len, codes)) / 1e6:.1f} M characters"
    )
    minhash_texts(codes[:20], workers=1)  # compile / warm up

    def best(fn: Callable[[], object]) -> float:
        return min(_timed(fn)[0] for _ in range(repeat))

    ours = best(lambda: minhash_texts(codes, 5, num_perm, workers=1))
    parts = _real_parts(codes, best)
    sets = sets_from_texts(codes, 5, 1, distinct=False)
    parts["permutations and minima"] = best(lambda: signatures(sets, num_perm, workers=1))
    rows = [("ours: source text -> signatures (1 worker)", ours)]
    # The MinHash core alone, handed what datasketch is handed (rensa: the same, as str).
    prebuilt = [[s.encode("utf-8", "surrogatepass") for s in doc] for doc in shingles]
    rows.append(
        (
            "ours, shingle bytes prebuilt (not timed)",
            best(lambda: minhash_shingles(prebuilt, num_perm, workers=1)),
        )
    )
    prebuilt.clear()
    try:
        from rensa import RMinHash

        def rensa_prebuilt() -> None:
            for doc in shingles:
                m = RMinHash(num_perm=num_perm, seed=1)
                m.update(doc)
                m.digest()

        def rensa_from_text() -> None:
            for code in codes:
                m = RMinHash(num_perm=num_perm, seed=1)
                m.update(list(shingle_strings(code_tokens(code), 5)))
                m.digest()

        rows.append(("rensa, shingle strings prebuilt (not timed)", best(rensa_prebuilt)))
        rows.append(("rensa, from source text (code_tokens + shingles)", best(rensa_from_text)))
    except ImportError:
        print("rensa is not installed (pip install rensa): skipped")
    # datasketch's time is linear in shingles; a sample of units is scaled by its share of the
    # shingles (not of the units: real unit sizes are skewed, and the first few are not typical).
    sample = sorted(random.Random(14).sample(range(n), min(datasketch_docs, n)))
    subset = [[s.encode() for s in shingles[i]] for i in sample]
    share = sum(map(len, subset)) / max(1, sum(counts))

    def datasketch() -> None:
        for doc in subset:
            MinHash(num_perm=num_perm).update_batch(doc)

    def datasketch_from_text() -> None:  # what a datasketch user runs on source text
        for i in sample:
            doc = [s.encode("utf-8", "surrogatepass") for s in shingle_strings(code_tokens(codes[i]), 5)]
            MinHash(num_perm=num_perm).update_batch(doc)

    label = "all units" if len(subset) == n else f"{len(subset)} random units, scaled by shingles"
    # Once each: they are the slow side.
    rows.append((f"datasketch update_batch, bytes prebuilt ({label})", _timed(datasketch)[0] / share))
    rows.append(
        (
            f"datasketch, from source text (code_tokens + shingles; {label})",
            _timed(datasketch_from_text)[0] / share,
        )
    )
    print(f"numba: {accel.AVAILABLE}; num_perm {num_perm}; best of {repeat}; one thread each")
    for name, seconds in rows:
        print(
            f"  {name:<62} {seconds:7.3f} s  {n / seconds:9,.0f} units/s  ours {seconds / ours:5.2f}x as fast"
        )
    print("  parts of ours:")
    for name, seconds in parts.items():
        print(f"    {name:<60} {seconds:7.3f} s  {seconds / ours:4.0%}")


def bench_engines(n: int) -> None:
    """`curate dedup` on one workspace, local engine against the Ray engine: wall time, equality."""
    import tempfile
    from pathlib import Path

    import ray

    from curate.stages.dedup import run_dedup_stage
    from curate.workspace import Workspace
    from dedup.config import DedupConfig
    from schemas import Decision, KernelUnit, read_records, write_records

    root = Path(tempfile.mkdtemp(prefix="dedup-engines-"))
    units = _units(synthetic_corpus(n))
    ray.init(include_dashboard=False, log_to_driver=False)
    runs: list[tuple[str, float, list, dict[str, int]]] = []
    for k, engine in enumerate(("local", "ray", "ray")):
        ws = Workspace(root / f"{engine}-{k}")
        write_records(ws.units, KernelUnit, units)
        start = time.perf_counter()
        summary = run_dedup_stage(ws, DedupConfig(), engine=engine)
        runs.append(
            (engine, time.perf_counter() - start, read_records(ws.decisions, Decision), summary.counts)
        )
    local = runs[0]
    print(f"curate dedup on {n} synthetic units ({root}); counts {local[3]}")
    for engine, seconds, decisions, counts in runs:
        same = decisions == local[2] and counts == local[3]
        print(f"  {engine:<6} {seconds:7.1f} s  decisions and counts identical to local: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, default=100_000, help="synthetic units (up to 200k)")
    parser.add_argument("--compare", type=int, default=5_000, help="documents for the datasketch comparison")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--num-perm", type=int, default=128)
    parser.add_argument("--skip-dedup", action="store_true", help="skip the whole-run measurement")
    parser.add_argument(
        "--real", metavar="DIR", help="a workspace or code directory: per-core ratios on real units"
    )
    parser.add_argument(
        "--datasketch-units", type=int, default=100_000, help="--real: units datasketch hashes (sampled)"
    )
    parser.add_argument("--engines", type=int, metavar="N", help="dedup stage: local vs Ray on N units")
    args = parser.parse_args()
    if args.engines:
        bench_engines(args.engines)
        return
    if args.real:
        bench_real(args.real, args.repeat, args.num_perm, args.datasketch_units)
        return

    codes = synthetic_corpus(args.n)
    print(
        f"{args.n} synthetic kernels, {statistics.mean(c.count(chr(10)) for c in codes):.0f} lines each on average"
    )
    sig = bench_signatures(codes, args.compare, args.repeat, args.num_perm)
    n = sig["compare_docs"]
    print(
        f"MinHash ({sig['shingles_per_doc']:.0f} shingles/doc, num_perm {args.num_perm}, {n} docs, same run; "
        f"ours median of {args.repeat}): "
        f"ours {n / sig['ours_wall']:,.0f} sig/s vs datasketch update_batch {n / sig['theirs_wall']:,.0f} sig/s, "
        f"wall-time ratio {sig['theirs_wall'] / sig['ours_wall']:.1f}x; CPU-time ratio "
        f"{sig['theirs_cpu'] / sig['ours_cpu']:.1f}x (ours uses every core; datasketch one)"
    )
    print(
        f"MinHash of all {args.n} from source text (tokenising, exact shingle sets, signatures): "
        f"{sig['from_text_s']:.2f} s, {args.n / sig['from_text_s']:,.0f} docs/s (median of {args.repeat})"
    )
    lsh = bench_lsh(codes, args.compare, args.repeat, args.num_perm)
    print(
        f"LSH (b={lsh['bands']}, r={lsh['rows']}): ours build+query+confirm {lsh['ours_all_s']:.2f} s for {args.n}; "
        f"datasketch MinHashLSH insert+query {lsh['datasketch_subset_s']:.2f} s for {args.compare}"
    )
    if not args.skip_dedup:
        del codes
        run = bench_run_dedup(args.n, args.repeat)
        print(
            f"run_dedup on {args.n} units: {run['seconds_median']:.1f} s median {run['seconds_all']}, "
            f"peak RSS {run['peak_rss_mb']:.0f} MB; counts {run['counts_first_run']}"
        )


if __name__ == "__main__":
    main()
