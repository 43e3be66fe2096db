"""Repository-local include resolution and the assembly of a unit's code.

A kernel is often split over headers (`op_kernel/<op>.cpp` includes `arch35/<op>_impl.h`,
which includes more). The unit's code is the entry file followed by every repository-local
header it reaches, in first-include order, each once. Includes that are not in the repository
(the CANN headers, the C++ library) are returned as `external` so the parser can stub them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field

from schemas.ascendc import INCLUDE_RE, unit_file_marker


@dataclass(slots=True)
class RepoIndex:
    """The set of source files of a repository (relative POSIX paths), for resolving includes."""

    files: frozenset[str]
    by_basename: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, files: list[str]) -> RepoIndex:
        by_basename: dict[str, list[str]] = {}
        for rel in sorted(files):
            by_basename.setdefault(posixpath.basename(rel), []).append(rel)
        return cls(frozenset(files), by_basename)

    def resolve(self, name: str, includer: str, angled: bool) -> str | None:
        """Where `#include "name"` (or `<name>`) written in `includer` points inside the repository."""
        name = name.strip()
        candidates = [posixpath.join(posixpath.dirname(includer), name)] if not angled else []
        candidates += [posixpath.join(d, name) for d in search_dirs(includer)]
        for cand in candidates:
            norm = posixpath.normpath(cand)
            if norm in self.files:
                return norm
        # An include path set up by the build (e.g. "atvoss/util/dag.h" under common/inc/, or
        # "../triu/arch35/x.h" from a sibling operator's op_kernel/): match the include's trailing
        # path components. A bare `<name>` is a system header and is never guessed.
        if angled and "/" not in name:
            return None
        wanted = [p for p in posixpath.normpath(name).split("/") if p not in ("..", ".")]
        scored = [
            (_suffix_score(f, wanted), f) for f in self.by_basename.get(wanted[-1], []) if f != includer
        ]
        # The basename alone is enough only when it is unique in the repository.
        floor = 1 if len(scored) == 1 else 2
        best = [(score, f) for score, f in scored if score >= min(floor, len(wanted))]
        if not best:
            return None
        return max(best, key=lambda sf: (sf[0], _common_prefix_len(sf[1], includer), -len(sf[1]), sf[1]))[1]


def _suffix_score(path: str, wanted: list[str]) -> int:
    """How many of the include's components, from the basename backwards, occur in order in `path`
    (an `op_kernel/` folder in between is allowed: builds map `<op>/op_kernel` to `<op>`)."""
    parts = [p for p in path.split("/") if p != "op_kernel"]
    score = 0
    for want, have in zip(reversed(wanted), reversed(parts), strict=False):
        if want != have:
            break
        score += 1
    return score


def search_dirs(includer: str) -> list[str]:
    """Directories an operator build puts on the include path: the operator dir, op_kernel, the root."""
    parts = includer.split("/")
    dirs: list[str] = []
    if "op_kernel" in parts:
        k = len(parts) - 1 - parts[::-1].index("op_kernel")
        dirs += ["/".join(parts[: k + 1]), "/".join(parts[:k])]
    dirs.append("")
    return [d for d in dict.fromkeys(dirs)]


def _common_prefix_len(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass(slots=True)
class IncludeClosure:
    files: list[str]  # entry first, then local headers in first-include order
    external: list[str]  # include names not found in the repository (stubbed for the parse)
    include_dirs: list[str]  # repository dirs to put on the include path, relative to the root


def include_closure(entry: str, index: RepoIndex, read: Callable[[str], str | None]) -> IncludeClosure:
    """Follow repository-local includes from `entry` depth-first, each file once."""
    order: list[str] = []
    external: dict[str, None] = {}
    include_dirs: dict[str, None] = dict.fromkeys(search_dirs(entry))
    seen: set[str] = set()

    def visit(rel: str) -> None:
        if rel in seen:
            return
        seen.add(rel)
        order.append(rel)
        text = read(rel)
        if text is None:
            return
        for match in INCLUDE_RE.finditer(text):
            angled, name = match.group(1) == "<", match.group(2).strip()
            target = index.resolve(name, rel, angled)
            if target is None:
                external[name] = None
                continue
            base = target[: len(target) - len(posixpath.normpath(name))].rstrip("/")
            if not target.endswith(posixpath.normpath(name)) or ".." in name:
                base = posixpath.dirname(rel)
            include_dirs[base] = None
            visit(target)

    visit(entry)
    return IncludeClosure(order, list(external), list(include_dirs))


def assemble_code(files: list[str], read: Callable[[str], str | None]) -> str:
    """The unit's code: the entry file, then each local header behind a marker line."""
    parts: list[str] = []
    for i, rel in enumerate(files):
        text = read(rel) or ""
        if i == 0:
            parts.append(text.rstrip("\n") + "\n")
        else:
            parts.append("\n" + unit_file_marker(rel) + "\n" + text.rstrip("\n") + "\n")
    return "".join(parts)
