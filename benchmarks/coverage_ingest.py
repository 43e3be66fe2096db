"""Share of operator directories of a repository that ingest turns into a usable unit.

    python benchmarks/coverage_ingest.py REPO_DIR WORKSPACE

An operator directory counts when one of its `op_kernel/*.cpp` files defines a
`__global__ __aicore__` entry (tests/ folders excluded); it is covered when WORKSPACE/units.parquet
has a unit whose path lies in that directory with non-empty op_name, kernel_name, category,
code and apis. Run `curate ingest REPO_DIR -w WORKSPACE` first. Not a test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polars as pl

_ENTRY_DEFINITION = re.compile(r"(__global__\s+__aicore__|__aicore__\s+__global__)[^;{]*\{")


def operator_dirs(repo: Path) -> set[str]:
    dirs = set()
    for path in repo.rglob("op_kernel/*.cpp"):
        rel = path.relative_to(repo)
        if "tests" in rel.parts:
            continue
        if _ENTRY_DEFINITION.search(path.read_text(encoding="utf-8", errors="replace")):
            dirs.add(rel.parent.as_posix())
    return dirs


def main() -> None:
    repo, workspace = Path(sys.argv[1]), Path(sys.argv[2])
    units = pl.read_parquet(workspace / "units.parquet")
    usable = units.filter(
        (pl.col("op_name") != "")
        & (pl.col("kernel_name") != "")
        & (pl.col("category") != "")
        & (pl.col("code") != "")
        & (pl.col("apis").list.len() > 0)
    )
    paths = usable["path"].to_list()
    dirs = operator_dirs(repo)
    missed = sorted(d for d in dirs if not any(p.startswith(d + "/") for p in paths))
    covered = len(dirs) - len(missed)
    print(f"{covered}/{len(dirs)} operator directories covered ({100 * covered / len(dirs):.1f}%)")
    for d in missed:
        print(f"  missed: {d}")


if __name__ == "__main__":
    main()
