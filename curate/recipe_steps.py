"""The steps of a recipe, in pipeline order, each a call of an existing stage entry point
(`curate.stages.*`, the same functions the commands call): ingest each source, benchmark and
documentation tree, dedup, annotate, knowledge (when declared), verify, build, push (when
declared), report."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

from curate.errors import UserError
from curate.recipe import Recipe, SourceSpec
from curate.runner import Step, as_record, source_identity, source_root
from curate.wording import plural
from curate.workspace import Workspace

TABLES = {
    "units": "units.parquet",
    "benchmark": "benchmark.parquet",
    "docs": "docs.parquet",
    "decisions": "decisions.parquet",
    "annotations": "annotations.parquet",
    "attempts": "attempts.parquet",
    "knowledge": "knowledge.parquet",
    "dataset": "dataset.parquet",
    "preference": "preference.parquet",
}


def _t(*names: str) -> tuple[str, ...]:
    return tuple(TABLES[n] for n in names)


def _licence_note(ws: Workspace, spec: SourceSpec) -> str:
    """The source's rows against the licence the recipe declares for it."""
    if not spec.license:
        return ""
    from schemas import KernelUnit
    from schemas.tables import read_table

    table = read_table(ws.units, KernelUnit, columns=["source", "license"]).to_pylist()
    found = Counter(row["license"] for row in table if row["source"] == spec.name)
    other = {lic: n for lic, n in found.items() if lic != spec.license}
    if not other:
        return f"; licence {spec.license} as declared"
    shown = ", ".join(f"{n} {lic}" for lic, n in sorted(other.items()))
    return f"; licence: recipe declares {spec.license}, rows carry {shown}"


def _ingest_step(recipe: Recipe, ws: Workspace, spec: SourceSpec, mirror: Path | None) -> Step:
    from curate.stages.ingest import IngestRequest, run_ingest

    benchmark = spec.kind == "benchmark"

    def run() -> str:
        source = spec.table or str(source_root(spec, ws, mirror))
        request = IngestRequest(
            source, spec.name, benchmark, spec.code_column, spec.id_column, spec.code_from
        )
        summary, _ = run_ingest(ws, request, recipe.ingest)
        what = "units" if summary.kind == "corpus" else "benchmark items"
        note = _licence_note(ws, spec) if not benchmark else ""
        return f"{summary.files_seen} files, {summary.rows} {what}, {len(summary.skipped)} skipped{note}"

    return Step(
        id=f"{'benchmark' if benchmark else 'ingest'}:{spec.name}",
        run=run,
        # its rows share the table with other sources' (each replaces only its own): the
        # step's own output is its report, and the table only has to exist
        writes=(f"reports/ingest-{spec.name}.json",),
        present=_t("benchmark" if benchmark else "units"),
        config=as_record(recipe.ingest),
        identity=lambda: source_identity(spec, recipe.ingest.exclude_dirs),
    )


def _docs_step(recipe: Recipe, ws: Workspace, spec: SourceSpec, mirror: Path | None) -> Step:
    from curate.stages.ingest_docs import run_ingest_docs

    def run() -> str:
        summary = run_ingest_docs(ws, str(source_root(spec, ws, mirror)), spec.name)
        return f"{plural(summary.pages, 'page')}, {plural(summary.chunks, 'chunk')}"

    return Step(
        id=f"docs:{spec.name}",
        run=run,
        present=_t("docs"),
        identity=lambda: source_identity(spec, recipe.ingest.exclude_dirs),
    )


def _dedup_step(recipe: Recipe, ws: Workspace) -> Step:
    def run() -> str:
        from curate.report.leakage_md import summary_line
        from curate.stages.dedup import run_dedup_stage

        return summary_line(*_counts_notes(run_dedup_stage(ws, recipe.dedup)))

    return Step("dedup", run, _t("units", "benchmark"), _t("decisions"), as_record(recipe.dedup))


def _counts_notes(summary: object) -> tuple[dict[str, int], list[str]]:
    return getattr(summary, "counts", {}), getattr(summary, "notes", [])


