"""What the operator build system injects into a kernel, rebuilt from the operator's own sources.

An msopgen-style build compiles `op_kernel/<op>.cpp` with two generated things the kernel never
includes itself: the tiling structure (from `BEGIN_TILING_DATA_DEF` blocks on the host side,
read by `GET_TILING_DATA`) and one `DTYPE_<INPUT>` / `ORIG_DTYPE_<INPUT>` macro per input and
output (from the OpDef's first listed data type). The checker rebuilds both so that real kernels
type-check; when the operator sources are not there, the placeholders are lenient.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from schemas.ascendc import VIRTUAL_ROOT, operator_dir, scan_includes
from schemas.ascendc.includes import read_text, repository_root
from schemas.cpp import mask_comments_and_literals

OP_CONTEXT_HEADER = f"{VIRTUAL_ROOT}/opcontext/curate_op_context.h"
UNKNOWN_TILING = "CurateUnknownTilingData"
MERGED_TILING = "CurateOpTilingData"

_BUILD_MACRO_RE = re.compile(r"\b(DTYPE|ORIG_DTYPE|FORMAT)_([A-Z0-9_]+)\b")
_DEFINED_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)
# Each run is bounded and split one way only: a typedef's type is read at most 256 characters on
# up to the blank before the name, a constant's type at most 128. Before, a run of spaces after
# `typedef` was split every way between the type's spaces and the blank (minutes for 20 KB), and
# a run of `a:` scanned from each of its positions (found by helper redos).
_DECLARED_RE = re.compile(
    r"\b(?:using\s+|typedef\s[^;]{0,256}?\s|struct\s+|class\s+)((?:DTYPE|ORIG_DTYPE|FORMAT)_\w+)"
    r"|\b[\w:>]{1,128}\s+((?:DTYPE|ORIG_DTYPE|FORMAT)_\w+)\s*=(?!=)"  # a constant of the kernel's own
)
_BEGIN_RE = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)END_TILING_DATA_DEF", re.DOTALL)
_FIELD_RE = re.compile(r"TILING_DATA_FIELD_DEF(_ARR|_STRUCT)?\s*\(([^)]*)\)")
_REGISTER_RE = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")
_IO_RE = re.compile(r"this->(Input|Output)\(\s*\"(\w+)\"\s*\)(.*?)(?=this->|OP_ADD|\Z)", re.DOTALL)
_DTYPE_LIST_RE = re.compile(r"\.DataType(?:List)?\(\s*\{\s*(?:ge::)?(DT_\w+)")
_CONST_RE = re.compile(
    r"(?:constexpr|const|#define)\s+(?:[\w:]+\s+)?(\w+)\s*=?\s*\(?\s*(\d+)\s*[uUlL]*\s*\)?"
)
_STRUCT_DEF_RE = re.compile(r"\b(?:struct|class)\s+(\w+)\s*(?:final\s*)?(?::[^{;]*)?\{")

# ge::DataType -> the C++ element type the kernel sees for DTYPE_<X>.
DT_TO_CTYPE = {
    "DT_FLOAT": "float",
    "DT_FLOAT16": "half",
    "DT_BF16": "bfloat16_t",
    "DT_INT8": "int8_t",
    "DT_UINT8": "uint8_t",
    "DT_INT16": "int16_t",
    "DT_UINT16": "uint16_t",
    "DT_INT32": "int32_t",
    "DT_UINT32": "uint32_t",
    "DT_INT64": "int64_t",
    "DT_UINT64": "uint64_t",
    "DT_BOOL": "bool",
    "DT_DOUBLE": "double",
    "DT_COMPLEX32": "complex32",
    "DT_COMPLEX64": "complex64",
    "DT_INT4": "int4b_t",
    "DT_HIFLOAT8": "hifloat8_t",
    "DT_FLOAT8_E5M2": "fp8_e5m2_t",
    "DT_FLOAT8_E4M3FN": "fp8_e4m3fn_t",
    "DT_FLOAT8_E8M0": "fp8_e8m0_t",
}


@dataclass(slots=True)
class TilingStruct:
    name: str
    fields: list[tuple[str, str, str]] = field(default_factory=list)  # (type, name, array size or "")


@dataclass(slots=True)
class OpContext:
    defines: dict[str, str] = field(default_factory=dict)
    header: str = ""
    tiling_source: str = ""  # "host" when synthesised from op_host, "" when unknown


def camel_case(snake: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in snake.split("_") if part)


HOST_DIR_NAMES = ("op_host", "ophost")  # msopgen projects; cann-ops-adv style operator folders


def host_dir(op_dir: Path | None) -> Path | None:
    for name in HOST_DIR_NAMES:
        if op_dir is not None and (op_dir / name).is_dir():
            return op_dir / name
    return None


def operator_folder(entry: Path) -> Path | None:
    """The operator folder of a kernel entry: `<op>/` of `<op>/op_kernel/...`, or the entry's own
    folder when it holds the host side beside the kernel (`<op>/<op>.cpp` with `<op>/ophost/`)."""
    op = operator_dir(entry)
    if op is not None:
        return op
    return entry.parent if host_dir(entry.parent) is not None else None


def host_sources(op_dir: Path | None) -> list[Path]:
    """The operator's host sources, plus the host headers they include from other operators
    (a shared tiling definition lives in one operator and is included by its siblings)."""
    host = host_dir(op_dir)
    if host is None:
        return []
    own = sorted(p for p in host.rglob("*") if p.suffix in (".h", ".hpp", ".cpp", ".cc"))
    found = list(own)
    root = repository_root(host / "x")
    queue = list(own)
    while queue and len(found) < 200:
        current = queue.pop(0)
        for inc in scan_includes(read_text(current)):
            if not inc.quoted:
                continue
            for base in (current.parent, root):
                candidate = (base / inc.name).resolve() if base is not None else None
                if candidate is not None and candidate.is_file() and candidate not in found:
                    if "TILING_DATA" in read_text(candidate):
                        found.append(candidate)
                        queue.append(candidate)
                    break
    return found


_INDEX_SKIP = {".git", "build", "build_out", "output", "tests", "test"}
_TILING_INDEXES: dict[Path, dict[str, Path]] = {}


def repository_tiling_index(root: Path | None) -> dict[str, Path]:
    """Every `BEGIN_TILING_DATA_DEF(Name)` of a repository's headers: name -> file. Tiling
    structures shared between operators live anywhere (`common/inc/tiling/...`). Read once per
    repository and process."""
    if root is None:
        return {}
    if root not in _TILING_INDEXES:
        index: dict[str, Path] = {}
        for path in sorted(root.rglob("*.h")):
            if _INDEX_SKIP & set(path.relative_to(root).parts[:-1]):
                continue
            text = read_text(path)
            if "BEGIN_TILING_DATA_DEF" in text:
                for name in re.findall(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)", text):
                    index.setdefault(name, path)
        _TILING_INDEXES[root] = index
    return _TILING_INDEXES[root]


def _array_size(expr: str, constants: dict[str, str]) -> str:
    expr = expr.strip()
    if re.fullmatch(r"\d+[uUlL]*", expr):
        return expr
    return constants.get(expr, "64")


_IF_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def active_text(text: str) -> str:
    """The text without comments and without `#if 0` regions (their `#else` kept): what a
    compiler reads of a host source, as far as it matters for tiling definitions."""
    out: list[str] = []
    dead: list[bool] = []  # per open #if: whether the branch being read is the body of an `#if 0`
    for line in mask_comments_and_literals(text).splitlines():
        match = _IF_RE.match(line)
        if match:
            kind, rest = match.groups()
            if kind in ("if", "ifdef", "ifndef"):
                dead.append(kind == "if" and rest.strip() in ("0", "(0)", "false"))
            elif kind in ("else", "elif") and dead:
                dead[-1] = False  # what follows an `#if 0` is read; other branches stay as they are
            elif kind == "endif" and dead:
                dead.pop()
            out.append("")
            continue
        out.append("" if any(dead) else line)
    return "\n".join(out)


def parse_tiling_structs(texts: list[str]) -> tuple[list[TilingStruct], list[tuple[str, str]]]:
    """BEGIN_TILING_DATA_DEF blocks and REGISTER_TILING_DATA_CLASS pairs of the host sources."""
    texts = [active_text(t) for t in texts]
    structs: dict[str, TilingStruct] = {}
    registered: list[tuple[str, str]] = []
    constants: dict[str, str] = {}
    for text in texts:
        for name, value in _CONST_RE.findall(text):
            constants.setdefault(name, value)
    for text in texts:
        for name, body in _BEGIN_RE.findall(text):
            ts = structs.setdefault(name, TilingStruct(name))
            if ts.fields:
                continue
            for kind, raw in _FIELD_RE.findall(body):
                parts = [p.strip() for p in raw.split(",")]
                if kind == "_ARR" and len(parts) == 3:
                    ts.fields.append((parts[0], parts[2], _array_size(parts[1], constants)))
                elif len(parts) == 2:
                    ts.fields.append((parts[0], parts[1], ""))
        registered += _REGISTER_RE.findall(text)
    return list(structs.values()), registered


def _ordered(structs: list[TilingStruct]) -> list[TilingStruct]:
    """Nested structures first, so every field type is complete where it is used."""
    by_name = {s.name: s for s in structs}
    done: list[TilingStruct] = []
    visiting: set[str] = set()

    def visit(s: TilingStruct) -> None:
        if s in done or s.name in visiting:
            return
        visiting.add(s.name)
        for ftype, _, _ in s.fields:
            if ftype in by_name:
                visit(by_name[ftype])
        done.append(s)

    for s in structs:
        visit(s)
    return done


def _render_struct(name: str, fields: list[tuple[str, str, str]]) -> str:
    lines = [f"struct {name} {{"]
    for ftype, fname, size in fields:
        lines.append(f"    {ftype} {fname}{f'[{size}]' if size else ''};")
    lines.append("};")
    return "\n".join(lines)


def _render_merged(classes: list[str], by_name: dict[str, TilingStruct]) -> str:
    """One structure usable as any registered class: it derives from all of them (so it converts
    to each), and redeclares the fields two of them share (so a field access is not ambiguous)."""
    counts: dict[str, int] = {}
    for cls in classes:
        for _, fname, _ in by_name[cls].fields:
            counts[fname] = counts.get(fname, 0) + 1
    shared: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for cls in classes:
        for f in by_name[cls].fields:
            if counts[f[1]] > 1 and f[1] not in seen:
                seen.add(f[1])
                shared.append(f)
    body = _render_struct(MERGED_TILING, shared)
    return body.replace(f"struct {MERGED_TILING} {{", f"struct {MERGED_TILING} : {', '.join(classes)} {{", 1)


def _indexed_structs(op_dir: Path | None, unit_text: str, known: set[str]) -> list[TilingStruct]:
    """Tiling structures the kernel names that are defined elsewhere in its repository (and the
    structures their fields need)."""
    index = repository_tiling_index(repository_root(op_dir / "x") if op_dir is not None else None)
    if not index:
        return []
    wanted = {n for n in set(re.findall(r"\b[A-Za-z_]\w*\b", unit_text)) if n in index and n not in known}
    found: list[TilingStruct] = []
    while wanted:
        texts = [read_text(index[n]) for n in sorted(wanted)]
        by_name = {s.name: s for s in parse_tiling_structs(texts)[0]}
        new = [by_name[n] for n in sorted(wanted) if n in by_name]
        found += new
        known |= {s.name for s in new} | wanted
        wanted = {f[0] for s in new for f in s.fields if f[0] in index and f[0] not in known}
    return found


def tiling_header(op_dir: Path | None, unit_text: str, other_ops: tuple[Path, ...] = ()) -> tuple[str, str]:
    """(header text, source) for the operator's tiling structures, and those of the operators
    whose kernel headers it includes (a kernel reusing a sibling's header reads its tiling)."""
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in host_sources(op_dir)]
    structs, registered = parse_tiling_structs(texts)
    own = {s.name for s in structs}
    has_own = bool(structs)
    for other in other_ops:
        if other == op_dir:
            continue
        other_texts = [p.read_text(encoding="utf-8", errors="replace") for p in host_sources(other)]
        structs += [s for s in parse_tiling_structs(other_texts)[0] if s.name not in own]
        own |= {s.name for s in structs}
    structs += _indexed_structs(op_dir, unit_text, own)
    if not structs:
        return "", ""
    defined_by_kernel = set(_STRUCT_DEF_RE.findall(unit_text))
    by_name = {s.name: s for s in structs}
    parts = ['#include "kernel_tiling/kernel_tiling.h"']
    for s in _ordered(structs):
        if s.name not in defined_by_kernel:
            parts.append(_render_struct(s.name, s.fields))
    op_type = camel_case(op_dir.name) if op_dir is not None else ""
    chosen = [cls for op, cls in registered if op == op_type or op.startswith(op_type + "_")] or [
        cls for _, cls in registered
    ]
    classes = list(dict.fromkeys(c for c in chosen if c in by_name)) or [s.name for s in structs[:1]]
    if not has_own:
        pass  # only other operators' structures: the kernel's own default stays unknown
    elif len(classes) == 1:
        parts.append(f"#define CURATE_DEFAULT_TILING_TYPE {classes[0]}")
    else:
        parts.append(_render_merged(classes, by_name))
        parts.append(f"#define CURATE_DEFAULT_TILING_TYPE {MERGED_TILING}")
    return "\n".join(parts) + "\n", "host"


