"""A recipe: the whole job in one TOML file, validated into typed configs before anything runs.

    [recipe]                      name, workspace (paths are relative to the recipe file)
    [[source]]                    corpus: name, git + commit | path, subdir, license, publish
    [[benchmark]]                 test sets: name, git + commit | path | table, subdir, code_column, ...
    [[docs]]                      documentation trees: name, git + commit | path, subdir
    [ingest] [dedup] [annotate] [verify] [knowledge] [build] [push]
                                  each stage's own config dataclass, field for field

Every key is checked (unknown keys, wrong types, a git source without its commit, two sources
with one name) and every stage config is constructed (its own `__post_init__` checks run), so a
bad recipe costs one line naming the file, the line when it can be found, and the key, before a
single stage starts. `[knowledge]` and `[push]` are optional: a recipe without them does not
annotate documentation or publish.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotate.config import AnnotateConfig
from annotate.reasoning.verify_config import VerifyConfig
from annotate.tasks.knowledge_qa import KnowledgeConfig
from curate.errors import UserError
from curate.publish.publish_config import BuildConfig, PushConfig
from dedup.config import DedupConfig
from parsers.config import IngestConfig
from schemas.config import ConfigError

_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_NAME = re.compile(r"^[A-Za-z0-9][\w.\-]*$")


class RecipeError(UserError):
    """A recipe that cannot run: the message names the file, the line when known, and the key."""


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """Where one input comes from: a git repository pinned at a commit, a local folder, or (for
    benchmarks only) a table file or Hub dataset id."""

    name: str
    kind: str  # "source" (corpus), "benchmark" or "docs"
    git: str = ""
    commit: str = ""
    path: Path | None = None  # a local folder (absolute: resolved against the recipe's folder)
    table: str = ""  # benchmarks: a parquet/jsonl file or a Hub dataset id
    subdir: str = ""  # read only this folder of the repository or folder
    license: str = ""  # the licence the curator expects this source's rows to carry (SPDX id)
    publish: bool = True  # its licence may be published (it joins push's allow_license)
    code_column: str | None = None
    id_column: str | None = None
    code_from: str | None = None

    def identity(self) -> dict[str, Any]:
        """What names this input's content apart from its bytes (folders are hashed separately)."""
        return {
            "kind": self.kind,
            "git": self.git,
            "commit": self.commit,
            "path": str(self.path or ""),
            "table": self.table,
            "subdir": self.subdir,
            "code_column": self.code_column,
            "id_column": self.id_column,
            "code_from": self.code_from,
        }


@dataclass(frozen=True, slots=True)
class Recipe:
    """A validated recipe: every stage's typed config and every input."""

    file: Path
    name: str
    workspace: Path
    sources: tuple[SourceSpec, ...]
    benchmarks: tuple[SourceSpec, ...] = ()
    docs: tuple[SourceSpec, ...] = ()
    ingest: IngestConfig = field(default_factory=IngestConfig)
    dedup: DedupConfig = field(default_factory=DedupConfig)
    annotate: AnnotateConfig = field(default_factory=AnnotateConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    knowledge: KnowledgeConfig | None = None
    build: BuildConfig = field(default_factory=BuildConfig)
    push: PushConfig | None = None

    def allowed_licenses(self) -> list[str]:
        """push's allow_license: the [push] list plus the licence of every source marked publish."""
        given = list(self.push.allow_license) if self.push else []
        declared = [s.license for s in self.sources if s.publish and s.license]
        return sorted(set(given) | set(declared))


# The stage sections and the config type each one is validated into.
SECTIONS: dict[str, type[Any]] = {
    "ingest": IngestConfig,
    "dedup": DedupConfig,
    "annotate": AnnotateConfig,
    "verify": VerifyConfig,
    "knowledge": KnowledgeConfig,
    "build": BuildConfig,
    "push": PushConfig,
}
LISTS = {"source": "source", "benchmark": "benchmark", "docs": "docs"}
TOP_KEYS = ("recipe", *LISTS, *SECTIONS)
RECIPE_KEYS = {"name": str, "workspace": str, "description": str}
SOURCE_KEYS: dict[str, type[Any]] = {
    "name": str,
    "git": str,
    "commit": str,
    "path": str,
    "subdir": str,
    "license": str,
    "publish": bool,
}
BENCHMARK_KEYS: dict[str, type[Any]] = {
    **{k: v for k, v in SOURCE_KEYS.items() if k not in ("license", "publish")},
    "table": str,
    "code_column": str,
    "id_column": str,
    "code_from": str,
}
DOCS_KEYS = {k: v for k, v in SOURCE_KEYS.items() if k not in ("license", "publish")}


class _Located:
    """Where a key is written in the recipe, found by scanning its lines (tomllib keeps no
    positions): the first `key =` after the header of its table, or the header itself."""

    def __init__(self, file: Path, text: str) -> None:
        self.file = file
        self.lines = text.splitlines()

    def _header(self, table: str, index: int) -> int | None:
        pattern = re.compile(rf"^\s*\[\[?\s*{re.escape(table)}\s*\]\]?\s*(#.*)?$")
        seen = -1
        for number, line in enumerate(self.lines):
            if pattern.match(line):
                seen += 1
                if seen == index:
                    return number
        return None

    def line(self, table: str, key: str | None = None, index: int = 0) -> int | None:
        start = self._header(table, index) if table else -1
        if start is None:
            return None
        if key is None:
            return start + 1
        key_line = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for number in range(start + 1, len(self.lines)):
            text = self.lines[number]
            if number > start + 1 and re.match(r"^\s*\[", text):
                break
            if key_line.match(text):
                return number + 1
        return start + 1

    def error(
        self, where: str, message: str, table: str, key: str | None = None, index: int = 0
    ) -> RecipeError:
        line = self.line(table, key, index)
        at = f"{self.file}:{line}" if line else str(self.file)
        return RecipeError(f"{at}: {where}: {message}")


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is list:
        return f"a list of {_type_name(typing.get_args(tp)[0])}"
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false"}.get(
        tp, getattr(tp, "__name__", str(tp))
    )


