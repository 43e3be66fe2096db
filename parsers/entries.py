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
from collections.abc import Mapping
from dataclasses import dataclass, field

from schemas.ascendc.includes import RepoIndex, in_tests, library_root

LITERAL_ENTRY_RE = re.compile(r"\b__global__\b|\bCATLASS_GLOBAL\b")
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]+([^\n]*)$", re.MULTILINE)
# An all-capitals word opening a void function declaration: `KERNEL_API void elu(`,
# `template <typename T> MY_GLOBAL __attribute__((aic)) void f(`.
MACRO_ENTRY_USE_RE = re.compile(
    r"^[ \t]*(?:template\s*<[^;{]*?>\s*)?([A-Z_][A-Z0-9_]*)\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?"
    r"(?:[A-Za-z_]\w*\s+)*?void\s+\w+\s*\(",
    re.MULTILINE,
)
# Where a match of MACRO_ENTRY_USE_RE can start, searched in "\n" + text: a newline, then a line
# opening with `template` or a capitalised word and a blank (what the regex needs at its start).
# A pattern that opens with a literal is searched for fast; one opening with `^` is tried at every
# character (issue 30: 0.46 s -> 0.17 s over ops-math's 53 MB of sources).
MACRO_ENTRY_LINE_RE = re.compile(r"\n[ \t]*(?:template|[A-Z_][A-Z0-9_]*\s)")
# DEFINE_RE and INCLUDE_RE (schemas.ascendc) searched in "\n" + text, for the same reason: the
# same matches (each ends before its line's newline, so the next one's newline is still there).
DEFINE_LINE_RE = re.compile(
    r"\n[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]+([^\n]*)$", re.MULTILINE
)
INCLUDE_LINE_RE = re.compile(r"\n[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"\n]+)[>\"]")
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc")
Includes = dict[str, list[tuple[str, bool]]]  # file -> (name as spelt, angled) of each include


# What one file's text says about entries, read by the walk (parsers/scan.py) and kept in its memo
# while the file is unchanged: (entries written out, the object-like macros it defines as
# (name, definition), the capitalised words opening a void declaration in it).
FileEntries = tuple[int, tuple[tuple[str, str], ...], tuple[str, ...]]


@dataclass(slots=True)
class EntryScan:
    """What the repository walk learnt about entries (`of`), and the files it adds once every
    file was seen (`more_candidates`)."""

    entry_macros: dict[str, str] = field(default_factory=dict)  # macro -> its definition text
    macro_uses: dict[str, set[str]] = field(default_factory=dict)  # file -> words opening a void decl
    entry_files: set[str] = field(default_factory=set)  # files whose own text has an entry

    @classmethod
    def of(cls, facts: Mapping[str, FileEntries]) -> EntryScan:
        """What the walk read of every file (in walk order, so the first definition of a macro wins)."""
        scan = cls()
        for rel, (written, defines, uses) in facts.items():
            for name, body in defines:
                scan.entry_macros.setdefault(name, body)
            if written:
                scan.entry_files.add(rel)
            if uses:
                scan.macro_uses[rel] = set(uses)
        return scan

    def global_macros(self) -> set[str]:
        """Macros that expand to a kernel entry's qualifiers, directly or through one another."""
        found = {name for name, body in self.entry_macros.items() if LITERAL_ENTRY_RE.search(body)}
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
