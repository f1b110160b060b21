# Two commands matter: `make run` and `make test`. Both bootstrap everything from a bare python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest scenarios-test docs redis bench schema clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { apt-get install -y -q python3-venv && $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/dialogkit serve --host $(HOST) --port $(PORT) --with-skill-runtime

## Redis server for the Redis store tests: installed from the distribution if missing.
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "installing redis-server"; \
	  (apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null) \
	  || (sudo apt-get update -q >/dev/null && sudo apt-get install -y -q redis-server >/dev/null) \
	  || echo "warning: could not install redis-server; Redis store tests will fail"; }

lint: $(STAMP)
	$(BIN)/ruff check dialogkit dialogkit_server tests benchmarks
	$(BIN)/ruff format --check dialogkit dialogkit_server tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) redis
	$(BIN)/pytest -q -p no:cacheprovider

scenarios-test: $(STAMP)
	$(BIN)/dialogkit test scenarios --min-coverage 0.9

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

test: lint typecheck pytest scenarios-test docs

schema: $(STAMP)
	$(BIN)/dialogkit schema > scenarios/scenario.schema.json

bench: $(STAMP)
	$(BIN)/python -m benchmarks.turns
	$(BIN)/python -m benchmarks.evaluate

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
