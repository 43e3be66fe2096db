"""The one libclang driver for AscendC: how a kernel file becomes a translation unit.

Plain clang cannot read AscendC: `__aicore__`, `__global__`, `__gm__`, `GM_ADDR` and the
`<<<...>>>` launch syntax are not C++, and the vendor headers are absent. Every parse therefore
- runs as C++17 with no system directory (`-nostdinc`), so a result depends on the inputs alone
  and is the same on every machine, and with no error limit;
- force-includes the AscendC keywords (`keywords.h`): `__global__` and `__aicore__` become
  `annotate` attributes, so a cursor still tells a kernel entry from a helper;
- defines the macros of one SoC family (`soc.py`), which decide the `#if` branches compiled;
- reads the files whose text it needs changed (launch syntax, bracket attributes) from memory,
  under their own paths, so line and column numbers hold;
- answers an include nobody provides with a stub from a virtual directory searched first.

Two uses differ in what they need, and are the parameters here:
- `INGEST` (`parsers/`): structure only (entries, classes, tiling structs). No API surface, no
  clang resource headers, launches kept as comments (the call to the kernel stays visible),
  incomplete-TU tolerance: clang still yields the entry and the kernel classes despite the
  semantic errors, which become the unit's diagnostics.
- `CHECK` (`annotate/checker/`): a type check against the surface. The surface prelude and
  directories, spell checking (for "did you mean"), host launch statements blanked, and the
  detailed preprocessing record (skipped `#if` ranges, macro definitions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from schemas.ascendc import (
    KEYWORDS_HEADER,
    SURFACE_DIR,
    SURFACE_PRELUDE,
    VIRTUAL_ROOT,
    blank_bracket_attribute_defines,
    blank_launch_statements,
    rewrite_launches,
    surface_include_dirs,
)
from schemas.ascendc.soc import DEFAULT_SOC, soc_profile

# Stubs live in a deep virtual directory: an include spelt `../../x.h` that nobody provides is
# still looked up (and answered) inside it.
STUB_DIR = f"{VIRTUAL_ROOT}/missing/a/b/c/d/e"
STUB_TEXT = "// stub: not provided by the curate surface\n"


@dataclass(frozen=True, slots=True)
class FrontEndUse:
    """What one user of the driver needs from clang (see the module docstring)."""

    name: str
    surface: bool  # force-include the surface prelude and search the surface directories
    builtin_headers: bool  # clang's own resource headers (stddef.h, ...)
    flags: tuple[str, ...]  # diagnostics flags
    defines: tuple[str, ...]  # macros beyond the SoC's
    parse_options: int
    readable: Callable[[str], str]  # the rewrite that makes launch syntax C++


def _keep_launches_as_comments(text: str) -> str:
    return blank_bracket_attribute_defines(rewrite_launches(text))


def _blank_host_launches(text: str) -> str:
    return blank_bracket_attribute_defines(blank_launch_statements(text))


INGEST = FrontEndUse(
    name="ingest",
    surface=False,
    builtin_headers=False,
    flags=("-Wno-everything",),
    defines=(),
    parse_options=ci.TranslationUnit.PARSE_INCOMPLETE,
    readable=_keep_launches_as_comments,
)
CHECK = FrontEndUse(
    name="check",
    surface=True,
    builtin_headers=True,
    flags=("-fspell-checking", "-w"),
    defines=("TILING_KEY_VAR=0",),
    parse_options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    readable=_blank_host_launches,
)


@dataclass(slots=True)
class ParseRequest:
    """One parse: the entry file and everything around it."""

    entry: str  # path clang opens (on disk, or one of `unsaved`)
    use: FrontEndUse
    soc: str | None = DEFAULT_SOC  # None: `defines` carry the SoC's macros themselves
    include_dirs: list[str] = field(default_factory=list)  # after the stubs, before the surface
    force_includes: list[str] = field(default_factory=list)  # after the preludes
    defines: list[str] = field(default_factory=list)  # `NAME` or `NAME=VALUE`, after the SoC's
    stubs: dict[str, str] = field(default_factory=dict)  # include as spelt -> stub text
    unsaved: list[tuple[str, str]] = field(default_factory=list)  # path -> text read from memory
    std: str = "c++17"


def soc_defines(soc: str = DEFAULT_SOC) -> list[str]:
    """The `-D` values a parse for this SoC starts from (the ingest records them per unit)."""
    return soc_profile(soc).defines()


def arguments(request: ParseRequest) -> list[str]:
    """The clang command line of a request."""
    use = request.use
    args = ["-x", "c++", f"-std={request.std}", "-nostdinc", "-nostdinc++", "-ferror-limit=0"]
    if not use.builtin_headers:
        args.append("-nobuiltininc")
    args += list(use.flags)
    args += ["-include", str(KEYWORDS_HEADER)]
    if use.surface:
        args += ["-include", str(SURFACE_PRELUDE)]
    for header in request.force_includes:
        args += ["-include", header]
    soc = soc_defines(request.soc) if request.soc else []
    args += [f"-D{d}" for d in [*soc, *use.defines, *request.defines]]
    # the stubs first: a name the resolver found nowhere must not be picked up from a directory
    # later in the search (an interface header a repository also carries, a test mock)
    args.append(f"-I{STUB_DIR}")
    args += [f"-I{d}" for d in request.include_dirs]
    if use.surface:
        args += [f"-I{d}" for d in surface_include_dirs()]
    return args


def stub_files(stubs: dict[str, str]) -> list[tuple[str, str]]:
    """The stubs as virtual files, under the path clang builds (stub dir + name as spelt)."""
    return [(f"{STUB_DIR}/{name}", text) for name, text in stubs.items()]


def missing_stubs(names: Iterable[str]) -> dict[str, str]:
    """Empty stubs for includes nobody provides."""
    return dict.fromkeys(names, STUB_TEXT)


def forwarding_stubs(forwarded: dict[str, Path]) -> dict[str, str]:
    """One-line stubs for repository files clang cannot reach by include directories."""
    return {name: '#include "' + str(target) + '"\n' for name, target in forwarded.items()}


def readable_sources(texts: dict[str, str], use: FrontEndUse) -> Iterator[tuple[str, str, bool]]:
    """(path, text clang reads, whether it differs from the file) for each source of a unit."""
    for path, text in texts.items():
        rewritten = use.readable(text)
        yield path, rewritten, rewritten != text


def parse(index: ci.Index, request: ParseRequest) -> ci.TranslationUnit:
    """Parse a request (raises `ci.TranslationUnitLoadError` when libclang gives up)."""
    unsaved = [*request.unsaved, *stub_files(request.stubs)]
    return index.parse(
        request.entry, args=arguments(request), unsaved_files=unsaved, options=request.use.parse_options
    )


def surface_request(source: str) -> ParseRequest:
    """A parse of the surface itself through a virtual main file (the catalog's builder)."""
    main = str(SURFACE_DIR / "__catalog__.cpp")
    return ParseRequest(main, CHECK, unsaved=[(main, source)])
