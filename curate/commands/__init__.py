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
    run,
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
    run,
]
