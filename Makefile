# Two commands for a newcomer: `make run` and `make test`. See README.md.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench arenas lint format messages install install-dev system-deps worker clean

$(VENV)/.installed: requirements.txt constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(PY) -m pip install --quiet -r requirements-dev.txt -c constraints.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

messages: install
	$(PY) -m tute_site.compile_messages

# Debian's packages the tests use: Chromium for the browser tests (never a browser downloaded
# by a test tool) and GNU gettext, whose xgettext checks that the catalogues are complete.
system-deps:
	@missing=""; command -v chromium >/dev/null || missing="chromium"; \
	command -v xgettext >/dev/null || missing="$$missing gettext"; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; fi

## make run: install, migrate and serve on http://$(HOST):$(PORT) (a Celery worker too with REDIS_URL).
run: install messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@if [ -n "$$REDIS_URL" ]; then \
	  echo "Starting a Celery worker on $$REDIS_URL"; \
	  $(VENV)/bin/celery -A tute_site worker --loglevel=INFO --concurrency=2 & \
	  worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	fi; \
	echo ""; echo "  Tute online is serving on http://$(HOST):$(PORT)/  (Ctrl-C stops it)"; echo ""; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) tute_site.asgi:application

## make worker: a Celery worker alone (REDIS_URL must be set).
worker: install
	$(VENV)/bin/celery -A tute_site worker --loglevel=INFO

## make test: install what the tests need and run them all.
test: install-dev messages system-deps
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## make bench: benchmarks that print their figures (ratios against a baseline in the same run).
bench: install-dev
	$(PY) -m tests.load.bench

## make arenas: the strong robot's measurements (issue 14): 500 single-deal games each, seats
## alternating, seed 1; hours of CPU at the hard budget, so run it in the background.
ARENA := $(PY) -m games.bots arena --rounds 1 --points-to-win 1 --games 500 --seed 1 --workers 2
ITERATIONS ?= 1300
arenas: install
	$(ARENA) --a strong --b heuristic --variant habanero --iterations $(ITERATIONS)
	$(ARENA) --a strong --b heuristic --variant tute --players 4 --iterations $(ITERATIONS)
	$(ARENA) --a strong --b random --variant habanero --iterations $(ITERATIONS)
	$(ARENA) --a strong --b random --variant tute --players 4 --iterations $(ITERATIONS)
	$(PY) -m games.bots arena --a expert --b heuristic --variant habanero --rounds 1 --points-to-win 1 --games 4 --seed 1

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test_db*.sqlite3*
