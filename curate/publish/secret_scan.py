"""The secret and personal-data gate: every text that would be published is scanned before
anything is written or uploaded, and any finding blocks the push.

Secrets (API keys, tokens, private keys, passwords, high-entropy strings) are found by
detect-secrets with all its plugins. Two gaps it leaves are filled here: e-mail addresses
(personal data; addresses at the reserved example domains are not personal) and Hugging Face
tokens. The token the push itself uses is also looked for verbatim.

Scanning is line based, so each distinct line is scanned once: the formats repeat the same
reasoning and code, and vendor files repeat the same licence header, which makes the distinct
lines a small share of the total. Findings never echo a secret in full.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]+@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
# RFC 2606 / 6761 names that can never belong to a person.
_RESERVED_DOMAINS = re.compile(
    r"(^|\.)(example\.(com|org|net)|example|test|invalid|localhost)$", re.IGNORECASE
)
_HF_TOKEN = re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")


@dataclass(frozen=True, slots=True)
class Finding:
    file: str  # path in the published repository
    row: int  # 0-based row in that file; -1 for text files
    column: str  # column (nested: messages[2].content); "" for text files
    line: int  # 1-based line inside the cell or text file
    kind: str
    preview: str  # a redacted hint, never the whole value
    finding_id: str  # stable id, for --ignore-finding
    row_id: str = ""  # the row's `id` column, when it has one

    def describe(self) -> str:
        where = self.file if self.row < 0 else f"{self.file} row {self.row}"
        if self.row_id:
            where += f" (id {self.row_id})"
        if self.column:
            where += f" column {self.column}"
        return f"{where} line {self.line}: {self.kind} {self.preview} [id {self.finding_id}]"


def _redact(kind: str, value: str) -> str:
    if kind == "E-mail address":
        local, _, domain = value.partition("@")
        return f"{local[:1]}…@{domain}"
    return f"{value[:3]}… ({len(value)} chars)"


_TOKEN_CHARS = re.compile(r"[\w+/=.-]")


def _whole(line: str, value: str) -> str:
    """The whole token around what a detector captured: some capture only a prefix (`ghp`), which
    would make every token of that kind share one finding id and one preview."""
    start = line.find(value)
    if start < 0 or not value:
        return value
    end = start + len(value)
    while start > 0 and _TOKEN_CHARS.match(line[start - 1]):
        start -= 1
    while end < len(line) and _TOKEN_CHARS.match(line[end]):
        end += 1
    return line[start:end] if len(value) < 8 else value


def _finding_id(kind: str, value: str) -> str:
    return hashlib.sha256(f"{kind}\x1f{value}".encode()).hexdigest()[:12]


def _cells(value: Any, column: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield column, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _cells(item, f"{column}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _cells(item, f"{column}.{key}")


def _texts(
    tables: Mapping[str, pa.Table], files: Mapping[str, str]
) -> Iterator[tuple[str, int, str, str, str]]:
    """(file, row, column, row id, text) for every string that would be published."""
    for path, text in files.items():
        yield path, -1, "", "", text
    for path, table in tables.items():
        for index, row in enumerate(table.to_pylist()):
            row_id = str(row.get("id", ""))
            for column, value in row.items():
                for name, text in _cells(value, column):
                    yield path, index, name, row_id, text


def _scan_with_detect_secrets(lines: list[str]) -> dict[str, list[tuple[str, str]]]:
    """line text -> [(kind, secret value)] for the lines detect-secrets flags."""
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings

    flagged: dict[str, list[tuple[str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="curate-scan-") as tmp:
        path = Path(tmp) / "published.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
        with default_settings():
            for secret in scan_file(str(path)):
                line = lines[secret.line_number - 1]
                flagged.setdefault(line, []).append((secret.type, _whole(line, secret.secret_value or "")))
    return flagged


def _scan_extra(lines: Iterable[str], forbidden: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    needles = [f for f in forbidden if f]
    flagged: dict[str, list[tuple[str, str]]] = {}
    for line in lines:
        hits = [("Hugging Face token", m.group(0)) for m in _HF_TOKEN.finditer(line)]
        hits += [
            ("E-mail address", m.group(0))
            for m in _EMAIL.finditer(line)
            if not _RESERVED_DOMAINS.search(m.group(1))
        ]
        hits += [("The token used for this push", n) for n in needles if n in line]
        if hits:
            flagged[line] = hits
    return flagged


def scan(
    tables: Mapping[str, pa.Table],
    files: Mapping[str, str],
    forbidden: Iterable[str] = (),
    ignore: Iterable[str] = (),
    provenance: Iterable[str] = (),
) -> list[Finding]:
    """Every finding in what would be published: `tables` (path -> table) and `files` (path ->
    text). `forbidden` strings (the push token) are findings wherever they occur; findings whose
    id is in `ignore` (judged false positives by the user) are dropped, and so are values that
    are published on purpose (`provenance`: commit hashes and ids, which look like random hex)."""
    unique = sorted(
        {line for *_, text in _texts(tables, files) for line in text.splitlines() if line.strip()}
    )
    flagged = _scan_with_detect_secrets(unique)
    for line, hits in _scan_extra(unique, forbidden).items():
        flagged.setdefault(line, []).extend(hits)
    ignored = set(ignore)
    deliberate = {p for p in provenance if p}
    findings: list[Finding] = []
    seen: set[tuple[str, int, str, int, str]] = set()
    for path, row, column, row_id, text in _texts(tables, files):
        for number, line in enumerate(text.splitlines(), start=1):
            for kind, value in flagged.get(line, []):
                fid = _finding_id(kind, value)
                key = (path, row, column, number, fid)
                if (
                    fid in ignored
                    or key in seen
                    or (value in deliberate and kind != "The token used for this push")
                ):
                    continue
                seen.add(key)
                findings.append(Finding(path, row, column, number, kind, _redact(kind, value), fid, row_id))
    return findings


def report(findings: list[Finding], limit: int = 40) -> str:
    lines = [f"the secret and personal-data gate found {len(findings)} finding(s):"]
    lines += [f"  {f.describe()}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"  ... and {len(findings) - limit} more")
    return "\n".join(lines)
