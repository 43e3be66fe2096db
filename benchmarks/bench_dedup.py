"""Dedup throughput: this project's MinHash against datasketch, LSH, and a whole `run_dedup`.

    python benchmarks/bench_dedup.py                 # 100k units, 3 repeats
    python benchmarks/bench_dedup.py -n 200000 --repeat 1 --compare 5000
    python benchmarks/bench_dedup.py -n 20000 --skip-dedup    # the MinHash ratio only, quickly
    python benchmarks/bench_dedup.py --real WORKSPACE_OR_DIR   # on real units, vs datasketch
    python benchmarks/bench_dedup.py --engines 20000          # `curate dedup` local vs --engine ray

--real reads the units of a curate workspace (units.parquet) or the code files of a directory
and measures, in one process (CPU seconds, best of --repeat), source text to datasketch-equal signatures
(dedup.shingles.build_shingle_sets then dedup.minhash.signatures) and each step alone
(tokenising, shingling and SHA-1 of the distinct shingles, the permutations), against
datasketch from the same source text (this project's tokenizer, then one MinHash per unit fed
its distinct shingle bytes; all units, or with --datasketch-units a random sample scaled by its
share of the shingles).

--engines N writes a workspace of N synthetic units and runs the dedup stage with the local
engine and then twice with the Ray engine on a local runtime (the runtime's start is not timed;
the first Ray run includes starting and warming its workers), and checks that the decisions and
counts are identical.

Generates N synthetic AscendC kernel variants (elementwise kernels with random operators,
types, tile sizes and identifier names; about 5% exact copies and 10% lightly edited copies of
earlier units), then reports, as the median of --repeat runs:
- signatures/s of `dedup.minhash.minhash_tokens` (shingling, SHA-1 and permutations) and of
  `datasketch.MinHash.update_batch` (one MinHash per document, shingle bytes given) on the same
  tokenised documents, in the same run (the ratio, wall and CPU time), on the first --compare
  documents (datasketch is too slow for all of them);
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
    from dedup.normalize import tokenize
    from dedup.shingles import build_shingle_sets, shingle_strings

    subset = [tokenize(c) for c in codes[:compare]]  # shared input, not timed
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


def bench_real(source: str, repeat: int, num_perm: int, datasketch_docs: int) -> None:
    """Source text to signatures on real units, each step alone, and datasketch from the same text."""
    from datasketch import MinHash

    from dedup.minhash import signatures
    from dedup.normalize import tokenize
    from dedup.shingles import build_shingle_sets, sets_from_tokens, shingle_strings

    codes = _real_codes(source)
    tokens = [tokenize(c) for c in codes]
    counts = sorted(len(shingle_strings(t, 5)) for t in tokens)
    n = len(codes)
    print(
        f"{n} real units from {source}: distinct 5-gram shingles per unit mean {statistics.mean(counts):,.0f}, "
        f"median {statistics.median(counts):,.0f}, max {counts[-1]:,}, total {sum(counts):,}; tokens per "
        f"unit mean {statistics.mean(len(t) for t in tokens):,.0f}; {sum(map(len, codes)) / 1e6:.1f} M characters"
    )

    def best(fn: Callable[[], object]) -> float:  # CPU seconds: one thread, steady on a shared machine
        return min(_timed(fn)[1] for _ in range(repeat))

    ours = best(lambda: signatures(build_shingle_sets(codes), num_perm))
    sets = sets_from_tokens(tokens)
    parts = {
        "tokenize (comment mask + token regex)": best(lambda: [tokenize(c) for c in codes]),
        "shingles + SHA-1 of each distinct one + sorted sets": best(lambda: sets_from_tokens(tokens)),
        "permutations and minima": best(lambda: signatures(sets, num_perm)),
    }
    # datasketch's time is linear in shingles; a sample of units is scaled by its share of the
    # shingles (not of the units: real unit sizes are skewed, and the first few are not typical).
    sample = sorted(random.Random(14).sample(range(n), min(datasketch_docs, n)))
    share = sum(counts[i] for i in sample) / max(1, sum(counts)) if len(sample) < n else 1.0

    def datasketch_from_text() -> None:  # what a datasketch user runs on source text
        for i in sample:
            doc = [s.encode("utf-8", "surrogatepass") for s in shingle_strings(tokenize(codes[i]), 5)]
            MinHash(num_perm=num_perm).update_batch(doc)

    label = "all units" if len(sample) == n else f"{len(sample)} random units, scaled by shingles"
    theirs = _timed(datasketch_from_text)[1] / share  # once: it is the slow side
    print(f"num_perm {num_perm}; CPU seconds, best of {repeat}; one thread each")
    print(f"  ours: source text -> signatures       {ours:7.3f} s  {n / ours:9,.0f} units/s")
    print(f"  datasketch from source text ({label}) {theirs:7.3f} s  ours {theirs / ours:5.2f}x as fast")
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
        f"{sig['theirs_cpu'] / sig['ours_cpu']:.1f}x (one core each)"
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