def _fits(tp: Any, value: Any) -> bool:
    """TOML value `value` is of the declared field type `tp` (no silent coercion: 5 is not "5")."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(arg, value) for arg in typing.get_args(tp) if arg is not type(None))
    if origin is list:
        (item,) = typing.get_args(tp)
        return isinstance(value, list) and all(_fits(item, v) for v in value)
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    return True


def _check_keys(loc: _Located, where: str, table: str, index: int, data: Any, known: dict[str, Any]) -> None:
    if not isinstance(data, dict):
        raise loc.error(where, "expected a table", table, None, index)
    for key, value in data.items():
        if key not in known:
            raise loc.error(
                f"{where} {key}", f"unknown key; known: {', '.join(sorted(known))}", table, key, index
            )
        if not _fits(known[key], value):
            raise loc.error(
                f"{where} {key}", f"expected {_type_name(known[key])}, got {value!r}", table, key, index
            )


def _config(loc: _Located, section: str, cls: type[Any], data: Any) -> Any:
    """The stage config `cls` from its recipe table, every key and type checked, then built (its
    own validation runs in `__post_init__`)."""
    hints = typing.get_type_hints(cls)
    known = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    dashed = {k.replace("-", "_"): v for k, v in (data or {}).items()} if isinstance(data, dict) else data
    _check_keys(loc, f"[{section}]", section, 0, dashed, known)
    try:
        return cls(**dashed)
    except ConfigError as exc:
        raise loc.error(f"[{section}] {exc.field}", str(exc), section, exc.field) from None


def _spec(loc: _Located, kind: str, index: int, data: Any, base: Path) -> SourceSpec:
    known = {"source": SOURCE_KEYS, "benchmark": BENCHMARK_KEYS, "docs": DOCS_KEYS}[kind]
    given_name = data.get("name") if isinstance(data, dict) else None
    where = (
        f"[[{kind}]] {given_name}"
        if isinstance(given_name, str) and given_name
        else f"[[{kind}]] #{index + 1}"
    )
    _check_keys(loc, where, kind, index, data, known)
    name = data.get("name")
    if not name:
        raise loc.error(f"{where} name", "missing (every input needs a name)", kind, None, index)
    if not _NAME.match(name):
        raise loc.error(
            f"{where} name", f"{name!r} is not a plain name (letters, digits, . _ -)", kind, "name", index
        )
    where = f"[[{kind}]] {name}"
    given = [k for k in ("git", "path", "table") if data.get(k)]
    if len(given) != 1:
        wanted = "git (with commit), path or table" if kind == "benchmark" else "git (with commit) or path"
        raise loc.error(where, f"give exactly one of {wanted}", kind, None, index)
    commit = data.get("commit", "")
    if data.get("git") and not _COMMIT.match(commit):
        raise loc.error(
            f"{where} commit",
            "a git source is pinned at a full 40-hex commit",
            kind,
            "commit" if commit else None,
            index,
        )
    if commit and not data.get("git"):
        raise loc.error(f"{where} commit", "only a git source has a commit", kind, "commit", index)
    path = None
    if data.get("path"):
        path = (base / data["path"]).resolve()
        if not path.is_dir():
            raise loc.error(f"{where} path", f"{path} is not a folder", kind, "path", index)
    subdir = data.get("subdir", "")
    if subdir and (Path(subdir).is_absolute() or ".." in Path(subdir).parts):
        raise loc.error(
            f"{where} subdir", "must be a relative folder inside the source", kind, "subdir", index
        )
    if path is not None and subdir and not (path / subdir).is_dir():
        raise loc.error(f"{where} subdir", f"{path / subdir} is not a folder", kind, "subdir", index)
    table = data.get("table", "")
    if table and (base / table).exists():
        table = str((base / table).resolve())
    return SourceSpec(
        name=name,
        kind=kind,
        git=data.get("git", ""),
        commit=commit,
        path=path,
        table=table,
        subdir=subdir,
        license=data.get("license", ""),
        publish=data.get("publish", True),
        code_column=data.get("code_column"),
        id_column=data.get("id_column"),
        code_from=data.get("code_from"),
    )


def _specs(loc: _Located, data: dict[str, Any], kind: str, base: Path) -> tuple[SourceSpec, ...]:
    entries = data.get(kind, [])
    if not isinstance(entries, list):
        raise loc.error(f"[[{kind}]]", f"write it as an array of tables ([[{kind}]])", kind)
    return tuple(_spec(loc, kind, i, entry, base) for i, entry in enumerate(entries))


def load_recipe(file: Path, workspace: Path | None = None) -> Recipe:
    """Read and validate the whole recipe (RecipeError, one line, on the first problem)."""
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecipeError(f"recipe {file} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecipeError(f"recipe {file} cannot be read ({exc})") from None
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # RecursionError: nested too deep
        raise RecipeError(f"{file}: not valid TOML ({exc})") from None
    loc = _Located(file, text)
    for key in data:
        if key not in TOP_KEYS:
            raise loc.error(key, f"unknown table; known: {', '.join(TOP_KEYS)}", key)
    head = data.get("recipe")
    if head is None:
        raise RecipeError(f"{file}: [recipe] is missing (it names the recipe and its workspace)")
    _check_keys(loc, "[recipe]", "recipe", 0, head, RECIPE_KEYS)
    for key in ("name", "workspace"):
        if not head.get(key):
            raise loc.error(f"[recipe] {key}", "missing", "recipe")
    base = file.resolve().parent
    sources = _specs(loc, data, "source", base)
    if not sources:
        raise RecipeError(f"{file}: no [[source]]: a recipe needs at least one corpus source")
    benchmarks, docs = _specs(loc, data, "benchmark", base), _specs(loc, data, "docs", base)
    for group in (sources, benchmarks, docs):
        names = [s.name for s in group]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            kind = group[0].kind
            raise loc.error(f"[[{kind}]] {twice[0]}", "two inputs of this kind have this name", kind, None, 1)
    configs = {s: _config(loc, s, cls, data.get(s, {})) for s, cls in SECTIONS.items()}
    if "knowledge" in data and not docs:
        raise loc.error("[knowledge]", "annotates documentation, but the recipe has no [[docs]]", "knowledge")
    push = configs["push"] if "push" in data else None
    if push is not None and not (push.repo_id or push.to_dir):
        raise loc.error("[push]", "say where to publish: repo_id or to_dir", "push")
    if push is not None and push.to_dir:
        push = dataclasses.replace(push, to_dir=str((base / push.to_dir).resolve()))
    return Recipe(
        file=file,
        name=head["name"],
        workspace=workspace if workspace is not None else (base / head["workspace"]).resolve(),
        sources=sources,
        benchmarks=benchmarks,
        docs=docs,
        ingest=configs["ingest"],
        dedup=configs["dedup"],
        annotate=configs["annotate"],
        verify=configs["verify"],
        knowledge=configs["knowledge"] if "knowledge" in data else None,
        build=configs["build"],
        push=push,
    )
