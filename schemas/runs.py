"""Typed run records: what each stage did, as the workspace writes them to `meta.json`.

Every record has the same two things a reader needs first: `config` (the stage's typed
configuration as it ran, never a secret) and its counts or outcome in named fields. Build and the
dataset card read the records back typed (`run_from_json`), so they never guess at shapes.
Records written by older versions of curate (flat fields, `parameters=`, verifiers as one
comma-joined string) are read into the same classes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(slots=True)
class StageRun:
    stage: ClassVar[str] = ""
    at: str = ""  # ISO time, set by the workspace when it records the run
    config: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, **dataclasses.asdict(self)}


@dataclass(slots=True)
class IngestRun(StageRun):
    stage: ClassVar[str] = "ingest"
    source: str = ""
    benchmark: bool = False
    kind: str = "corpus"  # corpus, or the benchmark layout (tasks, pytorch, table, ...)
    files_seen: int = 0
    rows: int = 0
    partial: int = 0
    skipped: int = 0
    documented: int = 0  # units with operator documentation (parsers/docs.py)
    parsed: int = 0  # entry files parsed by libclang in this run
    reused: int = 0  # entry files whose stored parse still held (parsers/cache.py)


@dataclass(slots=True)
class DedupRun(StageRun):
    stage: ClassVar[str] = "dedup"
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    benchmarks: list[str] = field(default_factory=list)  # compared against; [] = no leakage check


@dataclass(slots=True)
class AnnotateRun(StageRun):
    stage: ClassVar[str] = "annotate"
    completed: bool = False
    summary: dict[str, Any] | None = None
    verifiers: list[str] = field(default_factory=list)


@dataclass(slots=True)
class VerifyRun(StageRun):
    stage: ClassVar[str] = "verify"
    summary: dict[str, Any] = field(default_factory=dict)
    verifiers: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0


@dataclass(slots=True)
class BuildRun(StageRun):
    stage: ClassVar[str] = "build"
    rows: int = 0
    preference_pairs: int = 0
    rows_per_split: dict[str, int] = field(default_factory=dict)
    selection: str = ""  # the subset flags of a build of part of the workspace (empty: all units)


@dataclass(slots=True)
class PushRun(StageRun):
    stage: ClassVar[str] = "push"
    repo_id: str = ""
    revision: str = ""
    private: bool = False
    to_dir: str = ""
    commit_url: str = ""
    configs: dict[str, Any] = field(default_factory=dict)
    licenses: dict[str, int] = field(default_factory=dict)
    files: int = 0


@dataclass(slots=True)
class IngestDocsRun(StageRun):
    stage: ClassVar[str] = "ingest-docs"
    source: str = ""
    pages: int = 0
    chunks: int = 0
    skipped: int = 0


@dataclass(slots=True)
class KnowledgeRun(StageRun):
    stage: ClassVar[str] = "knowledge"
    chunks: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # verdict -> questions


RUN_TYPES: dict[str, type[StageRun]] = {
    cls.stage: cls
    for cls in (IngestRun, DedupRun, AnnotateRun, VerifyRun, BuildRun, PushRun, IngestDocsRun, KnowledgeRun)
}


def _names(value: Any) -> list[str]:
    """Verifier names from a list (of names or of {"name": ...}) or one comma-joined string."""
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else []
    names = [str(v.get("name", "")) if isinstance(v, dict) else str(v).strip() for v in items]
    return [n for n in names if n]


def run_from_json(data: dict[str, Any]) -> StageRun | None:
    """The typed record of one `meta.json` run entry (None for a stage this version does not know)."""
    cls = RUN_TYPES.get(str(data.get("stage", "")))
    if cls is None:
        return None
    known = {f.name for f in dataclasses.fields(cls)}
    values = {k: v for k, v in data.items() if k in known}
    if not isinstance(values.get("config"), dict):
        # Older records: `parameters=` (dedup) or the config fields flat beside the counts (build).
        legacy = data.get("parameters")
        values["config"] = (
            dict(legacy)
            if isinstance(legacy, dict)
            else {k: v for k, v in data.items() if k not in known and k != "stage"}
        )
    if "verifiers" in known:
        values["verifiers"] = _names(data.get("verifiers", data.get("checks")))
    return cls(**values)
