"""The request journal and cache: `DIR/annotate.sqlite`, SQLite in WAL mode.

Every teacher response is one row of `responses`, committed the moment it arrives and keyed by the
cache key (prompt version, rendered messages, model, generation parameters). A rerun looks every
request up here first, so nothing already answered is sent again, and a run killed with SIGKILL
loses only the requests that were in flight: WAL with synchronous=NORMAL makes each committed
transaction survive a process kill (only a power loss could drop the last ones).

Beside the cache:
- `units`: each unit the loop started, with its instruction and answer (the real code);
- `attempts`: each teacher response judged for a unit, with its round, verdict and diagnostics
  (rejected attempts are kept: preference pairs are built from them);
- `results`: the final verdict per unit: the latest judged (accepted or rejected) one, or the
  latest failure of a unit never judged. A failed run never replaces a judged answer;
- `outcomes`: every unit's verdict in every run, failures with their reason (the history);
- `endpoints`: the answer format each endpoint and model accepted (decided once, reused by reruns);
- `runs`: each run's configuration (never the API key) and summary.
`annotations.parquet` and `attempts.parquet` are rebuilt from these tables.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from annotate.teacher import TeacherReply
from schemas import Annotation, Attempt, Diagnostic

JOURNAL_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, config TEXT NOT NULL, summary TEXT);
CREATE TABLE IF NOT EXISTS responses (
    cache_key TEXT PRIMARY KEY, unit_id TEXT NOT NULL, round INTEGER NOT NULL, request TEXT NOT NULL,
    content TEXT NOT NULL, finish_reason TEXT NOT NULL, model TEXT NOT NULL, fingerprint TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, latency_s REAL NOT NULL,
    created_at TEXT NOT NULL, run_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units (
    unit_id TEXT PRIMARY KEY, instruction TEXT NOT NULL, answer TEXT NOT NULL, prompt_version TEXT NOT NULL,
    generation_params TEXT NOT NULL, started_at TEXT NOT NULL, run_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    unit_id TEXT NOT NULL, cache_key TEXT NOT NULL, round INTEGER NOT NULL, verdict TEXT NOT NULL,
    reasoning TEXT NOT NULL, diagnostics TEXT NOT NULL, teacher_model TEXT NOT NULL,
    prompt_version TEXT NOT NULL, created_at TEXT NOT NULL, run_id TEXT NOT NULL,
    PRIMARY KEY (unit_id, cache_key));
CREATE TABLE IF NOT EXISTS results (
    unit_id TEXT PRIMARY KEY, verdict TEXT NOT NULL, rounds INTEGER NOT NULL, reasoning TEXT NOT NULL,
    diagnostics TEXT NOT NULL, teacher_model TEXT NOT NULL, fingerprint TEXT NOT NULL,
    prompt_version TEXT NOT NULL, generation_params TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL, latency_s REAL NOT NULL, created_at TEXT NOT NULL,
    run_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outcomes (
    unit_id TEXT NOT NULL, run_id TEXT NOT NULL, verdict TEXT NOT NULL, reason TEXT NOT NULL,
    diagnostics TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (unit_id, run_id));
CREATE TABLE IF NOT EXISTS endpoints (
    base_url TEXT NOT NULL, model TEXT NOT NULL, response_format TEXT NOT NULL, decided_at TEXT NOT NULL,
    detail TEXT NOT NULL, PRIMARY KEY (base_url, model));
"""
JUDGED = ("accepted", "rejected")


class JournalError(Exception):
    """The journal cannot be used (corrupt, or written by a newer version)."""


def diagnostics_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([asdict(d) for d in diagnostics], ensure_ascii=False)


def diagnostics_from_json(text: str) -> list[Diagnostic]:
    return [Diagnostic(**item) for item in json.loads(text or "[]")]


@dataclass(slots=True)
class StoredResponse:
    reply: TeacherReply
    created_at: str


