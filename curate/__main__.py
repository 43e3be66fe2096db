"""`python -m curate`: the same as the `curate` command."""

from curate.cli import main

main()
