"""The AscendC layer shared by the two libclang users: the ingest parser (`parsers/`) and the
kernel checker (`annotate/checker/`).

Where and why: it lives under `schemas/` because the rule of dependency (`schemas` <- `parsers`,
`dedup`, `annotate` <- `curate`) lets both stage packages reach `schemas/` and nothing else, and
both need the same facts about AscendC before any parse starts. It is the one place that knows
how AscendC differs from C++:

- this module: the language prelude (`keywords.h`), the API surface headers (`surface/`, data
  both sides read: the checker parses against them, the parser counts API calls by the names
  they declare), the virtual root of in-memory files, the include scan, where an operator
  directory starts, the rewrites of what clang cannot read (`<<<...>>>`, `[aicore]`), and the
  assembled unit's file markers;
- `soc`: the SoC families and their preprocessor macros;
- `frontend`: the one libclang driver (flags, preludes, stubs for missing includes, virtual
  files, parse options), with the ingest and the check as its two uses;
- `includes`: the one include resolver, with the ingest's and the checker's policies;
- `cursors`: small libclang cursor helpers (kinds, arity, signatures, skipped ranges);
- `catalog`: the API catalog derived from the surface (`surface/catalog.json`) and the API-name
  list both stages use (`api_names()`).

Importing this package does not load libclang; `frontend`, `cursors` and the catalog builder do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

KEYWORDS_HEADER = Path(__file__).resolve().parent / "keywords.h"
# The project's AscendC API surface: headers written for curate from the public interface (no
# vendor code). `kernel_operator.h` is the name kernels include; `libc/` answers the few C++
# standard headers device code includes (the checker parses with -nostdinc).
SURFACE_DIR = Path(__file__).resolve().parent / "surface"
SURFACE_PRELUDE = SURFACE_DIR / "asc_prelude.h"
SURFACE_ENTRY_HEADERS = ("kernel_operator.h", "lib/matmul_intf.h", "tikicpulib.h")
# The compiler's built-ins, as the surface declares them (catalog entries name this header).
BUILTINS_HEADER = "ascendc/intrinsics.h"
# Virtual files live under a directory that does not exist on disk; clang accepts them as long as
# the path it builds (include dir + spelled name, not normalised) matches the one registered.
VIRTUAL_ROOT = "/__curate__"
# The annotate attribute of an entry's `__global__` (and of `__aicore__`) in keywords.h.
GLOBAL_ANNOTATION = "global"

# A unit's code (KernelUnit.code) is assembled: the entry file, then each repository header it
# includes, behind a marker line that names the header relative to the repository root.
_UNIT_FILE_MARKER_RE = re.compile(r"^// ---- (?P<path>[^\n]+?) ----$", re.MULTILINE)


def unit_file_marker(path: str) -> str:
    return f"// ---- {path} ----"


def split_unit_code(code: str, entry: str) -> list[tuple[str, str]]:
    """The files of an assembled unit's code as (path, text), the entry first: the inverse of
    the ingest's assembly, so the unit can be checked as the tree it came from."""
    markers = list(_UNIT_FILE_MARKER_RE.finditer(code))
    ends = [m.start() for m in markers] + [len(code)]
    files = [(entry, code[: ends[0]].removesuffix("\n"))]
    for marker, end in zip(markers, ends[1:], strict=True):
        files.append((marker["path"], code[marker.end() + 1 : end].removesuffix("\n")))
    return files


INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
# A launch's configuration: tried only at the first `<` of a run (a later one cannot match where the
# first did not) and read at most 512 characters on (the longest in real repositories is 80).
# Unbounded, a hostile file of 100,000 `<` scanned to its end from each of them (73 s).
_CHEVRONS_RE = re.compile(r"(?<!<)<<<([^;{}]{0,512}?)>>>")
# `#define __aicore__ [aicore]`: the vendor compiler's own spelling of its qualifiers, which kernels
# of the older samples (and ops-blas) define themselves; C++ has no such syntax.
_BRACKET_ATTRIBUTE_DEFINE_RE = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+\w+[ \t]+\[(?:aicore|aicpu|host)\][ \t]*$", re.MULTILINE
)
# `kernel<<<grid, l2ctrl, stream>>>(args);`: a whole host-side launch statement. The kernel's name
# is tried only where a name starts, at most 256 characters long, and its arguments read at most
# 2,000 characters on (real ones: 64 and 449). Unbounded, a hostile file of one 50 KB word then
# `<<<` took 87 s (each character of the word a start), and 11,000 `k<<<a>>>(` without a `;`
# scanned to the end once each (0.6 s per 100 KB).
_LAUNCH_STATEMENT_RE = re.compile(
    r"(?<![\w:])[A-Za-z_][\w:]{0,255}(?:\s*<[^<>;]*>)?\s*<<<(?:[^<>]|<[^<>]*>)*?>>>\s*\([^;]{0,2000}\)\s*;"
)


