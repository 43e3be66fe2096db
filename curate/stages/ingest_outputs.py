"""What an ingest hands back to the stage contract: its summary (the line the command prints),
the rows to write, the report `reports/ingest-<source>.json` and the typed run for meta.json."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from curate.stage import Outputs, TableRows
from parsers.config import IngestConfig
from parsers.files import Skip
from parsers.ingest import IngestResult
from schemas import BenchmarkItem, KernelUnit
from schemas.runs import IngestRun


@dataclass
class IngestSummary:
    source: str
    table: Path | None = None  # where the rows went (set once the stage has written them)
    files_seen: int = 0
    rows: int = 0  # units, or benchmark items
    entry_files: int = 0
    partial: int = 0
    skipped: list[Skip] = field(default_factory=list)
    kind: str = "corpus"
    documented: int = 0  # units whose operator documentation was found (function or parameters read)
    left_out: int = 0  # code files of a kernel folder that no benchmark item holds
    parsed: int = 0  # entry files parsed by libclang in this run
    reused: int = 0  # entry files whose stored parse still held
    fingerprint: str = ""  # of the parse outcomes the rows come from (parsers.ingest.IngestResult)

    def report(self) -> dict[str, object]:
        return {
            "source": self.source,
            "kind": self.kind,
            "files_seen": self.files_seen,
            "rows": self.rows,
            "entry_files": self.entry_files,
            "partial": self.partial,
            "documented": self.documented,
            "left_out": self.left_out,
            "parsed": self.parsed,
            "reused": self.reused,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
        }

    def line(self) -> str:
        reasons = Counter(s.reason.split(" (")[0] for s in self.skipped)
        skipped = ", ".join(f"{n} {r}" for r, n in reasons.most_common())
        what = "units" if self.kind == "corpus" else f"benchmark items ({self.kind})"
        n, own = self.left_out, "its" if self.left_out == 1 else "their"
        left_out = f", {n} code file{'s' * (n != 1)} left out (no kernel of {own} own, included by none)"
        partial = (
            f", {self.partial} partial parses, {self.documented} with operator documentation"
            if self.kind == "corpus"
            else ""
        )
        reused = f" ({self.reused} unchanged, not parsed again)" if self.reused else ""
        return (
            f"ingest {self.source}: {self.files_seen} files seen, {self.rows} {what}"
            + (f" from {self.entry_files} entry files{reused}" if self.kind == "corpus" else "")
            + (left_out if n else "")
            + partial
            + f", {len(self.skipped)} skipped"
            + (f" ({skipped})" if skipped else "")
            + f" -> {self.table}"
        )

    def outputs(self, config: IngestConfig, rows: TableRows) -> Outputs[IngestSummary]:
        """The stage's outputs: the rows, this summary as the report, and the typed run."""
        run = IngestRun(
            config=dataclasses.asdict(config),
            source=self.source,
            benchmark=self.kind != "corpus",
            kind=self.kind,
            files_seen=self.files_seen,
            rows=self.rows,
            partial=self.partial,
            skipped=len(self.skipped),
            documented=self.documented,
            parsed=self.parsed,
            reused=self.reused,
        )
        return Outputs(self, [rows], {report_name(self.source): self.report()}, run)


def report_name(source: str) -> str:
    return f"ingest-{source}.json"


def corpus_outputs(name: str, result: IngestResult, config: IngestConfig) -> Outputs[IngestSummary]:
    """A corpus ingest: its units replace the source's rows of the units table."""
    documented = sum(u.doc is not None and bool(u.doc.function or u.doc.params) for u in result.units)
    summary = IngestSummary(
        name,
        files_seen=result.files_seen,
        rows=len(result.units),
        entry_files=result.entry_files,
        partial=result.partial,
        skipped=result.skipped,
        documented=documented,
        parsed=result.parsed,
        reused=result.reused,
    )
    return summary.outputs(config, TableRows("units", KernelUnit, result.units, "source", name))


def benchmark_outputs(
    summary: IngestSummary, items: list[BenchmarkItem], config: IngestConfig
) -> Outputs[IngestSummary]:
    """A benchmark ingest (a table or a tree): its items replace the benchmark's rows."""
    return summary.outputs(config, TableRows("benchmark", BenchmarkItem, items, "benchmark", summary.source))
