"""Checks clang itself postpones: calls inside templates that are never instantiated.

Most real kernels are class templates (`KernelAdd<T>`) or template entries, and clang checks a
dependent call only when the template is instantiated, which in a single kernel file often never
happens. These checks look at the uninstantiated AST instead:

- an unqualified call whose name lookup found nothing (`DataCopyy(x, y, n)` in a template);
- a call to an AscendC overload set with an argument count no overload accepts;
- a member call on an AscendC class template (`xLocal.GetSizee()`) naming no member of it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import clang.cindex as ci

from annotate.checker.classify import Context, Verdict, classify_unknown, closest
from schemas.ascendc import cursors as cu
from schemas.ascendc import is_surface_file
from schemas.ascendc.catalog import Catalog

_TRANSPARENT = (ci.CursorKind.UNEXPOSED_EXPR, ci.CursorKind.PAREN_EXPR)
# The function template a quoted code fragment is checked inside (annotate.reasoning): nothing
# calls it, but it stands for code the kernel runs, so it is judged as if instantiated.
FRAGMENT_TEMPLATE = "CurateSnippet"


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int
    verdict: Verdict


def norm(path: str) -> str:
    """Clang names an included file as include-dir + spelled name; compare normalised paths."""
    return os.path.normpath(path) if path else path


def unit_cursors(cursor: ci.Cursor, unit_files: set[str]) -> Iterator[ci.Cursor]:
    """Depth-first over the cursors located in the unit's own files."""
    for child in cursor.get_children():
        if norm(cu.file_of(child)) not in unit_files:
            continue
        yield child
        yield from _descend(child)


def _descend(cursor: ci.Cursor) -> Iterator[ci.Cursor]:
    for child in cursor.get_children():
        yield child
        yield from _descend(child)


def _descend_with_branches(
    cursor: ci.Cursor, branches: tuple[ci.Cursor, ...] = ()
) -> Iterator[tuple[ci.Cursor, tuple[ci.Cursor, ...]]]:
    """Depth-first, with the `if` statements each cursor sits inside."""
    for child in cursor.get_children():
        yield child, branches
        inner = (*branches, child) if child.kind == ci.CursorKind.IF_STMT else branches
        yield from _descend_with_branches(child, inner)


def _is_constexpr_if(statement: ci.Cursor) -> bool:
    tokens = cu.tokens_from(statement, 2)
    return tokens[:2] == ["if", "constexpr"]


@dataclass(frozen=True, slots=True)
class _Template:
    """A function template at namespace scope: where its body is, and what it refers to."""

    usr: str
    path: str
    lines: range
    is_root: bool  # instantiated by the build (a template entry) or judged as if it were


def _free_templates(tu: ci.TranslationUnit, unit_files: set[str]) -> list[_Template]:
    found = []
    for cursor in unit_cursors(tu.cursor, unit_files):
        if cursor.kind != ci.CursorKind.FUNCTION_TEMPLATE or not cursor.is_definition():
            continue
        parent = cursor.semantic_parent
        if parent is not None and parent.kind in cu.CLASS_KINDS:
            continue  # a member: instantiated with its class, which a kernel nearly always is
        head = cu.tokens_from(cursor, 60, span=400)
        extent = cursor.extent
        found.append(
            _Template(
                cursor.get_usr(),
                norm(cu.file_of(cursor)),
                range(extent.start.line, extent.end.line + 1),
                cursor.spelling == FRAGMENT_TEMPLATE
                or "__global__" in head[: head.index("(") if "(" in head else None],
            )
        )
    return found


def _referenced_templates(cursor: ci.Cursor) -> list[str]:
    if cursor.kind == ci.CursorKind.OVERLOADED_DECL_REF:
        targets = cu.overloaded_decls(cursor)
    elif cursor.kind in (ci.CursorKind.DECL_REF_EXPR, ci.CursorKind.MEMBER_REF_EXPR):
        targets = [cursor.referenced] if cursor.referenced is not None else []
    else:
        return []
    usrs = []
    for target in targets:
        if target.kind == ci.CursorKind.UNEXPOSED_DECL and target.referenced is not None:
            target = target.referenced  # the name a using-declaration brought in
        if target.kind == ci.CursorKind.FUNCTION_DECL:
            # a call clang resolved already names the specialisation: back to its template
            target = ci.conf.lib.clang_getSpecializedCursorTemplate(target) or target
        if target.kind == ci.CursorKind.FUNCTION_TEMPLATE:
            usrs.append(target.get_usr())
    return usrs


