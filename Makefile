# Two entry points for a newcomer: `make demo` and `make test`. Both create the virtual
# environment and install what they need, so they work on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
WS     ?= demo-workspace
DATASET ?= demo-dataset
# The demo annotates a few units with the small local model (about a minute per unit on 2 cores).
DEMO_UNITS ?= 3

.PHONY: demo test lint typecheck install install-dev clean bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[local]'

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,local,ray]'
	@# The report's browser tests drive Debian's chromium through Playwright (never a browser
	@# download); install it when it is missing and we may (root with apt), else the tests say why they skip.
	@command -v chromium >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "chromium is not installed and cannot be (not root, or no apt-get): the report's browser tests will skip"; fi; }

# The whole main job on the bundled examples, with the local teacher: no key, no network.
demo: install
	rm -rf $(WS) $(DATASET)
	$(BIN)/curate doctor
	$(BIN)/curate ingest examples/corpus --workspace $(WS) --name examples
	$(BIN)/curate ingest examples/benchmark --workspace $(WS) --benchmark --name example-bench
	$(BIN)/curate ingest-docs examples/docs --workspace $(WS) --name example-docs
	$(BIN)/curate dedup --workspace $(WS) --abstract-identifiers
	@# exit 3: some units failed (their reasons are printed); the judged ones are still published
	$(BIN)/curate annotate --workspace $(WS) --teacher local --limit $(DEMO_UNITS) || test $$? -eq 3
	$(BIN)/curate annotate --workspace $(WS) --task knowledge --teacher local --limit 1
	$(BIN)/curate verify --workspace $(WS)
	$(BIN)/curate build --workspace $(WS) --include-rejected
	@# The report's figures (WS/reports/figures/) go into the dataset card that push writes.
	$(BIN)/curate report --workspace $(WS)
	$(BIN)/curate push --workspace $(WS) --to-dir $(DATASET) \
		--allow-license CANN-2.0 --allow-license Apache-2.0
	@$(BIN)/curate stats --workspace $(WS) --brief
	@echo "dataset: $(DATASET)/ (its README.md is the dataset card; datasets.load_dataset(\"$(DATASET)\") reads it)"
	@# Written again after the push so that its licence-gate step shows the push that ran.
	$(BIN)/curate report --workspace $(WS)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy

test: install-dev lint typecheck
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) $(WS) $(DATASET) .pytest_cache .mypy_cache .ruff_cache
