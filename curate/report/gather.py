"""Read a workspace into `ReportData`: plain counts, samples and a few views, nothing drawn yet.

Every section reads only the tables its stage wrote and says so when the stage has not run, so
the page never claims a check that did not happen (no benchmark: no leakage check). Lists that
grow with the corpus (leaks, rejections) are sampled with their totals kept beside them: the page
stays a few MB on 20,000 units.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from curate.leakcheck import LeakCheck, last_leak_check
from curate.report.leaks import LeakView, leak_views, read_leakage
from curate.workspace import Workspace
from schemas import DEFAULT_MAX_UNIT_LINES
from schemas.runs import AnnotateRun, BuildRun, PushRun, StageRun, VerifyRun

COMPOSITION = ("source", "category", "level", "layout", "core_type", "license")
TOP_LABELS = 14  # bars per composition chart; the rest are summed as "other"


@dataclass(slots=True)
class Removed:
    """Units (or files) a step let go, with why."""

    reason: str
    count: int
    example: str = ""


@dataclass(slots=True)
class FunnelStep:
    name: str
    remaining: int | None  # None: the step did not run
    removed: list[Removed] = field(default_factory=list)
    note: str = ""


@dataclass(slots=True)
class CheckRejections:
    """One verifier check: units whose final answer it rejected, rejected attempts, an example."""

    check: str
    units: int
    attempts: int
    example_unit: str = ""
    example: str = ""


@dataclass(slots=True)
class Teacher:
    models: list[str] = field(default_factory=list)
    responses: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cost: float | None = None


@dataclass(slots=True)
class Verification:
    verdicts: dict[str, int] = field(default_factory=dict)
    checks: list[CheckRejections] = field(default_factory=list)
    rounds: list[tuple[str, int, int]] = field(default_factory=list)  # (verdict, rounds, units)
    by_category: list[tuple[str, str, int]] = field(default_factory=list)  # (category, verdict, units)
    failures: list[Removed] = field(default_factory=list)  # teacher failures by reason
    teacher: Teacher = field(default_factory=Teacher)
    verifiers: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ReportData:
    workspace: str
    generated_at: str
    units: int = 0
    benchmark_items: int = 0
    benchmarks: list[str] = field(default_factory=list)
    composition: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    sizes: list[int] = field(default_factory=list)  # assembled lines of every unit
    max_unit_lines: int = DEFAULT_MAX_UNIT_LINES
    funnel: list[FunnelStep] = field(default_factory=list)
    decisions: list[tuple[str, str, int]] = field(default_factory=list)  # (decision, method, units)
    leak_total: int = 0
    leak_rows: list[dict[str, Any]] = field(default_factory=list)  # the sortable table (a sample)
    leak_views: list[LeakView] = field(default_factory=list)
    name_matches: list[dict[str, Any]] = field(default_factory=list)
    name_match_total: int = 0
    leak_check: LeakCheck | None = None  # what the last dedup compared (None: dedup has not run)
    verification: Verification | None = None
    notes: list[str] = field(default_factory=list)


def _counts(frame: pl.DataFrame, column: str) -> list[tuple[str, int]]:
    counted = frame.group_by(column).len().sort(["len", column], descending=[True, False])
    rows = [(str(k), int(n)) for k, n in counted.iter_rows()]
    if column == "level":
        rows.sort(key=lambda r: r[0])  # levels read in order, not by count
    if len(rows) > TOP_LABELS:
        rest = rows[TOP_LABELS - 1 :]
        rows = [*rows[: TOP_LABELS - 1], (f"other ({len(rest)})", sum(n for _, n in rest))]
    return rows


def _runs(ws: Workspace) -> list[StageRun]:
    try:
        return ws.runs()
    except Exception:  # an unreadable meta.json costs the run-derived figures, not the page
        return []


def _max_unit_lines(runs: list[StageRun]) -> int:
    for run in reversed(runs):
        if isinstance(run, AnnotateRun | BuildRun) and "max_unit_lines" in run.config:
            return int(run.config["max_unit_lines"])
    return DEFAULT_MAX_UNIT_LINES


def _unit_table(ws: Workspace) -> pl.DataFrame:
    names = set(pq.read_schema(ws.units).names)
    wanted = ["unit_id", *COMPOSITION, "lines"]
    frame = pl.read_parquet(ws.units, columns=[c for c in wanted if c in names])
    if "lines" not in frame.columns:
        frame = frame.with_columns(pl.lit(0).alias("lines"))
    return frame


def _ingest_skips(ws: Workspace) -> tuple[list[Removed], int, int]:
    """Skipped files of the corpus ingests by reason, with files seen and partial parses."""
    reasons: Counter[str] = Counter()
    examples: dict[str, str] = {}
    seen = partial = 0
    for path in sorted(ws.reports.glob("ingest-*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if data.get("kind", "corpus") != "corpus":
            continue
        seen += int(data.get("files_seen", 0))
        partial += int(data.get("partial", 0))
        for skip in data.get("skipped", []):
            reason = str(skip.get("reason", "")).split(" (")[0] or "unknown"
            reasons[reason] += 1
            examples.setdefault(reason, f"{data.get('source', '')}: {skip.get('path', '')}")
    removed = [Removed(f"file skipped: {r}", n, examples[r]) for r, n in reasons.most_common()]
    return removed, seen, partial


def _decisions(ws: Workspace) -> pl.DataFrame | None:
    if not ws.decisions.exists():
        return None
    names = set(pq.read_schema(ws.decisions).names)
    cols = [c for c in ("unit_id", "decision", "method", "match_path", "match_source") if c in names]
    frame = pl.read_parquet(ws.decisions, columns=cols)
    if "method" not in frame.columns:
        frame = frame.with_columns(pl.lit("").alias("method"))
    return frame


def _dedup_removed(decisions: pl.DataFrame) -> list[Removed]:
    removed = decisions.filter(pl.col("decision") != "keep")
    grouped = removed.group_by("decision", "method").len().sort("len", descending=True)
    out: list[Removed] = []
    for decision, method, n in grouped.iter_rows():
        what = "benchmark leak" if decision == "leak" else str(decision)  # methods read as written
        label = f"{what} ({method})" if method else what
        example = removed.filter((pl.col("decision") == decision) & (pl.col("method") == method))
        match = example["match_path"][0] if "match_path" in example.columns and example.height else ""
        out.append(Removed(label, int(n), f"matches {match}" if match else ""))
    return out


def gather(ws: Workspace, max_leak_rows: int = 500, max_leak_views: int = 40) -> ReportData:
    data = ReportData(str(ws.root), datetime.now(UTC).isoformat(timespec="seconds"))
    runs = _runs(ws)
    data.max_unit_lines = _max_unit_lines(runs)
    data.leak_check = last_leak_check(runs)
    if ws.benchmark.exists():
        bench = pl.read_parquet(ws.benchmark, columns=["benchmark"])
        data.benchmark_items = bench.height
        data.benchmarks = sorted(set(bench["benchmark"].to_list()))
    if not ws.units.exists():
        data.notes.append("no corpus ingested: run `curate ingest SOURCE` for composition and funnel")
        return data
    units = _unit_table(ws)
    data.units = units.height
    data.composition = {c: _counts(units, c) for c in COMPOSITION if c in units.columns}
    data.sizes = [int(v) for v in units["lines"].to_list()]
    decisions = _decisions(ws)
    if decisions is not None:
        data.decisions = [
            (str(d), str(m), int(n))
            for d, m, n in decisions.group_by("decision", "method")
            .len()
            .sort("len", descending=True)
            .iter_rows()
        ]
    data.funnel = _funnel(ws, units, decisions, runs, data)
    check = data.leak_check
    if check is not None and check.ran and (leakage := read_leakage(ws)) is not None:
        data.leak_total = len(leakage.get("leaks", []))
        data.leak_rows, data.leak_views = leak_views(ws, leakage, max_leak_rows, max_leak_views)
        names = leakage.get("name_matches", [])
        data.name_match_total = len(names)
        data.name_matches = names[:max_leak_rows]
    elif check is not None and not check.ran:
        data.notes.append(
            "benchmark ingested after the last dedup: no leakage check ran yet (`curate dedup`)"
            if data.benchmark_items
            else "no benchmark ingested: no leakage check ran (ingest one with `curate ingest BENCH --benchmark`, "
            "then `curate dedup`)"
        )
    if ws.annotations.exists():
        data.verification = _verification(ws, units, runs)
    else:
        data.notes.append("not annotated yet: no verification figures (`curate annotate`)")
    return data


def _funnel(
    ws: Workspace,
    units: pl.DataFrame,
    decisions: pl.DataFrame | None,
    runs: list[StageRun],
    data: ReportData,
) -> list[FunnelStep]:
    skips, seen, partial = _ingest_skips(ws)
    steps = [
        FunnelStep(
            "ingested",
            units.height,
            skips,
            f"{seen} files seen, {partial} partial parses (kept)" if seen else "",
        )
    ]
    if decisions is None:
        steps.append(FunnelStep("kept by dedup", None, note="dedup has not run"))
        return steps
    decided = set(decisions["unit_id"].to_list())
    undecided = units.filter(~pl.col("unit_id").is_in(list(decided))).height
    removed = _dedup_removed(decisions)
    if undecided:
        removed.append(Removed("no dedup decision (ingested after the last dedup)", undecided))
    kept_ids = set(decisions.filter(pl.col("decision") == "keep")["unit_id"].to_list())
    kept = units.filter(pl.col("unit_id").is_in(list(kept_ids)))
    check = data.leak_check
    note = (
        f"compared with {check.named()}"
        if check is not None and check.ran
        else "no benchmark compared: duplicates only, no leakage check"
    )
    steps.append(FunnelStep("kept by dedup", kept.height, removed, note))
    limit = data.max_unit_lines
    fits = kept.filter(pl.col("lines") <= limit) if limit else kept
    over = [Removed(f"over max_unit_lines={limit}", kept.height - fits.height)] if limit else []
    steps.append(FunnelStep("within the size limit", fits.height, [r for r in over if r.count]))
    if not ws.annotations.exists():
        steps.append(FunnelStep("judged by the verifier", None, note="annotate has not run"))
        return steps
    ann = pl.read_parquet(ws.annotations, columns=["unit_id", "verdict"])
    eligible = set(fits["unit_id"].to_list())
    ann = ann.filter(pl.col("unit_id").is_in(list(eligible)))
    verdicts = dict(Counter(ann["verdict"].to_list()))
    judged = verdicts.get("accepted", 0) + verdicts.get("rejected", 0)
    failures = _failure_reasons(ws, set(ann.filter(pl.col("verdict") == "failed")["unit_id"].to_list()))
    removed = [Removed("not annotated yet", len(eligible) - ann.height), *failures]
    if verdicts.get("pending"):
        removed.append(Removed("pending (run stopped before a verdict)", verdicts["pending"]))
    steps.append(FunnelStep("judged by the verifier", judged, [r for r in removed if r.count]))
    rejected = verdicts.get("rejected", 0)
    accepted = verdicts.get("accepted", 0)
    steps.append(
        FunnelStep("accepted", accepted, [Removed("rejected by the verifier", rejected)] if rejected else [])
    )
    steps.append(_licence_step(ws, runs, accepted, ann, units))
    return steps


def _licence_step(
    ws: Workspace, runs: list[StageRun], accepted: int, ann: pl.DataFrame, units: pl.DataFrame
) -> FunnelStep:
    push = next((r for r in reversed(runs) if isinstance(r, PushRun)), None)
    ids = ann.filter(pl.col("verdict") == "accepted")["unit_id"].to_list()
    licences = Counter(units.filter(pl.col("unit_id").is_in(ids))["license"].to_list())
    listing = ", ".join(f"{n} {lic}" for lic, n in licences.most_common())
    if push is None:
        return FunnelStep("licence gate", None, note=f"push has not run; licences of the accepted: {listing}")
    allowed = {str(a) for a in push.config.get("allow_license", [])}
    from curate.publish.licenses import is_allowed

    blocked = {lic: n for lic, n in licences.items() if not is_allowed(lic, allowed)}
    removed = [Removed(f"licence not allowed: {lic}", n) for lic, n in blocked.items()]
    return FunnelStep(
        "licence gate",
        accepted - sum(blocked.values()),
        removed,
        f"allowed at the last push: {', '.join(sorted(allowed)) or 'permissive only'}",
    )


def _journal(ws: Workspace) -> sqlite3.Connection | None:
    if not ws.journal.exists():
        return None
    try:
        return sqlite3.connect(f"file:{ws.journal}?mode=ro", uri=True)
    except sqlite3.Error:
        return None


def _failure_reasons(ws: Workspace, failed: set[str]) -> list[Removed]:
    """Teacher failures by reason: the journal's latest failure outcome of each failed unit."""
    if not failed:
        return []
    reasons: dict[str, str] = {}
    examples: dict[str, str] = {}
    db = _journal(ws)
    if db is not None:
        try:
            rows = db.execute(
                "SELECT unit_id, reason, diagnostics FROM outcomes WHERE verdict='failed' ORDER BY created_at"
            ).fetchall()
        except sqlite3.Error:
            rows = []
        finally:
            db.close()
        for unit_id, reason, diags in rows:
            if unit_id in failed:
                reasons[unit_id] = reason or "unknown"
                examples.setdefault(reason or "unknown", _first_message(diags))
    counted = Counter(reasons.get(u, "unknown") for u in failed)
    return [Removed(f"teacher failed: {r}", n, examples.get(r, "")) for r, n in counted.most_common()]


