"""One module per command; each has `register(app)`. Add a new command to this list."""

from curate.commands import (
    annotate,
    audit,
    build,
    check_kernel,
    dedup,
    doctor,
    ingest,
    ingest_docs,
    push,
    report,
    stats,
    verify,
)

COMMAND_MODULES = [
    ingest,
    ingest_docs,
    stats,
    dedup,
    audit,
    build,
    push,
    annotate,
    verify,
    check_kernel,
    doctor,
    report,
]
