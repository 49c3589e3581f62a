# Two commands for a newcomer: `make run` and `make test`. See README.md.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench arenas levels mutation lint format messages install install-dev system-deps worker slow-worker beat deploy-check clean

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
# by a test tool), GNU gettext, whose xgettext checks that the catalogues are complete, and
# nginx, which the deploy check puts in front of the site (its service is never started).
system-deps:
	@missing=""; command -v chromium >/dev/null || missing="chromium"; \
	command -v xgettext >/dev/null || missing="$$missing gettext"; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; fi
	@# nginx with Debian's policy-rc.d saying no, so that the package does not start its service.
	@[ -x /usr/sbin/nginx ] || { policy=/usr/sbin/policy-rc.d; made=""; \
	  [ -e $$policy ] || { printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee $$policy >/dev/null; \
	    $(SUDO) chmod 755 $$policy; made=1; }; \
	  $(SUDO) apt-get update -qq; $(SUDO) apt-get install -y -qq nginx; status=$$?; \
	  [ -z "$$made" ] || $(SUDO) rm -f $$policy; exit $$status; }

## make run: install, migrate and serve on http://$(HOST):$(PORT) (with REDIS_URL, two Celery
## workers and Celery beat too: beat queues the timer sweep every second; one worker serves
## awards, timers and the arenas, the other, at a low priority, the games' analyses).
run: install messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createcachetable
	$(PY) manage.py collectstatic --noinput --verbosity 0
	@if [ -n "$$REDIS_URL" ]; then \
	  echo "Starting two Celery workers and Celery beat on $$REDIS_URL"; \
	  $(WORKER) & worker=$$!; \
	  $(SLOW_WORKER) & slow=$$!; \
	  $(VENV)/bin/celery -A tute_site beat --loglevel=INFO --schedule $(VENV)/celerybeat-schedule & \
	  beat=$$!; trap 'kill $$worker $$slow $$beat 2>/dev/null; wait $$worker $$slow $$beat' EXIT INT TERM; \
	fi; \
	echo ""; echo "  Tute online is serving on http://$(HOST):$(PORT)/  (Ctrl-C stops it)"; echo ""; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) tute_site.asgi:application

## make worker: the Celery worker of what players wait for: awards, timers, the arenas, the
## sweeps (REDIS_URL must be set). make slow-worker: the one of the games' analyses, one at a
## time at nice 19, so that ten analyses queued never hold an award up.
CELERY_QUEUE ?= celery
WORKER := $(VENV)/bin/celery -A tute_site worker --loglevel=INFO --concurrency=2 -Q $(CELERY_QUEUE) -n prompt@%h
SLOW_WORKER := nice -n 19 $(VENV)/bin/celery -A tute_site worker --loglevel=INFO --concurrency=1 -Q $(CELERY_QUEUE).slow -n slow@%h
worker: install
	$(WORKER)

slow-worker: install
	$(SLOW_WORKER)

## make beat: Celery beat alone, the timer sweep every second (REDIS_URL must be set; run one).
beat: install
	$(VENV)/bin/celery -A tute_site beat --loglevel=INFO --schedule $(VENV)/celerybeat-schedule

## make test: install what the tests need and run them all, in TEST_WORKERS processes
## (pytest-xdist; a test database, ports, Redis keys and Celery queues of each one's own).
## Tests marked xdist_group("alone") run one after the other in one of them.
TEST_WORKERS ?= 4
test: install-dev messages system-deps
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## make bench: benchmarks that print their figures (ratios against a baseline in the same run).
## The load tool (bench/tools/load/) needs PostgreSQL and Redis: it plays each number of tables
## of LOAD_TABLES in turn for LOAD_SECONDS, on LOAD_DAPHNES daphne processes.
LOAD_TABLES ?= 25,50,100,200
LOAD_SECONDS ?= 30
LOAD_DAPHNES ?= 2
bench: install-dev
	$(PY) -m bench
	@if [ -n "$$REDIS_URL" ] && [[ "$$DATABASE_URL" == postgres* ]]; then \
	  $(PY) -m bench.tools.load --tables $(LOAD_TABLES) --seconds $(LOAD_SECONDS) \
	    --daphnes $(LOAD_DAPHNES); \
	else echo '{"bench": "load", "skipped": "set DATABASE_URL (PostgreSQL) and REDIS_URL"}'; fi

## make deploy-check: the production topology on this machine, checked end to end through
## Debian's nginx (installed if missing) with deploy/'s files: see bench/tools/deploy_check/.
## Needs PostgreSQL (DATABASE_URL, by default the local one); starts its own Redis.
deploy-check: install-dev messages
	$(PY) manage.py collectstatic --noinput --verbosity 0
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/tute} $(PY) -m bench.tools.deploy_check

## make mutation: mutation testing of the engine's rules (slow: run it in the background).
# mutmut goes to .mutmut-lib, apart from .venv: see requirements-mutation.txt for why. The
# mutants are the rulebook's and the state's scoring and rule methods (MUTANTS narrows it).
MUTMUT_LIB := .mutmut-lib
GS := games.engine.state.xǁGameStateǁ
# Every method of state.py that applies a rule (who may act, cards, draws, the exchange,
# cantes, tute, capote, bids, scoring, the deal's start and end), and the whole rulebook.
RULE_METHODS := legal_actions_for _allowed _exchange_card _singable _tute_ranks apply \
	_end_trick _draw _carry_won _do_sing _do_tute _check_moment _do_exchange _do_capote \
	_do_bid _score_deal _finish_deal deal_over next_dealer start_deal needs_deal
MUTANTS ?= 'games.engine.rulebook.*' $(foreach m,$(RULE_METHODS),'$(GS)$(m)__*')
mutation: install-dev
	$(PY) -m pip install --quiet --no-deps --target $(MUTMUT_LIB) -r requirements-mutation.txt
	PYTHONPATH=$(MUTMUT_LIB) nice $(PY) -m mutmut run --max-children 2 $(MUTANTS)
	PYTHONPATH=$(MUTMUT_LIB) $(PY) -m mutmut results

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

## make levels: the robot levels at their own clocks (issue 35), nothing else running: hard
## against the heuristic (500 single-deal games), then expert against hard (300), the two
## variants side by side, one process on each core. About 25 minutes for the first pair of
## runs, then 40 (pairs) and 70 (habanero): README.md gives the times measured.
LEVEL_ARENA := $(PY) -m games.bots arena --rounds 1 --points-to-win 1 --seed 1
levels: install
	( $(LEVEL_ARENA) --a hard --b heuristic --variant habanero --games 500 && \
	  $(LEVEL_ARENA) --a expert --b hard --variant habanero --games 300 ) & \
	( $(LEVEL_ARENA) --a hard --b heuristic --variant tute --players 4 --games 500 && \
	  $(LEVEL_ARENA) --a expert --b hard --variant tute --players 4 --games 300 ) & \
	wait

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm test_db*.sqlite3* mutants $(MUTMUT_LIB)
