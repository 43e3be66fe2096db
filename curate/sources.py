"""What a SOURCE argument means, for ingest and audit alike.

A source is a local directory, a git URL (cloned into the workspace cache), a curate workspace
(units.parquet / benchmark.parquet), a directory of code files, a parquet or jsonl file, a local
dataset directory, or a Hugging Face dataset id with a code column. A directory of code files on
the test side is read the way `curate ingest --benchmark` reads it
(`parsers.benchmark.ingest_benchmark`: a task tree gives one item per task, a kernel folder one
per kernel, its other files named as left out); code that holds no AscendC kernel, and any
directory on the training side, is read as raw text, one document per file. Table readers raise
ValueError with one line that says what is wrong and what to do; the commands turn it into a
user error.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curate.code_blocks import extract_blocks, prose_around
from curate.errors import UserError
from curate.workspace import Workspace
from dedup.config import SHARD_ROWS
from parsers.benchmark import ingest_benchmark
from parsers.config import IngestConfig
from parsers.docs import DocFinder
from parsers.provenance import provenance, without_credentials
from parsers.submission import looks_like_submission, read_submission
from parsers.units import SourceInfo
from schemas import BenchmarkItem, KernelUnit, OperatorDoc, code_size, stable_id
from schemas.ascendc import operator_folder_of
from schemas.nesting import loads_json
from schemas.tasks import ROW_TEXT_KIND

_GIT_URL_RE = re.compile(r"^(?:https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:", re.IGNORECASE)
CLONE_TIMEOUT_S = 900


def looks_like_git_url(source: str) -> bool:
    return bool(_GIT_URL_RE.match(source)) or (source.endswith(".git") and not Path(source).exists())


def default_name(source: str) -> str:
    base = source.rstrip("/").split("/")[-1].split(":")[-1]
    base = base[: -len(".git")] if base.endswith(".git") else base
    return re.sub(r"[^\w.-]+", "-", base) or "source"


def clone(url: str, cache: Path, name: str) -> Path:
    """Shallow-clone `url` into `cache/name` (replacing an earlier clone only on success).

    Credentials in the URL are used for the clone and never shown or kept: messages quote the
    URL without them, and the clone's own `.git/config` records the origin without them. `--`
    ends git's options, so a SOURCE that starts with `-` is never read as one."""
    cache.mkdir(parents=True, exist_ok=True)
    shown = without_credentials(url)
    target = cache / name
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=cache))
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(
            ["git", "clone", "--quiet", "--depth", "1", "--", url, str(tmp / "repo")],
            capture_output=True,
            text=True,
            timeout=CLONE_TIMEOUT_S,
            env=env,
            check=False,
        )
        if done.returncode == 0 and shown != url:
            subprocess.run(
                ["git", "-C", str(tmp / "repo"), "remote", "set-url", "origin", "--", shown],
                capture_output=True,
                check=False,
            )
    except FileNotFoundError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError("git is not installed; install git or pass a local directory") from None
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(
            f"cloning {shown} took more than {CLONE_TIMEOUT_S} s; clone it yourself and pass the directory"
        ) from None
    if done.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(f"could not clone {shown}: {git_reason(done.stderr)}")
    shutil.rmtree(target, ignore_errors=True)
    os.replace(tmp / "repo", target)
    shutil.rmtree(tmp, ignore_errors=True)
    return target


