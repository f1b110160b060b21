# Two commands matter: `make run` and `make test`. Both bootstrap everything from a bare python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest scenarios-test docs redis bench schema clean

# Set-up prints one line per step. pip runs with -qq: its warnings (such as this machine's
# unreachable extra index) are dropped while its errors still print; apt's output is kept and
# shown only when a step fails.
$(BIN)/python:
	@echo "creating the environment in $(VENV)"
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  out=$$(apt-get install -y -q python3-venv 2>&1) || { echo "$$out"; exit 1; }; \
	  $(PYTHON) -m venv $(VENV); }

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "installing dialogkit and its dependencies"
	@$(BIN)/python -m pip install -qq --upgrade pip
	@$(BIN)/python -m pip install -qq -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/dialogkit serve --host $(HOST) --port $(PORT) --with-skill-runtime

## Redis server for the Redis store tests: installed from the distribution if missing.
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "installing redis-server"; \
	  out=$$( (apt-get update -q && apt-get install -y -q redis-server) 2>&1 \
	    || (sudo apt-get update -q && sudo apt-get install -y -q redis-server) 2>&1 ) \
	  || { echo "$$out"; echo "warning: could not install redis-server; Redis store tests will fail"; }; }

lint: $(STAMP)
	$(BIN)/ruff check dialogkit dialogkit_server tests benchmarks tools
	$(BIN)/ruff format --check dialogkit dialogkit_server tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) redis
	$(BIN)/pytest -q -p no:cacheprovider

scenarios-test: $(STAMP)
	$(BIN)/dialogkit test scenarios docs/examples/tests --min-coverage 0.9

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

test: lint typecheck pytest scenarios-test docs

schema: $(STAMP)
	$(BIN)/dialogkit schema > scenarios/scenario.schema.json

## Every benchmark; each prints the ratio it is judged by (figures: benchmarks/README.md).
bench: $(STAMP)
	$(BIN)/python -m benchmarks.turns
	$(BIN)/python -m benchmarks.evaluate
	$(BIN)/python -m benchmarks.scaling
	$(BIN)/python -m benchmarks.memory
	$(BIN)/python -m benchmarks.server
	$(BIN)/python -m benchmarks.llm_concurrency
	$(BIN)/python -m benchmarks.nlu_tiers

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
