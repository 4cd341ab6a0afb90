"""Seats and sides (docs/protocol.md §6a), with the Trio test game's "shared" scenario.

One player (pat) holds seats a and c, another (quinn) seat b; seat a plays two
sides (north, west). Genesis accepts the shared card only where the scenario
allows it; each seat keeps its own dice master, join, private part and reveal;
a full strict-dice game plays to the end and the full audit is clean; the
summaries name the sides; quinn's view and guarantees are those of any game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Player, make_player

from pbem import rulesapi
from pbem.errors import BadSignature, InvalidInput, NotAddressedToYou, StateError
from pbem.mail import dispatch
from pbem.play import audit, game
from pbem.present import render, summary
from pbem.protocol import genesis, turnfile
from pbem.protocol.context import FileRejected
from pbem.store import gamestore as store

T0 = 1_700_000_000


def _gs(p: Player, gid: bytes) -> store.GameStore:
    return store.game_dir(p.home, gid)


def _propose(host: Player, cards: dict[str, Player], scenario: str = "shared", **options: object) -> bytes:
    return genesis.make_proposal(host.session.ident, rules_name="trio", scenario=scenario, my_seat="a",
                                 cards={s: p.card for s, p in cards.items()}, options=dict(options),
                                 rng=host.session.rng, now=T0)


def _start(tmp: Path) -> tuple[Player, Player, bytes]:
    """pat hosts holding a and c (its join for c is written at once); quinn joins b."""
    pat, quinn = make_player(tmp, "pat"), make_player(tmp, "quinn")
    data = _propose(pat, {"a": pat, "b": quinn, "c": pat})
    d = game.create(pat.session, data)
    assert d.my_seats == ("a", "c") and sorted(d.joins) == ["c"]
    c_join = d.joins["c"]
    assert c_join.header["releases"] == []  # three seats: no join releases (no seed before every root)
    assert game.receive(quinn.session, data).status == "invitation"
    joins, dq = game.join_seats(quinn.session, data)
    assert [j.author for j in joins] == ["b"] and dq.my_seats == ("b",)
    game.receive(quinn.session, c_join.raw)
    game.receive(pat.session, joins[0].raw)
    return pat, quinn, d.con.game_id


# (seat, orders): a tells c (both pat's), b tells a and c in one file, c tells b; an
# "again" needs dice-release files from b and from c (pat's other seat).
GAME = [
    ("a", "declare 2\nseal 2\ntell c 5\n"), ("b", "declare 1\ntell a 3\ntell c 6\n"), ("c", "declare 2\ntell b 4\n"),
    ("a", "roll\nsecret\n"), ("b", "roll\n"), ("c", "roll\nsecret\n"),
    ("a", "open\nreveal\ndeclare 1\nagain\n"), ("b", ""), ("c", ""), ("a", "roll\n"),
    ("b", "pass\n"), ("c", "reveal\n"),
]


def _play_game(tmp: Path) -> tuple[Player, Player, bytes]:
    pat, quinn, gid = _start(tmp)
    holder = {"a": pat, "b": quinn, "c": pat}
    for i, (seat, orders) in enumerate(GAME):
        p = holder[seat]
        other = quinn if p is pat else pat
        pend = game.load(p.session, _gs(p, gid)).pending()
        assert pend is not None and pend.seat == seat
        f, d = game.play(p.session, _gs(p, gid), orders)
        assert f.author == seat
        assert game.receive(other.session, f.raw).status == "added"
        if i == 0:
            # strict dice: pat holds a's and c's seeds, never b's before b's file follows a's reservation
            assert d.est["released"]["b"]["a"] == []
    return pat, quinn, gid


def test_one_player_two_seats_plays_to_the_end_and_audits_clean(tmp_path: Path) -> None:
    pat, quinn, gid = _play_game(tmp_path)
    dp, dq = game.load(pat.session, _gs(pat, gid)), game.load(quinn.session, _gs(quinn, gid))
    assert dp.public == dq.public and dp.pending() is None and dp.params.strict
    assert [e["phase"] for e in dq.log].count("dice release") == 2
    # each seat keeps what it alone was told; quinn's view holds seat b only
    assert dp.privates["a"]["told"] == [3] and dp.privates["c"]["told"] == [5, 6]
    assert set(dq.privates) == {"b"} and dq.privates["b"]["told"] == [4]
    assert sorted(dp.masters) == ["a", "c"] and sorted(dq.masters) == ["b"]
    # replayed from the files alone, pat's tool reaches the same per-seat secrets as its cache
    full = game.derive(pat.session, _gs(pat, gid))
    assert (full.privates, full.secrets_by) == (dp.privates, dp.secrets_by)
    ends, _ = game.end_all(pat.session, _gs(pat, gid))
    assert [f.author for f in ends] == ["a", "c"]
    fq = game.end(quinn.session, _gs(quinn, gid))[0]
    for f in ends:
        game.receive(quinn.session, f.raw)
    game.receive(pat.session, fq.raw)
    for p in (pat, quinn):
        rep = audit.audit(p.session, _gs(p, gid))
        assert rep.clean, rep.violations
        assert rep.turns_replayed == len(GAME)


def test_the_other_players_view_and_secrets_are_unchanged(tmp_path: Path) -> None:
    pat, quinn, gid = _start(tmp_path)
    f, _ = game.play(pat.session, _gs(pat, gid), "seal 3\ntell c 9\n")
    game.receive(quinn.session, f.raw)
    for seat in ("a", "c"):
        with pytest.raises(NotAddressedToYou):
            age_part = f.header["private"][seat]
            game.load(quinn.session, _gs(quinn, gid)).keyring.open(f"1/{seat}", age_part, "x")
    dq = game.load(quinn.session, _gs(quinn, gid))
    assert dq.my_seat == "b" and dq.private == {"bid": None, "secret": None}
    # quinn's summary is quinn's: b to move, no private state of a or c in it
    ctx = summary.build(dq, "b", private=True)
    assert ctx["pending"]["is_you"] and ctx["your_seats"] == ["b"]
    assert "told" not in dq.private and "told" not in ctx["happened"][0]["events"][-1]


def test_summaries_and_mails_name_sides_one_mail_per_player(tmp_path: Path) -> None:
    pat, quinn, gid = _start(tmp_path)
    fa, dp = game.play(pat.session, _gs(pat, gid), "pass\n")
    ctx = summary.build(dp, "a")
    assert ctx["your_seats"] == ["a", "c"] and ctx["seating"]
    text = render.render_text(ctx)
    assert "SEATS AND SIDES" in text and "a: north, west; c: c" in text
    assert "north, west" in render.render_html(ctx)
    assert summary.seats_text(dp, dp.my_seats) == "a (north, west), c"
    # a's file: one mail, to quinn; b's file: one mail to pat, not one per seat
    assert [m.seat for m in dispatch.mails_for(pat.session, dp, fa, "summary")] == ["b"]
    game.receive(quinn.session, fa.raw)
    fb, dq = game.play(quinn.session, _gs(quinn, gid), "pass\n")
    mails = dispatch.mails_for(quinn.session, dq, fb, "summary")
    assert [m.seat for m in mails] == ["a"]
    game.receive(pat.session, fb.raw)
    dp = game.load(pat.session, _gs(pat, gid))
    assert dp.my_seat == "c"  # the focus follows pat's seat that must act
    ctx = summary.build(dp, "a")
    assert ctx["pending"]["is_you"] and ctx["pending"]["seat"] == "c"
    assert "YOUR MOVE as c" in render.render_text(ctx)
    # the public cache alone (no unlock) knows pat's seats and the sides
    peeked = game.peek(pat.card, _gs(pat, gid))
    assert peeked is not None and peeked.my_seats == ("a", "c") and peeked.sides["a"] == ["north", "west"]


def test_play_acts_for_the_pending_seat_and_seat_choice_is_checked(tmp_path: Path) -> None:
    pat, quinn, gid = _start(tmp_path)
    with pytest.raises(StateError, match="not your seat c's"):
        game.play(pat.session, _gs(pat, gid), "pass\n", seat="c")
    with pytest.raises(NotAddressedToYou):
        game.play(quinn.session, _gs(quinn, gid), "pass\n", seat="a")  # claims a seat not theirs
    with pytest.raises(StateError, match="not yours"):
        game.play(quinn.session, _gs(quinn, gid), "pass\n")
    f, _ = game.play(pat.session, _gs(pat, gid), "pass\n", seat="a")
    assert f.author == "a"


def test_a_file_claiming_anothers_seat_is_refused(tmp_path: Path) -> None:
    pat, quinn, gid = _start(tmp_path)
    fa, _ = game.play(pat.session, _gs(pat, gid), "pass\n")
    game.receive(quinn.session, fa.raw)
    fb, _ = game.play(quinn.session, _gs(quinn, gid), "pass\n")
    # quinn signs a file naming pat's seat c: the signature is checked against c's card
    header = dict(fb.header)
    header["author"] = "c"
    forged = turnfile.seal(header, quinn.session.ident.sign)
    with pytest.raises((BadSignature, FileRejected)):
        game.receive(pat.session, forged)
    # and pat cannot sign as b
    header = dict(fa.header)
    header["author"] = "b"
    with pytest.raises((BadSignature, FileRejected)):
        game.receive(quinn.session, turnfile.seal(header, pat.session.ident.sign))


def test_a_shared_card_is_refused_where_the_scenario_does_not_allow_it(tmp_path: Path) -> None:
    pat, quinn = make_player(tmp_path, "pat"), make_player(tmp_path, "quinn")
    data = _propose(pat, {"a": pat, "b": quinn, "c": pat}, scenario="four-rounds")
    with pytest.raises(InvalidInput, match=r"holds 2 seats.*allows 1"):
        game.create(pat.session, data)
    with pytest.raises(InvalidInput, match="holds 2 seats"):
        game.receive(quinn.session, data)
    with pytest.raises(InvalidInput):
        game.join(quinn.session, data)
    # even where it is allowed, no more seats than the scenario says
    data = _propose(pat, {"a": pat, "b": pat, "c": pat})
    with pytest.raises(InvalidInput, match=r"holds 3 seats.*allows 2"):
        game.create(pat.session, data)


def test_a_proposal_for_another_players_seats_gives_them_nothing(tmp_path: Path) -> None:
    pat, quinn = make_player(tmp_path, "pat"), make_player(tmp_path, "quinn")
    data = _propose(pat, {"a": pat, "b": quinn, "c": pat})
    con = genesis.read_proposal(turnfile.parse(data))
    assert con.players() == {"a": ("a", "c"), "b": ("b",)} and con.fellow_seats("c") == ("a", "c")
    # quinn can join only b; asking for c is refused
    with pytest.raises(NotAddressedToYou):
        genesis.make_join(quinn.session.ident, con, rng=quinn.session.rng, now=T0, seat="c")


def test_sides_helper_and_scenario_checks() -> None:
    scen = rulesapi.get("trio").load_scenario("shared")
    sides = scen.side_map()
    assert sides == {"a": ("north", "west"), "b": ("b",), "c": ("c",)}
    assert rulesapi.seat_of_side(sides, "west") == "a" and rulesapi.seat_of_side(sides, "b") == "b"
    with pytest.raises(InvalidInput):
        rulesapi.seat_of_side(sides, "south")
    assert rulesapi.get("trio").load_scenario("standard").sides_of("a") == ("a",)
    with pytest.raises(InvalidInput, match="two seats"):
        rulesapi.Scenario("trio", "x", "x", b"", ("a", "b"), sides={"a": ("n",), "b": ("n",)})
    with pytest.raises(InvalidInput):
        rulesapi.Scenario("trio", "x", "x", b"", ("a", "b"), sides={"z": ("n",)})
    with pytest.raises(InvalidInput):
        rulesapi.Scenario("trio", "x", "x", b"", ("a", "b"), seats_per_player=3)


def test_command_line_host_holds_two_seats(tmp_path: Path) -> None:
    import re

    from click.testing import CliRunner

    from pbem.cli import cli

    def run(home: str, *args: str, ok: bool = True) -> str:
        r = CliRunner().invoke(cli, ["--home", str(tmp_path / home), *args],
                               env={"PBEM_PASSPHRASE": f"a long passphrase of {home}"})
        assert (r.exit_code == 0) == ok, f"{args}: {r.output}"
        return r.output

    for h in ("pat", "quinn"):
        run(h, "key", "new", "--name", h.title(), "--email", f"{h}@example.org", "--work-factor", "10")
    run("quinn", "key", "card", "-o", str(tmp_path / "quinn.card"))
    out = run("pat", "game", "new", "--rules", "trio", "--scenario", "shared", "--seat", "a=me",
              "--seat", f"b={tmp_path / 'quinn.card'}", "--seat", "c=me", "--outbox")
    m = re.search(r"game ([0-9a-f]{32}) proposed", out)
    assert m and "joined as c" in out
    gid = m.group(1)
    outbox = tmp_path / "pat" / "data" / "games" / gid / "outbox"
    proposal = next(outbox.glob("*-proposal-a.pbem"))
    out = run("quinn", "game", "join", str(proposal), "--yes", "--outbox")
    assert "joined as b" in out and "joined as c" not in out
    run("quinn", "receive", str(next(outbox.glob("*-join-c.pbem"))))
    qbox = tmp_path / "quinn" / "data" / "games" / gid / "outbox"
    run("pat", "receive", str(next(qbox.glob("*-join-b.pbem"))))
    out = run("pat", "status")
    assert "you: a (north, west), c" in out and "YOUR MOVE (as a (north, west))" in out
    orders = tmp_path / "orders.txt"
    orders.write_text("pass\n")
    assert "not your seat c's" in run("pat", "play", gid[:12], "--orders", str(orders), "--seat", "c", ok=False)
    assert "SEATS AND SIDES" in run("pat", "show", gid[:12], "--seat", "c")
    out = run("pat", "play", gid[:12], "--orders", str(orders), "--outbox")
    assert "next: b" in out and len(list(outbox.glob("*-000001-turn-a.pbem.*.eml"))) == 1
    assert "waiting for file 2 from b" in run("pat", "status")


def test_ending_is_per_seat_a_concession_then_over(tmp_path: Path) -> None:
    pat, quinn, gid = _start(tmp_path)
    # an end proposal by a is answered by b (quinn) and c (pat, its other seat)
    fa, _ = game.play(pat.session, _gs(pat, gid), "", end_vote="propose")
    game.receive(quinn.session, fa.raw)
    fb, _ = game.play(quinn.session, _gs(quinn, gid), "", end_vote="decline")
    game.receive(pat.session, fb.raw)
    pend = game.load(pat.session, _gs(pat, gid)).pending()
    assert pend is not None and pend.seat == "a"
    # pat concedes: one reveal per seat, the first conceding, the second following it
    ends, d = game.end_all(pat.session, _gs(pat, gid), "conceded")
    assert [(f.author, f.header["reason"]) for f in ends] == [("a", "conceded"), ("c", "over")]
    for f in ends:
        game.receive(quinn.session, f.raw)
    fq = game.end(quinn.session, _gs(quinn, gid))[0]
    assert fq.header["reason"] == "over"
    game.receive(pat.session, fq.raw)
    assert audit.audit(quinn.session, _gs(quinn, gid)).clean
