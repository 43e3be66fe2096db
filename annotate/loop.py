"""The annotation loop: units in, journaled teacher answers and verdicts out.

For each unit: build the first-round messages (`task.prompt`), get a reply (from the journal when
the same request was answered before, else from the teacher), parse it (`task.parse`; truncated or
unparsable output is re-asked up to `format_retries` times), run every verifier on the reasoning,
and when any verifier reports an error, send the diagnostics back to the teacher
(`task.feedback_message`) for up to `max_rounds` more rounds. Every reply, every judged attempt and
the final verdict are committed to the journal as they happen, so a rerun after a crash redoes
only what was in flight, and re-judges cached answers with the verifiers of the day.

The answer format comes from `negotiate.choose_format` (once per run). A unit that fails is
counted by reason (`failures.FailureLog`); when the endpoint fails for several units in a row the
run stops with `TeacherFatal` and a message saying what to fix.

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
from annotate.failures import FailureLog, UnitFailure
from annotate.journal import Journal, UnitResult
from annotate.negotiate import FORMATS_BY_RICHNESS, FormatChoice, endpoint_key, simpler_format
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
    http_requests: int = 0  # every HTTP request sent: retries, failed attempts and format probes too
    cached: int = 0  # replies served from the journal
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    pending: int = 0  # units started but not finished (the run was stopped)
    response_format: str = ""  # the answer format used (json_schema, json_object or tagged)
    response_format_source: str = ""  # option, local, journal (decided by an earlier run) or probe
    failures: list[dict[str, object]] = field(
        default_factory=list
    )  # [{reason, count, example_unit, example}]
    stopped: str = ""  # why the run stopped before every unit was tried (what to fix), "" if it did not
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
    failure: UnitFailure | None = None
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
    def __init__(self, diagnostic: Diagnostic, failure: UnitFailure) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.failure = failure


class AnnotationRun:
    def __init__(
        self,
        config: AnnotateConfig,
        verifiers: Sequence[Verifier],
        journal: Journal,
        client: TeacherClient,
        run_id: str,
        progress: ProgressCallback | None = None,
        format_choice: FormatChoice | None = None,
    ) -> None:
        self.config = config
        self.verifiers = list(verifiers)
        self.journal = journal
        self.client = client
        self.run_id = run_id
        self.progress = progress
        self.choice = format_choice or FormatChoice(config.response_format, "option", can_fall_back=False)
        self.response_format = self.choice.response_format
        self.version = prompt_version(config.prompt_style)
        self.params = config.generation_params()
        self.params_json = config.generation_params_json()
        self.summary = RunSummary(
            response_format=self.response_format, response_format_source=self.choice.source
        )
        self.failures = FailureLog(config.stop_after_failures, config.base_url)
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
        s.http_requests = self.client.stats.sent
        s.rate_limited = self.client.stats.rate_limited
        s.failures = self.failures.grouped()
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
        fmt = self.response_format
        while True:
            ledger = _UnitLedger(instruction)
            try:
                verdict, rounds, reasoning = await self._rounds(unit, instruction, ledger, fmt)
                break
            except FormatUnsupported as refusal:
                fmt = self._step_down(fmt, refusal)
        self._finish_unit(unit, verdict, rounds, reasoning, ledger)

    def _step_down(self, fmt: str, refusal: FormatUnsupported) -> str:
        """The server refused `fmt` mid-run: the next simpler format, for this unit and all later ones
        (remembered for the endpoint); an explicit --response-format stops the run instead."""
        simpler = simpler_format(fmt)
        if not self.choice.can_fall_back or simpler is None:
            raise TeacherFatal(
                "stopped",
                f"{self.client.redact(refusal.message)}; use --response-format auto to let curate pick "
                "a format the server accepts",
                refusal.reason,
            )
        order = FORMATS_BY_RICHNESS
        if order.index(simpler) > order.index(self.response_format):  # not already done by another unit
            self.response_format = self.summary.response_format = simpler
            key = endpoint_key(self.config.base_url)
            self.journal.remember_format(key, self.config.model, simpler, now_iso(), refusal.message[:300])
        return self.response_format

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

    async def _rounds(
        self, unit: KernelUnit, instruction: str, ledger: _UnitLedger, fmt: str
    ) -> tuple[str, int, str]:
        """The feedback loop: (verdict, rounds used, final reasoning)."""
        messages = prompt(unit, self.config.prompt_style, fmt, self.config.max_code_chars)
        reasoning = ""
        last_round = self.config.max_rounds + 1
        for round_no in range(1, last_round + 1):
            try:
                parsed, content, messages, key = await self._answer(unit, messages, round_no, ledger, fmt)
            except _Failed as failed:
                ledger.diagnostics.append(failed.diagnostic)
                ledger.failure = failed.failure
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
        self, unit: KernelUnit, messages: list[dict[str, str]], round_no: int, ledger: _UnitLedger, fmt: str
    ) -> tuple[ParsedAnswer, str, list[dict[str, str]], str]:
        """A parsed answer for this round, re-asking after truncated or unparsable output."""
        reason = ""
        for _ in range(self.config.format_retries + 1):
            reply, key = await self._reply(unit, messages, round_no, ledger, fmt)
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
        message = f"no usable answer after {self.config.format_retries + 1} tries: {reason}"
        # The group key: the kind of unusable answer, without the text of this one.
        kind = reason.split(":")[0].split(" (")[0]
        raise _Failed(
            Diagnostic("teacher.format", "error", message),
            UnitFailure(f"unusable answer: {kind}", message, endpoint=False),
        )

    async def _reply(
        self, unit: KernelUnit, messages: list[dict[str, str]], round_no: int, ledger: _UnitLedger, fmt: str
    ) -> tuple[TeacherReply, str]:
        """The teacher's reply to `messages`: from the journal if it was answered before, else sent."""
        rf = response_format_param(fmt, self.config.prompt_style, self.config.max_tokens)
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
            message = self.client.redact(exc.message)
            raise _Failed(
                Diagnostic(f"teacher.{exc.kind}", "error", message),
                UnitFailure(exc.reason, message, endpoint=exc.kind in ("transport", "http")),
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
        failure = ledger.failure if verdict == "failed" else None
        with self.journal.transaction():
            self._flush(unit, ledger)
            self.journal.put_result(result, self.run_id, failure.reason if failure else "")
        setattr(self.summary, verdict, getattr(self.summary, verdict) + 1)
        self.done += 1
        self._tick()
        if failure is None:
            self.failures.judged()
            return
        stop = self.failures.failed(unit.unit_id, failure)
        if stop is not None:
            raise TeacherFatal("stopped", self.client.redact(stop), failure.reason)
