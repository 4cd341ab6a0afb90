"""Which games this pbem plays: its own rules, and the releases of them it still plays (issue 16).

A game records at genesis the rules name, version and hash and the scenario hash it was started
with (the proposal header), and every later file repeats the two hashes, so a game is played to
its end under the rules it began with. The rules hash covers the game's code and tables and the
engine modules the rules run through (pbem.kit.digest), so any edit changes it. What keeps
games alive across upgrades is each game package's ``releases.toml``: the hashes of earlier
releases, and whether this copy still plays them (``plays = true``). A release is kept
``plays = true`` only while its fixture archive (a whole game written by that release, under
tests/fixtures/releases/) replays and audits clean with this copy: tests/test_releases.py checks
it, so a change that alters what an old file means is caught before it ships, and the release
that makes it must set ``plays = false`` for the releases it can no longer replay.

Anything else is refused with one message that names both sides' versions and the exact command
that makes the game playable (install the release that started it, beside this one).

The file format has its own version (``v`` in every header, pbem.protocol.turnfile): a new
format comes with a reader for every earlier one, checked by the same fixtures.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pbem import __version__
from pbem.errors import InvalidInput, Unsupported
from pbem.rulesapi import RulesModule


@dataclass(frozen=True)
class Release:
    """One release of a game's rules, as its ``releases.toml`` records it."""

    version: str  # the rules version (the proposal's rules_version)
    pbem: str  # the pbem release that shipped it
    hash: bytes  # the rules hash its games record
    plays: bool  # this copy plays and verifies its games
    scenarios: dict[str, bytes] = field(default_factory=dict)  # scenario name -> hash
    fixture: str = ""  # a whole game it wrote (path from the project root), replayed by the tests


@cache
def _read(path: Path) -> tuple[Release, ...]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InvalidInput(f"{path}: {e}", hint="this pbem install is damaged; reinstall it") from None
    out = []
    for i, r in enumerate(data.get("release", [])):
        try:
            out.append(Release(str(r["version"]), str(r["pbem"]), bytes.fromhex(r["hash"]), bool(r["plays"]),
                               {str(k): bytes.fromhex(v) for k, v in dict(r.get("scenarios", {})).items()},
                               str(r.get("fixture", ""))))
        except (KeyError, TypeError, ValueError) as e:
            raise InvalidInput(f"{path}: release {i + 1} is malformed ({e})",
                               hint="this pbem install is damaged; reinstall it") from None
    return tuple(out)


def known(rules: RulesModule) -> tuple[Release, ...]:
    """The releases ``rules`` lists (its package's releases.toml), oldest first."""
    path = rules.releases_file()
    return _read(path) if path is not None else ()


def find(rules: RulesModule, rules_hash: bytes) -> Release | None:
    return next((r for r in known(rules) if r.hash == rules_hash), None)


def _key(version: str) -> tuple[int, ...]:
    """"0.10" after "0.9"; anything unparsable sorts first (and then only equality matters)."""
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        return ()


def _install(pbem: str) -> str:
    return (f"install pbem {pbem} beside this one and use it for this game: "
            f"python3 -m venv ~/pbem-{pbem} && ~/pbem-{pbem}/bin/pip install 'pbem=={pbem}', "
            f"then run ~/pbem-{pbem}/bin/pbem with the same --home")


def check_rules(rules: RulesModule, h: dict[str, Any]) -> None:
    """Refuse a game (its proposal header ``h``) that this copy of ``rules`` does not play."""
    recorded: bytes = h["rules_hash"]
    if recorded == rules.rules_hash():
        return
    rel = find(rules, recorded)
    if rel is not None and rel.plays:
        return
    name, theirs, ours = h["rules"], h["rules_version"], rules.version
    here = f"this pbem {__version__} has {'another build of ' if theirs == ours else ''}{name} rules {ours}"
    if rel is not None:
        raise Unsupported(f"this game was started with {name} rules {theirs} (pbem {rel.pbem}); {here}, "
                          f"which no longer plays games of {theirs}", hint=_install(rel.pbem))
    if _key(theirs) > _key(ours):
        raise Unsupported(f"this game was started with {name} rules {theirs}, newer than this pbem's: {here}",
                          hint="upgrade: pip install --upgrade pbem (every player of a game needs a release "
                               "that plays its rules; 'pbem --version' names yours)")
    if theirs == ours:
        raise Unsupported(
            f"this game was started with a build of {name} rules {theirs} that this pbem does not know "
            f"(rules hash {recorded[:4].hex()}, this pbem {__version__}'s {rules.rules_hash()[:4].hex()}): "
            "a modified or development build on one side",
            hint="all players must run a released pbem: compare 'pbem --version' with the host's and "
                 "install the host's: pip install 'pbem==VERSION'")
    raise Unsupported(f"this game was started with {name} rules {theirs}, by a release this pbem does not list; "
                      f"{here}",
                      hint="install the pbem release that started it (the host's 'pbem --version') in its own "
                           "virtualenv: python3 -m venv ~/pbem-VERSION && ~/pbem-VERSION/bin/pip install "
                           "'pbem==VERSION'")


def scenario_plays(rules: RulesModule, name: str, recorded: bytes, local: bytes) -> bool:
    """Whether scenario ``name`` as the game recorded it (``recorded``) is one this copy plays:
    its own (``local``), or the one of a release it still plays."""
    return recorded == local or any(r.plays and r.scenarios.get(name) == recorded for r in known(rules))


def check_scenario(rules: RulesModule, h: dict[str, Any], local: bytes) -> None:
    if scenario_plays(rules, h["scenario"], h["scenario_hash"], local):
        return
    rel = find(rules, h["rules_hash"])
    raise Unsupported(f"scenario {h['scenario']} differs from this pbem's ({__version__}) copy",
                      hint=_install(rel.pbem) if rel is not None else
                      "all players must run the same pbem release: compare 'pbem --version' with the host's")