def op_dtypes(op_dir: Path | None) -> dict[str, str]:
    """Upper-case tensor name -> first ge data type listed in the OpDef."""
    found: dict[str, str] = {}
    for path in host_sources(op_dir):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "this->Input(" not in text and "this->Output(" not in text:
            continue
        for _, name, chain in _IO_RE.findall(text):
            match = _DTYPE_LIST_RE.search(chain)
            if match:
                found.setdefault(name.upper(), match.group(1))
    return found


_FORMAT_LIST_RE = re.compile(r"\.Format(?:List)?\(\s*\{\s*(?:ge::)?FORMAT_(\w+)")
# ge::Format values (the graph engine's public enumeration) of the formats kernels compare with.
GE_FORMATS = {
    "NCHW": 0,
    "NHWC": 1,
    "ND": 2,
    "NC1HWC0": 3,
    "FRACTAL_Z": 4,
    "NC1HWC0_C04": 12,
    "FRACTAL_Z_C04": 13,
    "HWCN": 16,
    "NDHWC": 27,
    "FRACTAL_NZ": 29,
    "NCDHW": 30,
    "DHWCN": 31,
    "NDC1HWC0": 32,
    "FRACTAL_Z_3D": 33,
    "NC": 35,
    "NCL": 47,
}


def op_formats(op_dir: Path | None) -> dict[str, str]:
    """Upper-case tensor name -> first format listed in the OpDef (without `FORMAT_`)."""
    found: dict[str, str] = {}
    for path in host_sources(op_dir):
        text = path.read_text(encoding="utf-8", errors="replace")
        for _, name, chain in _IO_RE.findall(text):
            match = _FORMAT_LIST_RE.search(chain)
            if match:
                found.setdefault(name.upper(), match.group(1))
    return found


