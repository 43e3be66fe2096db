"""The secret and personal-data gate: every text that would be published is scanned before
anything is written or uploaded, and any finding blocks the push.

Secrets (API keys, tokens, private keys, passwords, high-entropy strings) are found by
detect-secrets with all its plugins. The gaps it leaves are filled here: e-mail addresses
(personal data; addresses at the reserved example domains are not personal), Hugging Face
tokens, secret assignments its keyword plugin does not see (`// aws_secret_access_key = ...`,
`export AWS_SECRET_ACCESS_KEY=...`), and private-key bodies (base64 lines of a PEM block, with
or without their BEGIN line). The token the push itself uses is also looked for verbatim.

A finding's id is a hash of its kind and its whole value, so a waiver (--ignore-finding) covers
that one value and nothing else: a private key's id covers its whole PEM block (every key has
the same BEGIN line), and a body line outside a block is its own finding.

Scanning is line based, so each distinct line is scanned once: the formats repeat the same
reasoning and code, and vendor files repeat the same licence header, which makes the distinct
lines a small share of the total. Findings never echo a secret in full.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

# An address starts where no word, `.`, `+` or `-` precedes it, also after a `%` inside a run of
# address characters; every start of a run reaches the same `@`, so once a run fails it is skipped
# (tried from every `%` of a run of them, the old single pattern took 7-10 s per 100 KB line).
_EMAIL_START = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]++")  # a start, and the run to its end
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]++@((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\b")
# RFC 2606 / 6761 names that can never belong to a person.
_RESERVED_DOMAINS = re.compile(
    r"(^|\.)(example\.(com|org|net)|example|test|invalid|localhost)$", re.IGNORECASE
)
_HF_TOKEN = re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")
# `name = value` / `name: value` / `NAME=value` anywhere on a line (a comment, a shell export, a
# C string), for names that hold secrets; the value must look random (see `_looks_random`).
_SECRET_ASSIGNMENT = re.compile(
    r"(?i)\b(?:aws_)?(?:secret_access_key|secret_key|client_secret|api_?key|access_token|auth_token|"
    r"password|passwd)\b[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=_\-.~]{16,})"
)
# One line of a PEM body: 64 base64 characters, alone on its line or behind a comment marker
# (a key pasted into source code); the last line of a block may be shorter.
_PEM_BODY = re.compile(r"^\s*(?:(?://+|#+|\*|;+|--)\s*)?([A-Za-z0-9+/]{64})\s*$")
_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
PRIVATE_KEY_KINDS = ("Private Key", "Private key body")
SCAN_NAME = "published.txt"  # the file type decides which keyword patterns detect-secrets applies


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


_CONFIG_LINE = re.compile(r"^(\s*[\w.-]+\s*[:=]\s*)([^\s'\"]+)\s*$")


def _variants(line: str) -> list[str]:
    """The line, and for a config-style `key = value` line also the value quoted: the plugins
    look for secrets in quoted strings, and detect-secrets' own config-file pass (which quotes
    such values) only runs when a whole file parses as configuration."""
    text = line.rstrip()
    config = _CONFIG_LINE.match(text)
    return [text, f'{config.group(1)}"{config.group(2)}"'] if config else [text]


def _scan_chunk(lines: list[str]) -> dict[str, list[tuple[str, str]]]:
    """line text -> [(kind, secret value)] for the lines detect-secrets flags.

    A finding needs some plugin to match before any filter runs, so that cheap test picks the
    candidate lines first and only those get the full scan with its filters (about 3x slower
    per line). Verification of secrets against their providers stays off (the default):
    nothing found is ever sent anywhere."""
    from detect_secrets.core.scan import scan_file
    from detect_secrets.settings import default_settings, get_plugins

    flagged: dict[str, list[tuple[str, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="curate-scan-") as tmp, default_settings():
        plugins = list(get_plugins())
        candidates = [
            (line, text)
            for line in lines
            for text in _variants(line)
            if any(
                p.analyze_line(filename=SCAN_NAME, line=text, line_number=0, context=None) for p in plugins
            )
        ]
        if not candidates:
            return flagged
        path = Path(tmp) / SCAN_NAME
        path.write_text(
            "\n".join(t for _, t in candidates) + "\n", encoding="utf-8", errors="surrogateescape"
        )
        for secret in scan_file(str(path)):
            line, text = candidates[secret.line_number - 1]
            hit = (secret.type, _whole(text, secret.secret_value or ""))
            if _names_a_variable(*hit):
                continue
            if hit not in flagged.setdefault(line, []):
                flagged[line].append(hit)
    return flagged


def _scan_with_detect_secrets(lines: list[str], lines_per_worker: int) -> dict[str, list[tuple[str, str]]]:
    """A large dataset is split over one process per core."""
    workers = min(os.cpu_count() or 1, max(1, len(lines) // max(1, lines_per_worker)))
    if workers == 1:
        return _scan_chunk(lines)
    flagged: dict[str, list[tuple[str, str]]] = {}
    chunks = [lines[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for part in pool.map(_scan_chunk, chunks):
            flagged.update(part)
    return flagged


_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+")


def _names_a_variable(kind: str, value: str) -> bool:
    """`api_key_env = "OPENAI_API_KEY"` names where a key lives, it is not one: a keyword match
    whose value is an environment-variable name is not a finding."""
    return kind == "Secret Keyword" and _ENV_NAME.fullmatch(value) is not None


def _looks_random(value: str) -> bool:
    """A value with letters and digits and no word-like shape: not `config.password`, not an
    environment-variable name, not `********`."""
    has = [any(c.islower() for c in value), any(c.isupper() for c in value), any(c.isdigit() for c in value)]
    return sum(has) >= 2 and has[2] and not _ENV_NAME.fullmatch(value) and len(set(value)) >= 8


def _pem_body(line: str) -> str | None:
    """The line when it is a line of a PEM body (64 base64 characters, mixed case and digits)."""
    m = _PEM_BODY.match(line)
    return m.group(1) if m and _looks_random(m.group(1)) else None


def _emails(line: str) -> Iterator[re.Match[str]]:
    """The e-mail addresses of a line, as `finditer` of the single pattern would find them."""
    pos = 0
    while (start := _EMAIL_START.search(line, pos)) is not None:
        match = _EMAIL.match(line, start.start())
        if match is not None:
            yield match
            pos = match.end()
        else:
            pos = start.end()


def _scan_extra(lines: Iterable[str], forbidden: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    needles = [f for f in forbidden if f]
    flagged: dict[str, list[tuple[str, str]]] = {}
    for line in lines:
        hits = [("Hugging Face token", m.group(0)) for m in _HF_TOKEN.finditer(line)]
        hits += [
            ("Secret assignment", m.group(1))
            for m in _SECRET_ASSIGNMENT.finditer(line)
            if _looks_random(m.group(1))
        ]
        if (body := _pem_body(line)) is not None:
            hits.append(("Private key body", body))
        hits += [
            ("E-mail address", m.group(0)) for m in _emails(line) if not _RESERVED_DOMAINS.search(m.group(1))
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
    lines_per_worker: int = 20_000,
) -> list[Finding]:
    """Every finding in what would be published: `tables` (path -> table) and `files` (path ->
    text). `forbidden` strings (the push token) are findings wherever they occur; findings whose
    id is in `ignore` (judged false positives by the user) are dropped, and so are values that
    are published on purpose (`provenance`: commit hashes and ids, which look like random hex)."""
    unique = sorted(
        {line for *_, text in _texts(tables, files) for line in text.splitlines() if line.strip()}
    )
    flagged = _scan_with_detect_secrets(unique, lines_per_worker)
    for line, hits in _scan_extra(unique, forbidden).items():
        flagged.setdefault(line, []).extend(hits)
    ignored = set(ignore)
    deliberate = {p for p in provenance if p}
    findings: list[Finding] = []
    seen: set[tuple[str, int, str, int, str]] = set()
    for path, row, column, row_id, text in _texts(tables, files):
        lines = text.splitlines()
        blocks = _pem_blocks(lines)
        for number, line in enumerate(lines, start=1):
            for kind, value in flagged.get(line, []):
                at = number
                if kind in PRIVATE_KEY_KINDS and number in blocks:
                    at, value = blocks[number]  # the whole block is one finding, at its BEGIN line
                    kind = "Private Key"
                fid = _finding_id(kind, value)
                key = (path, row, column, at, fid)
                if (
                    fid in ignored
                    or key in seen
                    or (value in deliberate and kind != "The token used for this push")
                ):
                    continue
                seen.add(key)
                findings.append(Finding(path, row, column, at, kind, _redact(kind, value), fid, row_id))
    return findings


def _pem_blocks(lines: list[str]) -> dict[int, tuple[int, str]]:
    """1-based line number -> (first line, text) of the PEM private-key block that line belongs
    to (BEGIN line to END line, or to the end of the text when it has none)."""
    out: dict[int, tuple[int, str]] = {}
    start: int | None = None
    for number, line in enumerate(lines, start=1):
        if _PEM_BEGIN.search(line):
            start = number
        if start is not None and (_PEM_END.search(line) or number == len(lines)):
            block = "\n".join(lines[start - 1 : number])
            out.update(dict.fromkeys(range(start, number + 1), (start, block)))
            start = None
    return out


def report(findings: list[Finding], limit: int = 40) -> str:
    lines = [f"the secret and personal-data gate found {len(findings)} finding(s):"]
    lines += [f"  {f.describe()}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"  ... and {len(findings) - limit} more")
    return "\n".join(lines)
