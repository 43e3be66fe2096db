"""From one entry file to its kernel units: the parse, the facts, the host side, the labels."""

from __future__ import annotations

import dataclasses
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from parsers import facts as text_facts
from parsers.clang_frontend import ClangFacts, Entry, parse_unit
from parsers.classify import category_and_level
from parsers.docs import DocFinder
from parsers.files import list_files, read_inside
from parsers.host import parse_op_def, tiling_function
from parsers.library import UnitFiles, is_library_header, unit_files
from parsers.licenses import LicenseFiles, unit_license
from schemas import Diagnostic, KernelUnit, OperatorDoc, TilingField, code_size, stable_id
from schemas.ascendc import HOST_MAIN_NAMES, OPERATOR_HOST_FOLDERS, operator_dir_of
from schemas.ascendc.includes import IncludeClosure, RepoIndex, assemble_code, include_closure
from schemas.ascendc.soc import DEFAULT_SOC, soc_profile
from schemas.cpp import mask_comments_and_literals

# The branch of `#if __CCE_AICORE__ == ...` that the parser sees: the default SoC family's
# (Ascend910B, arch 220; the families are defined once, in schemas/ascendc/soc.py).
DEFAULT_DEFINES = [f"__CCE_AICORE__={soc_profile(DEFAULT_SOC).cce_aicore}"]
_ANSWER_RE = re.compile(r"(?:^|/)answer/[^/]+/")
_HOST_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")
_NAME_SUFFIXES = ("_custom", "_sample", "_kernel", "_apt", "_demo")


@dataclass(slots=True)
class SourceInfo:
    """What every unit of one ingested source shares."""

    name: str
    origin_url: str
    commit: str
    path_prefix: str  # the ingested directory relative to the repository root ("" when it is the root)


@dataclass
class RepoContext:
    root: Path  # the ingested directory; every path below is relative to it
    index: RepoIndex
    source: SourceInfo
    max_diagnostics: int = 20
    std: str = "c++17"
    defines: list[str] = field(default_factory=lambda: list(DEFAULT_DEFINES))
    clang: ci.Index = field(default_factory=ci.Index.create)
    licenses: LicenseFiles | None = None
    docs: DocFinder | None = None
    _texts: dict[str, str | None] = field(default_factory=dict)

    def read(self, rel: str) -> str | None:
        if rel not in self._texts:
            self._texts[rel] = read_inside(self.root, rel)  # inside the root, regular files only
        return self._texts[rel]

    def list_dir(self, rel: str) -> list[str]:
        """File names in a directory of the ingested tree ([] when it is not one)."""
        return list_files(self.root, rel)

    def doc_finder(self) -> DocFinder:
        if self.docs is None:
            self.docs = DocFinder(self.list_dir, self.read)
        return self.docs

    def license_files(self) -> LicenseFiles:
        if self.licenses is None:
            self.licenses = LicenseFiles(self.root)
        return self.licenses


def layout_of(rel: str, code: str, ctx: RepoContext) -> str:
    parts = rel.split("/")
    if _ANSWER_RE.search(rel):
        return "benchmark-task"
    if "CATLASS_GLOBAL" in code:
        return "catlass"
    if "op_kernel" in parts[:-1]:
        return "msopgen"
    if rel.endswith(".asc"):
        return "single-source"
    if host_main(rel, ctx):
        return "direct-invoke"
    return "standalone"


def host_main(rel: str, ctx: RepoContext) -> str:
    """The host `main.cpp` (or `main.cc`) of a direct-invoke sample: beside the kernel or one
    level up."""
    here = posixpath.dirname(rel)
    for folder in (here, posixpath.dirname(here)):
        for name in HOST_MAIN_NAMES:
            cand = posixpath.normpath(posixpath.join(folder, name))
            if cand in ctx.index.files and cand != rel:
                return cand
    return ""


def operator_dir(rel: str) -> str:
    """The operator directory: the parent of `op_kernel/`, else the entry's own directory."""
    found = operator_dir_of(rel)
    return found if found is not None else posixpath.dirname(rel)