def _excuse_unused_templates(
    tu: ci.TranslationUnit, unit_files: set[str], findings: list[Finding]
) -> list[Finding]:
    """The checks here judge template bodies clang leaves to instantiation. A namespace-scope
    function template nothing in the unit uses (a shared header's helper the operator never
    calls) is never instantiated, so the build never judges it: its findings are warnings."""
    templates = _free_templates(tu, unit_files)
    if not templates:
        return findings

    def enclosing(path: str, line: int) -> _Template | None:
        inside = [t for t in templates if t.path == path and line in t.lines]
        return min(inside, key=lambda t: len(t.lines)) if inside else None

    callers: dict[str, set[str | None]] = {}
    for cursor in unit_cursors(tu.cursor, unit_files):
        for usr in _referenced_templates(cursor):
            owner = enclosing(norm(cu.file_of(cursor)), cursor.location.line)
            if owner is None or owner.usr != usr:
                callers.setdefault(usr, set()).add(owner.usr if owner is not None else None)
    live = {t.usr for t in templates if t.is_root} | {usr for usr, by in callers.items() if None in by}
    grew = True
    while grew:
        before = len(live)
        live |= {usr for usr, by in callers.items() if by & live}
        grew = len(live) != before
    excused = []
    for finding in findings:
        owner = enclosing(norm(finding.path), finding.line)
        if finding.verdict.severity == "error" and owner is not None and owner.usr not in live:
            reason = " (in a function template nothing in the unit uses, so never instantiated)"
            v = finding.verdict
            finding = Finding(finding.path, finding.line, Verdict("warning", v.check, v.message + reason))
        excused.append(finding)
    return excused


def _callee(call: ci.Cursor) -> ci.Cursor | None:
    children = list(call.get_children())
    node = children[0] if children else None
    while node is not None and node.kind in _TRANSPARENT:
        inner = list(node.get_children())
        node = inner[0] if inner else None
    return node


def _overload_ref(node: ci.Cursor) -> ci.Cursor | None:
    if node.kind == ci.CursorKind.OVERLOADED_DECL_REF:
        return node
    for child in node.get_children():
        if child.kind == ci.CursorKind.OVERLOADED_DECL_REF:
            return child
    return None


# ---- coarse argument kinds -----------------------------------------------------------------------
# "*" matches anything; otherwise a kind is "scalar", "enum", "pointer", "LocalTensor",
# "GlobalTensor" or the name of an AscendC parameter record. Only clear mismatches (a tensor where a
# scalar belongs, a GlobalTensor where a LocalTensor belongs, DataCopyParams for DataCopyExtParams)
# reject an overload: the point is to catch dropped or swapped arguments, not to re-implement C++.
_TENSORS = ("LocalTensor", "GlobalTensor")
_SCALAR_RECORDS = {
    "bfloat16_t",
    "hifloat8_t",
    "fp8_e4m3fn_t",
    "fp8_e5m2_t",
    "fp8_e8m0_t",
    "int4b_t",
    "complex32",
    "complex64",
}


_FLOAT16_KIND_ID = 32  # CXType_Float16: newer than the kind table of the Python bindings


def _kind_id(t: ci.Type) -> int:
    return int(t._kind_id)


