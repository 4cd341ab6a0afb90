"""Shared tooling for rules modules: the DATC-style rules-case runner."""