@dataclass(slots=True)
class UnitResult:
    unit_id: str
    verdict: str  # accepted | rejected | failed
    rounds: int
    reasoning: str
    diagnostics: list[Diagnostic]
    teacher_model: str
    fingerprint: str
    prompt_version: str
    generation_params: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    created_at: str


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            # Autocommit: each statement is its own transaction, committed when it returns.
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA busy_timeout=10000")
            # Checkpoints are where WAL mode syncs to disk; with rows of several kilobytes the
            # default (every 1000 pages) would sync every few dozen replies.
            self.db.execute("PRAGMA wal_autocheckpoint=8000")
            self.db.executescript(_SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(responses)")}
            if "reasoning" not in columns:  # journals written before reasoning models were kept
                self.db.execute("ALTER TABLE responses ADD COLUMN reasoning TEXT NOT NULL DEFAULT ''")
            row = self.db.execute("SELECT value FROM meta WHERE key='journal_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{path} is not a usable annotation journal ({exc}); move it away") from None
        if row is None:
            self.db.execute("INSERT INTO meta VALUES ('journal_version', ?)", (JOURNAL_VERSION,))
        elif row[0] != JOURNAL_VERSION:
            raise JournalError(f"{path} has journal version {row[0]}, this curate reads {JOURNAL_VERSION}")

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes into one commit: all of them survive a kill, or none."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- runs -----------------------------------------------------------------------------------
    def start_run(self, run_id: str, started_at: str, config: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO runs VALUES (?, ?, NULL, ?, NULL)", (run_id, started_at, json.dumps(config))
        )

    def finish_run(self, run_id: str, finished_at: str, summary: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE runs SET finished_at=?, summary=? WHERE run_id=?",
            (finished_at, json.dumps(summary), run_id),
        )

    # -- the cache ------------------------------------------------------------------------------
    def lookup(self, cache_key: str) -> StoredResponse | None:
        row = self.db.execute(
            "SELECT content, finish_reason, model, fingerprint, prompt_tokens, completion_tokens, latency_s,"
            " reasoning, created_at FROM responses WHERE cache_key=?",
            (cache_key,),
        ).fetchone()
        if row is None:
            return None
        return StoredResponse(TeacherReply(*row[:8]), row[8])

    def put_response(
        self,
        cache_key: str,
        unit_id: str,
        round_no: int,
        request: str,
        reply: TeacherReply,
        created_at: str,
        run_id: str,
    ) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO responses (cache_key, unit_id, round, request, content, finish_reason, model,"
            " fingerprint, prompt_tokens, completion_tokens, latency_s, created_at, run_id, reasoning)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                cache_key,
                unit_id,
                round_no,
                request,
                reply.content,
                reply.finish_reason,
                reply.model,
                reply.fingerprint,
                reply.prompt_tokens,
                reply.completion_tokens,
                reply.latency_s,
                created_at,
                run_id,
                reply.reasoning,
            ),
        )

    # -- the answer format each endpoint accepts ------------------------------------------------
    def endpoint_format(self, base_url: str, model: str) -> str | None:
        row = self.db.execute(
            "SELECT response_format FROM endpoints WHERE base_url=? AND model=?", (base_url, model)
        ).fetchone()
        return None if row is None else str(row[0])

    def remember_format(self, base_url: str, model: str, response_format: str, at: str, detail: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO endpoints VALUES (?, ?, ?, ?, ?)",
            (base_url, model, response_format, at, detail),
        )

    # -- units, attempts, results ---------------------------------------------------------------
    def start_unit(
        self,
        unit_id: str,
        instruction: str,
        answer: str,
        prompt_version: str,
        params: str,
        at: str,
        run_id: str,
    ) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?, ?, ?)",
            (unit_id, instruction, answer, prompt_version, params, at, run_id),
        )

    def put_attempt(self, attempt: Attempt, cache_key: str, run_id: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                attempt.unit_id,
                cache_key,
                attempt.round,
                attempt.verdict,
                attempt.reasoning,
                diagnostics_json(attempt.diagnostics),
                attempt.teacher_model,
                attempt.prompt_version,
                attempt.created_at,
                run_id,
            ),
        )

    def put_result(self, result: UnitResult, run_id: str, reason: str = "") -> bool:
        """Record a unit's verdict of this run in its history, and as its result unless it failed
        and the unit already has a judged answer (a failure never replaces one). True when the
        result row was written."""
        self.db.execute(
            "INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?, ?, ?)",
            (
                result.unit_id,
                run_id,
                result.verdict,
                reason,
                diagnostics_json(result.diagnostics),
                result.created_at,
            ),
        )
        if result.verdict not in JUDGED:
            row = self.db.execute("SELECT verdict FROM results WHERE unit_id=?", (result.unit_id,)).fetchone()
            if row is not None and row[0] in JUDGED:
                return False
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                result.unit_id,
                result.verdict,
                result.rounds,
                result.reasoning,
                diagnostics_json(result.diagnostics),
                result.teacher_model,
                result.fingerprint,
                result.prompt_version,
                result.generation_params,
                result.prompt_tokens,
                result.completion_tokens,
                result.latency_s,
                result.created_at,
                run_id,
            ),
        )
        return True

    # -- reading back ---------------------------------------------------------------------------
    def count(self, table: str) -> int:
        if table not in ("responses", "units", "attempts", "results", "outcomes", "endpoints", "runs"):
            raise ValueError(table)
        return int(self.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    def attempts(self) -> list[Attempt]:
        rows = self.db.execute(
            "SELECT unit_id, round, reasoning, verdict, diagnostics, teacher_model, prompt_version, created_at"
            " FROM attempts ORDER BY unit_id, round, created_at, cache_key"
        )
        return [
            Attempt(
                unit_id, round_no, reasoning, verdict, diagnostics_from_json(diags), model, version, created
            )
            for unit_id, round_no, reasoning, verdict, diags, model, version, created in rows
        ]

    def annotations(self) -> list[Annotation]:
        """One row per started unit: its final verdict, or `pending` when it never finished."""
        rows = self.db.execute(
            "SELECT u.unit_id, u.instruction, u.answer, u.prompt_version, u.generation_params, u.started_at,"
            " r.verdict, r.rounds, r.reasoning, r.diagnostics, r.teacher_model, r.fingerprint, r.prompt_version,"
            " r.generation_params, r.prompt_tokens, r.completion_tokens, r.latency_s, r.created_at"
            " FROM units u LEFT JOIN results r ON r.unit_id = u.unit_id ORDER BY u.unit_id"
        )
        out: list[Annotation] = []
        for row in rows:
            unit_id, instruction, answer, version, params, started = row[:6]
            if row[6] is None:
                out.append(self._pending(unit_id, instruction, answer, version, params, started))
                continue
            verdict, rounds, reasoning, diags, model, fingerprint, r_version, r_params = row[6:14]
            out.append(
                Annotation(
                    unit_id=unit_id,
                    teacher_model=model,
                    prompt_version=r_version,
                    instruction=instruction,
                    reasoning=reasoning,
                    answer=answer,
                    verdict=verdict,
                    attempts=rounds,
                    diagnostics=diagnostics_from_json(diags),
                    prompt_tokens=row[14],
                    completion_tokens=row[15],
                    latency_s=row[16],
                    created_at=row[17],
                    teacher_fingerprint=fingerprint,
                    generation_params=r_params,
                )
            )
        return out

    def _pending(
        self, unit_id: str, instruction: str, answer: str, version: str, params: str, started: str
    ) -> Annotation:
        """A unit whose run stopped before its verdict: what the journal has so far."""
        last = self.db.execute(
            "SELECT reasoning, teacher_model, round FROM attempts WHERE unit_id=? ORDER BY round DESC,"
            " created_at DESC LIMIT 1",
            (unit_id,),
        ).fetchone()
        spent = self.db.execute(
            "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0),"
            " COALESCE(SUM(latency_s), 0) FROM responses WHERE unit_id=?",
            (unit_id,),
        ).fetchone()
        return Annotation(
            unit_id=unit_id,
            teacher_model=last[1] if last else "",
            prompt_version=version,
            instruction=instruction,
            reasoning=last[0] if last else "",
            answer=answer,
            verdict="pending",
            attempts=last[2] if last else 0,
            prompt_tokens=int(spent[0]),
            completion_tokens=int(spent[1]),
            latency_s=float(spent[2]),
            created_at=started,
            generation_params=params,
        )
