"""Operator documentation as facts: what an operator computes, its parameter table, constraints.

Real operator folders ship their semantics next to the code: `README.md` and `docs/aclnn<Op>.md`
(mostly Chinese) with the function ("算子功能"), the formula ("计算公式", LaTeX between `$$`), an
HTML parameter table, the constraints ("约束说明") and the supported products ("产品支持情况");
samples have a README, benchmark tasks an `api_desc.md`. This module reads such markdown text into
an `OperatorDoc`. Tables are parsed (HTML with `html.parser`, markdown pipe tables by their
separator line), never pasted. Pure: text in, record out; `find_operator_docs` takes the directory
listing and the reader as functions, so the ingest (which owns the file access) decides both.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from parsers.files import list_files, read_inside
from schemas import DocParam, OperatorDoc

RAW_MAX_CHARS = 20_000

# -- markdown structure -------------------------------------------------------------------------

# Hostile documents: each pattern below is written so that no start scans without bound (the
# figures are the old pattern's on about 100 KB; benchmarks/bench_hostile_regex.py). A heading's
# closing `#`s and spaces are read at most 64 of each, possessively: `[ \t]*#*[ \t]*` was retried at
# every character of the title (a heading of 5,000 spaces took 90 s).
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING = re.compile(r"^(#{1,6})[ \t]*(.+?)[ \t]{0,64}+#{0,64}+[ \t]{0,64}+$", re.MULTILINE)
_FORMULA = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_TAG = re.compile(r"<[^>]+>")
# A link's text is read at most 512 characters on: `[^\]]*` scanned from every `[` of 100 KB of
# them to the end (50 s).
_LINK = re.compile(r"\[([^\]]{0,512})\]\([^)]*\)")
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def language_of(text: str) -> str:
    """zh when a noticeable share of the letters are CJK ideographs, else en."""
    letters = sum(1 for ch in text if ch.isalpha())
    return "zh" if letters and len(_CJK.findall(text)) / letters > 0.05 else "en"


def sub_through_last(pattern: re.Pattern[str], repl: str, text: str, closer: str) -> str:
    """`pattern.sub(repl, text)` for a pattern whose every match ends with `closer`: only the text up
    to the last `closer` is searched. Past it, every start of a match would scan to the end of the
    text in vain (100 KB of unclosed `<!--` took 16 s; of `<`, 4 s)."""
    end = text.rfind(closer)
    if end < 0:
        return text
    end += len(closer)
    return pattern.sub(repl, text[:end]) + text[end:]


def strip_comments(text: str) -> str:
    """HTML comments removed."""
    return sub_through_last(_COMMENT, "", text, "-->")


def plain(text: str) -> str:
    """Markdown/HTML inline text -> plain text (tags, links, emphasis and extra spaces removed)."""
    text = re.sub(r"<br\s*/?>", " ", text, flags=re.IGNORECASE)
    text = sub_through_last(_TAG, "", text, ">")
    text = sub_through_last(_LINK, r"\1", text, ")")
    text = text.replace("**", "").replace("`", "").replace("&nbsp;", " ")
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(slots=True)
class Section:
    title: str
    level: int
    body: str


def sections(text: str) -> list[Section]:
    """The document split at its headings (code fences are not searched for headings)."""
    masked = _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    heads = list(_HEADING.finditer(masked))
    out = [Section("", 0, text[: heads[0].start()] if heads else text)]
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append(Section(plain(m.group(2)), len(m.group(1)), text[m.end() : end]))
    return out


# -- tables ---------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Cell:
    text: str
    rowspan: int = 1
    colspan: int = 1


class _TableParser(HTMLParser):
    """Every <table> in a text as rows of cells, rowspan/colspan expanded into a grid."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self._rows: list[list[_Cell]] | None = None
        self._row: list[_Cell] | None = None
        self._cell: list[str] | None = None
        self._span = (1, 1)
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
            if self._depth == 1:
                self._rows = []
        elif self._rows is None:
            return
        elif tag == "tr":
            self._close_row()
            self._row = []
        elif tag in ("td", "th"):
            self._close_cell()
            if self._row is None:
                self._row = []
            values = dict(attrs)
            self._span = (_int(values.get("rowspan")), _int(values.get("colspan")))
            self._cell = []
        elif (tag == "br" and self._cell is not None) or (tag == "li" and self._cell is not None):
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth -= 1
            if self._depth == 0 and self._rows is not None:
                self._close_row()
                self.tables.append(_grid(self._rows))
                self._rows = None
        elif tag in ("td", "th"):
            self._close_cell()
        elif tag == "tr":
            self._close_row()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def _close_cell(self) -> None:
        if self._cell is not None and self._row is not None:
            text = "\n".join(
                re.sub(r"[ \t\r\f\v]+", " ", part).strip() for part in "".join(self._cell).split("\n")
            )
            self._row.append(_Cell(text.strip(), *self._span))
        self._cell = None

    def _close_row(self) -> None:
        self._close_cell()
        if self._row is not None and self._rows is not None and self._row:
            self._rows.append(self._row)
        self._row = None


