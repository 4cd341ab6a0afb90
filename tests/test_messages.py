"""Every word a player reads is right (issue 12, point 5).

Every event kind a game records reads as a sentence, never as a ``key=value`` dump or a
Python value (``['CH']``, ``None``, ``{'a': 1}``): checked kind by kind against the list of
kinds found in the rules' code, and on everything the France 1940 demo shows its players
(summaries in text and HTML, ``pbem show``, ``pbem status``, the history). A refusal names
the phase the player is in.
"""

from __future__ import annotations

import ast
import html.parser
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import Player, deliver, demo_turns, start_france_1940

from pbem import rulesapi
from pbem.cli import cli
from pbem.play import game
from pbem.protocol.identity import save_identity
from pbem.store import gamestore
from pbem.store.fsutil import atomic_write

ROOT = Path(__file__).resolve().parent.parent
USE_DIR = ROOT / "rules" / "use"

#: what a player must never read: a key=value dump, or a Python list, dict, None or boolean
BAD = re.compile(r"\b[a-z_]+=\S|\['|'\]|\{'|\bNone\b|\bTrue\b|\bFalse\b")


def bad_words(text: str) -> list[str]:
    """The lines of ``text`` that show a dump or a Python value."""
    return [line for line in text.splitlines() if BAD.search(line)]


class _Text(html.parser.HTMLParser):
    """The text an HTML page shows (attributes and style sheets are not read by a player)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self._skip += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(page: str) -> str:
    p = _Text()
    p.feed(page)
    return "\n".join(p.parts)


# --- every event kind in the rules' code has a sentence ------------------------------------------

def _event_dicts(path: Path) -> list[ast.Dict]:
    """Dict literals appended to an event list (``events.append({...})``) or built as ``ev``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                and "events" in ast.unparse(node.func.value) and node.args and isinstance(node.args[0], ast.Dict)):
            out.append(node.args[0])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "ev" for t in targets):
                out.append(node.value)
    return out


def _kind(d: ast.Dict) -> str | None:
    for k, v in zip(d.keys, d.values, strict=True):
        if isinstance(k, ast.Constant) and k.value == "kind" and isinstance(v, ast.Constant):
            return str(v.value)
    return None


def use_event_samples() -> dict[str, list[dict[str, Any]]]:
    """Every event kind USE records, with one sample event per place it is made (the field
    names from the code; a value the code computes becomes a word, a list or a number)."""
    samples: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(USE_DIR.glob("*.py")):
        for d in _event_dicts(path):
            kind = _kind(d)
            if kind is None:
                continue
            ev: dict[str, Any] = {}
            for k, v in zip(d.keys, d.values, strict=True):
                if isinstance(k, ast.Constant):
                    ev[str(k.value)] = v.value if isinstance(v, ast.Constant) else f"X{len(ev)}"
            samples.setdefault(kind, []).append(ev)
    return samples


def test_the_kind_list_is_extracted_from_the_code() -> None:
    kinds = use_event_samples()
    # a few that are made in different ways: a plain append, a multi-line one, an 'ev' built in steps
    assert {"combat", "sea-supply", "declare-war", "dice-wait", "strategic-combat", "marker-return"} <= set(kinds)
    assert len(kinds) >= 60


def _variants(ev: dict[str, Any]) -> list[dict[str, Any]]:
    """The sample as it is, with lists of names, with numbers, and with every field missing a value."""
    fields = [k for k in ev if k != "kind"]
    return [ev, {**ev, **{k: ["A-1", "B-2"] for k in fields if not isinstance(ev[k], (int, bool))}},
            {**ev, **{k: 3 for k in fields if isinstance(ev[k], str) and ev[k].startswith("X")}},
            {**ev, **dict.fromkeys(fields)}]


@pytest.mark.parametrize("kind", sorted(use_event_samples()))
def test_every_use_event_kind_reads_as_a_sentence(kind: str) -> None:
    from pbem_rules.use.events import SENTENCES

    assert kind in SENTENCES, f"no sentence for the USE event {kind!r} (rules/use/events.py)"
    rules = rulesapi.get("use")
    for sample in use_event_samples()[kind]:
        for ev in _variants(sample):
            text = rules.describe_event(ev)
            assert text and not bad_words(text), (ev, text)
            assert not text.startswith(kind + ":"), text


def test_an_unknown_event_kind_still_reads_as_words() -> None:
    text = rulesapi.get("use").describe_event({"kind": "new-thing", "units": ["A", "B"], "hex": None})
    assert not bad_words(text) and "A, B" in text


