"""A documentation tree (API reference, programming guide, best practices) as section chunks.

One markdown page is one chunk when it is short (an API reference page keeps its prototype,
parameters and constraints together); a long page is split at its level-2 headings, each chunk
keeping the page title in its title path. From each chunk the facts a question can be checked
against are extracted: the API names it defines (from its prototypes and title), the prototypes,
the parameter tables, the constraints and the code examples. Pure: text in, records out; the
stage runner walks the tree and supplies licence and provenance.
"""

from __future__ import annotations

import re
from pathlib import Path

from parsers.docs import plain, sections, strip_comments, sub_through_last, tables_of
from schemas import DocChunk, DocParam, stable_id

MAX_CHUNK_CHARS = 6000
MIN_CHUNK_CHARS = 80
_ANCHOR = re.compile(r"<a id=\"[^\"]*\"></a>")
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
_PROTO_HEADS = ("原型", "prototype", "函数定义", "接口定义", "signature", "definition", "syntax")
_PARAM_HEADS = ("参数", "param", "argument")
_CONSTRAINT_HEADS = ("约束", "限制", "constraint", "restriction", "limitation", "注意事项")
# A name tried only where a word starts (after its leading digits, where the name started before),
# template arguments read at most 512 characters on, and `\s*(?:<...>)?\s*` written
# `\s*(?:<...>\s*)?`: a prototype line of one 25 KB word took 28 s.
_CALL = re.compile(r"(?<![A-Za-z0-9_])[0-9]*([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^;{}()]{0,512}>\s*)?\(")
_TABLE = re.compile(r"<table.*?</table>", re.DOTALL)
_KEYWORDS = {
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "decltype",
    "static_assert",
    "alignas",
    "operator",
}


def _heads(title: str, words: tuple[str, ...]) -> bool:
    low = title.lower()
    return any(w in low for w in words)


def declared_names(prototype: str) -> list[str]:
    """Function names a prototype block declares: the identifier before each declaration's `(`."""
    names: list[str] = []
    for line in prototype.splitlines():
        line = line.split("//", 1)[0].strip()
        if not line or line.startswith(("#", "template", "}")):
            continue
        first = _CALL.search(line)
        if first and first.group(1) not in _KEYWORDS:
            names.append(first.group(1))
    return list(dict.fromkeys(names))


def _title_api(title: str) -> list[str]:
    """`L1ToFixpipe-Buffer数据搬运（DataCopy）` -> [DataCopy]; `asc_reduce_add` -> itself."""
    found = re.findall(r"[（(]\s*([A-Za-z_][A-Za-z0-9_:]*)\s*[)）]", title)
    if found:
        return found
    return [title] if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_:]*", title) else []


def _params(body: str) -> list[DocParam]:
    rows: list[DocParam] = []
    for grid in tables_of(body):
        if not grid or not any(
            w in grid[0][0].lower() for w in ("参数", "name", "param", "成员", "字段", "field")
        ):
            continue
        for row in grid[1:]:
            ident = re.match(r"[A-Za-z_][A-Za-z0-9_]*", row[0].strip()) if row else None
            if ident is None:
                continue
            direction = ""
            if len(row) >= 3 and len(row[1]) < 16:
                direction = {"输入": "input", "输出": "output", "输入/输出": "inout"}.get(
                    row[1].strip(), row[1].strip().lower()
                )
            rows.append(DocParam(ident.group(0), direction, False, plain(row[-1])[:400]))
    return rows