def _int(value: str | None) -> int:
    try:
        return max(1, min(50, int(value or 1)))
    except ValueError:
        return 1


def _grid(rows: list[list[_Cell]]) -> list[list[str]]:
    """Rows with rowspan/colspan cells repeated where they reach."""
    pending: dict[int, tuple[str, int]] = {}  # column -> (text, rows still covered)
    out: list[list[str]] = []
    for row in rows:
        line: list[str] = []
        cells = list(row)
        col = 0
        while cells or col in pending:
            if col in pending:
                text, left = pending.pop(col)
                line.append(text)
                if left > 1:
                    pending[col] = (text, left - 1)
                col += 1
                continue
            cell = cells.pop(0)
            for _ in range(cell.colspan):
                line.append(cell.text)
                if cell.rowspan > 1:
                    pending[col] = (cell.text, cell.rowspan - 1)
                col += 1
        out.append(line)
    return out


def html_tables(text: str) -> list[list[list[str]]]:
    # A table is kept at its `</table>`: without one there is none, and the standard library's
    # HTML parser takes quadratic time on some hostile text (100 KB of `<!--`: 4 s).
    if "</table" not in text.lower():
        return []
    parser = _TableParser()
    parser.feed(text)
    parser.close()
    return parser.tables


# `\s*\|?\s*` written `\s*(?:\|\s*)?`: the same lines, without trying every split of a run of spaces
# between two `\s*` (a line of 100 KB of spaces took 85 s).
_PIPE_SEP = re.compile(r"^\s*(?:\|\s*)?:?-+:?\s*(\|\s*:?-+:?\s*)+(?:\|\s*)?$")


def pipe_tables(text: str) -> list[list[list[str]]]:
    """Markdown pipe tables: a header line, a `|---|` separator line, then the rows."""
    lines = text.splitlines()
    tables: list[list[list[str]]] = []
    i = 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _PIPE_SEP.match(lines[i + 1]):
            rows = [_pipe_cells(lines[i])]
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_pipe_cells(lines[j]))
                j += 1
            tables.append(rows)
            i = j
        else:
            i += 1
    return tables


def _pipe_cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line)]


def tables_of(text: str) -> list[list[list[str]]]:
    """HTML tables first, then pipe tables, each as a grid of cell texts (HTML cells keep line
    breaks; inline markup is removed)."""
    grids = html_tables(text) + pipe_tables(text)
    return [
        [[plain(c) if "\n" not in c else "\n".join(plain(p) for p in c.split("\n")) for c in r] for r in g]
        for g in grids
    ]


# -- parameter tables -------------------------------------------------------------------------------