def _toy_kinds(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {str(n.args[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("event", "private_event") and n.args and isinstance(n.args[0], ast.Constant)}


@pytest.mark.parametrize("module, attr", [("toygame", "DUEL"), ("toygame3", "TRIO")])
def test_toy_game_events_read_as_sentences(module: str, attr: str) -> None:
    import importlib

    rules = getattr(importlib.import_module(module), attr)
    kinds = _toy_kinds(Path(__file__).resolve().parent / f"{module}.py")
    assert kinds
    for kind in kinds:
        for ev in ({"kind": kind, "seat": "red", "value": 4, "values": [2, 5], "rolls": 2, "to": ["b", "c"]},
                   {"kind": kind, "seat": "red", "value": 4, "values": [2, 5], "to": "b"}):
            text = rules.describe_event(ev)
            assert not bad_words(text), (kind, text)
            assert "Red" in text or kind == "secret", (kind, text)  # a private event is the reader's own


# --- the France 1940 demo: everything its players read --------------------------------------------

@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Player], bytes]:
    tmp = tmp_path_factory.mktemp("france")
    players, gid = start_france_1940(tmp)
    for seat, text in demo_turns(players, gid):
        deliver(players, gid, seat, text)
    for seat, p in players.items():  # the command line needs each identity on disk
        save_identity(p.session.ident, p.home.identity_file, f"pw-{seat}", work_factor=10)
        atomic_write(p.home.card_file, p.card.to_text().encode())
    return players, gid


def _cli(p: Player, *args: str) -> str:
    r = CliRunner().invoke(cli, ["--home", str(p.home.config.parent), *args],
                           env={"PBEM_PASSPHRASE": f"pw-{p.name}"})
    assert r.exit_code == 0, r.output
    return r.output


def test_the_demo_summaries_read_as_sentences(demo: tuple[dict[str, Player], bytes]) -> None:
    from pbem.present import render, summary

    players, gid = demo
    for seat, p in players.items():
        d = game.load(p.session, gamestore.game_dir(p.home, gid))
        # every event of the game, whoever's summary it would be in
        for entry in d.log:
            for ev in entry["events"]:
                text = d.rules.describe_event(ev)
                assert not bad_words(text) and not text.startswith(f"{ev['kind']}:"), (ev, text)
        for private in (False, True):
            ctx = summary.build(d, seat, private=private)
            assert not bad_words(render.render_text(ctx)), seat
            assert not bad_words(html_text(render.render_html(ctx))), seat


def test_show_status_and_history_read_as_sentences(demo: tuple[dict[str, Player], bytes], tmp_path: Path) -> None:
    players, gid = demo
    for seat, p in players.items():
        text = _cli(p, "show", gid.hex()[:12])
        assert not bad_words(text), bad_words(text)
        assert "The attached" not in text  # nothing is attached to what `show` prints
        page = _cli(p, "show", gid.hex()[:12], "--html", "--public")
        assert not bad_words(html_text(page)) and "The attached" not in page
        status = _cli(p, "status")
        assert not bad_words(status) and f"you: {seat}" in status, status
        out = tmp_path / f"history-{seat}.html"
        _cli(p, "archive", "history", gid.hex()[:12], "-o", str(out))
        assert not bad_words(html_text(out.read_text(encoding="utf-8")))


def test_air_combats_show_every_drm(demo: tuple[dict[str, Player], bytes], tmp_path: Path) -> None:
    """An air combat records dice and finals only: the DRM shown is their difference, never blank."""
    from pbem.present import history

    players, gid = demo
    p = players["axis"]
    d = game.load(p.session, gamestore.game_dir(p.home, gid))
    duels = [ev for e in d.log for ev in e["events"] if ev["kind"] == "air-combat"]
    assert duels
    for ev in duels:
        text = d.rules.describe_event(ev)
        for who in ("att", "def"):
            drm = ev[f"{who}_final"] - ev[f"{who}_die"]
            assert f"die {ev[f'{who}_die']}, DRM {drm:+d}, final {ev[f'{who}_final']}" in text, text
    row = history._combat_row(history.FileRecord(1, "axis", "actions", 0, [duels[0]], None),
                              duels[0], [], {})
    assert row["att_drm"] and row["def_drm"] and row["result"].endswith(" wins")


def test_observer_status_does_not_say_none() -> None:
    import inspect

    from pbem.cli import games

    assert "you: None" not in inspect.getsource(games.status.callback)  # type: ignore[arg-type]
    assert '"you: observer"' in inspect.getsource(games.status.callback)  # type: ignore[arg-type]


# --- refusals name the phase that is current ----------------------------------------------------

@pytest.mark.parametrize("case, phase", [
    ("refusal-names-the-current-phase-declare-war", "it is now the 1940-05 Axis Actions Phase"),
    ("refusal-names-the-current-phase-replace", "it is now the 1940-05 Western Actions Phase"),
])
def test_a_refusal_names_the_phase_the_player_is_in(case: str, phase: str) -> None:
    from pbem.kit.cases import parse_case

    rules = rulesapi.get("use")
    c = parse_case(ROOT / "tests" / "cases" / "use" / f"{case}.case")
    public, private = rules.case_prestate(c.prestate)
    block = c.orders[-1]
    errors = rules.check_orders(block.text, block.seat, public, private.get(block.seat))
    assert len(errors) == 1 and phase in str(errors[0]), [str(e) for e in errors]
    assert "Phase; it is now" in str(errors[0])
