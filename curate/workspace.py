"""The workspace: a directory of tables guarded by a lock, with a meta.json of stage runs.

Tables are replaced whole (write to a temporary file, then rename), so a crash or a second
process never leaves a half-written table behind. Only one `curate` process writes a workspace
at a time: the others wait for the lock up to a timeout and then refuse with a clear message.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from curate import __version__
from curate.errors import UserError
from curate.stage import WRITING, TableRows
from schemas import SCHEMA_VERSION
from schemas.atomic import write_text_atomic
from schemas.nesting import loads_json
from schemas.runs import StageRun, run_from_json

# schemas.tables (pyarrow) is imported where a table is read or written, not with this module:
# the commands import the workspace for their options, and `curate X --help` must not pay for it.

DEFAULT_WORKSPACE = Path("curate-workspace")


@dataclass(frozen=True)
class Workspace:
    root: Path
    # The ingest's store of parsed entry files (parsers/cache.py); a plain attribute, read
    # inside a stage's run without a call back into the workspace.
    parse_cache: Path = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parse_cache", self.root / "cache" / "parse.sqlite")

    @property
    def units(self) -> Path:
        return self.root / "units.parquet"

    @property
    def benchmark(self) -> Path:
        return self.root / "benchmark.parquet"

    @property
    def decisions(self) -> Path:
        return self.root / "decisions.parquet"

    @property
    def journal(self) -> Path:
        return self.root / "annotate.sqlite"

    @property
    def annotations(self) -> Path:
        return self.root / "annotations.parquet"

    @property
    def attempts(self) -> Path:
        return self.root / "attempts.parquet"

    @property
    def docs(self) -> Path:
        """Documentation section chunks, written by `curate ingest-docs`."""
        return self.root / "docs.parquet"

    @property
    def knowledge(self) -> Path:
        """Questions, reasoning and answers about the chunks (`curate annotate --task knowledge`)."""
        return self.root / "knowledge.parquet"

    @property
    def dataset(self) -> Path:
        """The published rows, written by `curate build`."""
        return self.root / "dataset.parquet"

    @property
    def preference(self) -> Path:
        return self.root / "preference.parquet"

    @property
    def build_report(self) -> Path:
        return self.reports / "build.json"

    def leakage_reports(self) -> tuple[Path, Path]:
        """reports/leakage.json and reports/leakage.md."""
        return leakage_reports(self.reports)

    def ingest_report(self, source: str) -> Path:
        return self.reports / f"ingest-{source}.json"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def cache(self) -> Path:
        """Clones of git sources live here."""
        return self.root / "cache"

    @property
    def meta_path(self) -> Path:
        return self.root / "meta.json"

    def table(self, name: str) -> Path:
        """A table by the name stage declarations use (units, benchmark, decisions, ...)."""
        path: Path = getattr(self, name)
        return path

    def require(self, name: str) -> Path:
        """The table, or a UserError naming the command that writes it."""
        path = self.table(name)
        if not path.exists():
            from curate.stages.catalog import producer  # the declarations import this module

            raise UserError(f"{path} does not exist: run `curate {producer(name)}` on this workspace first")
        return path

    def require_tables(self, names: tuple[str, ...]) -> None:
        for name in names:
            self.require(name)

    def require_inputs(self, stage: str) -> None:
        """Check that every table the stage named `stage` declares in `reads` exists."""
        from curate.stages.catalog import declared

        self.require_tables(declared(stage).reads)

    def write_table(self, name: str, cls: type[Any], rows: list[Any]) -> Path:
        """Replace a table atomically; only a table the running stage declares in `writes` (a
        stage writing another is a bug in that stage, not a user error)."""
        declared = WRITING.get()
        if declared is not None and name not in declared:
            raise RuntimeError(f"a stage wrote {name!r}, which its declaration does not name ({declared})")
        from schemas.tables import write_records

        path: Path = getattr(self, name)
        write_records(path, cls, rows)
        return path

    def replace_rows(self, name: str, cls: type[Any], key: str, value: str, rows: list[Any]) -> Path:
        """Replace the rows whose `key` is `value` (one source's rows) and keep the others, sorted
        by (key, path, kernel name): re-ingesting a source is idempotent."""
        from schemas.tables import read_records

        path: Path = getattr(self, name)
        others = path.exists() and not _only_rows_of(path, cls, key, value)
        kept = [r for r in read_records(path, cls) if getattr(r, key) != value] if others else []
        merged = kept + rows
        merged.sort(key=lambda r: (getattr(r, key), r.path, getattr(r, "kernel_name", "")))
        return self.write_table(name, cls, merged)

    def write_outputs(self, tables: list[TableRows], reports: dict[str, Any]) -> dict[str, Path]:
        """Write what a stage's run handed back (`curate.stage.Outputs`): each table atomically
        (one source's rows replaced when the rows name a key), each report as JSON under
        reports/. Returns where each went, by table name and report file name."""
        written: dict[str, Path] = {}
        for t in tables:
            if t.key is not None and t.value is not None:
                written[t.table] = self.replace_rows(t.table, t.cls, t.key, t.value, t.rows)
            else:
                written[t.table] = self.write_table(t.table, t.cls, t.rows)
        for name, report in reports.items():
            written[name] = self.reports / name
            write_text_atomic(written[name], json.dumps(report, indent=2) + "\n")
        return written

    def write_ingest_report(self, source: str, report: dict[str, Any]) -> Path:
        path = self.ingest_report(source)
        write_text_atomic(path, json.dumps(report, indent=2) + "\n")
        return path

    def create(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise UserError(f"workspace {self.root} is a file: pass a directory with --workspace")
        self.root.mkdir(parents=True, exist_ok=True)

    @contextlib.contextmanager
    def locked(self, wait_s: float | None = None) -> Iterator[None]:
        """Hold the workspace lock; wait up to `wait_s` (default 30 s, or CURATE_LOCK_TIMEOUT)
        for another process to release it."""
        if wait_s is None:
            wait_s = float(os.environ.get("CURATE_LOCK_TIMEOUT", "30"))
        self.create()
        lock_path = self.root / ".lock"
        with open(lock_path, "a+") as handle:
            deadline = time.monotonic() + wait_s
            while True:
                try:
                    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise UserError(
                            f"workspace {self.root} is locked by another curate process; "
                            "wait for it to finish or use another --workspace"
                        ) from None
                    time.sleep(0.2)
            try:
                handle.seek(0)
                handle.truncate()
                handle.write(str(os.getpid()))
                handle.flush()
                self.meta()  # a broken meta.json stops the stage before it writes anything
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def meta(self) -> dict[str, Any]:
        if not self.meta_path.exists():
            return {"schema_version": SCHEMA_VERSION, "tool_version": __version__, "runs": []}
        try:
            data: dict[str, Any] = loads_json(self.meta_path.read_text())  # too deep: a ValueError too
        except (OSError, ValueError) as exc:
            raise UserError(
                f"{self.meta_path} is unreadable ({exc}); remove it or use a new workspace"
            ) from None
        version, runs = (
            (data.get("schema_version", SCHEMA_VERSION), data.get("runs", []))
            if isinstance(data, dict)
            else (None, None)
        )
        if not isinstance(version, int) or not isinstance(runs, list):
            raise UserError(
                f"{self.meta_path} is not a curate meta.json (an object with an integer schema_version "
                "and a list of runs); remove it or use a new workspace"
            )
        if data.get("schema_version", SCHEMA_VERSION) > SCHEMA_VERSION:
            raise UserError(
                f"workspace {self.root} was written by a newer curate (schema "
                f"{data['schema_version']} > {SCHEMA_VERSION}); upgrade curate"
            )
        return data

    def record_run(self, run: StageRun) -> None:
        """Append a stage run to meta.json (atomically); a run record holds no secret."""
        data = self.meta()
        data["schema_version"] = SCHEMA_VERSION
        data["tool_version"] = __version__
        run.at = datetime.now(UTC).isoformat(timespec="seconds")
        data.setdefault("runs", []).append(run.to_json())
        write_text_atomic(self.meta_path, json.dumps(data, indent=2, sort_keys=True) + "\n")

    def runs(self) -> list[StageRun]:
        """The recorded runs, typed, oldest first (stages this version does not know are left out)."""
        return [run for entry in self.meta().get("runs", []) if (run := run_from_json(entry)) is not None]


def _only_rows_of(path: Path, cls: type, key: str, value: str) -> bool:
    """Whether every row of the table at `path` has `key` equal to `value` (a re-ingest of the
    one source a workspace holds: none of its rows is kept), read from that column alone, for
    a table of `cls`'s schema. Reading every row back as a record first was a third of a
    whole-process re-ingest with one file edited (ops-cv: 0.66 s of 1.8 s). Any doubt (another
    schema, an unreadable file) is a no: the rows are then read, and checked, as before."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from schemas.arrow import arrow_schema

    try:
        if not pq.read_schema(path).equals(arrow_schema(cls)):
            return False
        column = pq.read_table(path, columns=[key]).column(key)
    except (OSError, KeyError, TypeError, ValueError, pa.ArrowException):
        return False
    return column.null_count == 0 and all(v == value for v in column.unique().to_pylist())


def leakage_reports(directory: Path) -> tuple[Path, Path]:
    """Where a dedup or audit writes its leakage report (JSON for machines, markdown for people)."""
    return directory / "leakage.json", directory / "leakage.md"