_COLUMN_WORDS: dict[str, tuple[str, ...]] = {
    "direction": ("输入/输出", "input/output", "direction", "i/o", "类别", "输入输出"),
    "dtype": ("数据类型", "data type", "dtype", "datatype", "类型"),
    "format": ("数据格式", "format", "格式"),
    "shape": ("维度", "shape", "rank", "dim"),
    "description": ("描述", "description", "说明", "含义", "meaning"),
    "name": ("参数名", "name", "参数", "parameter", "名称", "param"),
}
_SKIP_NAMES = {"workspacesize", "executor", "workspace", "stream", "tiling"}
_DTYPES = {
    "float16": "float16", "fp16": "float16", "half": "float16",
    "float32": "float32", "fp32": "float32", "float": "float32",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
    "double": "float64", "float64": "float64", "fp64": "float64",
    "hifloat8": "hifloat8", "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2",
    "float8_e8m0": "float8_e8m0", "float4_e2m1": "float4_e2m1", "float4_e1m2": "float4_e1m2",
    "bool": "bool", "string": "string",
    **{f"int{n}": f"int{n}" for n in (4, 8, 16, 32, 64)},
    **{f"uint{n}": f"uint{n}" for n in (1, 8, 16, 32, 64)},
    "complex32": "complex32", "complex64": "complex64", "complex128": "complex128",
}  # fmt: skip
_DTYPE_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_])(?:DT_)?(" + "|".join(sorted(_DTYPES, key=len, reverse=True)) + r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_FORMAT_TOKEN = re.compile(r"(?<![A-Za-z0-9_])(?:FORMAT_)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)(?![A-Za-z0-9_])")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def canonical_dtype(name: str) -> str:
    """`DT_FLOAT16`, `FLOAT16`, `fp16`, `half` -> `float16`; unknown names lower-cased as they are."""
    key = name.strip().lower()
    key = key[3:] if key.startswith("dt_") else key
    return _DTYPES.get({"bf16": "bfloat16"}.get(key, key), key)


def dtypes_in(text: str) -> list[str]:
    return list(dict.fromkeys(canonical_dtype(m.group(1)) for m in _DTYPE_TOKEN.finditer(text)))


def formats_in(text: str) -> list[str]:
    found = [m.group(1) for m in _FORMAT_TOKEN.finditer(text)]
    return list(
        dict.fromkeys(
            f for f in found if f not in {"NA", "N", "A", "X", "Y"} and not _DTYPE_TOKEN.fullmatch(f)
        )
    )


def direction_of(text: str) -> tuple[str, bool]:
    """(input | output | inout | attribute | "", optional) from a direction cell, any language."""
    low = text.lower()
    optional = "可选" in text or "optional" in low
    if "属性" in text or "attr" in low:
        return "attribute", optional
    has_in = "输入" in text or re.search(r"\binputs?\b", low) is not None
    has_out = "输出" in text or re.search(r"\boutputs?\b", low) is not None
    if has_in and has_out:
        return "inout", optional
    if has_in:
        return "input", optional
    if has_out:
        return "output", optional
    return "", optional


def _columns(header: list[str]) -> dict[str, int]:
    cols: dict[str, int] = {}
    for kind, words in _COLUMN_WORDS.items():
        for i, cell in enumerate(header):
            low = cell.lower()
            if i in cols.values():
                continue
            if any(w in low for w in words):
                cols[kind] = i
                break
    return cols


def param_rows(grid: list[list[str]]) -> list[DocParam]:
    """The parameter rows of one table, or [] when it is not a parameter table (it needs a name
    column and a dtype or direction column)."""
    start = -1
    cols: dict[str, int] = {}
    for index, header in enumerate(grid[:3]):
        cols = _columns(header)
        if "name" in cols and ("dtype" in cols or "direction" in cols):
            start = index + 1
            break
    if start < 0:
        return []
    out: list[DocParam] = []
    for row in grid[start:]:
        if len(row) <= cols["name"]:
            continue
        name_cell = re.split(r"[（(\s]", row[cols["name"]].strip(), maxsplit=1)[0]
        ident = _IDENT.search(name_cell)
        if not ident or ident.group(0).lower() in _SKIP_NAMES:
            continue

        def cell(kind: str, row: list[str] = row) -> str:
            i = cols.get(kind)
            return row[i] if i is not None and i < len(row) else ""

        direction, optional = direction_of(cell("direction"))
        if not direction:
            for i, text in enumerate(row):
                if i != cols["name"] and len(text) < 24:
                    direction, optional = direction_of(text)
                    if direction:
                        break
        dtype_text = cell("dtype")
        out.append(
            DocParam(
                name=ident.group(0),
                direction=direction,
                optional=optional,
                description=re.sub(r"\s+", " ", cell("description")).strip(),
                dtypes=dtypes_in(dtype_text),
                formats=formats_in(cell("format")),
                shape=re.sub(r"\s+", " ", cell("shape")).strip(" -"),
            )
        )
    return out


