"""Follow one ingest request through the code, as data: which project files it stays in, in
order, and how often it enters each (issue 28: "an ingest request enters each file once or
twice"). Python-level calls in this process are traced with `sys.setprofile`; a stay is a run of
consecutive calls in one file; calls into schemas/ (the records every layer builds), the standard
library and third-party packages are not stays of the request. The parser workers (jobs=2) run in
their own processes: what is traced is the request's own path, not each file's parse.

    python benchmarks/trace_ingest.py [SOURCE]   (default: examples/corpus)

A call made from a comprehension counts as a stay of its file (Python 3.11 runs a comprehension
as a function), so the request's path is written with that in mind where it matters.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from curate.stages.ingest import IngestRequest, run_ingest  # noqa: E402
from curate.workspace import Workspace  # noqa: E402
from parsers.config import IngestConfig  # noqa: E402

PACKAGES = ("curate", "parsers", "dedup", "annotate")


def _project_file(frame: FrameType) -> str | None:
    path = Path(frame.f_code.co_filename)
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    return rel.as_posix() if rel.parts[0] in PACKAGES else None


def trace(source: str) -> list[str]:
    stays: list[str] = []

    def profile(frame: FrameType, event: str, _: Any) -> None:
        if event != "call":
            return
        name = _project_file(frame)
        if name is not None and (not stays or stays[-1] != name):
            stays.append(name)

    config, request = IngestConfig(jobs=2), IngestRequest(source, "trace")  # built before the trace
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(Path(tmp) / "ws")
        sys.setprofile(profile)
        try:
            run_ingest(ws, request, config)
        finally:
            sys.setprofile(None)
    return stays


def main() -> None:
    source = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "examples" / "corpus")
    stays = trace(source)
    entries = Counter(stays)
    print(f"{len(stays)} stays in {len(entries)} files; entries per file:")
    for name, n in entries.most_common():
        print(f"  {n:>3}  {name}")
    print("path: " + " -> ".join(Path(s).stem for s in stays))


if __name__ == "__main__":
    main()
