"""What a SOURCE argument means, for ingest and audit alike.

A source is a local directory, a git URL (cloned into the workspace cache), a curate workspace
(units.parquet / benchmark.parquet), a directory of code files, a parquet or jsonl file, a local dataset directory, or a Hugging Face
dataset id with a code column. A directory of code files on the test side is read the way
`curate ingest --benchmark` reads it (`parsers.benchmark.ingest_benchmark`: a task tree gives one
item per task, a kernel folder one per kernel); code that holds no AscendC kernel, and any
directory on the training side, is read as raw text, one document per file. Table readers raise ValueError with one line that says what is
wrong and what to do; the commands turn it into a user error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from curate.errors import UserError
from curate.workspace import Workspace
from parsers.benchmark import ingest_benchmark
from parsers.config import IngestConfig
from parsers.units import SourceInfo
from schemas import BenchmarkItem, KernelUnit, code_size, read_records, stable_id

_GIT_URL_RE = re.compile(r"^(?:https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:", re.IGNORECASE)
CLONE_TIMEOUT_S = 900


def looks_like_git_url(source: str) -> bool:
    return bool(_GIT_URL_RE.match(source)) or (source.endswith(".git") and not Path(source).exists())


def default_name(source: str) -> str:
    base = source.rstrip("/").split("/")[-1].split(":")[-1]
    base = base[: -len(".git")] if base.endswith(".git") else base
    return re.sub(r"[^\w.-]+", "-", base) or "source"


def clone(url: str, cache: Path, name: str) -> Path:
    """Shallow-clone `url` into `cache/name` (replacing an earlier clone only on success)."""
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / name
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=cache))
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(
            ["git", "clone", "--quiet", "--depth", "1", url, str(tmp / "repo")],
            capture_output=True,
            text=True,
            timeout=CLONE_TIMEOUT_S,
            env=env,
            check=False,
        )
    except FileNotFoundError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError("git is not installed; install git or pass a local directory") from None
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(
            f"cloning {url} took more than {CLONE_TIMEOUT_S} s; clone it yourself and pass the directory"
        ) from None
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        reason = (done.stderr.strip().splitlines() or ["git clone failed"])[-1]
        raise UserError(f"could not clone {url}: {reason}")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp / "repo", target)
    shutil.rmtree(tmp, ignore_errors=True)
    return target


def local_directory(source: str) -> Path:
    """`source` as an existing, non-empty directory, or a UserError saying what is wrong."""
    path = Path(source).expanduser()
    if not path.exists():
        raise UserError(f"{source} does not exist; pass a repository directory or a git URL")
    if not path.is_dir():
        raise UserError(
            f"{source} is a file, not a directory; pass the repository directory that contains it"
        )
    try:
        next(path.iterdir())
    except StopIteration:
        raise UserError(f"{source} is empty; pass a directory that holds AscendC sources") from None
    except PermissionError:
        raise UserError(f"{source} cannot be read (permission denied)") from None
    return path


# -- Tables, workspaces and plain code directories ------------------------------------------

CODE_EXTENSIONS = (".cpp", ".h", ".hpp", ".asc", ".cc")
DATA_EXTENSIONS = (".parquet", ".jsonl", ".ndjson", ".json", ".csv", ".arrow")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.\-]*(/[\w.\-]+)?$")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(
                    f"{path}:{number}: not valid JSON ({exc.msg}); expected one object per line"
                ) from None
            if not isinstance(row, dict):
                raise ValueError(
                    f"{path}:{number}: expected a JSON object per line, got {type(row).__name__}"
                )
            rows.append(row)
    return rows


def _read_dataset(source: str) -> list[dict[str, Any]]:
    """Rows of a Hugging Face dataset (hub id or local directory), every split in name order."""
    import datasets

    try:
        local = Path(source)
        if (local / "dataset_dict.json").exists() or (local / "state.json").exists():
            loaded = datasets.load_from_disk(source)
        else:
            loaded = datasets.load_dataset(source)
    except Exception as exc:  # datasets raises many types; all mean "cannot read this source"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"cannot load dataset {source!r}: {first}; check the id or path") from None
    splits = loaded if isinstance(loaded, datasets.DatasetDict) else {"": loaded}
    rows = []
    for split in sorted(splits):
        for index, row in enumerate(splits[split]):
            row = dict(row)
            row.setdefault("__row__", f"{split}/{index}" if split else str(index))
            rows.append(row)
    return rows


def read_rows(source: str) -> list[dict[str, Any]]:
    """Rows of a table source: parquet, jsonl, a local dataset directory or a hub dataset id."""
    path = Path(source)
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix == ".parquet":
            import pyarrow.parquet as pq

            try:
                return list(pq.read_table(path).to_pylist())
            except Exception as exc:
                raise ValueError(f"{path}: not a readable parquet file ({exc})") from None
        if suffix in (".jsonl", ".ndjson", ".json"):
            return _read_jsonl(path)
        raise ValueError(f"{path}: unsupported file type {suffix or '(none)'}; give .parquet or .jsonl")
    if path.is_dir() or _HUB_ID.match(source):
        return _read_dataset(source)
    raise ValueError(f"{source}: no such file or directory, and not a Hugging Face dataset id")


def _column(rows: list[dict[str, Any]], column: str, source: str, option: str) -> None:
    if not rows:
        raise ValueError(f"{source}: has no rows; give a non-empty table")
    if column not in rows[0]:
        columns = ", ".join(sorted(k for k in rows[0] if not k.startswith("__")))
        raise ValueError(f"{source}: no column {column!r} (columns: {columns}); pass {option}")


def _row_ids(rows: list[dict[str, Any]], id_column: str | None, source: str) -> list[str]:
    if id_column is None:
        return [str(row.get("__row__", i)) for i, row in enumerate(rows)]
    _column(rows, id_column, source, "--id-column with an existing column")
    return [str(row[id_column]) for row in rows]


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        digits = re.findall(r"\d+", str(value or ""))
        return int(digits[0]) if digits else 0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def benchmark_from_table(
    source: str, *, name: str, code_column: str, id_column: str | None
) -> list[BenchmarkItem]:
    """Benchmark items from a table: rows sharing an id become one item with several answers."""
    rows = read_rows(source)
    _column(rows, code_column, source, "--code-column with the column that holds the kernel code")
    ids = _row_ids(rows, id_column, source)
    items: dict[str, BenchmarkItem] = {}
    for row, row_id in zip(rows, ids, strict=True):
        code = _text(row.get(code_column))
        item = items.get(row_id)
        if item is None:
            task = row_id if id_column else _text(row.get("task_name")) or row_id
            item = BenchmarkItem(
                item_id=stable_id(name, row_id),
                benchmark=name,
                task_name=task,
                op_name=_text(row.get("op_name")) or task,
                level=_int(row.get("level")),
                category=_text(row.get("category")) or "other",
                path=row_id,
                reference=_text(row.get("reference")),
                description=_text(row.get("description")),
            )
            items[row_id] = item
        if code.strip():
            item.answers.append(code)
            item.answer_paths.append(f"{row_id}#{len(item.answers)}" if len(item.answers) > 1 else row_id)
    result = list(items.values())
    if not any(item.answers for item in result):
        raise ValueError(
            f"{source}: column {code_column!r} is empty in every row; pass the column with the code"
        )
    return result


def units_from_table(source: str, *, name: str, code_column: str, id_column: str | None) -> list[KernelUnit]:
    """Corpus units from a table: one unit per row with code."""
    rows = read_rows(source)
    _column(rows, code_column, source, "--code-column with the column that holds the code")
    ids = _row_ids(rows, id_column, source)
    units = []
    seen: set[str] = set()
    for index, (row, row_id) in enumerate(zip(rows, ids, strict=True)):
        key = row_id if row_id not in seen else f"{row_id}#{index}"
        seen.add(key)
        units.append(_unit(name, key, _text(row.get(code_column)), _text(row.get("op_name"))))
    return units


def _unit(source: str, path: str, code: str, op_name: str = "", license_name: str = "unknown") -> KernelUnit:
    lines, chars, tokens = code_size(code)
    return KernelUnit(
        unit_id=stable_id(source, path),
        source=source,
        origin_url="",
        commit="",
        path=path,
        layout="standalone",
        op_name=op_name,
        kernel_name="",
        code=code,
        license=license_name,
        loc=code.count("\n") + 1 if code else 0,
        lines=lines,
        chars=chars,
        tokens=tokens,
    )


def code_files(root: Path) -> list[Path]:
    files = [
        p
        for p in root.rglob("*")
        if p.is_file()
        and p.suffix.lower() in CODE_EXTENSIONS
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    return sorted(files)


def _is_workspace(path: Path) -> bool:
    ws = Workspace(path)
    return ws.units.exists() or ws.benchmark.exists()


def _files_as_units(root: Path, name: str) -> list[KernelUnit]:
    units = []
    for path in code_files(root):
        rel = path.relative_to(root).as_posix()
        units.append(_unit(name, rel, path.read_text(encoding="utf-8", errors="replace"), path.stem))
    return units


def _items_as_units(items: list[BenchmarkItem]) -> list[KernelUnit]:
    units = []
    for item in items:
        for k, code in enumerate(item.answers):
            path = item.answer_paths[k] if k < len(item.answer_paths) else f"{item.path}#{k}"
            units.append(_unit(item.benchmark, path, code, item.op_name, item.license))
    return units


def _units_as_items(units: list[KernelUnit]) -> list[BenchmarkItem]:
    return [
        BenchmarkItem(
            item_id=u.unit_id,
            benchmark=u.source,
            task_name=u.op_name or Path(u.path).stem,
            op_name=u.op_name or Path(u.path).stem,
            level=u.level,
            category=u.category,
            path=u.path,
            answers=[u.code],
            answer_paths=[u.path],
            license=u.license,
        )
        for u in units
    ]


def _plain_directory(path: Path) -> bool:
    """A directory of code files, as opposed to a local dataset directory."""
    if code_files(path):
        return True
    return not any(p.suffix.lower() in DATA_EXTENSIONS for p in path.rglob("*") if p.is_file())


def load_corpus(source: str, *, code_column: str = "code", id_column: str | None = None) -> list[KernelUnit]:
    """The training side of an audit."""
    path, name = Path(source), _name(source)
    if path.is_dir() and _is_workspace(path):
        ws = Workspace(path)
        if ws.units.exists():
            return read_records(ws.units, KernelUnit)
        return _items_as_units(read_records(ws.benchmark, BenchmarkItem))
    if path.is_dir() and _plain_directory(path):
        units = _files_as_units(path, name)
        if not units:
            raise ValueError(f"{source}: no code files ({', '.join(CODE_EXTENSIONS)}) in this directory")
        return units
    return units_from_table(source, name=name, code_column=code_column, id_column=id_column)


def load_benchmark(
    source: str, *, code_column: str = "code", id_column: str | None = None
) -> list[BenchmarkItem]:
    """The test side of an audit."""
    path, name = Path(source), _name(source)
    if path.is_dir() and _is_workspace(path):
        ws = Workspace(path)
        if ws.benchmark.exists():
            return read_records(ws.benchmark, BenchmarkItem)
        return _units_as_items(read_records(ws.units, KernelUnit))
    if path.is_dir() and _plain_directory(path):
        items = benchmark_directory(path, name) or _units_as_items(_files_as_units(path, name))
        if not items:
            raise ValueError(f"{source}: no code files ({', '.join(CODE_EXTENSIONS)}) in this directory")
        return items
    return benchmark_from_table(source, name=name, code_column=code_column, id_column=id_column)


def benchmark_directory(root: Path, name: str) -> list[BenchmarkItem]:
    """The benchmark items of a folder with AscendC kernels, detected as `ingest --benchmark`
    detects them; [] when it holds no kernel (the caller then reads its files as raw text)."""
    result = ingest_benchmark(root, SourceInfo(name, "", "", ""), IngestConfig())
    return result.items if result.kind in ("task-layout", "kernels") else []


def _name(source: str) -> str:
    path = Path(source)
    if path.exists():
        return path.resolve().name.removesuffix(path.suffix) or "source"
    return source
