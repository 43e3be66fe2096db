"""`curate annotate --task knowledge`: questions, reasoning and answers grounded in the chunks of
docs.parquet -> knowledge.parquet.

Per chunk one request asks for `questions_per_chunk` items (annotate/knowledge.py); each item is
verified against its chunk (annotate/reasoning/knowledge.py); near-duplicate questions across all
chunks are removed with the dedup MinHash machinery (word 3-grams, LSH candidates confirmed by
exact Jaccard), and questions too close to a benchmark task description (benchmark.parquet) are
marked `leak`. Every item is kept with its verdict; only `accepted` items are published.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from dataclasses import dataclass

from annotate.config import AnnotateConfig
from annotate.knowledge import (
    KNOWLEDGE_PROMPT,
    KnowledgeConfig,
    KnowledgeParseError,
    parse,
    prompt,
    response_schema,
)
from annotate.limits import RateLimiter
from annotate.negotiate import choose_format
from annotate.reasoning.knowledge import BlockCheck, substance_checks, surface_block_check, verify_answer
from annotate.teacher import TeacherClient, TeacherError, TeacherFatal
from curate.errors import UserError
from curate.publish.split import split_of
from curate.stages.annotate import read_api_key, teacher_endpoint
from curate.workspace import Workspace
from dedup.questions import mark_duplicates, mark_leaks
from schemas import BenchmarkItem, DocChunk, KnowledgeItem, read_records, stable_id, write_records
from schemas.runs import KnowledgeRun


@dataclass(slots=True)
class KnowledgeSummary:
    chunks: int
    counts: dict[str, int]
    failed_chunks: int

    def line(self, table: str) -> str:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))
        return f"knowledge: {self.chunks} chunks, {counts or 'no items'}, {self.failed_chunks} chunks failed -> {table}"


def _items_for(
    chunk: DocChunk, qas: list, model: str, catalog: set[str], check: BlockCheck | None, cfg: KnowledgeConfig
) -> list[KnowledgeItem]:
    out = []
    for qa in qas:
        diags = substance_checks(chunk, qa.question, qa.reasoning, qa.answer)
        diags += verify_answer(chunk, qa.question, qa.answer, catalog, check, cfg.paste_ratio)
        out.append(
            KnowledgeItem(
                item_id=stable_id(chunk.chunk_id, qa.question),
                chunk_id=chunk.chunk_id,
                question=qa.question,
                reasoning=qa.reasoning,
                answer=qa.answer,
                verdict="rejected" if any(d.severity == "error" for d in diags) else "accepted",
                diagnostics=diags,
                title_path=list(chunk.title_path),
                apis=list(chunk.apis),
                source=chunk.source,
                origin_url=chunk.origin_url,
                commit=chunk.commit,
                path=chunk.path,
                license=chunk.license,
                teacher_model=model,
                prompt_version=KNOWLEDGE_PROMPT,
                split=split_of(chunk.path, 0.1, "knowledge"),
            )
        )
    return out


async def _ask_all(
    chunks: list[DocChunk], config: AnnotateConfig, api_key: str, cfg: KnowledgeConfig
) -> list:
    client = TeacherClient(
        base_url=config.base_url,
        api_key=api_key,
        model=config.model,
        timeout_s=config.timeout_s,
        retries=config.retries,
        backoff_base_s=config.backoff_base_s,
        backoff_max_s=config.backoff_max_s,
        limiter=RateLimiter(config.rpm, config.tpm),
        concurrency=config.concurrency,
    )
    fmt = None
    try:  # `auto`: the format this server accepts (annotate.negotiate), probed once
        chosen = (await choose_format(config, client, None, "")).response_format
    except TeacherFatal as stop:
        await client.close()
        raise UserError(f"knowledge stopped: {client.redact(stop.message)}") from None
    if chosen == "json_schema":
        schema = response_schema(cfg.questions_per_chunk)
        fmt = {"type": "json_schema", "json_schema": {"name": "knowledge", "strict": True, "schema": schema}}
    elif chosen == "json_object":
        fmt = {"type": "json_object"}

    async def one(chunk: DocChunk) -> object:
        messages = prompt(chunk, cfg.questions_per_chunk, cfg.max_chunk_chars)
        try:
            reply = await client.complete(messages, config.generation_params(), fmt, len(chunk.text) // 3)
            return parse(reply.content, reply.finish_reason)
        except (TeacherError, KnowledgeParseError) as exc:
            return exc

    try:
        return list(await asyncio.gather(*(one(c) for c in chunks)))
    finally:
        await client.close()


def run_knowledge(
    ws: Workspace,
    config: AnnotateConfig,
    cfg: KnowledgeConfig,
    catalog: set[str],
    check: BlockCheck | None = None,
) -> KnowledgeSummary:
    ws.require_inputs("knowledge")
    chunks = [c for c in read_records(ws.docs, DocChunk) if c.chars >= cfg.min_chunk_chars]
    if cfg.limit:
        chunks = chunks[: cfg.limit]
    if not chunks:
        raise UserError(f"no documentation chunk of at least {cfg.min_chunk_chars} characters in {ws.docs}")
    api_key = read_api_key(config)
    with ws.locked(), teacher_endpoint(config) as endpoint:
        replies = asyncio.run(_ask_all(chunks, endpoint, api_key, cfg))
        items: list[KnowledgeItem] = []
        failed = 0
        for chunk, reply in zip(chunks, replies, strict=True):
            if isinstance(reply, Exception):
                failed += 1
                continue
            items += _items_for(chunk, reply, endpoint.model, catalog, check, cfg)
        mark_duplicates(items, cfg.duplicate_threshold)
        bench = read_records(ws.benchmark, BenchmarkItem) if ws.benchmark.exists() else []
        mark_leaks(items, bench, cfg.leak_threshold)
        write_records(ws.knowledge, KnowledgeItem, items)
        counts = dict(Counter(i.verdict for i in items))
        ws.record_run(
            KnowledgeRun(
                config={**dataclasses.asdict(cfg), "model": endpoint.model}, chunks=len(chunks), counts=counts
            )
        )
    return KnowledgeSummary(len(chunks), counts, failed)


def default_checks() -> tuple[set[str], BlockCheck]:
    from annotate.checker import load_catalog

    return set(load_catalog().names), surface_block_check()