def git_reason(stderr: str) -> str:
    """git's own reason for a failure: its `fatal:` line (git follows it with advice such as
    "...and the repository exists.", which is not the reason), credentials removed."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    fatal = [line for line in lines if line.lower().startswith(("fatal:", "error:"))]
    reason = (fatal or lines or ["git clone failed"])[0]
    return without_credentials(reason.split(":", 1)[1].strip() if fatal else reason)


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


# -- What a SOURCE is: decided here, once ---------------------------------------------------

WORKSPACE = "workspace"  # a curate workspace: units.parquet and/or benchmark.parquet
CODE_DIR = "code-dir"  # a directory of code files (a repository, a kernel folder, a task tree)
DATASET_DIR = "dataset-dir"  # a local Hugging Face dataset directory
PARQUET = "parquet"
JSONL = "jsonl"  # .jsonl, .ndjson or .json: one object per line
OTHER_FILE = "file"  # a file of another type
GIT = "git"  # a git URL (cloned into the workspace cache)
HUB = "hub"  # a Hugging Face dataset id
MISSING = "missing"  # none of the above: no such file or directory
TABLE_KINDS = (PARQUET, JSONL)


def source_kind(source: str) -> str:
    """What `source` is, for ingest and audit alike (one of the kinds above)."""
    path = Path(source)
    if path.is_dir():
        if _is_workspace(path):
            return WORKSPACE
        return CODE_DIR if _plain_directory(path) else DATASET_DIR
    if path.is_file():
        suffix = path.suffix.lower()
        return PARQUET if suffix == ".parquet" else JSONL if suffix in JSONL_SUFFIXES else OTHER_FILE
    if looks_like_git_url(source):
        return GIT
    return HUB if is_hub_id(source) else MISSING


def is_hub_id(source: str) -> bool:
    """A plausible Hugging Face dataset id (`name` or `owner/name`) that is not a mistyped local
    path: a path's first folder exists here (`examples/corpsu`), or it starts with `.` or `~`."""
    if not _HUB_ID.match(source) or source.startswith((".", "~")):
        return False
    return "/" not in source or not Path(source.split("/", 1)[0]).is_dir()


def check_hub_reachable(source: str, timeout_s: float = 3.0) -> None:
    """Fail at once, not after minutes of retries, when the Hub cannot be reached: one TCP connect
    to the endpoint (HF_ENDPOINT, else huggingface.co). With HF_HUB_OFFLINE set, `datasets` reads
    its local cache and nothing is checked."""
    import socket
    from urllib.parse import urlsplit

    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        return
    endpoint = os.environ.get("HF_ENDPOINT", "").strip() or "https://huggingface.co"
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((parts.hostname or "", port), timeout=timeout_s).close()
    except OSError as exc:
        raise ValueError(
            f"{source}: no such file or directory, and the Hugging Face Hub ({endpoint}) cannot be "
            f"reached to read it as a dataset id ({exc.strerror or exc}); check the path, or the "
            "network (HF_HUB_OFFLINE=1 reads the local datasets cache)"
        ) from None


def source_name(source: str) -> str:
    """The name rows from `source` carry when none is given, the same for ingest and audit: an
    existing file or directory by its own name (a table without its suffix), a git URL by its
    repository, a dataset id by its last part."""
    path = Path(source)
    if path.exists():
        resolved = path.resolve()
        base = resolved.name.removesuffix(resolved.suffix) if resolved.is_file() else resolved.name
        return re.sub(r"[^\w.-]+", "-", base) or "source"
    return default_name(source)


TABLE_SUFFIXES = (".parquet", ".jsonl", ".json")


@dataclass(frozen=True, slots=True)
class IngestSource:
    """An ingest SOURCE resolved: a table (read by `benchmark_from_table`) or a directory (a
    local one, or the clone of a git URL) with its provenance, and the name its rows carry."""

    given: str
    name: str
    is_table: bool
    root: Path | None = None  # the directory, for directory sources
    info: SourceInfo | None = None  # name, origin, commit and path prefix of a directory


def resolve_ingest_source(
    source: str, name: str | None, benchmark: bool, code_column: str | None, ws: Workspace
) -> IngestSource:
    """Decide what an ingest SOURCE is and make it readable: a table (a table file, a dataset id
    or, for a benchmark, anything given with a code column), a git URL cloned into the workspace
    cache, or a
    local directory (checked), with its provenance."""
    name = name or default_name(source)
    if source.endswith(TABLE_SUFFIXES) or (benchmark and code_column):
        return IngestSource(source, name, True)
    kind = GIT if looks_like_git_url(source) and not Path(source).is_dir() else ""
    if not kind and not Path(source).is_dir():
        kind = source_kind(source)  # not a directory: git, hub, a file or nothing
    if benchmark and kind in (HUB, MISSING) and source.count("/") == 1:
        return IngestSource(source, name, True)  # a dataset id
    root = clone(source, ws.cache, name) if kind == GIT else local_directory(source)
    return IngestSource(source, name, False, root, source_info(root, name))


