"""`python -m annotate.checker [--write]`: rebuild the API catalog from the surface headers."""

from annotate.checker.catalog import main

raise SystemExit(main())