def _first_message(diagnostics_json: str) -> str:
    try:
        found = json.loads(diagnostics_json)
    except (TypeError, json.JSONDecodeError):
        return ""
    return str(found[0].get("message", ""))[:300] if found else ""


def _verification(ws: Workspace, units: pl.DataFrame, runs: list[StageRun]) -> Verification:
    cols = ["unit_id", "verdict", "attempts", "diagnostics", "prompt_tokens", "completion_tokens"]
    ann = pl.read_parquet(ws.annotations, columns=cols)
    out = Verification(verdicts=dict(Counter(ann["verdict"].to_list())))
    out.rounds = [
        (str(v), int(r), int(n))
        for v, r, n in ann.group_by("verdict", "attempts").len().sort("verdict", "attempts").iter_rows()
    ]
    joined = ann.select("unit_id", "verdict").join(
        units.select("unit_id", "category"), on="unit_id", how="left"
    )
    out.by_category = [
        (str(c), str(v), int(n))
        for c, v, n in joined.group_by("category", "verdict").len().sort("category", "verdict").iter_rows()
    ]
    out.checks = _check_rejections(ws, ann)
    out.failures = _failure_reasons(ws, set(ann.filter(pl.col("verdict") == "failed")["unit_id"].to_list()))
    out.teacher = _teacher(ws, ann, runs)
    for run in reversed(runs):
        if isinstance(run, VerifyRun | AnnotateRun) and run.verifiers:
            out.verifiers = sorted(set(run.verifiers))
            break
    return out


