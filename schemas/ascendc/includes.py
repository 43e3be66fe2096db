"""The one include resolver: where a kernel's `#include`s come from, with the two policies the
stages need.

Every AscendC kernel includes three kinds of headers: the AscendC interface, headers of its own
repository (next to the file, in its operator directory, from the repository root, or on an
include path the build sets up), and headers of packages the build pulls in. Both stages share
what an operator build puts on the include path (`build_search_dirs`: the includer's
`<op>/op_kernel` and `<op>` directories, then the root) and the names that always mean the
interface (`is_interface_include`). They differ in what a resolution is for, and that is the
policy:

- ingest (`RepoIndex`, `include_closure`, `assemble_code`): the unit's code is the entry file
  followed by every repository-local header it reaches, each once. It works on the repository's
  file list in memory, guesses an include path the build sets up from the include's trailing
  components, and never takes a unit-test mock of a vendor header (`tests/**/kernel_operator.h`)
  for a header of a kernel outside the tests. Everything else is `external`, to be stubbed.
- check (`local_include_dirs`, `plan_includes`): the -I directories a build would search, on
  disk; an interface spelling (`basic_api/...`, `kernel_operator.h` when nothing local has it) is
  answered by the surface first; a sibling operator's header reached through `../../other_op/`
  is forwarded; what nobody provides is stubbed with an empty virtual file, reported as a
  warning, and the names it would have declared are judged leniently by the classifier.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from schemas.ascendc import INCLUDE_RE, Include, operator_dir, scan_includes, unit_file_marker

# The top-level folders the AscendC package installs its interface headers under. An include
# spelt this way means the interface: the surface answers it or nobody does. A repository that
# carries the interface's own implementation (asc-devkit) is not read in its place, because that
# implementation calls compiler built-ins no header declares.
INTERFACE_INCLUDE_DIRS = ("adv_api", "aicpu_api", "basic_api", "c_api", "simt_api", "tensor_api")
_REPO_MARKERS = (".git", ".gitmodules")


# ---- shared by both policies ---------------------------------------------------------------

# Folders whose headers are test scaffolding (mocks of the vendor headers), not kernel code.
_TEST_DIRS = frozenset({"test", "tests", "ut", "unittest", "unit_test"})


def build_search_dirs(includer: str) -> list[str]:
    """Directories an operator build puts on the include path for a repository-relative file:
    `<op>/op_kernel`, the operator dir `<op>`, then the root (`""`)."""
    parts = includer.split("/")
    dirs: list[str] = []
    if "op_kernel" in parts:
        k = len(parts) - 1 - parts[::-1].index("op_kernel")
        dirs += ["/".join(parts[: k + 1]), "/".join(parts[:k])]
    dirs.append("")
    return list(dict.fromkeys(dirs))


def in_tests(rel: str) -> bool:
    return any(part.lower() in _TEST_DIRS for part in rel.split("/")[:-1])


def library_root(rel: str) -> str | None:
    """The installed include tree a header belongs to (`include/` at any depth, the deepest one:
    `include/catlass/gemm/x.hpp` -> `include`), None outside one. A header-only template library
    keeps its headers there and its users include them by their path below it."""
    parts = rel.split("/")[:-1]
    if "include" not in parts:
        return None
    k = len(parts) - 1 - parts[::-1].index("include")
    return "/".join(parts[: k + 1])


def test_suite(rel: str) -> str | None:
    """The test suite a file belongs to: its first test folder and the folder below it
    (`tests/unittest`, `tests/optest`, `op/tests/ut/op_kernel` -> `op/tests/ut`), None outside tests."""
    parts = rel.split("/")[:-1]
    for i, part in enumerate(parts):
        if part.lower() in _TEST_DIRS:
            return "/".join(parts[: i + 2])
    return None


def is_mock_for(header: str, includer: str) -> bool:
    """A header of the tests, taken for a kernel that is not one of its suite: a unit-test mock of
    a vendor header must never be assembled into a unit, nor into the kernels of another suite
    (`tests/optest/kernels/x.cpp` are real kernels; `tests/unittest/stub/kernel_operator.h` is the
    unit tests' mock). A suite includes its own mocks, which is fine."""
    suite = test_suite(header)
    return suite is not None and suite != test_suite(includer)


# ---- the ingest's policy: a unit's repository files, in memory ----------------------------


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
        candidates += [posixpath.join(d, name) for d in build_search_dirs(includer)]
        for cand in candidates:
            norm = posixpath.normpath(cand)
            if norm in self.files and not is_mock_for(norm, includer):
                return norm
        # An include path set up by the build (e.g. "atvoss/util/dag.h" under common/inc/, or
        # "../triu/arch35/x.h" from a sibling operator's op_kernel/): match the include's trailing
        # path components. A bare `<name>` is a system header and is never guessed.
        if angled and "/" not in name:
            return None
        wanted = [p for p in posixpath.normpath(name).split("/") if p not in ("..", ".")]
        scored = [
            (_suffix_score(f, wanted), f)
            for f in self.by_basename.get(wanted[-1], [])
            if f != includer and not is_mock_for(f, includer)
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
    include_dirs: dict[str, None] = dict.fromkeys(build_search_dirs(entry))
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


# ---- the checker's policy: -I directories as the build would, on disk -----------------------


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
    root = repository_root(path)
    dirs: list[Path] = [path.parent]
    if root is not None:
        dirs += [root / d for d in build_search_dirs(path.relative_to(root).as_posix())[:-1]]
    else:
        op = operator_dir(path)
        dirs += [op / "op_kernel", op] if op is not None else []
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
