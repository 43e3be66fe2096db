"""The AscendC API catalog: every name the surface declares, with its overloads and header.

The surface headers are the single source of truth; the catalog is derived from them by parsing
with libclang and cached as `surface/catalog.json` (shipped with the package). Regenerate after
editing the surface with `python -m annotate.checker --write` (or `python -m
schemas.ascendc.catalog --write`); a test checks that the shipped file matches a fresh build.

`api_names()` is the one list of AscendC API names: the ingest counts a call as an API use by it
(the `apis` column), and the checker and the reasoning verifiers judge names by the same catalog.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import clang.cindex as ci

from schemas.ascendc import (
    BUILTINS_HEADER,
    KEYWORDS_HEADER,
    SURFACE_DIR,
    SURFACE_ENTRY_HEADERS,
    is_surface_file,
)
from schemas.ascendc import cursors as cu
from schemas.ascendc.frontend import parse, surface_request

CATALOG_PATH = SURFACE_DIR / "catalog.json"
CATALOG_VERSION = 1
# Types, enums and constants are API in these namespaces (and everything nested in them) and at
# file scope of a surface header, where the interface declares its scalar types (half, int32_t),
# pipe_t and event_t, and the matmul configuration (MatmulConfig, IterateOrder, CFG_NORM).
API_NAMESPACES = ("AscendC",)
_KIND_NAMES = {
    ci.CursorKind.FUNCTION_DECL: "function",
    ci.CursorKind.FUNCTION_TEMPLATE: "function",
    ci.CursorKind.CLASS_DECL: "class",
    ci.CursorKind.STRUCT_DECL: "class",
    ci.CursorKind.CLASS_TEMPLATE: "class",
    ci.CursorKind.ENUM_DECL: "enum",
    ci.CursorKind.TYPEDEF_DECL: "type",
    ci.CursorKind.TYPE_ALIAS_DECL: "type",
    ci.CursorKind.TYPE_ALIAS_TEMPLATE_DECL: "type",
    ci.CursorKind.VAR_DECL: "constant",
}


@dataclass(slots=True)
class Overload:
    signature: str
    min_args: int
    max_args: int


@dataclass(slots=True)
class CatalogEntry:
    name: str
    qualified: str
    kind: str  # function | class | enum | type | constant | macro | method
    header: str  # path relative to the surface directory
    overloads: list[Overload] = field(default_factory=list)
    members: list[str] = field(default_factory=list)  # classes: method names; enums: enumerators


def surface_digest() -> str:
    """A digest of every surface header: the catalog built from other headers is stale."""
    digest = hashlib.sha256()
    for path in [KEYWORDS_HEADER, *sorted(SURFACE_DIR.rglob("*.h"))]:
        digest.update(_relative(str(path)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@dataclass(slots=True)
class Catalog:
    entries: list[CatalogEntry]
    digest: str = ""  # surface_digest() of the headers it was built from

    @property
    def names(self) -> set[str]:
        return {e.name for e in self.entries}

    def by_name(self, name: str) -> list[CatalogEntry]:
        return [e for e in self.entries if e.name == name or e.qualified == name]

    def callable_names(self) -> set[str]:
        """Functions, methods, classes and macros: what a misspelt API name is compared with."""
        return {e.name for e in self.entries if e.kind in ("function", "method", "class", "macro")}

    def known_names(self) -> set[str]:
        """Every name the surface declares, enumerators and class members included."""
        return self.names | {m for e in self.entries for m in e.members}

    def member_names(self) -> set[str]:
        return {m for e in self.entries if e.kind == "class" for m in e.members}

    def to_json(self) -> str:
        payload = {
            "version": CATALOG_VERSION,
            "surface_digest": self.digest,
            "entries": [asdict(e) for e in self.entries],
        }
        return json.dumps(payload, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Catalog:
        data = json.loads(text)
        entries = []
        for raw in data["entries"]:
            raw["overloads"] = [Overload(**o) for o in raw.get("overloads", [])]
            entries.append(CatalogEntry(**raw))
        return cls(entries, data.get("surface_digest", ""))


def _relative(path: str) -> str:
    """A header's name in the catalog: relative to the surface (the shared keywords by its name)."""
    resolved = Path(path).resolve()
    if resolved == KEYWORDS_HEADER:
        return "ascendc_keywords.h"
    return resolved.relative_to(SURFACE_DIR).as_posix()


def _in_api_namespace(cursor: ci.Cursor) -> bool:
    ns = cu.namespace_of(cursor)
    return ns == "" or any(ns == top or ns.startswith(top + "::") for top in API_NAMESPACES)


def _public(name: str) -> bool:
    return bool(name) and not name.startswith(("Curate", "CURATE", "curate", "_"))


def _walk_api(cursor: ci.Cursor) -> Iterator[ci.Cursor]:
    for child in cursor.get_children():
        if not is_surface_file(cu.file_of(child)) or "/libc/" in cu.file_of(child):
            continue
        if child.kind == ci.CursorKind.NAMESPACE:
            yield from _walk_api(child)
        elif child.kind in _KIND_NAMES or child.kind == ci.CursorKind.MACRO_DEFINITION:
            yield child


def _class_members(cursor: ci.Cursor) -> list[str]:
    names = set()
    for child in cursor.get_children():
        if child.kind in (ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE) and _public(
            child.spelling
        ):
            if not child.spelling.startswith("operator") and child.spelling != cursor.spelling:
                names.add(child.spelling)
        elif child.kind == ci.CursorKind.CXX_BASE_SPECIFIER:
            base = child.referenced
            if base is not None and is_surface_file(cu.file_of(base)):
                names.update(_class_members(base))
    return sorted(names)


def _method_entries(cls: ci.Cursor, header: str) -> list[CatalogEntry]:
    entries: dict[str, CatalogEntry] = {}
    for child in cls.get_children():
        if child.kind not in (ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE):
            continue
        # A template constructor is a FUNCTION_TEMPLATE too: it is the class, not a method.
        if (
            not _public(child.spelling)
            or child.spelling.startswith("operator")
            or child.spelling == cls.spelling
        ):
            continue
        qualified = cu.qualified_name(child)
        entry = entries.setdefault(qualified, CatalogEntry(child.spelling, qualified, "method", header))
        ar = cu.arity(child)
        entry.overloads.append(Overload(cu.render_signature(child), ar.min_args, ar.max_args))
    return list(entries.values())


def build_catalog() -> Catalog:
    """Parse the surface and collect its public declarations."""
    source = "".join(f'#include "{h}"\n' for h in SURFACE_ENTRY_HEADERS if (SURFACE_DIR / h).exists())
    tu = parse(ci.Index.create(), surface_request(source))
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        first = errors[0]
        raise RuntimeError(
            f"surface does not parse: {first.location.file}:{first.location.line}: {first.spelling}"
        )
    by_key: dict[tuple[str, str], CatalogEntry] = {}
    for cursor in _walk_api(tu.cursor):
        name = cursor.spelling
        if not _public(name):
            continue
        header = _relative(cu.file_of(cursor))
        if cursor.kind == ci.CursorKind.MACRO_DEFINITION:
            if name.isupper() and not name.endswith("_H"):
                by_key.setdefault((name, "macro"), CatalogEntry(name, name, "macro", header))
            continue
        if cursor.kind not in (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE) and not (
            _in_api_namespace(cursor)
        ):
            continue
        kind = _KIND_NAMES[cursor.kind]
        qualified = cu.qualified_name(cursor)
        entry = by_key.setdefault((qualified, kind), CatalogEntry(name, qualified, kind, header))
        if kind == "function":
            ar = cu.arity(cursor)
            overload = Overload(cu.render_signature(cursor), ar.min_args, ar.max_args)
            if overload not in entry.overloads:
                entry.overloads.append(overload)
        elif kind == "class" and cursor.is_definition():
            entry.members = sorted(set(entry.members) | set(_class_members(cursor)))
            for method in _method_entries(cursor, header):
                by_key.setdefault((method.qualified, "method"), method)
        elif kind == "enum":
            entry.members = [
                c.spelling for c in cursor.get_children() if c.kind == ci.CursorKind.ENUM_CONSTANT_DECL
            ]
    entries = sorted(by_key.values(), key=lambda e: (e.qualified, e.kind))
    return Catalog(entries, surface_digest())


def shipped_catalog() -> Catalog | None:
    """The catalog JSON next to the surface, when it exists and was built from these headers."""
    if not CATALOG_PATH.exists():
        return None
    catalog = Catalog.from_json(CATALOG_PATH.read_text(encoding="utf-8"))
    return catalog if catalog.digest == surface_digest() else None


@cache
def load_catalog() -> Catalog:
    """The shipped catalog; built from the surface when the JSON is missing or stale."""
    return shipped_catalog() or build_catalog()


def api_names(catalog: Catalog | None = None, *, types_and_macros: bool = False) -> frozenset[str]:
    """The one list of AscendC API names, derived from the surface (of the shipped catalog unless
    one is given): the functions and methods of the interface, without the compiler's built-ins
    (short lowercase intrinsics that are not the programming interface).

    That is what the ingest counts as an API call (`apis`). With `types_and_macros`, the classes
    and macros too: what the checker compares an unknown name with for "did you mean"."""
    if catalog is None:
        return _shipped_api_names(types_and_macros)
    kinds = ("function", "method", "class", "macro") if types_and_macros else ("function", "method")
    builtins = {e.name for e in catalog.entries if e.header == BUILTINS_HEADER}
    names = {e.name for e in catalog.entries if e.kind in kinds} - builtins
    return frozenset(names | catalog.member_names())


@cache
def _shipped_api_names(types_and_macros: bool) -> frozenset[str]:
    return api_names(load_catalog(), types_and_macros=types_and_macros)


# Headers of the surface whose functions compute (vector, advanced, cube and matmul), and those
# whose functions move data, manage queues and buffers or read the system. A name in both
# (`Init`: a pipe's and a matmul's) is plumbing.
_COMPUTE_HEADERS = frozenset({"ascendc/vec.h", "ascendc/adv.h", "ascendc/cube.h", "lib/matmul_intf.h"})
_PLUMBING_HEADERS = frozenset(
    {"ascendc/pipe.h", "ascendc/tensor.h", "ascendc/datacopy.h", "ascendc/system.h"}
)


@cache
def compute_api_names() -> frozenset[str]:
    """The AscendC functions that compute (`Muls`, `ReduceMax`, `Mmad`, `IterateAll`), without
    configuration getters and tiling helpers: what a row is shown to do when it is set beside a
    benchmark task (`dedup.tasks`), rather than its host code's `GetInputShape` and `SetBlockDim`."""
    catalog = load_catalog()
    plumbing = {e.name for e in catalog.entries if e.header in _PLUMBING_HEADERS}
    return frozenset(
        e.name
        for e in catalog.entries
        if e.kind in ("function", "method")
        and e.header in _COMPUTE_HEADERS
        and e.name not in plumbing
        and not e.name.startswith("Get")
        and not e.name.endswith(("Config", "TilingFunc"))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the AscendC API catalog from the surface headers.")
    parser.add_argument("--write", action="store_true", help=f"write {CATALOG_PATH.name} next to the surface")
    args = parser.parse_args(argv)
    catalog = build_catalog()
    if args.write:
        CATALOG_PATH.write_text(catalog.to_json(), encoding="utf-8")
        print(f"wrote {len(catalog.entries)} entries to {CATALOG_PATH}")
    else:
        sys.stdout.write(catalog.to_json())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
