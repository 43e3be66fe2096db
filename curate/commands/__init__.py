"""One module per command; each has `register(app)`. Add a new command to this list."""

from curate.commands import annotate, build, ingest, push, stats

COMMAND_MODULES = [ingest, stats, build, push, annotate]