def _fallback_dtype(name: str) -> str:
    upper = name.upper()
    if any(k in upper for k in ("INDEX", "INDICE", "IDX", "OFFSET", "SHAPE", "SIZE", "AXIS", "POS")):
        return "DT_INT32"
    if any(k in upper for k in ("MASK", "BOOL", "COND")):
        return "DT_BOOL"
    return "DT_FLOAT"


def build_macros(unit_text: str, op_dir: Path | None) -> dict[str, str]:
    """-D values for the DTYPE_/ORIG_DTYPE_/FORMAT_ macros a kernel uses but does not define."""
    used = {(kind, name) for kind, name in _BUILD_MACRO_RE.findall(unit_text) if not name.endswith("_")}
    if not used:
        return {}
    defined = set(_DEFINED_RE.findall(unit_text)) | {a or b for a, b in _DECLARED_RE.findall(unit_text)}
    macros: dict[str, str] = {}
    if any(kind == "FORMAT" for kind, _ in used):
        # the build names every ge::Format numerically, and each tensor's format after its OpDef
        macros.update({f"FORMAT_{name}": str(value) for name, value in GE_FORMATS.items()})
        formats = op_formats(op_dir)
        for _, name in sorted(n for n in used if n[0] == "FORMAT" and n[1] not in GE_FORMATS):
            if f"FORMAT_{name}" not in defined:
                macros[f"FORMAT_{name}"] = str(GE_FORMATS.get(formats.get(name, "ND"), GE_FORMATS["ND"]))
    used = {(kind, name) for kind, name in used if kind != "FORMAT"}
    dtypes = op_dtypes(op_dir)
    if dtypes:
        # The build defines one macro per OpDef tensor; other DTYPE_ spellings are the kernel's own.
        used = {(kind, name) for kind, name in used if name in dtypes}
    for kind, name in sorted(used):
        macro = f"{kind}_{name}"
        if macro in defined:
            continue
        dt = dtypes.get(name) or _fallback_dtype(name)
        if kind == "DTYPE":
            macros[macro] = DT_TO_CTYPE.get(dt, "float")
        elif kind == "ORIG_DTYPE":
            macros[macro] = dt if dt in DT_TO_CTYPE else "DT_FLOAT"
    return macros


