"""The ingest-docs stage: a documentation tree -> `docs.parquet` (one row per section chunk),
replacing that source's rows, with the run recorded."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from curate.errors import UserError
from curate.sources import clone, default_name, local_directory, looks_like_git_url
from curate.stage import Stage
from curate.wording import plural
from curate.workspace import Workspace
from parsers.doctree import walk_doc_tree
from parsers.files import REFUSED, Skip
from parsers.provenance import provenance
from schemas import DocChunk, read_records
from schemas.runs import IngestDocsRun


@dataclass(slots=True)
class IngestDocsSummary:
    source: str
    table: Path
    pages: int
    chunks: int
    skipped: int
    with_apis: int
    with_prototypes: int
    given: str = ""  # the SOURCE argument as given
    refused: list[Skip] = field(default_factory=list)  # pages not read: outside the tree, not a file

    def line(self) -> str:
        named = "; ".join(f"{r.path}: {r.reason}" for r in self.refused[:3])
        more = f" and {len(self.refused) - 3} more" if len(self.refused) > 3 else ""
        return (
            f"ingest-docs {self.source}: {plural(self.pages, 'page')}, {plural(self.chunks, 'chunk')} "
            f"({self.with_apis} define "
            f"APIs, {self.with_prototypes} with prototypes), {self.skipped} skipped"
            + (f" (refused: {named}{more})" if self.refused else "")
            + f" -> {self.table}"
        )


@dataclass(frozen=True, slots=True)
class DocsRequest:
    source: str
    name: str | None = None


def _run(ws: Workspace, request: DocsRequest) -> IngestDocsSummary:
    source = request.source
    name = request.name or default_name(source)
    if looks_like_git_url(source) and not Path(source).is_dir():
        root = clone(source, ws.cache, name)
    else:
        root = local_directory(source)
    prov = provenance(root)
    REFUSED.drain()  # only this walk's refusals are named
    chunks, pages, skipped = walk_doc_tree(root, name, prov.repo_root if prov.commit else root)
    refused = REFUSED.drain()
    if not chunks:
        raise UserError(f"no markdown documentation in {source} ({pages} pages read); nothing was written")
    for chunk in chunks:
        chunk.origin_url, chunk.commit = prov.origin_url, prov.commit
    kept = [c for c in read_records(ws.docs, DocChunk) if c.source != name] if ws.docs.exists() else []
    rows = sorted(kept + chunks, key=lambda c: (c.source, c.path, c.title_path))
    ws.write_table("docs", DocChunk, rows)
    return IngestDocsSummary(
        name,
        ws.docs,
        pages,
        len(chunks),
        skipped,
        sum(1 for c in chunks if c.apis),
        sum(1 for c in chunks if c.prototypes),
        request.source,
        refused,
    )


INGEST_DOCS: Stage[IngestDocsSummary] = Stage(
    "ingest-docs",
    _run,
    writes=("docs",),
    record=lambda _, s: IngestDocsRun(
        config={"source": s.given, "name": s.source},
        source=s.source,
        pages=s.pages,
        chunks=s.chunks,
        skipped=s.skipped,
    ),
)


def run_ingest_docs(ws: Workspace, source: str, name: str | None = None) -> IngestDocsSummary:
    return INGEST_DOCS.execute(ws, DocsRequest(source, name))
