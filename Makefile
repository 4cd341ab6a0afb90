# pbem: every target sets itself up on a fresh machine (virtualenv, Python
# packages, and the Debian tools the tests talk to, installed as root when missing).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.installed
# Test oracles only: pbem itself needs no system library (the map PNG is drawn by
# Pillow with its built-in font); chromium brings the fonts its screenshots use.
SYSPKGS := age minisign dovecot-imapd chromium

.PHONY: all demo test bench lint soak fuzz wheels sysdeps venv clean

all: test

# constraints.txt pins the runtime dependencies of the release (what decides the bytes pbem writes).
$(STAMP): setup.cfg pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip setuptools wheel
	$(PIP) install -q -c constraints.txt -e '.[dev]'
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

test: $(STAMP) sysdeps lint
	$(PY) -m pytest -q -p no:cacheprovider

# Each game in its own folder: USE's France 1940 in demo-out/ (after file 10 the Western player
# hands the seat, with its sealed Will Commit pending, to a substitute), then EuroFront's first SCW month
# in demo-out/eurofront with the fog-of-war check over everything each home can read, then one
# game-turn of War in Europe's 1945 scenario among three homes in demo-out/wie, and one of USE's
# three-faction East and Mediterranean 1941 in demo-out/east-med-1941.
demo: $(STAMP) sysdeps
	$(PY) -m pbem.cli.demo --out demo-out --handover western@10
	$(PY) -m pbem.cli.demo --rules eurofront --scenario scw-1936 --out demo-out/eurofront
	$(PY) tools/eurofront_leaks.py demo-out/eurofront
	$(PY) -m pbem.cli.demo --rules wie --scenario battle-for-germany-1945 --out demo-out/wie
	$(PY) -m pbem.cli.demo --scenario east-med-1941 --out demo-out/east-med-1941

bench: $(STAMP)
	$(PY) bench/run.py

# Structure-aware fuzzing of the intake (tools/fuzz_intake.py), then of every parser
# (tools/fuzz_all.py): PBEM_FUZZ_N inputs each, 0 untyped (docs/reliability.md: figures, time).
fuzz: $(STAMP)
	PBEM_FUZZ_N=$${PBEM_FUZZ_N:-100000} $(PY) tools/fuzz_intake.py
	PBEM_FUZZ_N=$${PBEM_FUZZ_N:-100000} $(PY) tools/fuzz_all.py

# The runtime dependencies resolve from wheels alone for Windows, macOS and Linux, on the
# oldest CPython pbem supports and a current one (pip download --only-binary=:all:; needs PyPI).
wheels: $(STAMP)
	$(PY) tools/check_wheels.py --strict --python-version 3.11 --python-version 3.13

# Run by `make test` too, so CI keeps the code lint-clean (tool versions pinned in setup.cfg).
lint: $(STAMP)
	$(VENV)/bin/ruff check pbem rules tests bench tools
	$(VENV)/bin/mypy
# Each platform's side of every sys.platform branch, checked against that platform's stubs.
	$(VENV)/bin/mypy --platform win32
	$(VENV)/bin/mypy --platform darwin

clean:
	rm -rf $(VENV) demo-out bench-out .mypy_cache .ruff_cache

# Random-play soak (tools/soak.py): complete games of every game by bots through the real
# protocol, invariants after every file, full audits (docs/reliability.md: plan, CPU budget);
# PBEM_SOAK_ARGS narrows it (e.g. "--game duel-short --games 5"). Then SIGKILL pbem at random
# points, at least 200 times (CI runs a smaller count).
soak: $(STAMP)
	$(PY) tools/soak.py $${PBEM_SOAK_ARGS:-}
	PBEM_CRASH_COUNT=$${PBEM_CRASH_COUNT:-200} $(PY) -m pytest -q -s -p no:cacheprovider tests/test_crash.py