def _annotate_step(recipe: Recipe, ws: Workspace, limit: int | None) -> Step:
    config = recipe.annotate if limit is None else dataclasses.replace(recipe.annotate, limit=limit)

    def run() -> str:
        from curate.stages.annotate import run_annotate

        outcome = run_annotate(ws, config.resolved(), recipe.verify)
        s = outcome.summary
        if s.stopped:
            raise UserError(f"annotate stopped: {s.stopped}")
        return (
            f"{s.units} units: {s.accepted} accepted, {s.rejected} rejected, {s.failed} failed; "
            f"{s.requested} answers received, {s.cached} from the journal"
        )

    record = {"annotate": as_record(config), "verify": as_record(recipe.verify)}
    return Step("annotate", run, _t("units", "decisions"), _t("annotations", "attempts"), record)


def _knowledge_step(recipe: Recipe, ws: Workspace) -> Step:
    def run() -> str:
        from curate.stages.knowledge import default_checks, run_knowledge

        catalog, check = default_checks()
        assert recipe.knowledge is not None
        outcome = run_knowledge(ws, recipe.annotate.resolved(), recipe.knowledge, catalog, check)
        return outcome.line(str(ws.knowledge)).removeprefix("knowledge: ")  # the step is named already

    record = {"annotate": as_record(recipe.annotate), "knowledge": as_record(recipe.knowledge)}
    return Step("knowledge", run, _t("docs", "benchmark"), _t("knowledge"), record)


def _verify_step(recipe: Recipe, ws: Workspace) -> Step:
    def run() -> str:
        from curate.stages.verify import run_verify

        s = run_verify(ws, recipe.verify).summary
        return (
            f"{s.annotations} annotations: {s.accepted} accepted, {s.rejected} rejected, {s.changed} changed"
        )

    reads = _t("units", "annotations", "attempts")
    return Step("verify", run, reads, _t("annotations", "attempts"), as_record(recipe.verify))


def _build_step(recipe: Recipe, ws: Workspace) -> Step:
    def run() -> str:
        from curate.stages.build import run_build

        result = run_build(ws, recipe.build)
        return f"{len(result.rows)} rows, {len(result.pairs)} preference pairs -> {ws.dataset}"

    reads = _t("units", "decisions", "annotations", "attempts", "knowledge")
    return Step("build", run, reads, _t("dataset", "preference"), as_record(recipe.build))


def _push_step(recipe: Recipe, ws: Workspace) -> Step:
    assert recipe.push is not None
    config = dataclasses.replace(recipe.push, allow_license=recipe.allowed_licenses())

    def run() -> str:
        from curate.stages.push import GateBlocked, run_push

        try:
            outcome = run_push(ws, config, f"curate run {recipe.file}")
        except GateBlocked as exc:
            print(exc.details, flush=True)
            raise
        where = [str(outcome.to_dir)] if outcome.to_dir is not None else []
        where += [outcome.commit_url] if outcome.commit_url else []
        return f"{len(outcome.content.files)} files -> {', '.join(where) or 'nowhere'}"

    # a published folder whose card was removed or edited is published again
    card = (str(Path(config.to_dir) / "README.md"),) if config.to_dir else ()
    return Step("push", run, _t("dataset", "preference"), card, as_record(config), follows=True)


def _report_step(ws: Workspace, name: str) -> Step:
    """The report of everything before it (`figures`: drawn before push, whose card shows them)."""

    def run() -> str:
        from curate.report import write_report

        written = write_report(ws)
        return f"{written.html} ({written.bytes / 1024:,.0f} KB)"

    return Step(name, run, tuple(TABLES.values()), ("reports/report.html",), follows=True)


def recipe_steps(recipe: Recipe, ws: Workspace, mirror: Path | None, limit: int | None = None) -> list[Step]:
    steps = [_ingest_step(recipe, ws, s, mirror) for s in (*recipe.sources, *recipe.benchmarks)]
    steps += [_docs_step(recipe, ws, s, mirror) for s in recipe.docs]
    steps += [_dedup_step(recipe, ws), _annotate_step(recipe, ws, limit)]
    if recipe.knowledge is not None:
        steps.append(_knowledge_step(recipe, ws))
    steps += [_verify_step(recipe, ws), _build_step(recipe, ws)]
    if recipe.push is not None:
        steps += [_report_step(ws, "figures"), _push_step(recipe, ws)]
    steps.append(_report_step(ws, "report"))
    return steps
