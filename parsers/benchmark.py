"""Benchmarks as input: NPUKernelBench task layouts, loose kernel folders, PyTorch-only suites.

- `tasks/level<N>/<Category>/<Op>/answer/<k>/op_kernel/...`: one item per task; its answer
  kernels (assembled with their local headers) are the code a training set must not contain.
- A folder of AscendC kernels without that layout: one item per kernel entry. Its other code
  files (host programs, tests, helpers no kernel includes) are not answers; they are listed as
  left out, so that a reader sees what was not compared.
- A folder of PyTorch reference `.py` files (no AscendC): one item per file, name matching only.

`benchmark_layout` decides which, from the paths of the files that define a kernel entry;
`ingest_benchmark` loads a folder with it. `curate ingest --benchmark` and `curate audit` (a
folder as the test side) both go through these two, so they read a folder the same way.
`question/` (empty templates handed to the model) and `validation/` are never items.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from parsers.classify import category_from_apis, category_from_name, level_of
from parsers.config import IngestConfig
from parsers.files import Skip, read_source
from parsers.ingest import Progress, RepoScan, parse_entry_files, scan_repository
from parsers.licenses import LicenseFiles
from parsers.units import SourceInfo, normalise_op_name
from schemas import BenchmarkItem, KernelUnit, stable_id

_TASK_RE = re.compile(r"^(?P<task>(?:.*/)?(?P<name>[^/]+))/answer/(?P<k>[^/]+)/")
_LEVEL_RE = re.compile(r"(?:^|/)level[_-]?(\d+)(?:/|$)", re.IGNORECASE)
# From the import's own line start (`[^\S\n]`: spaces but not a line break): `^\s*` ran from every
# line start across all the blank lines after it (a file of 100 KB of line breaks: 30 s).
_TORCH_RE = re.compile(r"^[^\S\n]*(?:import torch|from torch\b)", re.MULTILINE)
_NOT_ANSWER_DIRS = frozenset({"question", "validation"})
_REFERENCE_FILES = ("validation/module.py", "reference.py", "model.py")
_DESCRIPTION_FILES = ("api_desc.md", "README.md", "task.md")


@dataclass
class BenchmarkResult:
    items: list[BenchmarkItem] = field(default_factory=list)
    files_seen: int = 0
    skipped: list[Skip] = field(default_factory=list)
    kind: str = ""  # task-layout | kernels | pytorch
    left_out: list[str] = field(default_factory=list)  # code files of a kernel folder no item holds


def is_answer_candidate(rel: str) -> bool:
    """False for files under a `question/` or `validation/` folder: never benchmark answers."""
    return not _NOT_ANSWER_DIRS.intersection(rel.split("/")[:-1])


def benchmark_layout(entry_files: Iterable[str]) -> str:
    """`task-layout` when an entry file sits in `<task>/answer/<k>/`, `kernels` when there are
    other entry files, "" when none (then a folder can still be a PyTorch suite). `entry_files`
    are paths relative to the benchmark root of the files that define a kernel entry."""
    files = [f for f in entry_files if is_answer_candidate(f)]
    if any(_TASK_RE.match(f) for f in files):
        return "task-layout"
    return "kernels" if files else ""


def _level(path: str) -> int:
    m = _LEVEL_RE.search(path)
    return int(m.group(1)) if m else 0


def _category_hint(task_dir: str) -> str:
    """In `.../level1/Elementwise/AddCustom` the folder above the task names its category."""
    parts = task_dir.split("/")
    return parts[-2] if len(parts) >= 2 else ""


def _read_first(root: Path, task_dir: str, names: tuple[str, ...]) -> str:
    for name in names:
        path = root / task_dir / name
        if path.is_file():
            try:
                return path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return ""


def _item_category(op_name: str, hint: str, units: list[KernelUnit]) -> str:
    apis = sorted({a for u in units for a in u.apis})
    return category_from_name(hint, op_name) or category_from_apis(apis)


def _task_items(root: Path, source: SourceInfo, units: list[KernelUnit]) -> list[BenchmarkItem]:
    by_task: dict[str, list[KernelUnit]] = defaultdict(list)
    prefix = source.path_prefix + "/" if source.path_prefix else ""
    for unit in units:
        rel = unit.path[len(prefix) :]
        m = _TASK_RE.match(rel)
        by_task[m.group("task") if m else posixpath.dirname(rel)].append(unit)
    items = []
    for task_dir, task_units in sorted(by_task.items()):
        task_units.sort(key=lambda u: (u.path, u.kernel_name))
        name = posixpath.basename(task_dir)
        op_name = normalise_op_name(name)
        hint = _category_hint(task_dir)
        category = _item_category(op_name, hint, task_units)
        level = _level(task_dir) or level_of(category, op_name)
        items.append(
            BenchmarkItem(
                item_id=stable_id(source.name, task_dir),
                benchmark=source.name,
                task_name=name,
                op_name=op_name,
                level=level,
                category=category,
                path=prefix + task_dir,
                answers=list(dict.fromkeys(u.code for u in task_units)),
                answer_paths=list(dict.fromkeys(u.path for u in task_units)),
                reference=_read_first(root, task_dir, _REFERENCE_FILES),
                description=_read_first(root, task_dir, _DESCRIPTION_FILES),
                license=task_units[0].license,
                origin_url=source.origin_url,
                commit=source.commit,
            )
        )
    return items


def _kernel_items(source: SourceInfo, units: list[KernelUnit]) -> list[BenchmarkItem]:
    return [
        BenchmarkItem(
            item_id=stable_id(source.name, u.path, u.kernel_name),
            benchmark=source.name,
            task_name=u.op_name,
            op_name=u.op_name,
            level=u.level,
            category=u.category,
            path=u.path,
            answers=[u.code],
            answer_paths=[u.path],
            license=u.license,
            origin_url=source.origin_url,
            commit=source.commit,
        )
        for u in units
    ]


def _not_assembled(scan: RepoScan, source: SourceInfo, units: list[KernelUnit]) -> list[str]:
    """The code files that no unit assembles: neither an entry file nor a header one includes."""
    prefix = source.path_prefix + "/" if source.path_prefix else ""
    covered = {path.removeprefix(prefix) for u in units for path in (u.path, *u.includes)}
    return [prefix + rel for rel in scan.files if rel not in covered and is_answer_candidate(rel)]


def _pytorch_items(root: Path, source: SourceInfo, config: IngestConfig, result: BenchmarkResult) -> None:
    licenses = LicenseFiles(root)
    prefix = source.path_prefix + "/" if source.path_prefix else ""
    for path in sorted(root.rglob("*.py")):
        if any(
            part.startswith(".") or part in config.exclude_dirs for part in path.relative_to(root).parts[:-1]
        ):
            continue
        rel = path.relative_to(root).as_posix()
        text = read_source(path, root, int(config.max_file_mb * 1e6))
        result.files_seen += 1
        if isinstance(text, Skip):
            result.skipped.append(text)
            continue
        if not _TORCH_RE.search(text) or path.name.startswith("__"):
            continue
        op_name = normalise_op_name(path.stem)
        hint = posixpath.basename(posixpath.dirname(rel))
        category = category_from_name(hint, op_name) or "other"
        result.items.append(
            BenchmarkItem(
                item_id=stable_id(source.name, rel),
                benchmark=source.name,
                task_name=path.stem,
                op_name=op_name,
                level=_level(rel),
                category=category,
                path=prefix + rel,
                reference=text,
                license=licenses.license_for(posixpath.dirname(rel)),
                origin_url=source.origin_url,
                commit=source.commit,
            )
        )


def ingest_benchmark(
    root: Path, source: SourceInfo, config: IngestConfig, progress: Progress | None = None
) -> BenchmarkResult:
    """The items of a benchmark folder, in the layout `benchmark_layout` finds."""
    scan = scan_repository(root, config)
    result = BenchmarkResult(files_seen=len(scan.files) + len(scan.skipped), skipped=list(scan.skipped))
    candidates = [c for c in scan.candidates if is_answer_candidate(c)]
    layout = benchmark_layout(candidates)
    if layout == "task-layout":  # in a task tree only answers are items
        candidates = [c for c in candidates if _TASK_RE.match(c)]
    outcomes = parse_entry_files(candidates, root, scan, source, config, progress)
    units = [u for _, out in outcomes if isinstance(out, list) for u in out]
    result.skipped += [out for _, out in outcomes if isinstance(out, Skip)]
    if units:
        result.kind = layout
        if layout == "task-layout":
            result.items = _task_items(root, source, units)
        else:
            result.items, result.left_out = _kernel_items(source, units), _not_assembled(scan, source, units)
        return result
    _pytorch_items(root, source, config, result)
    result.kind = "pytorch" if result.items else ""
    return result