def op_name_of(rel: str, layout: str) -> str:
    """snake_case operator name: the operator directory (or the file, for loose files)."""
    op_dir = operator_dir(rel)
    if layout == "benchmark-task":
        # tasks/level1/Elementwise/AddCustom/answer/0/op_kernel/add_custom.cpp -> AddCustom
        before_answer = rel[: _ANSWER_RE.search(rel).start()]  # type: ignore[union-attr]
        base = posixpath.basename(before_answer)
    elif layout in ("msopgen", "direct-invoke", "catlass", "single-source") and op_dir:
        base = posixpath.basename(op_dir)
    else:
        base = posixpath.splitext(posixpath.basename(rel))[0]
    return normalise_op_name(base)


def operator_doc(rel: str, layout: str, ctx: RepoContext) -> OperatorDoc | None:
    """The operator's documentation (README, docs/*.md, api_desc.md), paths as the unit's path."""
    if layout == "benchmark-task":
        stop: str | None = rel[: _ANSWER_RE.search(rel).start()]  # type: ignore[union-attr]
    else:
        stop = operator_dir_of(rel)
    doc = ctx.doc_finder().for_entry(rel, stop or None)
    if doc is None or not ctx.source.path_prefix:
        return doc
    prefix = ctx.source.path_prefix
    return dataclasses.replace(
        doc, path=posixpath.join(prefix, doc.path), sources=[posixpath.join(prefix, p) for p in doc.sources]
    )


def normalise_op_name(name: str) -> str:
    snake = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    # From a run of capitals' first (a later start matches where the first does not): from every
    # capital, a 100 KB capitalised name took 80 s.
    snake = re.sub(r"(?<![A-Z])([A-Z]+)([A-Z][a-z])", r"\1_\2", snake).lower()
    snake = re.sub(r"[^a-z0-9]+", "_", snake).strip("_")
    for suffix in _NAME_SUFFIXES:
        if snake.endswith(suffix) and len(snake) > len(suffix):
            snake = snake[: -len(suffix)]
    return snake


def host_sources(rel: str, layout: str, ctx: RepoContext) -> list[str]:
    """Host-side files of the unit: `op_host/**` for operators, with the PyTorch binding their
    folder ships (`CppExtension/**`, MultiKernelBench's and EvoKernel's layout: what the op is
    called with), `main.cpp` for direct invoke."""
    if layout in ("msopgen", "benchmark-task"):
        op_dir = operator_dir(rel)
        base = (op_dir + "/") if op_dir else ""
        prefixes = tuple(f"{base}{sub}/" for sub in OPERATOR_HOST_FOLDERS)
        return sorted(f for f in ctx.index.files if f.startswith(prefixes) and f.endswith(_HOST_SUFFIXES))
    main = host_main(rel, ctx) if layout == "direct-invoke" else ""
    return [main] if main else []


def distinct_entries(entries: list[Entry]) -> list[Entry]:
    """Each definition once: a file that includes itself (an include cycle) is read again up to
    the compiler's depth limit, and every round would give the same entry again."""
    return list({(e.file, e.line, e.name): e for e in entries}.values())


def top_level_entries(entries: list[Entry]) -> list[Entry]:
    """Entries not called by another entry of the same file set (`op` calling `op_impl<...>`)."""
    names = {e.name for e in entries}
    called: set[str] = set()
    for e in entries:
        body = e.body.split("{", 1)[1] if "{" in e.body else ""
        called |= {n for n in names if n != e.name and re.search(rf"\b{re.escape(n)}\b", body)}
    top = [e for e in entries if e.name not in called]
    return top or entries


def own_entries(entries: list[Entry], rel: str, files: UnitFiles) -> list[Entry]:
    """The entries that are this file's kernels. A shared adapter entry (catlass's
    `KernelAdapter<Operator>` in the library, a test harness's `KERNEL_NAME<Kernel>` in a common
    header) is the file's kernel only when the file defines none itself, and then once, named
    after the library class the file instantiates (`BasicMatmul`)."""
    own_dir = posixpath.dirname(rel)

    def shared(entry: Entry) -> bool:
        if is_library_header(entry.file, rel):
            return True
        # beside a library, an entry outside the file's folder is a harness the file reuses
        return bool(files.named) and entry.file != rel and not entry.file.startswith(own_dir + "/")

    own = [e for e in entries if not shared(e)]
    if own or not entries:
        return own
    adapter = entries[0]
    return [dataclasses.replace(adapter, name=files.operator or adapter.name)]