# A bullet is found from its own line's start (`[^\S\n]`: spaces but not a line break): `^\s*` ran
# from every line start across all the blank lines after it (100 KB of them: 200 s).
_BULLET_PARAM = re.compile(r"^[^\S\n]*[-*+]\s+`?([A-Za-z_][A-Za-z0-9_]*)`?\s*[:：]\s*(.+)$", re.MULTILINE)


def bullet_params(body: str) -> list[DocParam]:
    """`- totalLength: 向量长度` lists in a parameter section (samples have no table)."""
    out: list[DocParam] = []
    for m in _BULLET_PARAM.finditer(body):
        desc = plain(m.group(2))
        direction, optional = direction_of(desc[:24])
        out.append(DocParam(m.group(1), direction, optional, desc, dtypes_in(desc), []))
    return out


# -- the document -----------------------------------------------------------------------------------

# The label is found from its own line's start, and `\s*(?:\*\*)?\s*` is written `\s*(?:\*\*\s*)?`:
# `^[\s>*-]*` ran from every line start across all the blank or `*` lines after it (25 KB of them:
# 35 s), and a run of line breaks after the `:` was split every way between the two `\s*`.
_FUNCTION_LABEL = re.compile(
    r"^(?:[^\S\n]|[>*-])*(?:\*\*)?(?:算子功能|接口功能|功能描述|功能|Function|Functionality|Description)(?:\*\*)?\s*[:：]\s*(?:\*\*\s*)?(.+)$",
    re.MULTILINE | re.IGNORECASE,
)
_FUNCTION_HEADS = (
    "功能",
    "描述",
    "概述",
    "简介",
    "description",
    "overview",
    "function",
    "introduction",
    "概要",
    "算子说明",
)
_PARAM_HEADS = ("参数", "param", "规格", "input", "输入", "specification", "arguments", "接口")
_CONSTRAINT_HEADS = ("约束", "限制", "constraint", "limitation", "restriction", "注意")
_PRODUCT_HEADS = (
    "产品支持",
    "支持的产品",
    "supported product",
    "product support",
    "型号",
    "支持架构",
    "architecture",
)
_TABLE = re.compile(r"<table.*?</table>", re.DOTALL | re.IGNORECASE)
_LAST_TABLE_CLOSE = re.compile(r".*(</table>)", re.DOTALL | re.IGNORECASE)
_YES = re.compile(r"√|✓|✔|支持|\byes\b|\bsupported\b", re.IGNORECASE)
_NO = re.compile(r"×|✗|不支持|\bno\b|not supported|unsupported", re.IGNORECASE)


def _heads(section: Section, words: tuple[str, ...]) -> bool:
    low = section.title.lower()
    return any(w in low for w in words)


def _bullets(body: str) -> list[str]:
    """List items (and plain paragraphs) of a section, as plain text, tables and code removed."""
    body = _FENCE.sub("", sub_through_last(_TABLE, "", body, _last_table_close(body)))
    body = _FORMULA.sub("", body)
    items: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)、])\s)", body):
        text = plain(re.sub(r"^\s*(?:[-*+]|\d+[.)、])\s+", "", block.strip()))
        if text and not text.startswith("|") and len(text) > 2:
            items.append(text)
    return items


