"""`curate dedup --engine ray` (shingling, the band shuffle and exact confirmation on Ray Data,
connected components on the driver) gives the local engine's clusters and decisions, row for
row, on a local Ray runtime: planted clusters of several members, a chain A~B~C whose ends are
not similar, exact copies, a leak, and unrelated units spread over many shards."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the [ray] extra is installed by `make test`")

from curate.stages.dedup import run_dedup_stage  # noqa: E402
from curate.workspace import Workspace  # noqa: E402
from dedup.config import DedupConfig  # noqa: E402
from dedup.shingles import build_shingle_sets, jaccard  # noqa: E402
from schemas import BenchmarkItem, Decision, KernelUnit, read_records, write_records  # noqa: E402
from tests.test_dedup_helpers import elementwise_kernel, item, run_cli, unit  # noqa: E402


def statements(rng: random.Random, n: int) -> list[str]:
    return [
        f"    v{rng.randrange(1000)} = v{rng.randrange(1000)} * {rng.randrange(2, 99)} + {rng.randrange(99)};"
        for _ in range(n)
    ]


def kernel(name: str, body: list[str]) -> str:
    return f'extern "C" __global__ __aicore__ void {name}(GM_ADDR x)\n{{\n' + "\n".join(body) + "\n}\n"


def planted_units() -> tuple[list[KernelUnit], dict[str, list[str]]]:
    """Units in a shuffled order, and the planted groups by name."""
    # A chain: neighbours share 90 of 110 statements (Jaccard 0.81), the ends 80 of 120 (0.66).
    # LSH proposes a pair at Jaccard 0.81 with probability about 0.9; with these statements
    # (MinHash is deterministic) it proposes both links.
    line = statements(random.Random(0), 140)
    chain = {f"chain-{k}": kernel("chained", line[10 * k : 10 * k + 100]) for k in range(3)}
    rng = random.Random(14)
    base = statements(rng, 100)
    cluster = {"near-0": kernel("near", base)}
    for k in range(1, 4):
        edited = list(base)
        for at in rng.sample(range(100), 2):
            edited[at] = f"    w{k} = {at};"
        cluster[f"near-{k}"] = kernel("near", edited)
    cluster["near-copy"] = "// the same kernel, another header\n" + cluster["near-0"]
    others = {f"other-{k}": kernel(f"other{k}", statements(rng, 60)) for k in range(24)}
    codes = {**chain, **cluster, **others, "leaky": elementwise_kernel()}
    order = sorted(codes)
    rng.shuffle(order)
    units = [unit(uid, codes[uid], license_name=rng.choice(["Apache-2.0", "unknown"])) for uid in order]
    return units, {"chain": sorted(chain), "cluster": sorted(cluster)}


def workspace(path: Path, units: list[KernelUnit]) -> Workspace:
    write_records(path / "units.parquet", KernelUnit, units)
    write_records(path / "benchmark.parquet", BenchmarkItem, [item("b1", [elementwise_kernel()])])
    return Workspace(path)


def test_ray_dedup_equals_local_row_for_row(ray_runtime, tmp_path: Path) -> None:
    units, groups = planted_units()
    cfg = DedupConfig()
    runs = {}
    for engine in ("local", "ray"):
        ws = workspace(tmp_path / engine, units)
        summary = run_dedup_stage(ws, cfg, engine=engine, shard_rows=4)  # 8 shards
        report = json.loads(ws.leakage_reports()[0].read_text())
        runs[engine] = (read_records(ws.decisions, Decision), summary.counts, report)
    local, on_ray = runs["local"], runs["ray"]
    assert local[0] == on_ray[0] and local[1] == on_ray[1] and local[2] == on_ray[2]

    decisions = {d.unit_id: d for d in local[0]}
    assert decisions["leaky"].decision == "leak"
    for name in ("chain", "cluster"):
        members = groups[name]
        assert len({decisions[m].cluster_id for m in members}) == 1, name
        assert sum(decisions[m].decision == "keep" for m in members) == 1, name
    assert len({d.cluster_id for d in local[0] if d.decision != "leak"}) == 24 + 2
    # A chain, not a clique: its ends are below the threshold, joined through the middle.
    codes = {u.unit_id: u.code for u in units}
    sets = build_shingle_sets([codes[m] for m in groups["chain"]])
    assert jaccard(sets.doc(0), sets.doc(2)) < cfg.threshold <= jaccard(sets.doc(0), sets.doc(1))
    assert jaccard(sets.doc(1), sets.doc(2)) >= cfg.threshold


def test_cli_dedup_on_ray(
    ray_runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    units, _ = planted_units()
    local = workspace(tmp_path / "local", units)
    shutil.copytree(local.root, tmp_path / "ray")
    for engine in ("local", "ray"):
        code, out, _ = run_cli(
            monkeypatch, capsys, "dedup", "-w", tmp_path / engine, "--engine", engine, "--json"
        )
        assert code == 0, out
    assert read_records(local.decisions, Decision) == read_records(
        Workspace(tmp_path / "ray").decisions, Decision
    )
    code, _, err = run_cli(monkeypatch, capsys, "dedup", "-w", tmp_path / "ray", "--engine", "spark")
    assert code == 2 and "--engine 'spark' is not an engine" in err
