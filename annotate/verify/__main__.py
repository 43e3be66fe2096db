"""`python -m annotate.verify [--write]`: rebuild the API catalog from the surface headers."""

from annotate.verify.catalog import main

raise SystemExit(main())
