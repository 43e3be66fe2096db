"""dedup: normalisation, shingles, MinHash, LSH, clustering, leakage decisions, reports."""