def _bullets(body: str) -> list[str]:
    body = _FENCE.sub("", sub_through_last(_TABLE, "", body, "</table>"))
    items = [
        plain(re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", b))
        for b in re.split(r"\n(?=\s*(?:[-*+]|\d+[.)、])\s)|\n\s*\n", body)
    ]
    return [i for i in items if len(i) > 2 and not i.startswith("|")]


def chunk_page(text: str, path: str, source: str, language: str = "") -> list[DocChunk]:
    """The chunks of one markdown page (empty pages and pure link lists give none)."""
    from parsers.docs import language_of

    text = _ANCHOR.sub("", strip_comments(text.replace("\r\n", "\n"))).strip()
    if len(text) < MIN_CHUNK_CHARS:
        return []
    secs = sections(text)
    page_title = next((s.title for s in secs if s.level), path.rsplit("/", 1)[-1].removesuffix(".md"))
    groups: list[tuple[list[str], list[tuple[str, str]]]] = []  # (title path, [(section title, body)])
    if len(text) <= MAX_CHUNK_CHARS:
        groups.append(([page_title], [(s.title, s.body) for s in secs]))
    else:
        # Level-2 sections are grouped in order until a group would exceed MAX_CHUNK_CHARS.
        current: tuple[list[str], list[tuple[str, str]]] = ([page_title], [])
        size = 0
        for sec in secs:
            if sec.level == 2 and current[1] and size + len(sec.body) > MAX_CHUNK_CHARS:
                groups.append(current)
                current, size = ([page_title, sec.title], []), 0
            current[1].append((sec.title, sec.body))
            size += len(sec.body)
        groups.append(current)
    lang = language or language_of(text)
    chunks: list[DocChunk] = []
    for title_path, parts in groups:
        body_text = "\n".join(b for _, b in parts)
        if len(plain(body_text)) < MIN_CHUNK_CHARS // 2:
            continue
        prototypes = [
            m.group(1).strip() for t, b in parts if _heads(t, _PROTO_HEADS) for m in _FENCE.finditer(b)
        ]
        examples = [
            m.group(1).strip() for t, b in parts if not _heads(t, _PROTO_HEADS) for m in _FENCE.finditer(b)
        ]
        file_title = path.rsplit("/", 1)[-1].removesuffix(".md")
        apis = (
            [n for p in prototypes for n in declared_names(p)]
            + _title_api(page_title)
            + _title_api(file_title)
        )
        chunk_text = "\n".join(
            f"{'#' * min(6, max(1, i + 1))} {t}\n{b.strip()}" if t else b.strip()
            for i, (t, b) in enumerate(parts)
        )
        chunks.append(
            DocChunk(
                chunk_id=stable_id(source, path, *title_path),
                source=source,
                origin_url="",
                commit="",
                path=path,
                title_path=title_path,
                apis=list(dict.fromkeys(apis)),
                prototypes=prototypes,
                params=[p for t, b in parts if _heads(t, _PARAM_HEADS) for p in _params(b)],
                constraints=[c for t, b in parts if _heads(t, _CONSTRAINT_HEADS) for c in _bullets(b)][:20],
                examples=[e for e in examples if e][:6],
                language=lang,
                text=chunk_text.strip(),
                chars=len(chunk_text),
            )
        )
    return chunks


_SKIP_DIRS = {".git", "node_modules", "build", "__pycache__"}


def walk_doc_tree(root: Path, source: str, repo_root: Path | None = None) -> tuple[list[DocChunk], int, int]:
    """Every markdown page under `root` as chunks, with the licence of the nearest LICENSE file
    (searched up to `repo_root`, the repository the tree belongs to). Returns (chunks, pages
    read, pages skipped: unreadable or not UTF-8)."""
    import os

    from parsers.files import read_inside
    from parsers.licenses import LicenseFiles

    base = repo_root or root
    licences = LicenseFiles(base)
    try:
        prefix = root.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        prefix = ""
    prefix = "" if prefix == "." else prefix
    chunks: list[DocChunk] = []
    pages = skipped = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if not name.lower().endswith(".md"):
                continue
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            text = read_inside(root, rel)  # a link leaving the tree or a FIFO is refused
            rel = f"{prefix}/{rel}" if prefix else rel
            if text is None:
                skipped += 1
                continue
            pages += 1
            licence = licences.license_for(str(Path(rel).parent) if "/" in rel else "")
            for chunk in chunk_page(text, rel, source):
                chunk.license = licence
                chunks.append(chunk)
    return chunks, pages, skipped