def _last_table_close(text: str) -> str:
    """The last `</table>` as written (any case), or `</table>` when there is none."""
    found = _LAST_TABLE_CLOSE.match(text)
    return found.group(1) if found else "</table>"


_CONTINUATION = re.compile(r"\n[ \t]+(?![-*+][ \t]|\d+[.)、][ \t]|\$\$)(\S[^\n]*)")


def _labelled_function(text: str) -> str:
    """The text after a `Function:` label, with the indented lines that continue its list item."""
    m = _FUNCTION_LABEL.search(text)
    if not m:
        return ""
    parts, end = [m.group(1)], m.end()
    while (more := _CONTINUATION.match(text, end)) is not None:
        parts.append(more.group(1))
        end = more.end()
    # Chinese text wraps without a space between the lines; other text wraps at a space.
    joined = parts[0]
    for part in parts[1:]:
        joined += ("" if "\u4e00" <= joined[-1:] <= "\u9fff" else " ") + part
    return plain(joined)


def _function_of(text: str, secs: list[Section]) -> str:
    labelled = _labelled_function(_FENCE.sub("", text))
    if labelled:
        return labelled
    for sec in secs:
        if _heads(sec, _FUNCTION_HEADS):
            items = [b for b in _bullets(sec.body) if not re.match(r"^(计算公式|formula)", b, re.IGNORECASE)]
            if items:
                return items[0]
    # A README without a function heading: the first paragraph under the title.
    for sec in secs[:2]:
        items = [b for b in _bullets(sec.body) if not b.startswith(("[", "!"))]
        if items and sec.level <= 1:
            return items[0]
    return ""


def _products_of(secs: list[Section]) -> list[str]:
    found: list[str] = []
    for sec in secs:
        if not _heads(sec, _PRODUCT_HEADS):
            continue
        for grid in tables_of(sec.body):
            for row in grid[1:]:
                if len(row) >= 2 and _YES.search(" ".join(row[1:])) and not _NO.search(" ".join(row[1:])):
                    found.append(row[0])
        if "架构" in sec.title or "architecture" in sec.title.lower():
            found += [plain(line) for line in sec.body.splitlines() if plain(line)][:3]
            continue
        for line in sec.body.splitlines():
            text = plain(re.sub(r"^\s*[-*+]\s+", "", line))
            name, sep, verdict = text.replace("：", ":").rpartition(":")
            if sep and _YES.search(verdict) and not _NO.search(verdict):
                found.append(name.strip())
    return list(dict.fromkeys(p for p in found if p))


def doc_kind(path: str) -> str:
    base = posixpath.basename(path).lower()
    if base == "api_desc.md":
        return "api-desc"
    if base.startswith("aclnn"):
        return "aclnn"
    if base == "readme.md" or base.startswith("readme"):
        return "operator-readme" if "/docs/" not in f"/{path}" else "doc"
    return "doc"


def parse_operator_doc(text: str, path: str) -> OperatorDoc:
    """One markdown document -> the facts it states (fields it does not state stay empty)."""
    text = strip_comments(text.replace("\r\n", "\n"))
    secs = sections(text)
    title = next((s.title for s in secs if s.level and s.title), "")
    params: list[DocParam] = []
    ordered = [s for s in secs if _heads(s, _PARAM_HEADS)] + secs
    for sec in ordered:
        for grid in tables_of(sec.body):
            params = param_rows(grid)
            if params:
                break
        if params:
            break
    if not params:
        params = [p for sec in secs if _heads(sec, _PARAM_HEADS) for p in bullet_params(sec.body)]
    constraints = [item for sec in secs if _heads(sec, _CONSTRAINT_HEADS) for item in _bullets(sec.body)]
    return OperatorDoc(
        path=path,
        kind=doc_kind(path),
        language=language_of(text),
        title=title,
        function=_function_of(text, secs),
        formulas=[re.sub(r"\s+", " ", f).strip() for f in _FORMULA.findall(text)][:8],
        params=params,
        constraints=constraints[:12],
        products=_products_of(secs),
        sources=[path],
        raw=text.strip()[:RAW_MAX_CHARS],
    )


