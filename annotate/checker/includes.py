"""Where a kernel's includes come from, and which of them no one can provide.

A kernel file includes three kinds of headers: the AscendC interface (answered by our surface),
headers of its own repository (found next to the file, in its operator directory or from the
repository root), and headers of other packages the build pulls in (for example a shared
operator library). The last kind is what the surface cannot know: such an include is stubbed
with an empty virtual file, reported as a warning, and the names it would have declared are
judged leniently by the classifier.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from schemas.ascendc import VIRTUAL_ROOT, Include, operator_dir, scan_includes

MISSING_DIR = f"{VIRTUAL_ROOT}/missing/a/b/c/d/e"
# The top-level folders the AscendC package installs its interface headers under. An include
# spelt this way means the interface: the surface answers it or nobody does. A repository that
# carries the interface's own implementation (asc-devkit) is not read in its place, because that
# implementation calls compiler built-ins no header declares.
INTERFACE_INCLUDE_DIRS = ("adv_api", "aicpu_api", "basic_api", "c_api", "simt_api", "tensor_api")
_REPO_MARKERS = (".git", ".gitmodules")


def repository_root(path: Path) -> Path | None:
    """The nearest ancestor holding a `.git` entry, or None outside a repository."""
    for parent in [path.parent, *path.parent.parents]:
        if any((parent / marker).exists() for marker in _REPO_MARKERS):
            return parent
    return None


_HEADER_INDEX: dict[Path, dict[str, list[Path]]] = {}
_HEADER_SUFFIXES = {".h", ".hpp", ".hh", ".inl"}


def repository_headers(root: Path | None, name: str) -> list[Path]:
    """The repository's headers called like an include that did not resolve (`kernel_utils/x.h` ->
    every `x.h`): a build finds one of them with an include path the checker does not know. The
    index is read once per repository and process."""
    if root is None:
        return []
    if root not in _HEADER_INDEX:
        index: dict[str, list[Path]] = {}
        for path in sorted(root.rglob("*")):
            if path.suffix in _HEADER_SUFFIXES and ".git" not in path.parts:
                index.setdefault(path.name, []).append(path)
        _HEADER_INDEX[root] = index
    return _HEADER_INDEX[root].get(Path(name).name, [])


def local_include_dirs(path: Path, extra: Iterable[Path] = ()) -> list[Path]:
    """Include directories a build of this file would search, most specific first."""
    dirs: list[Path] = [path.parent]
    op = operator_dir(path)
    if op is not None:
        dirs += [op / "op_kernel", op]
    root = repository_root(path)
    # sample projects keep their headers in an `include/` folder beside or above the sources
    # (their build adds it with -I): the nearest ones, up to the repository root
    for parent in [path.parent, *path.parent.parents][:4]:
        if (parent / "include").is_dir():
            dirs.append(parent / "include")
        if root is not None and parent == root:
            break
    if root is not None:
        dirs.append(root)
    dirs += list(extra)
    unique: list[Path] = []
    for d in dirs:
        resolved = d.resolve()
        if resolved not in unique and resolved.is_dir():
            unique.append(resolved)
    return unique


@dataclass(slots=True)
class IncludePlan:
    """The result of walking a file's includes before the parse."""

    local_files: list[Path] = field(default_factory=list)  # repository headers that resolved
    surface: set[str] = field(default_factory=set)  # names answered by the surface
    missing: dict[str, tuple[Path, int]] = field(default_factory=dict)  # name -> (includer, line)
    forwarded: dict[str, Path] = field(default_factory=dict)  # name -> repository file it means


def sibling_operator_candidates(name: str, includer: Path) -> list[Path]:
    """The operator build copies each `op_kernel/` tree into a directory named after its operator,
    so from `op_kernel/arch35/f.h` the include `../../other_op/x.h` means
    `<category>/other_op/op_kernel/x.h` in the repository (any category)."""
    op = operator_dir(includer)
    if op is None:
        return []
    depth = len(includer.parent.relative_to(op / "op_kernel").parts)
    parts = Path(name).parts
    ups = 0
    while ups < len(parts) and parts[ups] == "..":
        ups += 1
    if ups != depth + 1 or len(parts) < ups + 2 or ".." in parts[ups:]:
        return []
    other, rest = parts[ups], Path(*parts[ups + 1 :])
    candidates = [op.parent / other / "op_kernel" / rest]
    root = repository_root(includer)
    if root is not None:
        candidates += sorted(root.glob(f"*/{other}/op_kernel/{rest.as_posix()}"))
    return candidates


