"""Operator documentation coverage of a repository (no libclang needed).

    python benchmarks/doc_coverage.py path/to/repo...

For every operator directory (the parent of an `op_kernel/`, else the directory of a file that
defines a `__global__` kernel): whether a document was found, and whether its function AND its
parameter table were extracted (`parsers.docs.extracted`). Prints one row per repository.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.docs import DocFinder, extracted
from parsers.files import list_files
from schemas.ascendc import operator_dir_of

_ENTRY = re.compile(r"\b__global__\b|\bCATLASS_GLOBAL\b")
_SKIP = {".git", "tests", "test", "build", "third_party", "cmake"}


def operator_entries(root: Path) -> dict[str, str]:
    """operator directory (or entry directory) -> one entry file in it."""
    found: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIP]
        for name in filenames:
            if not name.endswith((".cpp", ".asc", ".cc", ".cce")):
                continue
            path = Path(dirpath) / name
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if not _ENTRY.search(text) or ("answer/" in path.as_posix() and "/tests/ut/" in path.as_posix()):
                continue
            rel = path.relative_to(root).as_posix()
            key = operator_dir_of(rel)
            found.setdefault(key if key else os.path.dirname(rel), rel)
    return found


def coverage(root: Path) -> dict[str, object]:
    def read(rel: str) -> str | None:
        try:
            return (root / rel).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return None

    finder = DocFinder(lambda rel: list_files(root, rel), read)
    ops = operator_entries(root)
    with_doc = full = 0
    missing: list[str] = []
    for op_dir, entry in sorted(ops.items()):
        doc = finder.for_entry(entry, operator_dir_of(entry))
        if doc is None:
            continue
        with_doc += 1
        if extracted(doc):
            full += 1
        else:
            missing.append(f"{op_dir} (function={bool(doc.function)}, params={len(doc.params)}) {doc.path}")
    return {"operators": len(ops), "with_doc": with_doc, "extracted": full, "missing": missing}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("repos", nargs="+", type=Path)
    ap.add_argument("--show-missing", type=int, default=0)
    args = ap.parse_args()
    print("repository | operator dirs | with a doc | function+params extracted | share")
    for repo in args.repos:
        c = coverage(repo)
        share = c["extracted"] / c["with_doc"] if c["with_doc"] else 0.0  # type: ignore[operator]
        print(f"{repo.name} | {c['operators']} | {c['with_doc']} | {c['extracted']} | {share:.1%}")
        for line in c["missing"][: args.show_missing]:  # type: ignore[index]
            print("   ", line)


if __name__ == "__main__":
    main()
