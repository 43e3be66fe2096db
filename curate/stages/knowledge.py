"""`curate annotate --task knowledge`: questions, reasoning and answers grounded in the chunks of
docs.parquet -> knowledge.parquet.

The teacher work is the knowledge Q&A task (`annotate.tasks.knowledge_qa`) on the one teacher loop
(`annotate.run.run_task`): one request per chunk asks for `questions_per_chunk` items, each item
is judged against its chunk, and every reply is journaled in the workspace's annotate.sqlite, so a
rerun sends no request. This stage reads the chunks, turns the outcomes into rows, removes
near-duplicate questions across all chunks with the dedup MinHash machinery (word 3-grams, LSH
candidates confirmed by exact Jaccard), marks questions too close to a benchmark task description
(benchmark.parquet) as `leak`, and writes knowledge.parquet. Every item is kept with its verdict;
only `accepted` items are published.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from annotate.config import AnnotateConfig
from annotate.journal import JournalError
from annotate.loop import ItemOutcome
from annotate.reasoning.knowledge_checks import BlockCheck, surface_block_check
from annotate.run import run_task
from annotate.tasks.knowledge_qa import KnowledgeConfig, KnowledgeQATask, QuestionAnswer
from curate.errors import UserError
from curate.publish.split import split_of
from curate.stages.annotate import read_api_key, teacher_endpoint
from curate.wording import plural
from curate.workspace import Workspace
from dedup.questions import mark_duplicates, mark_leaks
from schemas import BenchmarkItem, DocChunk, KnowledgeItem, read_records, stable_id, write_records
from schemas.runs import KnowledgeRun


@dataclass(slots=True)
class KnowledgeSummary:
    chunks: int
    counts: dict[str, int]
    failed_chunks: int
    requested: int = 0  # answers received from the teacher in this run
    cached: int = 0  # answers served from the journal

    def line(self, table: str) -> str:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))
        return (
            f"knowledge: {plural(self.chunks, 'chunk')}, {counts or 'no items'}, "
            f"{plural(self.failed_chunks, 'chunk')} failed; "
            f"{plural(self.requested, 'answer')} received, {self.cached:,} from the journal -> {table}"
        )


def _items_for(chunk: DocChunk, outcome: ItemOutcome[list[QuestionAnswer]]) -> list[KnowledgeItem]:
    """The rows of one answered chunk: each question with its own verdict and findings."""
    assert outcome.record is not None and outcome.judged is not None
    out = []
    for qa, diags in zip(outcome.record, outcome.judged.parts, strict=True):
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
                teacher_model=outcome.teacher_model,
                prompt_version=KnowledgeQATask.version,
                split=split_of(chunk.path, 0.1, "knowledge"),
            )
        )
    return out


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
        try:
            run = run_task(KnowledgeQATask(cfg, catalog, check), chunks, endpoint, ws.journal, api_key)
        except JournalError as exc:
            raise UserError(str(exc)) from None
        if run.summary.stopped:
            raise UserError(f"knowledge stopped: {run.summary.stopped}")
        answered = {o.item_id: o for o in run.outcomes if o.record is not None}
        items: list[KnowledgeItem] = []
        for chunk in chunks:
            if chunk.chunk_id in answered:
                items += _items_for(chunk, answered[chunk.chunk_id])
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
    failed = sum(1 for chunk in chunks if chunk.chunk_id not in answered)
    return KnowledgeSummary(len(chunks), counts, failed, run.summary.requested, run.summary.cached)


def default_checks() -> tuple[set[str], BlockCheck]:
    from annotate.checker import load_catalog

    return set(load_catalog().names), surface_block_check()