def merge_docs(docs: list[OperatorDoc]) -> OperatorDoc | None:
    """One record from the documents of one operator: the first document (README before docs/)
    that states a function and a parameter table leads; empty fields are filled from the others."""
    if not docs:
        return None
    ranked = sorted(docs, key=lambda d: (not (d.function and d.params), not d.function, not d.params))
    lead = ranked[0]
    used = [lead.path]
    for other in ranked[1:]:
        took = False
        for name in ("function", "formulas", "params", "constraints", "products"):
            if not getattr(lead, name) and getattr(other, name):
                setattr(lead, name, getattr(other, name))
                took = True
        if took:
            used.append(other.path)
    lead.sources = used
    return lead


# -- finding the documents of an entry ---------------------------------------------------------------

_SOURCE_DIRS = {"src", "kernel", "kernels", "op_kernel", "device"}
# Per-architecture source folders (`blas/axpy/arch35/saxpy_kernel.cpp`, `arch22/`, `archxx/`): the
# operator's README sits one level up, as for `src/`.
_ARCH_DIR_RE = re.compile(r"^arch(?:\d+|xx)$", re.IGNORECASE)


def _source_subfolder(name: str) -> bool:
    return name in _SOURCE_DIRS or bool(_ARCH_DIR_RE.match(name))


_DOC_NAMES = ("api_desc.md", "README.md", "readme.md", "README_en.md", "README.en.md")


@dataclass(slots=True)
class DocFinder:
    """Which documents belong to an entry file: the nearest directory at or above it, up to its
    operator directory (or benchmark task), that holds a README, `docs/*.md` or `api_desc.md`.
    Never the ingested root's own README: that describes the repository, not the operator."""

    list_dir: Callable[[str], list[str]]  # relative directory -> file names in it ([] if none)
    read: Callable[[str], str | None]
    cache: dict[str, OperatorDoc | None] = field(default_factory=dict)

    @classmethod
    def inside(cls, root: Path) -> DocFinder:
        """The documentation of the files under `root`, every read inside it (`read_inside`)."""
        return cls(lambda rel: list_files(root, rel), lambda rel: read_inside(root, rel))

    def candidates(self, directory: str) -> list[str]:
        names = set(self.list_dir(directory))
        found = [posixpath.join(directory, n) for n in _DOC_NAMES if n in names]
        docs_dir = posixpath.join(directory, "docs")
        found += sorted(
            posixpath.join(docs_dir, n) for n in self.list_dir(docs_dir) if n.lower().endswith(".md")
        )
        return found[:12]

    def for_entry(self, entry: str, stop: str | None) -> OperatorDoc | None:
        """The documentation of the entry `entry`; `stop` is the highest directory to look in
        (the operator or task directory), None for the entry's directory and its parent."""
        directory = posixpath.dirname(entry)
        levels: list[str] = []
        while directory:
            levels.append(directory)
            if stop is not None and directory == stop:
                break
            # Without an operator directory: the entry's own folder, and its parent only when the
            # entry sits in a source subfolder (`sample/src/x.asc`), never a folder of samples.
            if stop is None and (len(levels) == 2 or not _source_subfolder(posixpath.basename(directory))):
                break
            if stop is not None and not directory.startswith(stop.rstrip("/") + "/") and stop:
                break
            directory = posixpath.dirname(directory)
        for level in levels:
            if level in self.cache:
                if self.cache[level] is not None:
                    return self.cache[level]
                continue
            docs = []
            for path in self.candidates(level):
                text = self.read(path)
                if text is not None and text.strip():
                    docs.append(parse_operator_doc(text, path))
            self.cache[level] = merge_docs(docs)
            if self.cache[level] is not None:
                return self.cache[level]
        return None


def extracted(doc: OperatorDoc | None) -> bool:
    """The coverage measure: a document whose function and parameter table were both read."""
    return doc is not None and bool(doc.function) and bool(doc.params)
