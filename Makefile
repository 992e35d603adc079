# The two commands a new user types: `make demo` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.gm-installed
DEMO_HOME ?= gm-demo
# What WeasyPrint needs on a bare Debian 12 (measured): Pango, HarfBuzz's
# subsetter (without it PDFs take twice as long), cairo (CairoSVG draws the map picture), a font;
# poppler-utils for looking at PDFs.
DEBIAN_PACKAGES = python3-venv libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 libcairo2 fonts-dejavu-core poppler-utils
# The tests also start real servers and a real browser on loopback: Dovecot for IMAP, Chromium.
TEST_PACKAGES = dovecot-imapd chromium openssl

.PHONY: demo test lint system venv bench clean

demo: venv
	$(BIN)/gm demo --home $(DEMO_HOME)

test: venv
	$(MAKE) --no-print-directory system DEBIAN_PACKAGES="$(TEST_PACKAGES)"
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=40

# Static checks, before any test runs (README "Development"): lint, then strict types.
lint: venv
	$(BIN)/ruff check gm games tests bench
	$(BIN)/ruff format --check gm games tests bench
	$(BIN)/mypy

bench: venv
	$(BIN)/python bench/bench_render.py

venv: system $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("gm needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Installs the Debian packages that are missing (as root, or through sudo); does nothing when all are there.
system:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$(echo $$missing)"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf $(VENV) $(DEMO_HOME) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