def _type_kind(t: ci.Type) -> str:
    if _kind_id(t) == _FLOAT16_KIND_ID or _kind_id(t.get_canonical()) == _FLOAT16_KIND_ID:
        return "scalar"
    t = t.get_canonical() if t.kind not in (ci.TypeKind.UNEXPOSED, ci.TypeKind.ELABORATED) else t
    if t.kind in (ci.TypeKind.LVALUEREFERENCE, ci.TypeKind.RVALUEREFERENCE):
        return _type_kind(t.get_pointee())
    if t.kind in (
        ci.TypeKind.POINTER,
        ci.TypeKind.CONSTANTARRAY,
        ci.TypeKind.INCOMPLETEARRAY,
        ci.TypeKind.NULLPTR,
    ):
        return "pointer"
    if t.kind == ci.TypeKind.ENUM:
        return "enum"
    if t.kind in (ci.TypeKind.DEPENDENT, ci.TypeKind.INVALID) or t.spelling == "<dependent type>":
        return "*"
    decl = t.get_declaration()
    if decl is not None and decl.kind in cu.CLASS_KINDS and decl.spelling:
        if decl.spelling in _SCALAR_RECORDS:
            return "scalar"
        if is_surface_file(cu.file_of(decl)):
            definition = decl.get_definition() or decl
            template = ci.conf.lib.clang_getSpecializedCursorTemplate(decl)
            declared = [definition] + ([template] if template is not None else [])
            if any(c.kind == ci.CursorKind.CXX_BASE_SPECIFIER for d in declared for c in d.get_children()):
                return "*"  # it also binds to its bases (FixpipeParamsC310 where the 3510 record goes)
            return decl.spelling
        return "*"
    if decl is not None and decl.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
        return "*"
    if decl is not None and decl.kind == ci.CursorKind.ENUM_DECL:
        return "enum"
    canonical = t.get_canonical()
    if ci.TypeKind.BOOL.value <= _kind_id(
        canonical
    ) <= ci.TypeKind.LONGDOUBLE.value or canonical.spelling in (
        "_Float16",
        "__bf16",
        "__fp16",
    ):
        return "scalar"
    if _kind_id(canonical) == ci.TypeKind.ENUM.value:
        return "enum"
    return "*"


def argument_kind(arg: ci.Cursor) -> str:
    if arg.kind == ci.CursorKind.INIT_LIST_EXPR:
        return "*"
    return _type_kind(arg.type)


def _compatible(param: str, arg: str) -> bool:
    if param == "*" or arg == "*" or param == arg:
        return True
    if param in ("scalar", "enum"):
        return arg in ("scalar", "enum")
    if param == "pointer":
        return arg in ("pointer", "scalar")
    # a tensor or an AscendC record is expected: scalars, other tensors and other records do not fit
    # (enumerators may still build a record through a converting constructor)
    return arg == "enum" and param not in _TENSORS


def _viable(function: ci.Cursor, kinds: list[str]) -> bool:
    params = cu.parameters(function)
    for i, kind in enumerate(kinds):
        if i >= len(params):
            return True  # into a parameter pack: no more positional information
        if params[i].type.spelling.endswith("..."):
            return True
        if not _compatible(_type_kind(params[i].type), kind):
            return False
    return True


def _adl_may_add(args: list[ci.Cursor], functions: list[ci.Cursor]) -> bool:
    """Argument-dependent lookup at instantiation also searches the namespaces of the arguments'
    classes (`Duplicate(regTensor, ...)` finds AscendC::Reg::Duplicate); when those differ from the
    candidates' namespaces, the candidate set seen here is incomplete."""
    candidate_ns = {cu.namespace_of(f) for f in functions}
    for arg in args:
        t = arg.type
        if t.kind in (ci.TypeKind.LVALUEREFERENCE, ci.TypeKind.RVALUEREFERENCE, ci.TypeKind.POINTER):
            t = t.get_pointee()
        decl = t.get_declaration()
        if decl is None or decl.kind not in cu.CLASS_KINDS:
            continue
        ns = cu.namespace_of(decl)
        if ns and ns not in candidate_ns:
            return True
    return False


_METHOD_KINDS = (
    ci.CursorKind.CXX_METHOD,
    ci.CursorKind.FUNCTION_TEMPLATE,
    ci.CursorKind.CONSTRUCTOR,
    ci.CursorKind.DESTRUCTOR,
)


def _is_dependent(call: ci.Cursor) -> bool:
    return call.type.spelling == "<dependent type>" or call.type.kind == ci.TypeKind.DEPENDENT


def _member_name(tokens: list[str]) -> str:
    """The member a member expression names, from its tokens: the identifier after its last
    top-level `.`/`->` (inside a macro expansion the tokens run on past it, into the call)."""
    if len(tokens) >= 2 and tokens[-1].isidentifier() and tokens[-2] in (".", "->", "template"):
        return tokens[-1]
    name, depth, after_access = "", 0, False
    for token in tokens:
        if token in (".", "->") and depth == 0:
            after_access = True
            continue
        if after_access and token == "template":
            continue
        if after_access and token.isidentifier():
            name, after_access = token, False
            continue
        after_access = False
        if token == "(" and depth == 0 and name:
            break  # the call of the member just named
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(token, 0)
    return name


class AstChecker:
    def __init__(
        self, catalog: Catalog, ctx: Context, in_host: Callable[[str, int], bool] | None = None
    ) -> None:
        self.catalog = catalog
        self.ctx = ctx
        self.in_host = in_host  # (file, line) -> inside a host function
        self.members_by_class = {e.name: set(e.members) for e in catalog.entries if e.kind == "class"}

    def run(self, tu: ci.TranslationUnit, unit_files: set[str]) -> list[Finding]:
        findings: list[Finding] = []
        for cursor in unit_cursors(tu.cursor, unit_files):
            if cursor.kind in _METHOD_KINDS and cursor.is_definition():
                owner = cursor.semantic_parent
                if owner is not None and owner.kind == ci.CursorKind.CLASS_TEMPLATE:
                    findings += self._check_this_members(cursor, owner)
            if cursor.kind != ci.CursorKind.CALL_EXPR:
                continue
            if self.in_host is not None:
                self.ctx.in_host = self.in_host(norm(cu.file_of(cursor)), cursor.location.line)
            verdict = self._check_call(cursor)
            if verdict is not None:
                findings.append(Finding(cu.file_of(cursor), cursor.location.line, verdict))
        self.ctx.in_host = False
        if any(f.verdict.severity == "error" for f in findings):
            findings = _excuse_unused_templates(tu, unit_files, findings)
        return findings

    def _check_call(self, call: ci.Cursor) -> Verdict | None:
        callee = _callee(call)
        if callee is None:
            return None
        if callee.kind == ci.CursorKind.MEMBER_REF_EXPR and callee.referenced is None:
            return self._check_dependent_member(callee, call)
        ref = _overload_ref(callee)
        if ref is not None:
            decls = cu.overloaded_decls(ref)
            if not decls:
                return self._check_unresolved(ref.spelling)
            return self._check_arity(call, ref.spelling, decls)
        target = callee.referenced
        if (
            target is not None
            and target.kind in cu.FUNCTION_KINDS
            and _is_dependent(call)
            and callee.kind in (ci.CursorKind.DECL_REF_EXPR, ci.CursorKind.MEMBER_REF_EXPR)
        ):
            return self._check_arity(call, target.spelling, [target])
        return None

    def _check_unresolved(self, name: str) -> Verdict | None:
        if not name or name in self.ctx.declared:
            return None
        return classify_unknown(name, "", "", self.ctx)

    def _check_arity(self, call: ci.Cursor, name: str, decls: list[ci.Cursor]) -> Verdict | None:
        """Overload resolution by argument count and coarse argument kind (tensor, scalar, record)."""
        if not decls or not all(is_surface_file(cu.file_of(d)) for d in decls):
            return None
        functions = [d for d in decls if d.kind in cu.FUNCTION_KINDS]
        if len(functions) != len(decls):
            return None
        args = list(call.get_arguments())
        if _adl_may_add(args, functions):
            return None
        if (
            self.ctx.context_incomplete
            and name in self.ctx.tensor_apis
            and not any(argument_kind(a) not in ("*", "scalar", "enum") for a in args)
        ):
            return None  # a tensor API called with scalars: probably a helper of a missing header
        n = len(args)
        by_count = [f for f in functions if cu.arity(f).admits(n)]
        owner = cu.namespace_of(functions[0])
        if not by_count:
            arities = sorted({(a.min_args, a.max_args) for a in map(cu.arity, functions)})
            accepted = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in arities)
            return Verdict(
                "error",
                "ascendc.arity",
                f"no overload of {owner}::{name} takes {n} argument{'s' if n != 1 else ''} (accepted: {accepted})",
            )
        kinds = [argument_kind(a) for a in args]
        if any(_viable(f, kinds) for f in by_count):
            return None
        shown = ", ".join(k if k != "*" else "?" for k in kinds)
        return Verdict(
            "error",
            "ascendc.argument_types",
            f"no overload of {owner}::{name} accepts arguments of kinds ({shown})",
        )

    def _check_this_members(self, method: ci.Cursor, owner: ci.Cursor) -> list[Finding]:
        """`this->name` in a member of a class template without base classes: clang leaves the
        lookup to instantiation, but no instantiation can add a member the template lacks."""
        definition = owner.get_definition() or owner
        members: set[str] = set()
        for child in definition.get_children():
            if child.kind == ci.CursorKind.CXX_BASE_SPECIFIER:
                return []  # a base may declare it
            if child.spelling:
                members.add(child.spelling)
        found: list[Finding] = []
        for node, branches in _descend_with_branches(method):
            if node.kind != ci.CursorKind.MEMBER_REF_EXPR or node.referenced is not None:
                continue
            children = list(node.get_children())
            if not children or children[0].kind != ci.CursorKind.CXX_THIS_EXPR:
                continue
            tokens = [t.spelling for t in node.get_tokens()]
            name = node.spelling or (tokens[-1] if tokens else "")
            if not name.isidentifier() or name in members or name in self.ctx.lenient_names:
                continue
            near = closest(name, members)
            hint = f"; did you mean '{near}'?" if near else ""
            message = f"no member named '{name}' in '{definition.spelling}'{hint}"
            verdict = Verdict("error", "clang.no_member", message)
            if any(_is_constexpr_if(branch) for branch in branches):
                # the compiler judges a discarded `if constexpr` branch only in an instantiation
                # that takes it, and the build may never make one
                verdict = Verdict(
                    "warning", "clang.no_member", message + " (inside an `if constexpr` branch)"
                )
            found.append(Finding(cu.file_of(node), node.location.line, verdict))
        return found

    def _check_dependent_member(self, member: ci.Cursor, call: ci.Cursor | None = None) -> Verdict | None:
        name = member.spelling or _member_name([t.spelling for t in member.get_tokens()])
        children = list(member.get_children())
        if not children or not name.isidentifier():
            return None
        decl = children[0].type.get_declaration()
        if decl is None or not is_surface_file(cu.file_of(decl)):
            return None
        members = self.members_by_class.get(decl.spelling)
        if members is None:
            return None
        if name in members:
            return self._check_member_arity(decl, name, call)
        near = closest(name, members)
        hint = f"; did you mean '{near}'?" if near else ""
        return Verdict(
            "error", "ascendc.unknown_member", f"AscendC::{decl.spelling} has no member '{name}'{hint}"
        )

    def _check_member_arity(self, decl: ci.Cursor, name: str, call: ci.Cursor | None) -> Verdict | None:
        """A call of a surface class's method (in a template, so clang waits) with an argument
        count none of the method's overloads, in the class or its bases, takes."""
        if call is None:
            return None
        methods = _methods_named(decl.get_definition() or decl, name)
        if not methods or any(m.kind not in cu.FUNCTION_KINDS for m in methods):
            return None
        n = len(list(call.get_children())) - 1  # the callee, then the arguments
        arities = [cu.arity(m) for m in methods]
        if n < 0 or any(a.admits(n) for a in arities):
            return None
        accepted = ", ".join(
            sorted(
                {
                    str(a.min_args) if a.min_args == a.max_args else f"{a.min_args}-{a.max_args}"
                    for a in arities
                }
            )
        )
        return Verdict(
            "error",
            "ascendc.arity",
            f"no overload of AscendC::{decl.spelling}::{name} takes {n} argument{'s' if n != 1 else ''} (accepted: {accepted})",
        )


def _methods_named(cls: ci.Cursor, name: str, depth: int = 0) -> list[ci.Cursor]:
    """The methods `name` of a surface class and of its base classes."""
    found: list[ci.Cursor] = []
    for child in cls.get_children():
        if (
            child.kind in (ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE)
            and child.spelling == name
        ):
            found.append(child)
        elif child.kind == ci.CursorKind.CXX_BASE_SPECIFIER and depth < 4:
            base = child.referenced
            if base is not None:
                found += _methods_named(base.get_definition() or base, name, depth + 1)
    return found