def source_info(root: Path, name: str) -> SourceInfo:
    """What every row of a directory source records of it: origin URL, commit and the path of
    `root` inside its repository."""
    prov = provenance(root)
    try:
        prefix = root.resolve().relative_to(prov.repo_root).as_posix()
    except ValueError:
        prefix = ""
    return SourceInfo(name, prov.origin_url, prov.commit, "" if prefix == "." else prefix)


# -- Tables, workspaces and plain code directories ------------------------------------------

CODE_EXTENSIONS = (".cpp", ".h", ".hpp", ".asc", ".cc")
DATA_EXTENSIONS = (".parquet", ".jsonl", ".ndjson", ".json", ".csv", ".arrow")
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
NO_CODE_FILES = (
    f"no code files ({', '.join(CODE_EXTENSIONS)}), MultiKernelBench submissions (.py) or saved"
    " answers with a fenced kernel (.txt, .md) in this directory"
)
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.\-]*(/[\w.\-]+)?$")


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = loads_json(line)  # nesting too deep for Python: a JSONDecodeError too
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
    kind, path = source_kind(source), Path(source)
    if kind == PARQUET:
        import pyarrow.parquet as pq

        try:
            return list(pq.read_table(path).to_pylist())
        except Exception as exc:
            raise ValueError(f"{path}: not a readable parquet file ({exc})") from None
    if kind == JSONL:
        return _read_jsonl(path)
    if kind == OTHER_FILE:
        raise ValueError(
            f"{path}: unsupported file type {path.suffix.lower() or '(none)'}; give .parquet or .jsonl"
        )
    if path.is_dir():
        return _read_dataset(source)
    if is_hub_id(source):
        check_hub_reachable(source)
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


BLOCK_MARK = "#block"


def block_path(row_id: str, block: int) -> str:
    """Where a code block extracted from a text field comes from: its row id and block index."""
    return f"{row_id}{BLOCK_MARK}{block}"


def split_block_path(path: str) -> tuple[str, int] | None:
    """(row id, block index) of a block path, None for other paths."""
    row, mark, block = path.rpartition(BLOCK_MARK)
    return (row, int(block)) if mark and block.isdigit() else None


def _codes(value: Any, code_from: str | None) -> list[str]:
    """The code a cell holds: the cell itself, or the blocks `code_from` extracts from its text."""
    text = _text(value)
    return [text] if code_from is None else extract_blocks(text, code_from)


def benchmark_from_table(
    source: str, *, name: str, code_column: str, id_column: str | None, code_from: str | None = None
) -> list[BenchmarkItem]:
    """Benchmark items from a table: rows sharing an id become one item with several answers
    (with `code_from`, every code block of the text column is an answer of its row's item)."""
    rows = read_rows(source)
    _column(rows, code_column, source, "--code-column with the column that holds the kernel code")
    ids = _row_ids(rows, id_column, source)
    items: dict[str, BenchmarkItem] = {}
    for row, row_id in zip(rows, ids, strict=True):
        item = items.get(row_id)
        if item is None:
            task = row_id if id_column else _text(row.get("task_name")) or row_id
            reference, description = _text(row.get("reference")), _text(row.get("description"))
            item = items[row_id] = _table_item(name, row, row_id, task, reference, description)
        for block, code in enumerate(_codes(row.get(code_column), code_from)):
            if not code.strip():
                continue
            item.answers.append(code)
            if code_from is not None:
                item.answer_paths.append(block_path(row_id, block))
            else:
                item.answer_paths.append(f"{row_id}#{len(item.answers)}" if len(item.answers) > 1 else row_id)
    result = list(items.values())
    if not any(item.answers for item in result):
        raise ValueError(
            f"{source}: column {code_column!r} is empty in every row; pass the column with the code"
        )
    return result


