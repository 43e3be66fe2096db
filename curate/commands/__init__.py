"""One module per command; each has `register(app)`. Add a new command to this list."""

from curate.commands import annotate, audit, build, dedup, ingest, push, stats

COMMAND_MODULES = [ingest, stats, dedup, audit, build, push, annotate]
