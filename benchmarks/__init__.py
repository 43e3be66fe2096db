"""Measurements of the toolkit (run each script as a file), and the two instruments they share
with the tests: `mutations` (single-site API mutations the checker must catch) and
`form_verifier` (a verifier of the reasoning's form, to drive the annotate loop without libclang).
The tests import these from here; nothing here imports the tests."""
