# Two entry points for a newcomer: `make demo` and `make test`. Both create the virtual
# environment and install what they need, so they work on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
WS     ?= demo-workspace

.PHONY: demo test lint typecheck install install-dev clean bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[local]'

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev,local]'

demo: install
	rm -rf $(WS)
	$(BIN)/curate ingest examples/corpus --workspace $(WS) --name examples
	$(BIN)/curate stats --workspace $(WS)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy

test: install-dev lint typecheck
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) $(WS) .pytest_cache .mypy_cache .ruff_cache
