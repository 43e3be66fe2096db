"""The knowledge task: questions, reasoning and answers grounded in one documentation chunk.

As the kernel task (`annotate/task.py`), two pure functions: `prompt(chunk, count) -> messages`
and `parse(content, finish_reason) -> list[QuestionAnswer]`; the transport is elsewhere. The
chunk text goes inside <doc_section> tags (closing tags inside it neutralised), and the answer
must be the JSON shape below, whatever the documentation says.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from annotate.prompts import PROMPT_VERSION, render
from schemas import DocChunk
from schemas.config import ConfigError

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


class KnowledgeParseError(ValueError):
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
        obj = json.loads(content[start : end + 1])
    except json.JSONDecodeError as exc:
        raise KnowledgeParseError(f"the answer is not valid JSON ({exc.msg})") from None
    items = obj.get("items") if isinstance(obj, dict) else None
    if not isinstance(items, list):
        raise KnowledgeParseError('the JSON object has no "items" list')
    out: list[QuestionAnswer] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        fields = [str(item.get(k) or "").strip() for k in ("question", "reasoning", "answer")]
        if all(fields):
            out.append(QuestionAnswer(*fields))
    if not out:
        raise KnowledgeParseError("no item has a question, a reasoning and an answer")
    return out