@dataclass(frozen=True, slots=True)
class Include:
    name: str
    quoted: bool
    line: int


def scan_includes(text: str) -> list[Include]:
    """Every `#include` directive of a file, in order, with its line (conditional ones included)."""
    found: list[Include] = []
    for match in INCLUDE_RE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Include(match.group(2).strip(), match.group(1) == '"', line))
    return found


def operator_root(parts: tuple[str, ...]) -> int | None:
    """How many leading parts of a file's directory make its operator directory: everything before
    the last `op_kernel` folder (msopgen operator projects), or None when there is none."""
    if "op_kernel" not in parts:
        return None
    return len(parts) - 1 - parts[::-1].index("op_kernel")


def operator_dir(path: Path) -> Path | None:
    """`<op>/` for a file under `<op>/op_kernel/...`, else None."""
    k = operator_root(path.parent.parts)
    return Path(*path.parent.parts[:k]) if k is not None else None


def operator_dir_of(rel: str) -> str | None:
    """The same for a repository-relative POSIX path (`""` for an operator at the root)."""
    parent = PurePosixPath(rel).parent.parts
    k = operator_root(parent)
    return "/".join(parent[:k]) if k is not None else None


# An operator's host side beside its `op_kernel/`: its tiling and OpDef, and the PyTorch binding
# MultiKernelBench's and EvoKernel's op trees ship (`CppExtension/csrc/op.cpp`).
OPERATOR_HOST_FOLDERS = ("op_host", "CppExtension", "CppExtensions")
# The host program of a direct-invoke sample (its kernel launched by `<<<>>>` or
# `ACLRT_LAUNCH_KERNEL`): ingest finds it beside the kernel, audit reads the two as one sample.
HOST_MAIN_NAMES = ("main.cpp", "main.cc")


def operator_folder_of(rel: str) -> str | None:
    """`<op>` for a file under `<op>/op_kernel/` or one of its host folders, else None: the
    folder a file of any side of an operator belongs to, where `operator_dir_of` knows kernels."""
    parts = PurePosixPath(rel).parent.parts
    at = [k for k, part in enumerate(parts) if part == "op_kernel" or part in OPERATOR_HOST_FOLDERS]
    return "/".join(parts[: at[-1]]) if at else None


def rewrite_launches(text: str) -> str:
    """`k<<<grid, nullptr, stream>>>(args)` -> `k/*<grid, nullptr, stream>*/(args)`, same length:
    the parser still sees the call to the kernel, and line and column numbers hold."""
    if "<<<" not in text:
        return text
    return _CHEVRONS_RE.sub(lambda m: "/*<" + m.group(1).replace("*/", "* ") + ">*/", text)


def blank_bracket_attribute_defines(text: str) -> str:
    """Blank `#define __aicore__ [aicore]` lines (same length), so the qualifier keeps the meaning
    the prelude gives it; the rest of the file reads as before."""
    if "[" not in text:
        return text
    return _BRACKET_ATTRIBUTE_DEFINE_RE.sub(lambda m: " " * len(m.group(0)), text)


def blank_launch_statements(text: str) -> str:
    """Blank whole host-side launch statements, keeping line and column positions: the checker
    judges device code, and a launch says nothing about it."""
    if "<<<" not in text:
        return text
    return _LAUNCH_STATEMENT_RE.sub(_blank_launch, text)


def _blank_launch(match: re.Match[str]) -> str:
    statement = match.group(0)
    if "\\\n" in statement:
        # inside a macro (`Kernel_##SUFFIX<<<...>>>(args)`): blanking would cut its token pasting
        return rewrite_launches(statement)
    return re.sub(r"[^\n]", " ", statement)


def surface_include_dirs() -> list[Path]:
    return [SURFACE_DIR, SURFACE_DIR / "libc"]


def is_surface_file(path: str) -> bool:
    """A file of the surface, or the shared language prelude the surface builds on."""
    try:
        resolved = Path(path).resolve()
        return resolved.is_relative_to(SURFACE_DIR) or resolved == KEYWORDS_HEADER
    except (OSError, ValueError):
        return False
