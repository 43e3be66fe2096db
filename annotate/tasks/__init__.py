"""The task contract: what the teacher is asked, and how its answer is read and judged.

A task is four pure functions over one item (a kernel unit, a documentation chunk), with no I/O:

    prompt(item, response_format)  -> Prompt         the first-round messages
    parse(item, reply)             -> record         or TaskParseError (the loop re-asks)
    verify(item, record)           -> Verdict        errors reject the answer
    feedback(verdict)              -> message | None the next round's message (None: no rounds)

plus its name, its prompt version and the `response_format` field for each answer format. The
cache key of a request hashes the prompt version (which names the task: `v2-full`, `v2-knowledge`),
the rendered messages, the model, the generation parameters and the response format
(`annotate.cachekey`). Everything else (the transport, rate limits, retries, the journal and its
cache, the answer-format negotiation, feedback rounds, failure counting) is the one loop in
`annotate.loop`, shared by every task. Tasks:

- `kernel_reasoning.KernelReasoningTask`: the reasoning that leads to one kernel unit;
- `knowledge_qa.KnowledgeQATask`: questions, reasoning and answers grounded in one doc chunk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from annotate.teacher import TeacherReply
from schemas import Diagnostic
from schemas.verdicts import is_accepted

Item = TypeVar("Item", contravariant=True)
Record = TypeVar("Record")
Message = dict[str, str]


class TaskParseError(ValueError):
    """The reply is not an answer in the task's form; the message says why (fed back as-is)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """The first-round conversation for one item, and how much of the item it leaves out."""

    messages: list[Message]
    lines_left_out: int = 0  # lines of the item the teacher does not see (compact prompts)


@dataclass(slots=True)
class Verdict:
    """The verifiers' judgement of one answer."""

    accepted: bool
    diagnostics: list[Diagnostic]
    # An answer of several parts (the questions of a knowledge answer) is judged part by part too.
    parts: list[list[Diagnostic]] = field(default_factory=list)

    @classmethod
    def of(cls, diagnostics: list[Diagnostic]) -> Verdict:
        return cls(is_accepted(diagnostics), diagnostics)


@dataclass(frozen=True, slots=True)
class JournalRow:
    """What the journal keeps of an item beside its replies (the annotations table is built from it)."""

    instruction: str
    answer: str


class TeacherTask(Protocol[Item, Record]):
    name: str  # kernel | knowledge
    version: str  # the prompt version: recorded with every answer and part of every cache key

    def item_id(self, item: Item) -> str: ...

    def prompt(self, item: Item, response_format: str) -> Prompt: ...

    def response_format(self, response_format: str) -> dict[str, Any] | None:
        """The request's `response_format` field for an answer format (None: no field)."""
        ...

    def parse(self, item: Item, reply: TeacherReply) -> Record: ...

    def verify(self, item: Item, record: Record) -> Verdict: ...

    def feedback(self, verdict: Verdict) -> Message | None: ...

    def format_retry(self, reason: str) -> Message:
        """The message that re-asks after an unusable answer."""
        ...

    def text_of(self, record: Record) -> str:
        """The record as the text kept in the journal's attempts."""
        ...

    def journal_row(self, item: Item) -> JournalRow | None:
        """The item's row of the annotations table, or None for a task whose results the caller
        keeps (then only the replies, the cache, are journaled)."""
        ...
