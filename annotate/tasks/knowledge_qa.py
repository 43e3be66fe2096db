"""The knowledge Q&A task (`KnowledgeQATask`, the contract of `annotate.tasks`): questions,
reasoning and answers grounded in one documentation chunk.

One request per chunk asks for `questions_per_chunk` items; `parse` reads them, and `verify`
judges each item on its own against its chunk (`annotate.reasoning.knowledge_checks`). There are
no feedback rounds: a rejected item is kept with its verdict, the others stand. The transport,
the journal and its cache are the shared loop's (`annotate.loop`), so a rerun asks nothing that
was answered. The chunk text goes inside <doc_section> tags (closing tags inside it neutralised),
and the answer must be the JSON shape below, whatever the documentation says.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from annotate.prompts import PROMPT_VERSION, render
from annotate.reasoning.knowledge_checks import BlockCheck, substance_checks, verify_answer
from annotate.tasks import Message, Prompt, TaskParseError, Verdict
from annotate.teacher import TeacherReply
from schemas import Diagnostic, DocChunk
from schemas.config import ConfigError
from schemas.nesting import loads_json
from schemas.verdicts import is_accepted

KNOWLEDGE_PROMPT = f"{PROMPT_VERSION}-knowledge"


@dataclass(frozen=True, slots=True)
class KnowledgeConfig:
    """How many questions per chunk, how much of a chunk the teacher reads, and the dedup and
    audit thresholds. Validates itself (ConfigError)."""

    questions_per_chunk: int = 3
    max_chunk_chars: int = 6000
    limit: int = 0  # chunks to annotate (0: all)
    min_chunk_chars: int = 200  # shorter chunks carry too little to ask about
    duplicate_threshold: float = 0.7  # Jaccard of question word 3-grams
    leak_threshold: float = 0.5  # Jaccard against a benchmark task description
    paste_ratio: float = 0.6  # share of an answer's word 8-grams found verbatim in the chunk

    def __post_init__(self) -> None:
        if not 1 <= self.questions_per_chunk <= 20:
            raise ConfigError("questions_per_chunk", "must be between 1 and 20")
        if self.max_chunk_chars < 500:
            raise ConfigError("max_chunk_chars", "must be at least 500")
        if self.limit < 0 or self.min_chunk_chars < 0:
            raise ConfigError("limit", "must not be negative")
        for name in ("duplicate_threshold", "leak_threshold", "paste_ratio"):
            if not 0.0 < getattr(self, name) <= 1.0:
                raise ConfigError(name, "must be in (0, 1]")


def prompt(chunk: DocChunk, count: int, max_chars: int = 6000) -> list[dict[str, str]]:
    text = (
        chunk.text if len(chunk.text) <= max_chars else chunk.text[:max_chars] + "\n[... section shortened]"
    )
    text = re.sub(r"</\s*doc_section\s*>", "<\\/doc_section>", text, flags=re.IGNORECASE)
    user = render(
        "knowledge_user",
        title_path=" > ".join(chunk.title_path),
        apis=", ".join(chunk.apis) or "none",
        text=text,
        count=count,
    )
    return [
        {"role": "system", "content": render("knowledge_system", count=count)},
        {"role": "user", "content": user},
    ]


def response_schema(count: int) -> dict[str, Any]:
    item = {
        "type": "object",
        "properties": {k: {"type": "string"} for k in ("question", "reasoning", "answer")},
        "required": ["question", "reasoning", "answer"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"items": {"type": "array", "items": item, "minItems": 1, "maxItems": count}},
        "required": ["items"],
        "additionalProperties": False,
    }


class KnowledgeParseError(TaskParseError):
    """The reply is not the items JSON; the message says why."""


@dataclass(frozen=True, slots=True)
class QuestionAnswer:
    question: str
    reasoning: str
    answer: str


def parse(content: str, finish_reason: str = "stop") -> list[QuestionAnswer]:
    if finish_reason == "length":
        raise KnowledgeParseError("the answer was cut off at max_tokens (finish_reason=length)")
    start, end = content.find("{"), content.rfind("}")
    if start < 0 or end <= start:
        raise KnowledgeParseError("the answer holds no JSON object")
    try:
        obj = loads_json(content[start : end + 1])  # nested too deep for Python: a JSONDecodeError too
    except json.JSONDecodeError as exc:
        raise KnowledgeParseError(f"the answer is not valid JSON ({exc.msg})") from None
    items = obj.get("items") if isinstance(obj, dict) else None
    if not isinstance(items, list):
        raise KnowledgeParseError('the JSON object has no "items" list')
    out: list[QuestionAnswer] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        try:
            fields = [str(item.get(k) or "").strip() for k in ("question", "reasoning", "answer")]
        except RecursionError:  # a value nested too deep to write out as text: not a usable item
            continue
        if all(fields):
            out.append(QuestionAnswer(*fields))
    if not out:
        raise KnowledgeParseError("no item has a question, a reasoning and an answer")
    return out


def judge(
    chunk: DocChunk, qa: QuestionAnswer, catalog: set[str], check: BlockCheck | None, paste_ratio: float
) -> list[Diagnostic]:
    """One item's findings: substance, then grounding in its chunk."""
    found = substance_checks(chunk, qa.question, qa.reasoning, qa.answer)
    return found + verify_answer(chunk, qa.question, qa.answer, catalog, check, paste_ratio)


class KnowledgeQATask:
    """Questions on one documentation chunk; each item judged against the chunk, no feedback rounds."""

    name = "knowledge"
    version = KNOWLEDGE_PROMPT

    def __init__(self, cfg: KnowledgeConfig, catalog: set[str], check: BlockCheck | None = None) -> None:
        self.cfg = cfg
        self.catalog = catalog
        self.check = check

    def item_id(self, item: DocChunk) -> str:
        return item.chunk_id

    def prompt(self, item: DocChunk, response_format: str) -> Prompt:
        del response_format  # the prompt always asks for the items JSON
        return Prompt(prompt(item, self.cfg.questions_per_chunk, self.cfg.max_chunk_chars))

    def response_format(self, response_format: str) -> dict[str, Any] | None:
        if response_format == "json_schema":
            schema = response_schema(self.cfg.questions_per_chunk)
            return {
                "type": "json_schema",
                "json_schema": {"name": "knowledge", "strict": True, "schema": schema},
            }
        if response_format == "json_object":
            return {"type": "json_object"}
        return None

    def parse(self, item: DocChunk, reply: TeacherReply) -> list[QuestionAnswer]:
        del item
        return parse(reply.content, reply.finish_reason)

    def verify(self, item: DocChunk, record: list[QuestionAnswer]) -> Verdict:
        parts = [judge(item, qa, self.catalog, self.check, self.cfg.paste_ratio) for qa in record]
        flat = [d for part in parts for d in part]
        return Verdict(any(is_accepted(part) for part in parts), flat, parts)

    def feedback(self, verdict: Verdict) -> Message | None:
        del verdict
        return None

    def format_retry(self, reason: str) -> Message:
        return {"role": "user", "content": render("format_retry", reason=reason)}

    def text_of(self, record: list[QuestionAnswer]) -> str:
        return json.dumps([dataclasses.asdict(qa) for qa in record], ensure_ascii=False)

    def journal_row(self, item: DocChunk) -> None:
        del item  # the stage writes knowledge.parquet from the outcomes
