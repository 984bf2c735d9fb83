# Each target bootstraps .venv from pyproject.toml when it is missing or out of date.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Bytecode is cached (in the __pycache__ folders git ignores) even where the environment asks
# Python not to write it: the suite starts many Python processes (test workers, the command
# line, the service, verification and study workers), and each would otherwise compile the
# project and rewrite the test modules' asserts again (about 20 s per test worker).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo test lint pytest bench fuzz clean browser

# uv installs what pyproject.toml asks for several times faster than pip does (about 45 s
# against 100 s here, cold): the install is the one part of `make test` that uses one core.
$(BIN)/uv:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.5'

$(STAMP): pyproject.toml | $(BIN)/uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[dev,all]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/wargame games
	$(BIN)/wargame data check nomonhan
	$(BIN)/wargame play nomonhan --variant ja --seed 1
	$(BIN)/wargame play nomonhan --variant en --seed 1
	$(BIN)/wargame data check rattenkrieg
	$(BIN)/wargame play rattenkrieg --seed 1
	$(BIN)/wargame data check shumshu
	$(BIN)/wargame play shumshu --seed 1
	$(BIN)/wargame data check snc1937
	$(BIN)/wargame play snc1937 --seed 1 --quiet
	$(BIN)/wargame new nomonhan --variant ja > .venv/demo-start.json
	$(BIN)/wargame render nomonhan .venv/demo-start.json -o demo-start.svg
	$(BIN)/wargame explore nomonhan combat_grouping --budget 1

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Debian's headless Chromium for the checks that look at pages in a real browser: installed
# when missing and this is a root shell with apt-get (CI); otherwise those checks are skipped
# and say why.
browser:
	@{ command -v chromium && command -v chromedriver; } >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium for the browser checks"; \
	    apt-get update -qq >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null; \
	  else echo "chromium or chromedriver is not installed: the browser checks will be skipped"; fi; }

# The browser and the virtual environment are installed side by side (both wait on the
# network and the disk more than on a core). The lint runs beside the test suite, not before
# it: its tools use one core each, so on two cores they share the machine with the suite's
# workers instead of leaving a core idle. Then the verification run.
test:
	@$(MAKE) --no-print-directory -j2 browser $(STAMP)
	@$(MAKE) --no-print-directory -j2 lint pytest
	$(BIN)/wargame verify --witnesses .venv/witnesses

pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist worksteal --durations=20

$(VENV)/.bench-installed: $(STAMP)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[dev,bench]'
	touch $@

bench: $(VENV)/.bench-installed
	$(BIN)/python -m bench.games
	$(BIN)/python -m bench.spiel
	$(BIN)/python -m bench.perft_chess
	$(BIN)/python -m bench.combat
	$(BIN)/python -m bench.snc
	$(BIN)/python -m bench.service
	$(BIN)/python -m bench.study
	$(BIN)/python -m bench.agents
	$(BIN)/python -m bench.conformance
	WARGAME_FULL=1 $(BIN)/pytest -n auto --dist worksteal -q  # the long checks at full size (tests/sizes.py)

# Mutated states, actions, logs, data files and arguments through every verb of the command
# (tools/testing/fuzz.py): exits 1 on an internal error, a traceback, an impossible position accepted
# or a call over 10 s or 1 GB, printing one reproducer per group of alike failures.
fuzz: $(STAMP)
	$(BIN)/python -m tools.testing.fuzz --per-game 20000 --save .venv/fuzz-reproducers

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +
