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

# The whole main job on the bundled examples, with the local teacher: no key, no network. The
# steps are declared in recipes/demo.toml; `curate run` skips those whose inputs and settings are
# unchanged, so a second `make demo` takes seconds (`make clean` starts over).
demo: install
	$(BIN)/curate doctor
	$(BIN)/curate run recipes/demo.toml --workspace $(WS) --limit $(DEMO_UNITS)
	@$(BIN)/curate stats --workspace $(WS) --brief
	@echo "dataset: $(DATASET)/ (its README.md is the dataset card; datasets.load_dataset(\"$(DATASET)\") reads it)"
	@echo "report: $(WS)/reports/report.html"

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy

test: install-dev lint typecheck
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) $(WS) $(DATASET) .pytest_cache .mypy_cache .ruff_cache