def _check_rejections(ws: Workspace, ann: pl.DataFrame) -> list[CheckRejections]:
    """Per check: units whose final answer it rejected, and rejected attempts over every round."""
    by_check: dict[str, CheckRejections] = {}
    for unit_id, verdict, diagnostics in ann.select("unit_id", "verdict", "diagnostics").iter_rows():
        if verdict != "rejected":
            continue
        for check in {d["check"] for d in diagnostics or [] if d.get("severity") == "error"}:
            entry = by_check.setdefault(check, CheckRejections(check, 0, 0))
            entry.units += 1
            if not entry.example:
                first = next(d for d in diagnostics if d["check"] == check and d.get("severity") == "error")
                entry.example_unit, entry.example = unit_id, str(first.get("message", ""))[:400]
    if ws.attempts.exists():
        attempts = pl.read_parquet(ws.attempts, columns=["unit_id", "verdict", "diagnostics"])
        for unit_id, _, diagnostics in attempts.filter(pl.col("verdict") == "rejected").iter_rows():
            for check in {d["check"] for d in diagnostics or [] if d.get("severity") == "error"}:
                entry = by_check.setdefault(check, CheckRejections(check, 0, 0))
                entry.attempts += 1
                if not entry.example:
                    first = next(d for d in diagnostics if d["check"] == check)
                    entry.example_unit, entry.example = unit_id, str(first.get("message", ""))[:400]
    return sorted(by_check.values(), key=lambda c: (-c.units, -c.attempts, c.check))


def _teacher(ws: Workspace, ann: pl.DataFrame, runs: list[StageRun]) -> Teacher:
    """Tokens and latency of every teacher response in the journal (cached replies counted once);
    the cost from the annotate runs that were given prices."""
    teacher = Teacher()
    db = _journal(ws)
    if db is not None:
        try:
            row = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(prompt_tokens),0), COALESCE(SUM(completion_tokens),0),"
                " COALESCE(SUM(latency_s),0) FROM responses"
            ).fetchone()
            models = [m for (m,) in db.execute("SELECT DISTINCT model FROM responses ORDER BY model")]
            teacher = Teacher(models, int(row[0]), int(row[1]), int(row[2]), float(row[3]))
        except sqlite3.Error:
            pass
        finally:
            db.close()
    if not teacher.responses:
        teacher.prompt_tokens = int(ann["prompt_tokens"].sum() or 0)
        teacher.completion_tokens = int(ann["completion_tokens"].sum() or 0)
    costs = [
        float(run.summary["cost"])
        for run in runs
        if isinstance(run, AnnotateRun) and run.summary and run.summary.get("cost") is not None
    ]
    teacher.cost = round(sum(costs), 6) if costs else None
    return teacher
