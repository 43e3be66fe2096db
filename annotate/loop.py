"""The teacher loop: items in, journaled teacher answers and verdicts out, for any task.

A task (`annotate.tasks`: kernel reasoning, knowledge Q&A) says what to ask and how to read and
judge the answer; this loop does the rest, the same way for every task. For each item: build the
first-round messages (`task.prompt`), get a reply (from the journal when the same request was
answered before, else from the teacher), parse it (`task.parse`; truncated or unparsable output is
re-asked up to `format_retries` times), judge it (`task.verify`), and when it is rejected and the
task gives feedback (`task.feedback`), send that back for up to `max_rounds` more rounds. Every
reply is committed to the journal as it arrives, so a rerun sends nothing already answered. A task
with a journal row per item (the kernel task) also has every judged attempt and the final verdict
journaled (the annotations table is built from them); a task without one gets its outcomes back
(`ItemOutcome`) and writes its own table.

A prompt that does not fit the teacher's context (`annotate.context`) is not sent: the item fails
with that reason. The answer format comes from `negotiate.choose_format` (once per run). A failed
item is counted by reason (`failures.FailureLog`); when the endpoint fails for several items in a
row the run stops with `TeacherFatal` and a message saying what to fix.

Items are processed by one asyncio worker per request slot (`concurrency`). Verification runs on
the event loop while it is cheap, and moves to one worker thread as soon as one call is slow
(libclang): it is never called from two threads at once, and the loop keeps serving replies.
Judged attempts are written with the item's next journal transaction (its next reply or its
verdict); after a kill they are recomputed from the journaled replies.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from annotate.cachekey import cache_key, request_payload
from annotate.config import AnnotateConfig
from annotate.context import NO_FIT_REASON, ContextWindow
from annotate.failures import FailureLog, UnitFailure
from annotate.journal import Journal, UnitResult
from annotate.negotiate import FORMATS_BY_RICHNESS, FormatChoice, endpoint_key, simpler_format
from annotate.summary import ProgressCallback, RunSummary
from annotate.tasks import Message, TaskParseError, TeacherTask, Verdict
from annotate.teacher import (
    MAX_ANSWER_CHARS,
    OVERSIZED,
    FormatUnsupported,
    TeacherClient,
    TeacherError,
    TeacherFatal,
    TeacherReply,
)
from schemas import Attempt, Diagnostic

__all__ = ["AnnotationRun", "ItemOutcome", "ProgressCallback", "RunSummary", "now_iso"]

# A truncated or unparsable answer is shown back to the teacher in a format retry, clipped: the
# teacher needs to see what went wrong, not to spend its context on the broken text again.
BROKEN_ANSWER_ECHO_CHARS = 1200
# Verification faster than this runs on the event loop; after one slower call it moves to a thread.
INLINE_VERIFY_BUDGET_S = 0.005

Item = TypeVar("Item")
Record = TypeVar("Record")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(slots=True)
class ItemOutcome(Generic[Record]):
    """One item's end of the loop, for a task that keeps its own results (no journal row)."""

    item_id: str
    verdict: str  # accepted | rejected | failed
    rounds: int
    record: Record | None  # the last parsed answer, None when none parsed
    judged: Verdict | None  # the verifiers' judgement of that answer
    teacher_model: str
    failure: str = ""  # why the item failed (the summary's reason)


@dataclass
class _Ledger:
    """What one item has cost and produced so far, and what is still to be written."""

    lines_left_out: int = 0  # of the item, by a compact prompt
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    model: str = ""
    fingerprint: str = ""
    created_at: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    failure: UnitFailure | None = None
    item_recorded: bool = False  # the item's row is in the journal (for this run)
    record: Any = None  # the last parsed answer
    judged: Verdict | None = None
    # Judged attempts wait for the item's next journal write (a new reply, or the verdict): a
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


