"""The annotation loop: units in, journaled teacher answers and verdicts out.

For each unit: build the first-round messages (`task.prompt`), get a reply (from the journal when
the same request was answered before, else from the teacher), parse it (`task.parse`; truncated or
unparsable output is re-asked up to `format_retries` times), run every verifier on the reasoning,
and when any verifier reports an error, send the diagnostics back to the teacher
(`task.feedback_message`) for up to `max_rounds` more rounds. Every reply, every judged attempt and
the final verdict are committed to the journal as they happen, so a rerun after a crash redoes
only what was in flight, and re-judges cached answers with the verifiers of the day.

Units are processed by one asyncio worker per request slot (`concurrency`). Verifiers run on the
event loop while they are cheap, and move to one worker thread as soon as one call is slow
(libclang): they are never called from two threads at once, and the loop keeps serving replies.
Judged attempts are written with the unit's next journal transaction (its next reply or its
verdict); after a kill they are recomputed from the journaled replies.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime

from annotate.cachekey import cache_key, request_payload
from annotate.config import AnnotateConfig
from annotate.journal import Journal, UnitResult
from annotate.task import (
    ParsedAnswer,
    ParseError,
    build_instruction,
    feedback_message,
    format_retry_message,
    parse,
    prompt,
    prompt_version,
    response_format_param,
)
from annotate.teacher import FormatUnsupported, TeacherClient, TeacherError, TeacherFatal, TeacherReply
from schemas import Attempt, Diagnostic, KernelUnit
from schemas.verdicts import Verifier, is_accepted, run_verifiers

# A truncated or unparsable answer is shown back to the teacher in a format retry, clipped: the
# teacher needs to see what went wrong, not to spend its context on the broken text again.
BROKEN_ANSWER_ECHO_CHARS = 1200
# Verifiers faster than this run on the event loop; after one slower call they move to a thread.
INLINE_VERIFY_BUDGET_S = 0.005


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class RunSummary:
    units: int = 0
    requested: int = 0  # replies received from the teacher in this run (new journal rows)
    cached: int = 0  # replies served from the journal
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    pending: int = 0  # units started but not finished (the run was stopped)
    prompt_tokens: int = 0  # spent in this run (cached replies cost nothing)
    completion_tokens: int = 0
    retries: int = 0
    rate_limited: int = 0
    elapsed_s: float = 0.0
    cost: float | None = None  # with --price-in/--price-out

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


ProgressCallback = Callable[[RunSummary, int, int], None]  # (summary, units done, units total)


@dataclass
class _UnitLedger:
    """What one unit has cost and produced so far, and what is still to be written."""

    instruction: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    model: str = ""
    fingerprint: str = ""
    created_at: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unit_recorded: bool = False  # the unit's row is in the journal (for this run)
    # Judged attempts wait for the unit's next journal write (a new reply, or the verdict): a
    # verdict can always be recomputed from the journaled reply, so nothing is lost on a kill,
    # and one transaction instead of several keeps the journal cheap.
    attempts: list[tuple[Attempt, str]] = field(default_factory=list)

    def add(self, reply: TeacherReply, created_at: str) -> None:
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens
        self.latency_s += reply.latency_s
        self.model, self.fingerprint, self.created_at = reply.model, reply.fingerprint, created_at


class _Failed(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class AnnotationRun:
    def __init__(
        self,
        config: AnnotateConfig,
        verifiers: Sequence[Verifier],
        journal: Journal,
        client: TeacherClient,
        run_id: str,
        progress: ProgressCallback | None = None,
    ) -> None:
        self.config = config
        self.verifiers = list(verifiers)
        self.journal = journal
        self.client = client
        self.run_id = run_id
        self.progress = progress
        self.response_format = config.response_format
        self.version = prompt_version(config.prompt_style)
        self.params = config.generation_params()
        self.params_json = config.generation_params_json()
        self.summary = RunSummary()
        self.done = 0
        self.total = 0
        self._verify_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="verify")
        self._verify_inline = True

    async def run(self, units: Sequence[KernelUnit]) -> RunSummary:
        started = time.perf_counter()
        self.total = self.summary.units = len(units)
        queue: asyncio.Queue[KernelUnit] = asyncio.Queue()
        for unit in units:
            queue.put_nowait(unit)
        # One worker per request slot: a unit's rounds stay on one worker, so a llama.cpp server
        # (one slot) sees a unit's rounds back to back and reuses its prompt cache.
        workers = min(len(units), self.config.concurrency)
        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(workers):
                    group.create_task(self._worker(queue))
        except BaseExceptionGroup as group_error:
            fatal = group_error.subgroup(TeacherFatal)
            raise (fatal.exceptions[0] if fatal else group_error.exceptions[0]) from None
        finally:
            self._verify_pool.shutdown(wait=False, cancel_futures=True)
            self._finish_summary(time.perf_counter() - started)
        return self.summary

    def _finish_summary(self, elapsed: float) -> None:
        s = self.summary
        s.elapsed_s = round(elapsed, 3)
        s.pending = s.units - s.accepted - s.rejected - s.failed
        s.retries = self.client.stats.retries
        s.rate_limited = self.client.stats.rate_limited
        if self.config.price_in or self.config.price_out:
            s.cost = round(
                (s.prompt_tokens * self.config.price_in + s.completion_tokens * self.config.price_out) / 1e6,
                6,
            )

    async def _worker(self, queue: asyncio.Queue[KernelUnit]) -> None:
        while True:
            try:
                unit = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await self._annotate_unit(unit)

    def _tick(self) -> None:
        if self.progress is not None:
            self.progress(self.summary, self.done, self.total)

    # -- one unit -------------------------------------------------------------------------------
    async def _annotate_unit(self, unit: KernelUnit) -> None:
        instruction = build_instruction(unit)
        ledger = _UnitLedger(instruction)
        try:
            verdict, rounds, reasoning = await self._rounds(unit, instruction, ledger)
        except FormatUnsupported:
            if self.response_format == "tagged":
                raise
            self.response_format = "tagged"  # the server refuses structured output: tagged from now on
            ledger = _UnitLedger(instruction)
            verdict, rounds, reasoning = await self._rounds(unit, instruction, ledger)
        self._finish_unit(unit, verdict, rounds, reasoning, ledger)

    def _flush(self, unit: KernelUnit, ledger: _UnitLedger) -> None:
        """Inside a journal transaction: the unit's row (once per run) and its judged attempts."""
        if not ledger.unit_recorded:
            self.journal.start_unit(
                unit.unit_id,
                ledger.instruction,
                unit.code,
                self.version,
                self.params_json,
                now_iso(),
                self.run_id,
            )
            ledger.unit_recorded = True
        for attempt, key in ledger.attempts:
            self.journal.put_attempt(attempt, key, self.run_id)
        ledger.attempts.clear()

    async def _rounds(self, unit: KernelUnit, instruction: str, ledger: _UnitLedger) -> tuple[str, int, str]:
        """The feedback loop: (verdict, rounds used, final reasoning)."""
        messages = prompt(unit, self.config.prompt_style, self.response_format, self.config.max_code_chars)
        reasoning = ""
        last_round = self.config.max_rounds + 1
        for round_no in range(1, last_round + 1):
            try:
                parsed, content, messages, key = await self._answer(unit, messages, round_no, ledger)
            except _Failed as failure:
                ledger.diagnostics.append(failure.diagnostic)
                return "failed", round_no, reasoning
            reasoning = parsed.reasoning
            diagnostics = await self._verify(unit, instruction, parsed)
            accepted = is_accepted(diagnostics)
            self._record_attempt(
                unit, key, round_no, "accepted" if accepted else "rejected", reasoning, diagnostics, ledger
            )
            ledger.diagnostics.extend(diagnostics)
            if accepted:
                return "accepted", round_no, reasoning
            if round_no < last_round:
                messages = [
                    *messages,
                    {"role": "assistant", "content": content},
                    feedback_message(diagnostics),
                ]
        return "rejected", last_round, reasoning

    async def _answer(
        self, unit: KernelUnit, messages: list[dict[str, str]], round_no: int, ledger: _UnitLedger
    ) -> tuple[ParsedAnswer, str, list[dict[str, str]], str]:
        """A parsed answer for this round, re-asking after truncated or unparsable output."""
        reason = ""
        for _ in range(self.config.format_retries + 1):
            reply, key = await self._reply(unit, messages, round_no, ledger)
            try:
                return parse(unit, reply.content, reply.finish_reason), reply.content, messages, key
            except ParseError as exc:
                reason = str(exc)
            diagnostic = Diagnostic("teacher.format", "error", reason)
            self._record_attempt(unit, key, round_no, "failed", reply.content, [diagnostic], ledger)
            messages = [
                *messages,
                {"role": "assistant", "content": reply.content[:BROKEN_ANSWER_ECHO_CHARS]},
                format_retry_message(reason),
            ]
        raise _Failed(
            Diagnostic(
                "teacher.format",
                "error",
                f"no usable answer after {self.config.format_retries + 1} tries: {reason}",
            )
        )

    async def _reply(
        self, unit: KernelUnit, messages: list[dict[str, str]], round_no: int, ledger: _UnitLedger
    ) -> tuple[TeacherReply, str]:
        """The teacher's reply to `messages`: from the journal if it was answered before, else sent."""
        rf = response_format_param(self.response_format, self.config.prompt_style)
        payload = request_payload(self.version, self.config.model, self.params, rf, messages)
        key = cache_key(payload)
        stored = self.journal.lookup(key)
        if stored is not None:
            self.summary.cached += 1
            ledger.add(stored.reply, stored.created_at)
            return stored.reply, key
        estimate = len(payload) // 4 + self.config.max_tokens
        try:
            reply = await self.client.complete(messages, self.params, rf, estimate)
        except (TeacherFatal, FormatUnsupported):
            raise
        except TeacherError as exc:
            raise _Failed(
                Diagnostic(f"teacher.{exc.kind}", "error", self.client.redact(exc.message))
            ) from None
        created = now_iso()
        with self.journal.transaction():
            self._flush(unit, ledger)
            self.journal.put_response(key, unit.unit_id, round_no, payload, reply, created, self.run_id)
        self.summary.requested += 1
        self.summary.prompt_tokens += reply.prompt_tokens
        self.summary.completion_tokens += reply.completion_tokens
        ledger.add(reply, created)
        self._tick()
        return reply, key

    async def _verify(self, unit: KernelUnit, instruction: str, parsed: ParsedAnswer) -> list[Diagnostic]:
        """Run the verifiers inline while they are fast, in the verifier thread once one is slow.

        A hop to a thread costs a GIL hand-over per answer, more than a cheap check itself; a
        slow check (libclang) inline would stall every reply waiting on the event loop.
        """
        if self._verify_inline:
            started = time.perf_counter()
            found = run_verifiers(self.verifiers, unit, instruction, parsed.reasoning)
            if time.perf_counter() - started > INLINE_VERIFY_BUDGET_S:
                self._verify_inline = False
            return found
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._verify_pool, run_verifiers, self.verifiers, unit, instruction, parsed.reasoning
        )

    def _record_attempt(
        self,
        unit: KernelUnit,
        key: str,
        round_no: int,
        verdict: str,
        reasoning: str,
        diagnostics: list[Diagnostic],
        ledger: _UnitLedger,
    ) -> None:
        attempt = Attempt(
            unit.unit_id,
            round_no,
            reasoning,
            verdict,
            diagnostics,
            ledger.model,
            self.version,
            ledger.created_at,
        )
        ledger.attempts.append((attempt, key))

    def _finish_unit(
        self, unit: KernelUnit, verdict: str, rounds: int, reasoning: str, ledger: _UnitLedger
    ) -> None:
        result = UnitResult(
            unit_id=unit.unit_id,
            verdict=verdict,
            rounds=rounds,
            reasoning=reasoning,
            diagnostics=ledger.diagnostics,
            teacher_model=ledger.model or self.config.model,
            fingerprint=ledger.fingerprint,
            prompt_version=self.version,
            generation_params=self.params_json,
            prompt_tokens=ledger.prompt_tokens,
            completion_tokens=ledger.completion_tokens,
            latency_s=round(ledger.latency_s, 4),
            created_at=ledger.created_at or now_iso(),
        )
        with self.journal.transaction():
            self._flush(unit, ledger)
            self.journal.put_result(result, self.run_id)
        setattr(self.summary, verdict, getattr(self.summary, verdict) + 1)
        self.done += 1
        self._tick()
