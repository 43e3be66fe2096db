"""The `curate` command line: thin wiring from options to one function per stage."""

__version__ = "0.1.0"
