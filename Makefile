# Two commands: `make run` serves the admin with demo content, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

# Compiled bytecode is kept (in __pycache__, ignored by git): where the machine sets
# PYTHONDONTWRITEBYTECODE, every test process, and every manage.py process a test starts,
# compiled the whole project again, and pytest rewrote every test module's asserts again in
# each of its two processes.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: run test test-postgres lint typecheck unit browser renders system-deps messages variety bench clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py demo_accounts
	@echo "Plateau : http://127.0.0.1:8000/  (administration : http://127.0.0.1:8000/admin/)"
	$(BIN)/python manage.py runserver 127.0.0.1:8000

system-deps:
	.ci/system-deps

lint: $(INSTALLED)
	$(BIN)/ruff check .

# mypy with django-stubs over the typed modules, listed in pyproject.toml's [tool.mypy].
typecheck: $(INSTALLED)
	$(BIN)/mypy

# Two processes (pytest-xdist), one test file each at a time: a file's module fixtures (the
# SQLite scenario, the sixth game's project copy) are set up once.
unit: $(INSTALLED) system-deps
	$(BIN)/pytest -n 2 --dist loadfile -m "not browser and not stack"

# Browser tests drive Debian's Chromium against live_server, in their own pytest run.
browser: $(INSTALLED) system-deps
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/pytest -m browser

test: lint typecheck unit browser

# PNG renders of printed pages in var/renders/, for a person to look at: not checks, so
# `make unit` leaves them out (pytest's --renders option brings them back).
renders: $(INSTALLED)
	$(BIN)/pytest --renders -m renders tests/printing

# The unit tests that query the database, against a real PostgreSQL and Redis (CI starts them
# with .ci/postgres and .ci/redis): the content app's (jobs, worker processes and backups
# included: the print page's PDF is made there by a job, on PostgreSQL), the player's, and
# printing's command. What does not depend on the engine runs once, on SQLite, in `make unit`:
# printing's layouts and faces, read back from PDFs, and its pages' options; the settings, the
# registry, the catalogues, images' parsing, the served static files; SQLite's own locking.
PG_TESTS = tests/cms tests/player/test_content.py tests/player/test_room_races.py tests/player/test_play_pages.py tests/printing/test_printpdf.py
PG_SKIP = test_production.py test_settings.py test_registry.py test_i18n.py test_sqlite_concurrency.py test_hostile_images.py
test-postgres: $(INSTALLED) system-deps
	@test -n "$(DATABASE_URL)" || { echo "DATABASE_URL=postgres://… is required" >&2; exit 2; }
	DATABASE_URL="$(DATABASE_URL)" REDIS_URL="$(REDIS_URL)" $(BIN)/pytest -n 2 --dist loadfile -m "not browser and not stack" $(addprefix --ignore=tests/cms/,$(PG_SKIP)) $(PG_TESTS)

# After changing UI strings: extract them, translate locale/en, then compile.
messages: $(INSTALLED)
	$(BIN)/python manage.py makemessages -l en --no-obsolete --ignore=.venv --ignore=tests --ignore=fixtures --ignore=var
	$(BIN)/python manage.py makemessages -d djangojs -l en --no-obsolete --ignore=.venv --ignore=tests --ignore=fixtures --ignore=var
	$(BIN)/python manage.py compilemessages -l en --ignore=.venv

# The demo library's variety figures (issue 17), from fixtures/<game>/variete.json.
variety: $(INSTALLED)
	$(BIN)/python -m tests.demo_variety

bench: $(INSTALLED)
	@for script in bench/[!_]*.py; do [ -e "$$script" ] || continue; [ "$$script" = bench/load.py ] && continue; $(BIN)/python "$$script"; done

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache

# The whole production stack on 127.0.0.1 (PostgreSQL, Redis, `manage.py serve` and a task
# worker, state in var/prod): `make prod` runs it in the foreground until Ctrl-C;
# prod-start and prod-stop leave it running in the background, or stop it.
.PHONY: prod prod-start prod-stop test-stack
prod: $(INSTALLED)
	deploy/stack run

prod-start: $(INSTALLED)
	deploy/stack start

prod-stop:
	deploy/stack stop

test-stack: $(INSTALLED)
	$(BIN)/pytest -m stack tests/test_stack.py

bench-load: $(INSTALLED)
	$(BIN)/python bench/load.py