class AnnotationRun(Generic[Item, Record]):
    def __init__(
        self,
        config: AnnotateConfig,
        task: TeacherTask[Item, Record],
        journal: Journal,
        client: TeacherClient,
        run_id: str,
        progress: ProgressCallback | None = None,
        format_choice: FormatChoice | None = None,
        context: ContextWindow | None = None,
    ) -> None:
        self.config = config
        self.task = task
        self.context = context or ContextWindow(config.context_tokens, "option", "", "", "")
        self.journal = journal
        self.client = client
        self.run_id = run_id
        self.progress = progress
        self.choice = format_choice or FormatChoice(config.response_format, "option", can_fall_back=False)
        self.response_format = self.choice.response_format
        self.version = task.version
        self.params = config.generation_params()
        self.params_json = config.generation_params_json()
        self.summary = RunSummary(
            response_format=self.response_format, response_format_source=self.choice.source
        )
        self.outcomes: list[ItemOutcome[Record]] = []  # for tasks without a journal row per item
        self.failures = FailureLog(config.stop_after_failures, config.base_url)
        self.done = 0
        self.total = 0
        self._verify_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="verify")
        self._verify_inline = True

    async def run(self, items: Sequence[Item]) -> RunSummary:
        started = time.perf_counter()
        self.total = self.summary.units = len(items)
        queue: asyncio.Queue[Item] = asyncio.Queue()
        for item in items:
            queue.put_nowait(item)
        # One worker per request slot: an item's rounds stay on one worker, so a llama.cpp server
        # (one slot) sees an item's rounds back to back and reuses its prompt cache.
        workers = min(len(items), self.config.concurrency)
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
        s.context_tokens, s.context_source = self.context.tokens, self.context.source
        s.failures = self.failures.grouped()
        if self.config.price_in or self.config.price_out:
            s.cost = round(
                (s.prompt_tokens * self.config.price_in + s.completion_tokens * self.config.price_out) / 1e6,
                6,
            )

    async def _worker(self, queue: asyncio.Queue[Item]) -> None:
        while True:
            try:
                item = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await self._annotate_item(item)

    def _tick(self) -> None:
        if self.progress is not None:
            self.progress(self.summary, self.done, self.total)

    # -- one item -------------------------------------------------------------------------------
    async def _annotate_item(self, item: Item) -> None:
        fmt = self.response_format
        while True:
            ledger = _Ledger()
            try:
                verdict, rounds = await self._rounds(item, ledger, fmt)
                break
            except FormatUnsupported as refusal:
                fmt = self._step_down(fmt, refusal)
        self._finish_item(item, verdict, rounds, ledger)

    def _step_down(self, fmt: str, refusal: FormatUnsupported) -> str:
        """The server refused `fmt` mid-run: the next simpler format, for this item and all later ones
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
        if order.index(simpler) > order.index(self.response_format):  # not already done by another item
            self.response_format = self.summary.response_format = simpler
            key = endpoint_key(self.config.base_url)
            self.journal.remember_format(key, self.config.model, simpler, now_iso(), refusal.message[:300])
        return self.response_format

    def _flush(self, item: Item, ledger: _Ledger) -> None:
        """Inside a journal transaction: the item's row (once per run) and its judged attempts."""
        row = self.task.journal_row(item)
        if row is None:  # a task that keeps its own results: only its replies are journaled
            ledger.attempts.clear()
            return
        if not ledger.item_recorded:
            self.journal.start_unit(
                self.task.item_id(item),
                row.instruction,
                row.answer,
                self.version,
                self.params_json,
                now_iso(),
                self.run_id,
            )
            ledger.item_recorded = True
        for attempt, key in ledger.attempts:
            self.journal.put_attempt(attempt, key, self.run_id)
        ledger.attempts.clear()

    async def _rounds(self, item: Item, ledger: _Ledger, fmt: str) -> tuple[str, int]:
        """The feedback loop: (verdict, rounds used)."""
        first = self.task.prompt(item, fmt)
        messages, ledger.lines_left_out = first.messages, first.lines_left_out
        last_round = self.config.max_rounds + 1
        for round_no in range(1, last_round + 1):
            try:
                record, content, messages, key = await self._answer(item, messages, round_no, ledger, fmt)
            except _Failed as failed:
                ledger.diagnostics.append(failed.diagnostic)
                ledger.failure = failed.failure
                return "failed", round_no
            judged = await self._verify(item, record)
            ledger.record, ledger.judged = record, judged
            verdict = "accepted" if judged.accepted else "rejected"
            self._record_attempt(item, key, round_no, verdict, self.task.text_of(record), judged, ledger)
            ledger.diagnostics.extend(judged.diagnostics)
            feedback = None if judged.accepted else self.task.feedback(judged)
            if feedback is None:
                return verdict, round_no
            if round_no < last_round:
                messages = [*messages, {"role": "assistant", "content": content}, feedback]
        return "rejected", last_round

    async def _answer(
        self, item: Item, messages: list[Message], round_no: int, ledger: _Ledger, fmt: str
    ) -> tuple[Record, str, list[Message], str]:
        """A parsed answer for this round, re-asking after truncated or unparsable output."""
        reason = ""
        for _ in range(self.config.format_retries + 1):
            reply, key = await self._reply(item, messages, round_no, ledger, fmt)
            if reply.finish_reason == OVERSIZED:
                message = f"the answer was longer than {MAX_ANSWER_CHARS} characters (runaway output)"
                raise _Failed(
                    Diagnostic("teacher.size", "error", message),
                    UnitFailure("answer too long", message, endpoint=False),
                )
            try:
                return self.task.parse(item, reply), reply.content, messages, key
            except TaskParseError as exc:
                reason = str(exc)
            diagnostic = Diagnostic("teacher.format", "error", reason)
            self._record_attempt(
                item, key, round_no, "failed", reply.content, Verdict(False, [diagnostic]), ledger
            )
            messages = [
                *messages,
                {"role": "assistant", "content": reply.content[:BROKEN_ANSWER_ECHO_CHARS]},
                self.task.format_retry(reason),
            ]
        message = f"no usable answer after {self.config.format_retries + 1} tries: {reason}"
        # The group key: the kind of unusable answer, without the text of this one.
        kind = reason.split(":")[0].split(" (")[0]
        raise _Failed(
            Diagnostic("teacher.format", "error", message),
            UnitFailure(f"unusable answer: {kind}", message, endpoint=False),
        )

    async def _reply(
        self, item: Item, messages: list[Message], round_no: int, ledger: _Ledger, fmt: str
    ) -> tuple[TeacherReply, str]:
        """The teacher's reply to `messages`: from the journal if it was answered before, else sent."""
        rf = self.task.response_format(fmt)
        payload = request_payload(self.version, self.config.model, self.params, rf, messages)
        key = cache_key(payload)
        stored = self.journal.lookup(key)
        if stored is not None:
            self.summary.cached += 1
            ledger.add(stored.reply, stored.created_at)
            return stored.reply, key
        too_long = await self.context.overflow(messages, self.config.max_tokens)
        if too_long:  # left out, never cut: the teacher would explain code it cannot see
            raise _Failed(
                Diagnostic("teacher.context", "error", too_long),
                UnitFailure(NO_FIT_REASON, too_long, endpoint=False),
            )
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
        item_id = self.task.item_id(item)
        with self.journal.transaction():
            self._flush(item, ledger)
            self.journal.put_response(key, item_id, round_no, payload, reply, created, self.run_id)
        self.summary.requested += 1
        self.summary.prompt_tokens += reply.prompt_tokens
        self.summary.completion_tokens += reply.completion_tokens
        ledger.add(reply, created)
        self._tick()
        return reply, key

    async def _verify(self, item: Item, record: Record) -> Verdict:
        """Verify inline while it is fast, in the verifier thread once one call is slow.

        A hop to a thread costs a GIL hand-over per answer, more than a cheap check itself; a
        slow check (libclang) inline would stall every reply waiting on the event loop.
        """
        if self._verify_inline:
            started = time.perf_counter()
            found = self.task.verify(item, record)
            if time.perf_counter() - started > INLINE_VERIFY_BUDGET_S:
                self._verify_inline = False
            return found
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._verify_pool, self.task.verify, item, record)

    def _record_attempt(
        self,
        item: Item,
        key: str,
        round_no: int,
        verdict: str,
        text: str,
        judged: Verdict,
        ledger: _Ledger,
    ) -> None:
        attempt = Attempt(
            self.task.item_id(item),
            round_no,
            text,
            verdict,
            judged.diagnostics,
            ledger.model,
            self.version,
            ledger.created_at,
        )
        ledger.attempts.append((attempt, key))

    def _finish_item(self, item: Item, verdict: str, rounds: int, ledger: _Ledger) -> None:
        failure = ledger.failure if verdict == "failed" else None
        item_id = self.task.item_id(item)
        if self.task.journal_row(item) is None:
            self.outcomes.append(
                ItemOutcome(
                    item_id,
                    verdict,
                    rounds,
                    ledger.record,
                    ledger.judged,
                    ledger.model or self.config.model,
                    failure.reason if failure else "",
                )
            )
        else:
            self._journal_result(item, verdict, rounds, ledger)
        setattr(self.summary, verdict, getattr(self.summary, verdict) + 1)
        if ledger.lines_left_out:
            self.summary.units_shortened += 1
            self.summary.code_lines_left_out += ledger.lines_left_out
        self.done += 1
        self._tick()
        if failure is None:
            self.failures.judged()
            return
        stop = self.failures.failed(item_id, failure)
        if stop is not None:
            raise TeacherFatal("stopped", self.client.redact(stop), failure.reason)

    def _journal_result(self, item: Item, verdict: str, rounds: int, ledger: _Ledger) -> None:
        """The item's final verdict (and its pending attempts) in one journal transaction."""
        reasoning = self.task.text_of(ledger.record) if ledger.record is not None else ""
        result = UnitResult(
            unit_id=self.task.item_id(item),
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
            self._flush(item, ledger)
            self.journal.put_result(result, self.run_id, failure.reason if failure else "")
