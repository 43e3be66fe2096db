"""One module per command; each has `register(app)`. Add a new command to this list."""

from curate.commands import annotate, audit, build, check_kernel, dedup, doctor, ingest, push, stats, verify

COMMAND_MODULES = [ingest, stats, dedup, audit, build, push, annotate, verify, check_kernel, doctor]
