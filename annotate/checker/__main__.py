"""`python -m annotate.checker [--write]`: rebuild the API catalog from the surface headers."""

from schemas.ascendc.catalog import main

raise SystemExit(main())