def task_table(source: str, *, name: str, text_column: str, id_column: str | None) -> list[BenchmarkItem]:
    """Benchmark items from a table of task descriptions (`--test-text-column`): one per row,
    its text the task's description (a PyTorch reference in the text is read as one)."""
    rows = read_rows(source)
    _column(rows, text_column, source, "--test-text-column with the column that states the task")
    items = []
    for row, row_id in zip(rows, _row_ids(rows, id_column, source), strict=True):
        text = _text(row.get(text_column))
        task = _text(row.get("task_name")) or row_id
        reference = text if "forward" in text and "torch" in text else ""
        items.append(_table_item(name, row, row_id, task, reference, text))
    return items


def _table_item(
    name: str, row: dict[str, Any], row_id: str, task: str, reference: str, description: str
) -> BenchmarkItem:
    """A benchmark item of a table row: op name, level and category from the row's own columns."""
    return BenchmarkItem(
        item_id=stable_id(name, row_id),
        benchmark=name,
        task_name=task,
        op_name=_text(row.get("op_name")) or task,
        level=_int(row.get("level")),
        category=_text(row.get("category")) or "other",
        path=row_id,
        reference=reference,
        description=description,
    )


def table_units(
    rows: list[dict[str, Any]],
    ids: list[str],
    name: str,
    code_column: str,
    code_from: str | None,
    seen: set[str],
    first_index: int,
) -> list[KernelUnit]:
    """Units of some rows of a table (`first_index`: the table position of the first; `seen`:
    row ids met so far, updated, so that a repeated id gets its position appended), each with
    its row's instruction beside its code (`row_prose`), which task matching reads."""
    units = []
    for index, (row, row_id) in enumerate(zip(rows, ids, strict=True), start=first_index):
        key = row_id if row_id not in seen else f"{row_id}#{index}"
        seen.add(key)
        op_name = _text(row.get("op_name"))
        codes = _codes(row.get(code_column), code_from)
        text = row_prose(row, code_column)
        if code_from is not None:  # a reply's own words around its blocks state its task too
            text = "\n".join(t for t in (text, _beside(_text(row.get(code_column)), codes)) if t)
        doc = OperatorDoc(path=key, kind=ROW_TEXT_KIND, language=_language(text), raw=text) if text else None
        if code_from is None:
            units.append(_unit(name, key, codes[0], op_name, doc=doc))
            continue
        for block, code in enumerate(codes):
            units.append(_unit(name, block_path(key, block), code, op_name, doc=doc))
    return units


# Columns in which a training row states its task in words (an instruction, a prompt): carried
# beside the row's code as its own documentation (`KernelUnit.doc`, kind `row-text`), where task
# matching reads its words and numbers. Cut at PROSE_CHARS: the task is stated at the start.
PROSE_COLUMNS = ("instruction", "prompt", "question", "query", "problem", "task")
PROSE_CHARS = 2000
_CJK = re.compile(r"[\u4e00-\u9fff]")


def row_prose(row: dict[str, Any], code_column: str) -> str:
    """The text a row states its task in (every PROSE_COLUMNS column but the code's), or ""."""
    parts = [row[c] for c in PROSE_COLUMNS if c in row and c != code_column and row[c]]
    if not parts:
        return ""
    if len(parts) == 1 and isinstance(parts[0], str):  # the common case: one instruction column
        return parts[0][:PROSE_CHARS] if parts[0].strip() else ""
    texts = (_text(p) for p in parts)
    return "\n".join(t for t in texts if t.strip())[:PROSE_CHARS]


