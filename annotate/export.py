"""Rebuild `annotations.parquet` and `attempts.parquet` from the journal.

Both tables are derived data: the journal is the record. They are rewritten whole (temporary file
and rename) at the end of every run and by `curate annotate --export-only`, so a reader never sees
a half-written table and a crashed run can be exported later.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from annotate.journal import Journal
from schemas import Annotation, Attempt, write_records


@dataclass
class ExportCounts:
    annotations: int
    attempts: int
    verdicts: dict[str, int]


def export_tables(journal_path: Path, annotations_path: Path, attempts_path: Path) -> ExportCounts:
    journal = Journal(journal_path)
    try:
        annotations = journal.annotations()
        attempts = journal.attempts()
    finally:
        journal.close()
    write_records(annotations_path, Annotation, annotations)
    write_records(attempts_path, Attempt, attempts)
    return ExportCounts(len(annotations), len(attempts), dict(Counter(a.verdict for a in annotations)))