def tiling_of(code: str, host_code: str, parsed: ClangFacts) -> tuple[str, list[TilingField]]:
    """The tiling data definition: macro style (op_host or kernel), or the plain struct the kernel names."""
    for struct_name in text_facts.tiling_struct_names(code):
        if struct_name in parsed.structs:
            return struct_name, parsed.structs[struct_name].fields
    for text in (host_code, code):
        name, fields = text_facts.tiling_macro_fields(text)
        if name:
            return name, fields
    for struct in parsed.structs.values():
        if "tiling" in struct.name.lower():
            return struct.name, struct.fields
    return "", []


def units_for_entry_file(rel: str, ctx: RepoContext) -> list[KernelUnit]:
    """Every top-level kernel entry reachable from `rel` as a KernelUnit (none when there is none)."""
    closure: IncludeClosure = include_closure(rel, ctx.index, ctx.read)
    texts = {f: ctx.read(f) or "" for f in closure.files}
    parsed = parse_unit(
        ctx.clang,
        ctx.root,
        closure.files,
        texts,
        closure.external,
        closure.include_dirs,
        ctx.defines,
        ctx.std,
    )
    files = unit_files(closure.files, ctx.read)
    entries = own_entries(top_level_entries(distinct_entries(parsed.entries)), rel, files)
    if not entries:
        return []
    code = assemble_code(files.assembled, ctx.read)
    stripped = mask_comments_and_literals(code)
    layout = layout_of(rel, code, ctx)
    if files.named and layout in ("standalone", "direct-invoke"):
        layout = "catlass"  # an example of a header-only template library (catlass's layout)
    host_files = host_sources(rel, layout, ctx)
    host_code = assemble_code(host_files, ctx.read) if host_files else ""
    host_stripped = mask_comments_and_literals(host_code)
    constants = text_facts.integer_constants(stripped)
    apis = text_facts.api_calls(stripped, parsed.defined_functions)
    positions = text_facts.queue_positions(stripped)
    tiling_name, tiling_fields = tiling_of(stripped, host_stripped, parsed)
    op_name = op_name_of(rel, layout)
    license_id = unit_license(texts[rel], posixpath.dirname(rel), ctx.license_files())
    diagnostics = _capped(parsed, ctx.max_diagnostics)
    out_path = posixpath.join(ctx.source.path_prefix, rel) if ctx.source.path_prefix else rel
    lines, chars, tokens = code_size(code)
    doc = operator_doc(rel, layout, ctx)
    units = []
    seen: dict[str, int] = {}
    for entry in entries:
        category, level = category_and_level(op_name, entry.name, apis)
        # A file may define the same name twice (a template entry and an extern "C" one):
        # the second and later ones get their ordinal in the id, the first keeps the plain id.
        seen[entry.name] = seen.get(entry.name, 0) + 1
        ordinal = [f"#{seen[entry.name]}"] if seen[entry.name] > 1 else []
        units.append(
            KernelUnit(
                unit_id=stable_id(ctx.source.name, out_path, entry.name, *ordinal),
                source=ctx.source.name,
                origin_url=ctx.source.origin_url,
                commit=ctx.source.commit,
                path=out_path,
                layout=layout,
                op_name=op_name,
                kernel_name=entry.name,
                params=entry.params,
                template_params=entry.template_params,
                kernel_classes=parsed.classes,
                tiling_struct=tiling_name,
                tiling_fields=tiling_fields,
                tiling_keys=text_facts.tiling_keys(stripped, constants),
                host_tiling=tiling_function(host_code) if host_code else "",
                op_def=parse_op_def(host_code) if host_code else None,
                apis=apis,
                queue_positions=positions,
                buffer_num=text_facts.buffer_num(stripped, constants),
                core_type=text_facts.core_type(stripped, apis, positions),
                category=category,
                level=level,
                license=license_id,
                code=code,
                host_code=host_code,
                includes=[posixpath.join(ctx.source.path_prefix, f) for f in closure.files[1:]],
                preprocessor=list(ctx.defines),
                loc=sum(1 for line in code.splitlines() if line.strip()),
                parse_status="partial" if parsed.error_count else "full",
                diagnostics=diagnostics,
                lines=lines,
                chars=chars,
                tokens=tokens,
                doc=doc,
            )
        )
    return units


def _capped(parsed: ClangFacts, limit: int) -> list[Diagnostic]:
    kept = parsed.diagnostics[:limit]
    if len(parsed.diagnostics) > limit:
        kept.append(Diagnostic("clang", "note", f"{len(parsed.diagnostics) - limit} more errors not kept"))
    return kept
