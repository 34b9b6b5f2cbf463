# The README's commands. `make run` and `make test` do every step themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 3000
export PORT
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: install run dev test test-unit test-provider test-e2e lint format typecheck i18n docs build bench bench-data soak image import token clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

## Serve the built portal on http://localhost:$(PORT) with the demo data, with the production
## server (python -m portal.serve: it drains on SIGTERM, docs/decisions/graceful-drain.md).
run: build
	$(BIN)/python -m portal.provider seed-demo
	$(BIN)/python -m portal.provider print-logins
	$(BIN)/python -m portal.serve --port $(PORT)

## The development server: front end on $(PORT), backend on 8000, hot reload.
dev: install
	$(BIN)/reflex run

## Every test: unit, provider API (SQLite, and PostgreSQL when DATABASE_URL is set), browser.
# Browser tests run in a process of their own: Playwright's sync API holds an event loop that
# the async provider tests cannot share.
# Unit and provider tests spread over the cores, a whole file per worker (TEST_WORKERS=0: one
# process). CI sets TEST_CLOCK (a moved clock), E2E_ORDER (browser modules in random order) and
# PROVIDER_ARGS (extra pytest arguments for the unit and provider tests).
TEST_WORKERS ?= auto
test: install
	scripts/ensure-chromium.sh
	$(TEST_CLOCK) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile tests/unit tests/provider $(PROVIDER_ARGS)
	$(TEST_CLOCK) $(BIN)/python -m pytest -q tests/e2e $(E2E_ORDER)

test-unit: install
	$(BIN)/python -m pytest -q tests/unit

test-provider: install
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile tests/provider

test-e2e: install
	scripts/ensure-chromium.sh
	$(BIN)/python -m pytest -q tests/e2e

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

typecheck: install
	$(BIN)/mypy

## Extract, update and compile the message catalogs in locales/.
i18n: install
	$(BIN)/python scripts/i18n.py update

## Build the user documentation PDFs into data/docs/ (the portal also builds them on demand).
docs: install
	$(BIN)/python -m portal.docs_pdf data/docs

## The production front end, as the Dockerfile builds it. Its pages open their websocket at
## PORTAL_PUBLIC_URL (http://localhost:$(PORT) by default): build again when that changes.
build: install
	REFLEX_ENV_MODE=prod $(BIN)/reflex export --frontend-only --no-zip

## Fill the PostgreSQL database of DATABASE_URL with the benchmark data set (SCALE=1: 2 000
## companies, 200 000 services, 2 million invoices, 105 million sensor samples). Empties it first.
SCALE ?= 1
bench-data: install
	$(BIN)/python -m bench.generate --scale $(SCALE)

## Measure the built portal and its provider on that database; results in bench/results/.
## BENCH_ARGS passes options, e.g. BENCH_ARGS="--tree /tmp/bench-tree --only 'a service'".
bench: install
	$(BIN)/python -m bench.run $(BENCH_ARGS)

## The soak: 50 simulated browsers and API readers against the production server for
## SOAK_MINUTES (30) on the PostgreSQL database of DATABASE_URL (emptied, then the demo) and a
## Redis of its own; fails if memory, connections, file descriptors, latency or log volume grow
## without bound. Report and charts in bench/results/soak-*. Not part of CI.
SOAK_MINUTES ?= 30
soak: install
	$(BIN)/python -m bench.soak --minutes $(SOAK_MINUTES)

## The production image, built with podman on a base made of Debian's packages
## (scripts/base-image.sh, scripts/image.sh); IMAGE names it.
image:
	scripts/image.sh

## Load a JSON Lines file into the provider's database: make import FILE=estate.jsonl
## (format and examples: docs/integration.md). Running it again resumes or re-syncs.
import: install
	$(if $(FILE),,$(error FILE=path/to/file.jsonl is required))
	$(BIN)/python -m portal.provider import "$(FILE)"

## Create an API token of the integration API, printed once, for the kinds it may write:
## make token NAME="ERP sync" OWNER=admin@patchbay.test SCOPES=services,invoices [EXPIRES=2027-12-31]
token: install
	$(if $(NAME),,$(error NAME="what the token is for" is required))
	$(if $(OWNER),,$(error OWNER=<e-mail of an administrator> is required))
	$(if $(SCOPES),,$(error SCOPES=<the kinds it may write, e.g. services,invoices> is required))
	$(BIN)/python -m portal.provider token create --name "$(NAME)" --owner "$(OWNER)" --scope "$(SCOPES)" $(if $(EXPIRES),--expires "$(EXPIRES)")

clean:
	rm -rf .web data .states