_REGISTER_DEFAULT_RE = re.compile(r"REGISTER_TILING_DEFAULT\s*\(\s*([\w:]+)\s*\)")


def op_context(unit_text: str, op_dir: Path | None, other_ops: tuple[Path, ...] = ()) -> OpContext:
    """The injected context of one kernel. A kernel that names its default tiling structure with
    REGISTER_TILING_DEFAULT(S) reads S through GET_TILING_DATA, whatever the host registered."""
    header, source = tiling_header(op_dir, unit_text, other_ops)
    registered = _REGISTER_DEFAULT_RE.findall(unit_text)
    if registered:
        header = re.sub(r"(?m)^#define CURATE_DEFAULT_TILING_TYPE .*$", "", header)
        header += f"#define CURATE_DEFAULT_TILING_TYPE {registered[0]}\n"
        source = source or "kernel"
    return OpContext(defines=build_macros(unit_text, op_dir), header=header, tiling_source=source)


_RENDERED_STRUCT_RE = re.compile(r"^struct (\w+)(?: : [^{]*)? \{\n(.*?)^\};", re.MULTILINE | re.DOTALL)
# A field is one line of the rendered struct, at most 512 characters (unbounded and across lines, a
# hostile header of 5 KB took 5.4 s; found by helper redos).
_RENDERED_FIELD_RE = re.compile(r"^    [^;\n]{0,512}?\b(\w{1,128})(?:\[[^\]\n]{0,64}\])?;$", re.MULTILINE)


def tiling_fields(header: str) -> dict[str, set[str]]:
    """The fields of each tiling structure an op-context header declares (its own rendering)."""
    return {name: set(_RENDERED_FIELD_RE.findall(body)) for name, body in _RENDERED_STRUCT_RE.findall(header)}
