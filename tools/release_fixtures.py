"""Write a release's fixtures and its releases.toml entries (docs/protocol.md §15, issue 16).

Run it with the release's own code, from the release's checkout (its .venv, its tests/helpers.py):

    cd CHECKOUT && make demo && .venv/bin/python /path/to/tools/release_fixtures.py --pbem 0.1.0 \\
        --demo demo-out --out /path/to/project/tests/fixtures/releases
    (and for the other games: --game eurofront --scenario scw-1936 --demo demo-out/eurofront, ...)

It writes, under --out:
- ``pbem-<release>-<game>-<scenario>.pbemarchive``: the `make demo` game's archive (a whole game,
  ended and revealed), which every later release that claims to play this one verifies in full;
- ``pbem-<release>-<game>-midgame.tar.gz`` and ``.json``: two players' homes (game files only,
  no caches) after the first files of the demo script, which a later release continues to the
  script's end (tests/test_releases.py);
- and prints the ``[[release]]`` entries to paste into each game's ``releases.toml``.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

MIDGAME_FILES = 8


def _midgame(out: Path, release: str) -> dict[str, object]:
    sys.path.insert(0, str(Path.cwd() / "tests"))
    import helpers  # the release's own test helpers

    from pbem import rulesapi
    from pbem.cli import demo
    from pbem.play import game
    from pbem.store import gamestore

    tmp = Path(tempfile.mkdtemp())
    players, gid = helpers.start_france_1940(tmp)
    steps = demo.parse_script(rulesapi.get("use").demo_script("france-1940") or "")
    played = last = 0
    # The demo script's loop (tests/helpers.py demo_turns), kept here so that what is left of the
    # script can be written out for the release that continues the game.
    while steps and played < MIDGAME_FILES:
        pend = game.load(players["axis"].session, gamestore.game_dir(players["axis"].home, gid)).pending()
        if pend is not None and pend.kind == "dice-release":
            seat, text = pend.seat, ""
        else:
            seat, text = steps.pop(0)
            if seat == "*":
                if pend is not None and not pend.phase.startswith(text):
                    steps[:0] = [(pend.seat, "end-phase\n"), ("*", text)]
                continue
        f, _ = helpers.deliver(players, gid, seat, text)
        played, last = played + 1, int(f.header["time"])
    name = f"pbem-{release}-use-midgame"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for seat, p in players.items():
            files = gamestore.game_dir(p.home, gid).files_dir
            tar.add(files, arcname=f"{seat}/files")
    (out / f"{name}.tar.gz").write_bytes(buf.getvalue())
    meta = {"game": gid.hex(), "seats": list(players), "played": played, "last_time": last,
            "made_by": f"pbem {release}", "players": "tests/helpers.py start_france_1940",
            "remaining": [list(s) for s in steps]}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(tmp, ignore_errors=True)
    return meta


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--pbem", required=True, help="the release's version")
    ap.add_argument("--demo", default="demo-out", help="the release's `make demo` output")
    ap.add_argument("--out", required=True)
    ap.add_argument("--game", default="use")
    ap.add_argument("--scenario", default="france-1940")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from pbem import rulesapi

    rules = rulesapi.get(a.game)
    archive = out / f"pbem-{a.pbem}-{a.game}-{a.scenario}.pbemarchive"
    shutil.copyfile(Path(a.demo) / "game.pbemarchive", archive)
    if a.game == "use":  # the mid-game homes come from USE's demo script (tests/helpers.py)
        meta = _midgame(out, a.pbem)
        print(f"# use: midgame {meta['played']} files")
    scen = rules.load_scenario(a.scenario)
    print("[[release]]")
    print(f'version = "{rules.version}"')
    print(f'pbem = "{a.pbem}"')
    print(f'hash = "{rules.rules_hash().hex()}"')
    print("plays = true")
    print(f'fixture = "tests/fixtures/releases/{archive.name}"')
    print(f'scenarios = {{ "{a.scenario}" = "{scen.digest.hex()}" }}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
