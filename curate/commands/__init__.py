"""The commands of `curate`: one module per command, each with `register(app)`.

A command module is imported only when its command runs or its help is asked for, so that
`curate --help` and `curate --version` import none of them (and `curate X --help` only X's).
Add a command with one line in COMMANDS: its name, its module, and the summary `curate --help`
lists beside it (the start of the command's docstring; tests/test_cli_startup.py checks that the
two agree and that the module registers that name).
"""

from __future__ import annotations

from typing import NamedTuple


class CommandEntry(NamedTuple):
    module: str  # imported when the command is resolved
    summary: str  # what `curate --help` lists, without importing the module


COMMANDS: dict[str, CommandEntry] = {
    "ingest": CommandEntry(
        "curate.commands.ingest",
        "Parse AscendC kernels with libclang into kernel units (or benchmark items).",
    ),
    "ingest-docs": CommandEntry(
        "curate.commands.ingest_docs",
        "Read API reference pages, guides and best practices into section chunks (the knowledge component).",
    ),
    "stats": CommandEntry("curate.commands.stats", "Summarise a workspace."),
    "dedup": CommandEntry(
        "curate.commands.dedup",
        "Mark every unit keep / duplicate / leak in decisions.parquet and write reports/leakage.{json,md}.",
    ),
    "audit": CommandEntry(
        "curate.commands.audit",
        "Find test items whose code appears in the training side, and training documents that solve a "
        "test task (task-level matches); exit 1 when either is found.",
    ),
    "build": CommandEntry(
        "curate.commands.build",
        "Join units, dedup decisions, annotations and attempts into DIR/dataset.parquet.",
    ),
    "push": CommandEntry(
        "curate.commands.push",
        "Publish: formats as configs, dataset card, licence and secret gates, then one Hub commit.",
    ),
    "annotate": CommandEntry(
        "curate.commands.annotate",
        "Ask a teacher LLM for the reasoning behind each kernel, verify it, journal it, export it.",
    ),
    "verify": CommandEntry(
        "curate.commands.verify",
        "Re-run the verifiers over stored annotations and attempts (no teacher call).",
    ),
    "check-kernel": CommandEntry(
        "curate.commands.check_kernel",
        "Type-check kernels against the AscendC API surface; exit 1 when any file fails.",
    ),
    "doctor": CommandEntry(
        "curate.commands.doctor",
        "List the verifiers, whether each is available here and why (always exits 0).",
    ),
    "report": CommandEntry(
        "curate.commands.report",
        "Write an HTML report (composition, funnel, leaks, verification) that opens offline.",
    ),
    "run": CommandEntry(
        "curate.commands.run",
        "Run a recipe: ingest its sources, benchmarks and documentation, dedup, annotate, verify, "
        "build, push and report.",
    ),
}
