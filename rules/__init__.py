"""Game rules modules for pbem, installed as the package ``pbem_rules``.

Each game lives in its own subpackage and registers itself under the
``pbem.rules`` entry-point group; the engine finds games only through that
registry and never imports this package by name.
"""
