"""Every parser meets hostile bytes (tools/fuzz_all.py, docs/reliability.md): a short budget for CI.

`make fuzz` runs 100,000 inputs per parser; here each parser gets a few hundred
from its own fixed seed, and must refuse every bad input with a typed error.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import fuzz_all

from pbem import rulesapi

# Inputs per parser in CI; the slow ones (a proof bundle's signatures, a whole USE scenario) fewer.
# Loaders of whole scenarios are slow per input (War in Europe reads a 1,400-hex map): fewer here,
# the full budget in `make fuzz`.
N = {"proof": 400, "mail-maildir": 400, "mail-eml": 800, "scenario-use": 100, "archive": 800, "mail-imap": 300,
     "scenario-use-east": 60, "scenario-eurofront": 150, "scenario-wie": 40}


@pytest.fixture(scope="module")
def parsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[fuzz_all.Parser]]:
    ps = fuzz_all.parsers(fuzz_all.build(tmp_path_factory.mktemp("fuzz")))
    yield ps
    for name in ("skirmish", "eurofront", "wie"):  # registered by the fuzzer's corpus, not installed
        if name in rulesapi.available():
            rulesapi.unregister(name)


def test_every_parser_is_fuzzed(parsers: list[fuzz_all.Parser]) -> None:
    assert {p.name for p in parsers} >= {
        "envelope", "canonical", "age-header", "age-armor", "age-payload", "card", "archive", "proof",
        "mail-eml", "mail-imap", "orders-use", "orders-duel", "orders-trio", "orders-skirmish",
        "orders-eurofront", "orders-wie", "records", "scenario-use", "scenario-use-east", "scenario-eurofront",
        "scenario-wie"}


@pytest.mark.parametrize("name", ["envelope", "canonical", "age-header", "age-armor", "age-payload", "padding",
                                  "card", "archive", "proof", "mail-eml", "mail-maildir", "mail-imap", "orders-use",
                                  "orders-duel", "orders-trio", "orders-skirmish", "orders-eurofront", "orders-wie",
                                  "records", "scenario-use", "scenario-use-east", "scenario-eurofront",
                                  "scenario-wie"])
def test_no_untyped_exception(parsers: list[fuzz_all.Parser], name: str) -> None:
    p = next(p for p in parsers if p.name == name)
    fuzz_all.fuzz([p], N.get(name, 1500), seed=7)
    assert not p.untyped, p.untyped
    # the mutator reaches both sides: some inputs are refused, and some still parse
    assert p.inputs >= N.get(name, 1500)
    assert sum(v for k, v in p.outcomes.items() if k != "accepted") > 0


# Crashes the fuzzers found, kept as cases (docs/reliability.md).


def test_use_order_with_undecodable_bytes_is_refused_at_parse() -> None:
    """orders-use, 2026-12-01: 'declare-war' kept any word as the country, and a lone surrogate
    (bytes that were not UTF-8, read with surrogateescape) made the file's encoding raise
    UnicodeEncodeError; the kit's order parser now refuses the line with its column."""
    from pbem.errors import OrderError

    use = rulesapi.get("use")
    pub, _ = use.initial_state(use.load_scenario("france-1940"), {"axis": "a", "western": "w"}, {})
    with pytest.raises(OrderError) as e:
        use.parse_orders("declare-war BEL\ndeclare-war B\udcffEL\n", "axis", pub, None)
    assert "line 2, column 14" in str(e.value)
    assert use.parse_orders("declare-war BEL  # caf\udcffe\n", "axis", pub, None)  # a comment is never sent


def test_imap_answers_that_are_not_uids_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """mail-imap, 2026-12-01: a SEARCH answer with a token that is not a number raised ValueError,
    and a FETCH item of one element IndexError, out of pbem.mail.imap.from_imap; both are now
    skipped as the data they are (the rest of the answer is still read)."""
    from pbem.mail import imap
    from pbem.mail.config import MailConfig

    class Server:
        def select(self, mailbox: str, readonly: bool = False) -> tuple[str, list[object]]:
            return "OK", [b"1"]

        def response(self, code: str) -> tuple[str, list[object]]:
            return code, [b"7"]

        def uid(self, command: str, *args: str) -> tuple[str, list[object]]:
            if command == "SEARCH":
                return "OK", [b"1 \xff x2"]
            if "RFC822.SIZE" in args[-1]:
                return "OK", [b"1 (UID 1 RFC822.SIZE 10)"]
            return "OK", [(b"1 (UID 1 BODY[] {0}",), b")"]

        def logout(self) -> tuple[str, list[object]]:
            return "BYE", []

    monkeypatch.setattr(imap, "_connect", lambda cfg, ctx: Server())
    monkeypatch.setattr(imap, "_login", lambda conn, cfg, provide: None)
    cfg = MailConfig(sender="a@example.org", imap_host="imap.invalid", imap_user="a")
    assert imap.from_imap(cfg, lambda *a: "pw") == []


def test_wie_feature_that_names_no_hex_is_a_scenario_error(tmp_path: Path) -> None:
    """scenario-wie, 2026-12-01: a features.txt record whose hex word was no XXYY number
    (``city Arnhem Arnhem``) raised ValueError out of the War in Europe loader; it is now a
    scenario issue with its file and line, like every other problem of the files."""
    from pbem_rules.wie import data
    from pbem_rules.wie.data import WieScenarioErrors

    src = Path(__file__).resolve().parent.parent / "scenarios" / "wie" / "battle-for-germany-1945"
    d = tmp_path / "bfg"
    shutil.copytree(src, d)
    feats = d / "features.txt"
    feats.write_text(feats.read_text(encoding="utf-8") + "city Arnhem Arnhem\n", encoding="utf-8")
    with pytest.raises(WieScenarioErrors) as e:
        data.load_dir(d, "battle-for-germany-1945")
    assert "features.txt" in str(e.value) and "Arnhem" in str(e.value)
