"""Orchestration overhead of `curate annotate`: requests/s and CPU per request against a teacher
that answers instantly.

    python benchmarks/bench_annotate.py                    # concurrency 1, 16, 64; 3 repeats
    python benchmarks/bench_annotate.py -n 4000 --repeat 5 --concurrency 64

The scriptable OpenAI-compatible test server (tests/servers/openai_server.py) runs as its own
process on loopback and answers every request at once with a well-formed answer, so what is
measured is our side: prompt rendering, cache-key hashing, the journal lookup and commit (SQLite
WAL), the openai SDK and HTTP, parsing, the structural verifier in its thread, and the per-unit
journal rows. Every unit is new (a fresh journal per run): one request per unit. Kernel code is
about 8 KB per unit, the size of real assembled units.

Reported per concurrency, as the median of --repeat runs: requests/s (wall), client CPU seconds
per request (user+system of this process, all threads), server CPU seconds per request, and the
cache replay rate (the same units again, served from the journal). Goal: >= 300 requests/s at
concurrency 64 on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from annotate.config import AnnotateConfig  # noqa: E402
from annotate.run import annotate_units  # noqa: E402
from benchmarks.form_verifier import StructuralVerifier  # noqa: E402
from schemas import KernelUnit, OpDef, Param, TensorSpec, TilingField  # noqa: E402

KERNEL_STAGE = """
    __aicore__ inline void Stage{i}(int32_t progress)
    {{
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, this->tileLength * {i} + progress);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }}
"""


def synthetic_unit(index: int) -> KernelUnit:
    stages = "".join(KERNEL_STAGE.format(i=i) for i in range(14))
    code = (
        f'#include "kernel_operator.h"\n// unit {index}\nclass KernelAdd{index} {{\npublic:{stages}}};\n'
        f'extern "C" __global__ __aicore__ void add_{index}(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {{}}\n'
    )
    return KernelUnit(
        unit_id=f"bench{index:06d}",
        source="bench",
        origin_url="",
        commit="",
        path=f"op_kernel/add_{index}.cpp",
        layout="msopgen",
        op_name=f"Add{index}",
        kernel_name=f"add_{index}",
        params=[Param(n, "GM_ADDR") for n in ("x", "y", "z", "tiling")],
        tiling_fields=[TilingField("totalLength", "uint32_t"), TilingField("tileNum", "uint32_t")],
        op_def=OpDef("Add", [TensorSpec("x", dtypes=["float16"])], [TensorSpec("z", dtypes=["float16"])]),
        code=code,
        loc=code.count("\n"),
    )


def start_server() -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.servers.openai_server", "--port", "0"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    return server, int(line.split()[1])


def process_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(units: list[KernelUnit], port: int, server_pid: int, concurrency: int) -> dict[str, float]:
    config = AnnotateConfig(base_url=f"http://127.0.0.1:{port}/v1", model="bench", concurrency=concurrency)
    with tempfile.TemporaryDirectory(prefix="bench-annotate-") as tmp:
        journal = Path(tmp) / "annotate.sqlite"
        server_cpu = process_cpu_s(server_pid)
        cpu, wall = time.process_time(), time.perf_counter()
        summary = annotate_units(units, config, [StructuralVerifier()], journal, "bench-key")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        server_cpu = process_cpu_s(server_pid) - server_cpu
        assert summary.requested == len(units) and summary.accepted == len(units), summary
        replay = time.perf_counter()
        again = annotate_units(units, config, [StructuralVerifier()], journal, "bench-key")
        replay = time.perf_counter() - replay
        assert again.requested == 0 and again.cached == len(units), again
    n = len(units)
    return {
        "req_per_s": n / wall,
        "client_cpu_ms_per_req": 1000 * cpu / n,
        "server_cpu_ms_per_req": 1000 * server_cpu / n,
        "replay_units_per_s": n / replay,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", type=int, default=2000, help="units (= requests) per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64])
    args = parser.parse_args()

    units = [synthetic_unit(i) for i in range(args.n)]
    server, port = start_server()
    results = {}
    try:
        one_run(units[:200], port, server.pid, 16)  # warm-up: imports, connection pool, page cache
        for concurrency in args.concurrency:
            runs = [one_run(units, port, server.pid, concurrency) for _ in range(args.repeat)]
            results[concurrency] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    finally:
        server.terminate()
        server.wait(10)

    print(
        f"annotate orchestration, {args.n} requests per run, median of {args.repeat} runs, {os.cpu_count()} cores"
    )
    print(
        f"{'concurrency':>11} {'req/s':>8} {'client CPU ms/req':>18} {'server CPU ms/req':>18} {'replay units/s':>15}"
    )
    for concurrency, r in results.items():
        print(
            f"{concurrency:>11} {r['req_per_s']:>8.0f} {r['client_cpu_ms_per_req']:>18.2f} "
            f"{r['server_cpu_ms_per_req']:>18.2f} {r['replay_units_per_s']:>15.0f}"
        )
    print(json.dumps({str(c): {k: round(v, 3) for k, v in r.items()} for c, r in results.items()}))


if __name__ == "__main__":
    main()
