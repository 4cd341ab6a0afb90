# pbem: every target sets itself up on a fresh machine (virtualenv, Python
# packages, and the Debian tools the tests talk to, installed as root when missing).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.installed
SYSPKGS := age minisign dovecot-imapd chromium libcairo2 fonts-dejavu-core

.PHONY: all demo test bench lint soak fuzz sysdeps venv clean

all: test

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip setuptools wheel
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Debian tools used as interop oracles (age, minisign). Installed only when
# missing, and only when we are root; otherwise the tests say what is missing.
sysdeps:
	@missing=""; for p in $(SYSPKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null; \
	  else echo "warning: missing system packages:$$missing (run as root, or apt-get install them)"; fi; \
	fi

test: $(STAMP) sysdeps
	$(PY) -m pytest -q -p no:cacheprovider

demo: $(STAMP) sysdeps
	$(PY) -m pbem.cli.demo --out demo-out

bench: $(STAMP)
	$(PY) bench/run.py

# Structure-aware fuzzing of the intake (tools/fuzz_intake.py): PBEM_FUZZ_N inputs, 0 untyped.
fuzz: $(STAMP)
	PBEM_FUZZ_N=$${PBEM_FUZZ_N:-100000} $(PY) tools/fuzz_intake.py

lint: $(STAMP)
	$(VENV)/bin/ruff check pbem rules tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) demo-out bench-out .mypy_cache .ruff_cache

# SIGKILL pbem at random points, at least 200 times (CI runs a smaller count).
soak: $(STAMP)
	PBEM_CRASH_COUNT=$${PBEM_CRASH_COUNT:-200} $(PY) -m pytest -q -s -p no:cacheprovider tests/test_crash.py
