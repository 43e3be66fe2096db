"""Type-check AscendC kernel sources with libclang against the project's API surface.

`KernelChecker.check_file` parses one kernel file as the vendor build would see it (repository
includes resolved, operator tiling and DTYPE macros synthesised, AscendC declared by our surface)
and returns its findings in the shape `curate check-kernel` prints. `check_source` does the same
for text that is not on disk (a reasoning snippet, a unit's assembled code).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import clang.cindex as ci

from annotate.checker.astcheck import norm
from annotate.checker.classify import Context, is_vendor_header
from annotate.checker.judge import NOT_FOUND_RE, judge
from annotate.checker.opcontext import OP_CONTEXT_HEADER, op_context, operator_folder, tiling_fields
from annotate.checker.tuinfo import (
    class_headers,
    declared_names,
    failed_calls,
    included_macros,
    unit_declarations,
)
from schemas import Diagnostic
from schemas.ascendc import SURFACE_DIR, VIRTUAL_ROOT, split_unit_code, surface_include_dirs
from schemas.ascendc.catalog import Catalog, api_names, load_catalog
from schemas.ascendc.frontend import CHECK, ParseRequest, forwarding_stubs, missing_stubs, parse
from schemas.ascendc.includes import (
    local_include_dirs,
    plan_includes,
    read_text,
    repository_headers,
    repository_root,
)
from schemas.ascendc.soc import AUTO_SOC, DEFAULT_SOC, resolve_soc
from schemas.cpp import CPP_KEYWORDS

MAX_REPARSES = 4


@dataclass(slots=True)
class CheckResult:
    path: str
    ok: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "ok": self.ok,
            "diagnostics": [
                {
                    "line": d.line,
                    "severity": d.severity,
                    "message": d.message,
                    "check": d.check,
                    "file": d.path,
                }
                for d in self.diagnostics
            ],
        }


@dataclass(slots=True)
class CheckOptions:
    include_dirs: list[Path] = field(default_factory=list)
    soc: str = AUTO_SOC  # or a SoC name; `auto` decides per file (see surface.resolve_soc)
    snippet: bool = False  # reasoning fragments: missing context is expected, not an error


@dataclass(slots=True)
class _Unit:
    """One check's inputs: the entry, its repository files and what the parse needs around them."""

    path: Path
    display: str
    options: CheckOptions
    dirs: list[Path]
    sources: dict[str, str]  # normalised path -> text (launch syntax blanked)
    changed: dict[str, str]  # the subset clang must read from memory, not disk
    defines: dict[str, str]
    op_header: str
    missing: dict[str, Any]
    forwarded: dict[str, Path]
    soc: str = DEFAULT_SOC


class KernelChecker:
    """Reusable checker: one libclang index and one catalog for many files."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or load_catalog()
        self.index = ci.Index.create()
        # what an unknown name may be a misspelling of: the interface, not the compiler's short
        # lowercase built-ins (`plds` is no evidence that a variable `pids` was misspelt)
        self.api_names = set(api_names(self.catalog, types_and_macros=True))
        self.surface_names = self.catalog.known_names()
        self.records = frozenset(e.name for e in self.catalog.entries if e.kind == "class")
        self.tensor_apis = frozenset(
            e.name
            for e in self.catalog.entries
            if e.kind == "function" and any("Tensor<" in o.signature for o in e.overloads)
        )

    def check_file(
        self, path: Path, options: CheckOptions | None = None, overrides: dict[Path, str] | None = None
    ) -> CheckResult:
        options = options or CheckOptions()
        path = path.resolve()
        overrides = {p.resolve(): t for p, t in (overrides or {}).items()}
        if path not in overrides and not path.is_file():
            return CheckResult(str(path), False, [Diagnostic("input", "error", f"{path}: no such file")])
        return self._check(path, options, overrides, display=str(path))

    def check_source(
        self, text: str, name: str = "snippet.cpp", options: CheckOptions | None = None
    ) -> CheckResult:
        options = options or CheckOptions()
        path = Path(f"{VIRTUAL_ROOT}/snippets/{Path(name).name}")
        return self._check(path, options, {path: text}, display=name)

    def check_unit_code(self, code: str, entry: str, options: CheckOptions | None = None) -> CheckResult:
        """A unit's assembled code (entry file, then its repository headers behind marker lines)
        checked as the tree it came from: the files are written out under their repository
        paths in a temporary directory, so the entry's includes find its headers where the
        build did. Checked as one text instead, a header would come after the code that uses
        it. Paths in the result are the repository's."""
        files = split_unit_code(code, entry)
        relative = [PurePosixPath(rel) for rel, _ in files]
        if len(files) == 1 or any(p.is_absolute() or ".." in p.parts or not p.parts for p in relative):
            return self.check_source(code, Path(entry).name or "kernel.cpp", options)
        with tempfile.TemporaryDirectory(prefix="curate-unit-") as tmp:
            root = Path(tmp).resolve()
            for rel, (_, text) in zip(relative, files, strict=True):
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            result = self.check_file(root / relative[0], options)
        entry_dir = (root / relative[0]).parent

        def repository_path(shown: str) -> str:
            """The checker shows a header relative to the entry's folder, others absolutely."""
            if not shown:
                return shown
            full = os.path.normpath(entry_dir / shown)  # an absolute `shown` stays itself
            return Path(full).relative_to(root).as_posix() if full.startswith(f"{root}/") else shown

        diagnostics = [replace(d, path=repository_path(d.path)) for d in result.diagnostics]
        return CheckResult(entry, result.ok, diagnostics)

    def _check(
        self, path: Path, options: CheckOptions, overrides: dict[Path, str], display: str
    ) -> CheckResult:
        unit = self._prepare(path, options, overrides, display)
        tu = None
        for _ in range(MAX_REPARSES):
            tu = self._parse(unit)
            newly = self._newly_missing(tu, unit.missing)
            if not newly:
                break
            unit.missing.update(newly)
        assert tu is not None
        return self._judge(tu, unit)

    def _prepare(self, path: Path, options: CheckOptions, overrides: dict[Path, str], display: str) -> _Unit:
        on_disk = path.exists()
        dirs = local_include_dirs(path, options.include_dirs) if on_disk else list(options.include_dirs)
        plan = plan_includes(path, dirs, surface_include_dirs(), overrides)
        sources = {norm(str(p)): CHECK.readable(read_text(p, overrides)) for p in [path, *plan.local_files]}
        changed = {
            name: text
            for name, text in sources.items()
            if Path(name) in overrides or text != read_text(Path(name))
        }
        others = tuple(dict.fromkeys(op for f in plan.local_files if (op := operator_folder(f)) is not None))
        ctx_op = op_context("\n".join(sources.values()), operator_folder(path) if on_disk else None, others)
        return _Unit(
            path,
            display,
            options,
            dirs,
            sources,
            changed,
            ctx_op.defines,
            ctx_op.header,
            dict(plan.missing),
            plan.forwarded,
            resolve_soc(options.soc, [*sources, *sources.values()]),
        )

    def _parse(self, unit: _Unit) -> ci.TranslationUnit:
        force: list[str] = []
        if unit.missing:
            # A missing shared header normally brings the AscendC interface in (and the kernel may
            # rely on that instead of including kernel_operator.h itself).
            force.append(str(SURFACE_DIR / "kernel_operator.h"))
        unsaved = list(unit.changed.items())
        if unit.op_header:
            force.append(OP_CONTEXT_HEADER)
            unsaved.append((OP_CONTEXT_HEADER, unit.op_header))
        request = ParseRequest(
            entry=str(unit.path),
            use=CHECK,
            soc=unit.soc,
            include_dirs=[str(d) for d in unit.dirs],
            force_includes=force,
            defines=[f"{k}={v}" for k, v in unit.defines.items()],
            stubs={**missing_stubs(unit.missing), **forwarding_stubs(unit.forwarded)},
            unsaved=unsaved,
        )
        return parse(self.index, request)

    @staticmethod
    def _newly_missing(tu: ci.TranslationUnit, known: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for diag in tu.diagnostics:
            match = NOT_FOUND_RE.match(diag.spelling)
            if match and match.group("name") not in known:
                includer = Path(diag.location.file.name) if diag.location.file else Path()
                found[match.group("name")] = (includer, diag.location.line)
        return found

    def _judge(self, tu: ci.TranslationUnit, unit: _Unit) -> CheckResult:
        declared = declared_names(tu)
        own_texts = _unresolved_own_texts(unit)
        ctx = Context(
            api_names=self.api_names,
            declared=declared,
            missing_includes=any(not is_host_header(name) for name in unit.missing),
            host_missing=any(is_host_header(name) for name in unit.missing),
            unresolved_own_texts=own_texts,
            missing_vendor_only=bool(unit.missing)
            and not own_texts
            and all(is_vendor_header(n) or is_host_header(n) for n in unit.missing),
            snippet=unit.options.snippet,
            surface_names=self.surface_names,
            records=self.records,
            tensor_apis=self.tensor_apis,
            tiling_fields=tiling_fields(unit.op_header),
        )
        ctx.unit_declared = unit_declarations(tu, set(unit.sources))
        ctx.known = declared | ctx.unit_declared | included_macros(tu, unit.sources) | CPP_KEYWORDS
        calls = failed_calls(tu, set(unit.sources))
        ctx.class_headers = class_headers(tu, unit.sources)
        ctx.unit_text = "\n".join(unit.sources.values())

        def display(file: str) -> str:
            return _display_path(file, unit.path, unit.display)

        diagnostics = [
            Diagnostic(
                "include.missing",
                "warning",
                f"include '{name}' is not provided by the surface or the repository; stubbed",
                display(str(includer)),
                line,
            )
            for name, (includer, line) in sorted(unit.missing.items())
        ]
        diagnostics += judge(tu, unit.sources, ctx, self.catalog, calls, display)
        ok = not any(d.severity == "error" for d in diagnostics)
        return CheckResult(unit.display, ok, diagnostics)


# Headers only host code includes: the runtime (acl), the launch stubs the build generates, the CPU
# debug library, and C/C++ standard headers the surface does not provide. When only these are
# missing, device code (`__aicore__`/`__global__` functions, classes) is judged with full strictness.
HOST_HEADER_RE = re.compile(
    r"^(?:acl/|aclnn|aclrtlaunch_|tikicpulib\.h$|runtime/|experiment/|graph/|"
    r"[a-z_]+$|c?std\w*\.h$|(?:stdio|stdlib|string|math|unistd|fcntl|time|assert)\.h$|sys/)"
)


def _unresolved_own_texts(unit: _Unit) -> tuple[str, ...]:
    """Texts of the repository headers that missing includes probably name (at most a few each)."""
    root = repository_root(unit.path) if unit.path.exists() else None
    texts: list[str] = []
    for name in sorted(unit.missing):
        # the ones spelt like the include, nearest to the unit first
        found = repository_headers(root, name)
        found = [p for p in found if p.as_posix().endswith("/" + name)] or found
        found.sort(key=lambda p: -len(os.path.commonpath([p, unit.path])))
        texts += [read_text(p) for p in found[:4]]
    return tuple(texts)


def is_host_header(name: str) -> bool:
    return bool(HOST_HEADER_RE.match(name))


def _display_path(file: str, entry: Path, display: str) -> str:
    if not file or norm(file) == str(entry):
        return display
    try:
        return Path(file).relative_to(entry.parent).as_posix()
    except ValueError:
        return file


def check_file(path: Path, options: CheckOptions | None = None) -> CheckResult:
    return KernelChecker().check_file(path, options)


def check_source(text: str, name: str = "snippet.cpp", options: CheckOptions | None = None) -> CheckResult:
    return KernelChecker().check_source(text, name, options)