def resolve(
    inc: Include, includer: Path, dirs: list[Path], surface_dirs: list[Path]
) -> tuple[str, Path | None]:
    """("local", path) | ("forward", path) | ("surface", None) | ("missing", None).

    "forward": a repository file clang cannot reach through include directories (a sibling
    operator's header); the checker gives clang a one-line virtual header including it."""
    if is_interface_include(inc.name):
        return _from_surface(inc.name, surface_dirs)
    if inc.quoted:
        candidate = includer.parent / inc.name
        if candidate.is_file():
            return "local", candidate
    for d in dirs:
        candidate = d / inc.name
        if candidate.is_file():
            return "local", candidate
    for candidate in sibling_operator_candidates(inc.name, includer):
        if candidate.is_file():
            return "forward", candidate
    return _from_surface(inc.name, surface_dirs)


def _from_surface(name: str, surface_dirs: list[Path]) -> tuple[str, None]:
    if any((d / name).is_file() for d in surface_dirs):
        return "surface", None
    return "missing", None


def plan_includes(
    entry: Path,
    dirs: list[Path],
    surface_dirs: list[Path],
    overrides: dict[Path, str] | None = None,
    limit: int = 400,
) -> IncludePlan:
    """Follow repository-local includes transitively; record what the surface answers and what
    nobody answers. `overrides` replaces file contents (mutated copies, snippets)."""
    plan = IncludePlan()
    seen: set[Path] = set()
    queue: list[Path] = [entry]
    while queue and len(seen) < limit:
        current = queue.pop(0)
        if current in seen:
            continue
        seen.add(current)
        for inc in scan_includes(read_text(current, overrides)):
            kind, found = resolve(inc, current, dirs, surface_dirs)
            if kind == "forward" and found is not None:
                plan.forwarded.setdefault(inc.name, Path(os.path.normpath(found)))
            if kind in ("local", "forward") and found is not None:
                found = Path(os.path.normpath(found))
                if found not in seen:
                    plan.local_files.append(found)
                    queue.append(found)
            elif kind == "surface":
                plan.surface.add(inc.name)
            elif (
                inc.quoted
                and not is_interface_include(inc.name)
                and (extra := repository_include_dir(entry, inc.name)) is not None
            ):
                # the build's own -I: a directory of the repository holds the header as spelt
                dirs.append(extra)
                found = extra / inc.name
                if found not in seen:
                    plan.local_files.append(found)
                    queue.append(found)
            else:
                plan.missing.setdefault(inc.name, (current, inc.line))
    return plan


def is_interface_include(name: str) -> bool:
    """`c_api/asc_simd.h`, `basic_api/kernel_operator_block_sync_intf.h`: an AscendC interface
    header, whoever else has a file of that name."""
    return Path(name).parts[0] in INTERFACE_INCLUDE_DIRS


def repository_include_dir(entry: Path, name: str) -> Path | None:
    """The directory a build would add with -I so that `#include "name"` finds a header of the
    entry's repository: the nearest one holding it as spelt (`common/helper/x.h`), or, for a bare
    file name, the only one in the repository."""
    if not entry.exists():
        return None
    found = repository_headers(repository_root(entry), name)
    if "/" in name:
        found = [p for p in found if p.as_posix().endswith("/" + name)]
    elif len(found) != 1:
        return None
    if not found:
        return None
    nearest = max(found, key=lambda p: len(os.path.commonpath([p, entry])))
    return Path(nearest.as_posix()[: -len(name)].rstrip("/"))


def read_text(path: Path, overrides: dict[Path, str] | None = None) -> str:
    if overrides and path in overrides:
        return overrides[path]
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def missing_stub_files(
    names: Iterable[str], forwarded: dict[str, Path] | None = None
) -> Iterator[tuple[str, str]]:
    """Virtual headers (path spelled as clang will build it): empty for includes nobody provides,
    one `#include` line for repository files clang cannot reach by include directories."""
    for name in names:
        yield f"{MISSING_DIR}/{name}", "// stub: not provided by the curate surface\n"
    for name, target in (forwarded or {}).items():
        yield f"{MISSING_DIR}/{name}", '#include "' + str(target) + '"\n'
