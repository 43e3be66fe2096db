"""Which files to parse for kernel entries, decided from their text before any parse.

A file is parsed when it may define a kernel entry. Three shapes reach an entry:
- written out: `__global__` (or catlass's `CATLASS_GLOBAL`) in the file itself;
- through a repository macro defined elsewhere: `#define KERNEL_API extern "C" __global__
  __aicore__` in a common header, then `KERNEL_API void elu(...)` in the kernel file, whose own
  text never says `__global__`. The macro is expanded by the parse (clang sees the `global`
  annotation on the FUNCTION_DECL); here it is only recognised, so that the file is parsed;
- instantiated from a header-only template library: a catlass example names
  `Gemm::Device::DeviceGemm<Kernel>`, whose header launches the library's
  `template <class Operator> CATLASS_GLOBAL void KernelAdapter(...)`. The example file is the
  kernel's source: it is parsed (the unit is the example's), the library header is not parsed
  on its own.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from schemas.ascendc.includes import RepoIndex, in_tests, library_root

_LITERAL_ENTRY_RE = re.compile(r"\b__global__\b|\bCATLASS_GLOBAL\b")
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]+([^\n]*)$", re.MULTILINE)
# An all-capitals word opening a void function declaration: `KERNEL_API void elu(`,
# `template <typename T> MY_GLOBAL __attribute__((aic)) void f(`.
_MACRO_ENTRY_USE_RE = re.compile(
    r"^[ \t]*(?:template\s*<[^;{]*?>\s*)?([A-Z_][A-Z0-9_]*)\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?"
    r"(?:[A-Za-z_]\w*\s+)*?void\s+\w+\s*\(",
    re.MULTILINE,
)
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc")
Includes = dict[str, list[tuple[str, bool]]]  # file -> (name as spelt, angled) of each include


@dataclass(frozen=True, slots=True)
class FileEntries:
    """What one file's text says about entries: read once, kept by the walk's memo while the
    file is unchanged."""

    written: int  # entries written out (`__global__`, `CATLASS_GLOBAL`)
    defines: tuple[tuple[str, str], ...]  # object-like macros it defines: (name, definition)
    macro_uses: tuple[str, ...]  # capitalised words opening a void declaration

    @classmethod
    def read(cls, text: str, may_define: bool) -> FileEntries:
        """The facts of `text`; a file that cannot define an entry contributes only its macros."""
        defines = (
            tuple((m.group(1), m.group(2)) for m in _DEFINE_RE.finditer(text)) if "define" in text else ()
        )
        if not may_define:
            return cls(0, defines, ())
        written = len(_LITERAL_ENTRY_RE.findall(text))
        uses = tuple(sorted({m.group(1) for m in _MACRO_ENTRY_USE_RE.finditer(text)}))
        return cls(written, defines, uses)


@dataclass(slots=True)
class EntryScan:
    """What the repository walk learns about entries, one file at a time (`add`), and the
    files it adds once every file was seen (`more_candidates`)."""

    entry_macros: dict[str, str] = field(default_factory=dict)  # macro -> its definition text
    macro_uses: dict[str, set[str]] = field(default_factory=dict)  # file -> words opening a void decl
    entry_files: set[str] = field(default_factory=set)  # files whose own text has an entry

    def add(self, rel: str, facts: FileEntries) -> int:
        """Records one file's facts; returns the entries it writes out."""
        for name, body in facts.defines:
            self.entry_macros.setdefault(name, body)
        if facts.written:
            self.entry_files.add(rel)
        if facts.macro_uses:
            self.macro_uses[rel] = set(facts.macro_uses)
        return facts.written

    def global_macros(self) -> set[str]:
        """Macros that expand to a kernel entry's qualifiers, directly or through one another."""
        found = {name for name, body in self.entry_macros.items() if _LITERAL_ENTRY_RE.search(body)}
        while True:
            more = {
                name
                for name, body in self.entry_macros.items()
                if name not in found and any(re.search(rf"\b{re.escape(m)}\b", body) for m in found)
            }
            if not more:
                return found
            found |= more

    def more_candidates(self, index: RepoIndex, includes: Includes) -> list[str]:
        """Files to parse that their own text does not show to be entry files: declarations opened
        by a repository macro, and sources instantiating a template library's entry."""
        macros = self.global_macros()
        by_macro = sorted(rel for rel, uses in self.macro_uses.items() if uses & macros)
        return list(dict.fromkeys([*by_macro, *self._library_instantiations(index, includes)]))

    def _library_instantiations(self, index: RepoIndex, includes: Includes) -> list[str]:
        """Sources outside the tests that reach, through their includes, a header of a library
        include tree (`include/<lib>/...`) defining an entry."""
        library_entries = {
            rel for rel in self.entry_files if rel.endswith(_HEADER_SUFFIXES) and library_root(rel)
        }
        if not library_entries:
            return []
        includers: dict[str, set[str]] = {}  # target -> files including it
        for includer, names in includes.items():
            for name, angled in names:
                target = index.resolve(name, includer, angled)
                if target is not None:
                    includers.setdefault(target, set()).add(includer)
        reached: set[str] = set()
        frontier = list(library_entries)
        while frontier:
            current = frontier.pop()
            for includer in includers.get(current, ()):
                if includer not in reached:
                    reached.add(includer)
                    frontier.append(includer)
        return sorted(
            rel
            for rel in reached
            if not rel.endswith(_HEADER_SUFFIXES)
            and not in_tests(rel)
            and not library_root(rel)
            and rel not in self.entry_files
            and posixpath.splitext(rel)[1] in (".cpp", ".cc", ".cxx", ".asc", ".cce")
        )