def _beside(text: str, blocks: list[str]) -> str:
    """The words of `text` around the code blocks extracted from it (a reply's analysis and
    notes), cut at PROSE_CHARS; "" when it holds no word."""
    words = prose_around(text, blocks)[:PROSE_CHARS]
    return words if any(c.isalpha() for c in words) else ""


def _language(text: str) -> str:
    return "en" if text.isascii() else ("zh" if _CJK.search(text) else "en")


def _unit(
    source: str,
    path: str,
    code: str,
    op_name: str = "",
    license_name: str = "unknown",
    doc: OperatorDoc | None = None,
) -> KernelUnit:
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
        doc=doc,
    )


def code_files(root: Path) -> list[Path]:
    files = [
        p
        for p in root.rglob("*")
        if p.is_file()
        and (p.suffix.lower() in CODE_EXTENSIONS or _is_submission_file(p) or _is_answer_file(p))
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    return sorted(files)


# An LLM's answer saved as text: MultiKernelBench's own run output is one `<op>.txt` per task, the
# model's reply with the submission in a fenced block (and `<op>_cot.txt`, its reasoning).
ANSWER_EXTENSIONS = (".txt", ".md")
_KERNEL_MARKS = ("__aicore__", "__global__")


@dataclass(slots=True)
class SavedAnswer:
    """The code of a saved answer (its fenced blocks that hold a submission or an AscendC kernel,
    a submission read as its fields) and its prose (the rest: what the answer says it does)."""

    code: str
    prose: str
    op_name: str


def saved_answer(text: str) -> SavedAnswer | None:
    """The answer a text file holds, or None when none of its fenced blocks is kernel code (a
    README, a log, a reasoning without code)."""
    blocks = extract_blocks(text, "fenced")
    codes, op_name = [], ""
    for block in blocks:
        sub = read_submission(block)
        if sub is not None:
            codes.append(sub.as_code())
            op_name = op_name or sub.op_name
        elif any(mark in block for mark in _KERNEL_MARKS):
            codes.append(block)
    if not codes:
        return None
    prose = text
    for block in blocks:
        prose = prose.replace(block, "", 1)
    return SavedAnswer("\n".join(codes), prose[:PROSE_CHARS].strip(), op_name)


def _is_answer_file(path: Path) -> bool:
    if path.suffix.lower() not in ANSWER_EXTENSIONS:
        return False
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return ("```" in text or "~~~" in text) and saved_answer(text) is not None


def _is_submission_file(path: Path) -> bool:
    """A MultiKernelBench submission (`kernel_src = ...` string fields in a .py file)."""
    if path.suffix != ".py":
        return False
    try:
        return looks_like_submission(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return False


def file_unit(source: str, root: Path, path: Path, docs: DocFinder | None = None) -> KernelUnit:
    """One code file as a training document; a submission file is read as ONE candidate (its
    fields together, its op named by the op definition), and so is a saved answer (its code
    blocks, its prose beside them as what it states). With `docs`, a code file carries its
    operator's documentation (the README of its operator or sample folder), as `curate ingest`
    units do: what it says the operator computes is read beside the code."""
    text = path.read_text(encoding="utf-8", errors="replace")
    rel = path.relative_to(root).as_posix()
    sub = read_submission(text) if path.suffix == ".py" else None
    if sub is not None:
        return _unit(source, rel, sub.as_code(), sub.op_name or path.stem)
    answer = saved_answer(text) if path.suffix.lower() in ANSWER_EXTENSIONS else None
    if answer is not None:  # the file's stem is the task MultiKernelBench asked for (`<op>.txt`)
        op_name = answer.op_name or path.stem.removesuffix("_cot")
        doc = OperatorDoc(path=rel, kind=ROW_TEXT_KIND, language=_language(answer.prose), raw=answer.prose)
        return _unit(source, rel, answer.code, op_name, doc=doc if answer.prose else None)
    readme = docs.for_entry(rel, operator_folder_of(rel)) if docs is not None else None
    return _unit(source, rel, text, path.stem, doc=readme)


def _is_workspace(path: Path) -> bool:
    ws = Workspace(path)
    return ws.units.exists() or ws.benchmark.exists()


def _files_as_units(root: Path, name: str) -> list[KernelUnit]:
    return [file_unit(name, root, path) for path in code_files(root)]


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
    if code_files(path) or _pytorch_suite(path):
        return True
    return not any(p.suffix.lower() in DATA_EXTENSIONS for p in path.rglob("*") if p.is_file())


def _pytorch_suite(path: Path) -> bool:
    """A folder of PyTorch reference modules (MultiKernelBench, KernelBench): tasks, not a dataset,
    even with a few json files beside them. Decided from the first few .py files."""
    for n, py in enumerate(sorted(path.rglob("*.py"))):
        if n >= 5:
            break
        try:
            head = py.read_text(encoding="utf-8", errors="replace")[:4000]
        except OSError:
            continue
        if "import torch" in head and "def forward" in head:
            return True
    return False


@dataclass(slots=True)
class BenchmarkSide:
    """The test side of an audit: its items, and the code files of a kernel folder that no item
    holds (host programs, tests, helpers no kernel includes: not answers, but named in the report
    so that a reader sees what was not compared)."""

    items: list[BenchmarkItem]
    left_out: list[str] = field(default_factory=list)


def load_benchmark(
    source: str,
    *,
    code_column: str = "code",
    id_column: str | None = None,
    code_from: str | None = None,
    text_column: str | None = None,
) -> BenchmarkSide:
    """The test side of an audit. A directory with `code_from="text"` gives one item per code
    file, its whole text, whatever kernels it holds; `text_column` reads a table of task
    descriptions (no code needed: the tasks are matched, `dedup.tasks`)."""
    kind, path, name = source_kind(source), Path(source), source_name(source)
    if text_column is not None:
        return BenchmarkSide(task_table(source, name=name, text_column=text_column, id_column=id_column))
    if kind == WORKSPACE:
        from schemas.tables import read_records  # Arrow: imported where a table is read

        ws = Workspace(path)
        if ws.benchmark.exists():
            return BenchmarkSide(read_records(ws.benchmark, BenchmarkItem))
        return BenchmarkSide(_units_as_items(read_records(ws.units, KernelUnit)))
    if kind == CODE_DIR:
        if code_from not in (None, "text"):
            raise ValueError(
                f"{source} is a directory: --test-code-from takes only `text` there (each code file whole)"
            )
        kernels = benchmark_directory(path, name) if code_from is None else None
        if kernels is not None:
            return kernels
        items = _units_as_items(_files_as_units(path, name))
        if not items:
            raise ValueError(f"{source}: {NO_CODE_FILES}")
        return BenchmarkSide(items)
    return BenchmarkSide(
        benchmark_from_table(
            source, name=name, code_column=code_column, id_column=id_column, code_from=code_from
        )
    )


def benchmark_directory(root: Path, name: str) -> BenchmarkSide | None:
    """The benchmark items of a folder with AscendC kernels, detected as `ingest --benchmark`
    detects them; None when it holds no kernel (the caller then reads its files as raw text)."""
    result = ingest_benchmark(root, SourceInfo(name, "", "", ""), IngestConfig())
    if result.kind not in ("task-layout", "kernels", "pytorch"):  # pytorch: tasks, no code
        return None
    return BenchmarkSide(result.items, result.left_out)


# -- Streaming: the training side in shards of bounded size (SHARD_ROWS) -----------------------


@dataclass(frozen=True, slots=True)
class Shard:
    """Where one shard of a training source is; small and picklable, so that any engine can
    read it where it runs (`read_shard`). `first` is the table position of its first row."""

    kind: str  # parquet | jsonl | files | units
    path: str
    name: str
    first: int = 0
    row_group: int = 0
    start: int = 0  # jsonl: byte range
    end: int = 0
    files: tuple[str, ...] = ()


def plan_corpus(source: str, shard_rows: int = SHARD_ROWS) -> list[Shard] | None:
    """The shards of a training source read from files, or None for a Hugging Face id (streamed
    by `iter_corpus`). Scanning a jsonl file for line offsets reads it once, in bounded memory."""
    import pyarrow.parquet as pq

    kind, path, name = source_kind(source), Path(source), source_name(source)
    if kind == WORKSPACE:
        ws = Workspace(path)
        target = ws.units if ws.units.exists() else None
        if target is None:
            return [Shard("units", str(path), name)]  # a benchmark workspace: small, read whole
        groups = pq.ParquetFile(target).num_row_groups
        return [Shard("units", str(target), name, row_group=g) for g in range(groups)]
    if kind == CODE_DIR:
        files = [str(p) for p in code_files(path)]
        if not files:
            raise ValueError(f"{source}: {NO_CODE_FILES}")
        return [
            Shard("files", str(path), name, first=i, files=tuple(files[i : i + shard_rows]))
            for i in range(0, len(files), shard_rows)
        ]
    if kind == PARQUET:
        try:
            meta = pq.ParquetFile(path).metadata
        except Exception as exc:
            raise ValueError(f"{path}: not a readable parquet file ({exc})") from None
        firsts = [0]
        for g in range(meta.num_row_groups):
            firsts.append(firsts[-1] + meta.row_group(g).num_rows)
        return [
            Shard("parquet", str(path), name, first=firsts[g], row_group=g)
            for g in range(meta.num_row_groups)
        ]
    if kind == JSONL:
        shards, rows, start, at = [], 0, 0, 0
        first = 0
        with path.open("rb") as handle:
            for line in handle:
                at += len(line)
                if line.strip():
                    rows += 1
                    if rows - first == shard_rows:
                        shards.append(Shard("jsonl", str(path), name, first=first, start=start, end=at))
                        first, start = rows, at
        if at > start:
            shards.append(Shard("jsonl", str(path), name, first=first, start=start, end=at))
        return shards
    if kind in (DATASET_DIR, HUB) or (kind == OTHER_FILE and is_hub_id(source)):
        return None  # read through `datasets`
    raise ValueError(f"{source}: no such file or directory, and not a Hugging Face dataset id")


def _jsonl_rows(shard: Shard) -> list[dict[str, Any]]:
    rows = []
    with open(shard.path, "rb") as handle:
        handle.seek(shard.start)
        data = handle.read(shard.end - shard.start)
    for offset, raw in enumerate(data.split(b"\n")):
        if not raw.strip():
            continue
        try:
            row = loads_json(raw.decode("utf-8"))  # nesting too deep: a JSONDecodeError too
        except UnicodeDecodeError:
            raise ValueError(
                f"{_line_of(shard, offset)}: not UTF-8 text; expected one JSON object per line"
            ) from None
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"{_line_of(shard, offset)}: not valid JSON ({exc.msg}); expected one object per line"
            ) from None
        if not isinstance(row, dict):
            raise ValueError(
                f"{_line_of(shard, offset)}: expected a JSON object per line, got {type(row).__name__}"
            )
        rows.append(row)
    return rows


def _line_of(shard: Shard, offset: int) -> str:
    """`path:line` of the `offset`-th line of a shard (counted only when a line is bad: the
    shard knows its first byte, not its first line number)."""
    with open(shard.path, "rb") as handle:
        before = handle.read(shard.start).count(b"\n")
    return f"{shard.path}:{before + offset + 1}"


def _rows_to_units(
    rows: list[dict[str, Any]],
    shard: Shard,
    first: int,
    code_column: str,
    id_column: str | None,
    code_from: str | None,
) -> list[KernelUnit]:
    if not rows:
        return []
    _column(rows, code_column, shard.path, "--code-column with the column that holds the code")
    if id_column is None:
        ids = [str(first + i) for i in range(len(rows))]
    else:
        _column(rows, id_column, shard.path, "--id-column with an existing column")
        ids = [str(row[id_column]) for row in rows]
    return table_units(rows, ids, shard.name, code_column, code_from, set(), first)


def read_shard(
    shard: Shard,
    code_column: str = "code",
    id_column: str | None = None,
    code_from: str | None = None,
    batch_rows: int = SHARD_ROWS,
) -> Iterator[list[KernelUnit]]:
    """The units of one shard, in batches of at most `batch_rows` rows (bounded memory)."""
    import pyarrow as pa  # here, not at the top: `curate ingest` of a directory needs no Arrow
    import pyarrow.parquet as pq

    from schemas.arrow import arrow_schema, from_rows
    from schemas.tables import read_records

    if shard.kind == "files":
        root = Path(shard.path)
        docs = DocFinder.inside(root)
        yield [file_unit(shard.name, root, Path(f), docs) for f in shard.files]
    elif shard.kind == "units":
        path = Path(shard.path)
        if path.is_dir():
            yield _items_as_units(read_records(Workspace(path).benchmark, BenchmarkItem))
            return
        schema = arrow_schema(KernelUnit)
        handle = pq.ParquetFile(path)
        for batch in handle.iter_batches(batch_size=batch_rows, row_groups=[shard.row_group]):
            columns = [
                batch.column(f.name).cast(f.type)
                if f.name in batch.schema.names
                else pa.nulls(batch.num_rows, f.type)
                for f in schema
            ]
            yield from_rows(KernelUnit, pa.Table.from_arrays(columns, schema=schema).to_pylist())
    elif shard.kind == "parquet":
        handle = pq.ParquetFile(shard.path)
        first = shard.first
        for batch in handle.iter_batches(batch_size=batch_rows, row_groups=[shard.row_group]):
            rows = batch.to_pylist()
            yield _rows_to_units(rows, shard, first, code_column, id_column, code_from)
            first += len(rows)
    else:
        yield _rows_to_units(_jsonl_rows(shard), shard, shard.first, code_column, id_column, code_from)


def iter_corpus(
    source: str,
    *,
    code_column: str = "code",
    id_column: str | None = None,
    code_from: str | None = None,
    shard_rows: int = SHARD_ROWS,
) -> Iterator[list[KernelUnit]]:
    """The training side in batches of units, never all of it in memory: files shard by shard,
    a Hugging Face id through `datasets` streaming (every split in name order)."""
    plan = plan_corpus(source, shard_rows)
    if plan is not None:
        for shard in plan:
            yield from read_shard(shard, code_column, id_column, code_from, shard_rows)
        return
    import datasets

    if not Path(source).is_dir():
        check_hub_reachable(source)
    try:
        loaded = datasets.load_dataset(source, streaming=True)
    except Exception as exc:  # datasets raises many types; all mean "cannot read this source"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"cannot load dataset {source!r}: {first}; check the id or path") from None
    splits = loaded if isinstance(loaded, datasets.IterableDatasetDict) else {"": loaded}
    shard = Shard("hub", source, source_name(source))
    for split in sorted(splits):
        rows: list[dict[str, Any]] = []
        index = 0
        for row in splits[split]:
            rows.append(dict(row))
            if len(rows) == shard_rows:
                yield _hub_units(rows, shard, split, index, code_column, id_column, code_from)
                index += len(rows)
                rows = []
        if rows:
            yield _hub_units(rows, shard, split, index, code_column, id_column, code_from)


def _hub_units(
    rows: list[dict[str, Any]],
    shard: Shard,
    split: str,
    first: int,
    code_column: str,
    id_column: str | None,
    code_from: str | None,
) -> list[KernelUnit]:
    if id_column is None:
        for i, row in enumerate(rows):
            row["__row__"] = f"{split}/{first + i}" if split else str(first + i)
        _column(rows, code_column, shard.path, "--code-column with the column that holds the code")
        return table_units(
            rows, [r["__row__"] for r in rows], shard.name, code_column, code_from, set(), first
        )
    return _rows_to_units(rows, shard, first, code_column, id_column, code_from)
