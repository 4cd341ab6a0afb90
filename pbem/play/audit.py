"""The full audit: once every player has revealed, replay the game with every secret.

Anyone holding the archive can run it, with no private key (a seatless
observer's home works). For every turn file the author's *full* orders and
private state are taken from its private part (opened with the revealed file
key) and re-applied by the rules in the author's view. It checks:

* the public state digest the file claimed;
* the author's private state after the file;
* every commitment the file made seals exactly the value the author's own
  orders produce (a secret move must be the one that was committed);
* every secret roll is the one the committed seeds give;
* every seed and commitment opened anywhere matches its root or digest.

Problems are collected, not raised, so one report lists every violation with
the file, seat and what was wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.errors import PbemError
from pbem.play.game import Derived, Session, apply_engine_orders, derive, is_engine_phase
from pbem.protocol import dice, schema, turnfile
from pbem.protocol.context import EngineContext, EngineState, apply_releases, clone, payload_from_wire
from pbem.protocol.dicefiles import apply_seed_root
from pbem.protocol.genesis import initial_engine_state, joins_release, read_proposal
from pbem.store.gamestore import GameStore


@dataclass
class AuditReport:
    files: int = 0
    turns_replayed: int = 0
    secrets_checked: int = 0
    missing_reveals: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing_reveals

    @property
    def clean(self) -> bool:
        return self.complete and not self.violations


def audit(session: Session, store: GameStore, d: Derived | None = None) -> AuditReport:
    """``d``: the game already derived from these files (else it is derived here)."""
    if d is None:
        d = derive(session, store)  # every public check, and the reveals' consistency
    rep = AuditReport(files=len(store.files()))
    rep.violations.extend(d.violations)
    rep.missing_reveals = [s for s in d.con.seats if s not in d.reveals]
    if not rep.complete:
        return rep
    con = read_proposal(d.con.proposal)
    rules = con.rules
    masters = {s: _master(f) for s, f in d.reveals.items()}
    trees = {s: dice.SeedTree(m, con.game_id, s, d.params.depth) for s, m in masters.items()}
    public, privates = con.initial_state()
    est = initial_engine_state(con)
    params = d.params
    for s, jf in sorted(d.joins.items()):
        apply_releases(params, est, s, jf.header["releases"], require_window=joins_release(con))
    for sf in store.files():
        if sf.kind != "turn":
            continue
        f = turnfile.parse(sf.read())
        h = f.header
        who = f"file {f.seq} by {f.author}"
        try:
            pub = d.keyring.open(f"{f.seq}/public", h["public"], f"public part of {who}")
            priv = d.keyring.open(f"{f.seq}/{f.author}", h["private"][f.author], f"private part of {who}")
        except PbemError as e:
            rep.violations.append(f"{who}: cannot be opened with the revealed keys: {e}")
            return rep
        payload = payload_from_wire(pub, h["commits"])
        est2 = clone(est)
        if is_engine_phase(str(pub["phase"])):
            # Dice releases and requests, end proposals and answers never reach the rules.
            try:
                apply_engine_orders(params, est2, f.author, str(pub["phase"]), pub["orders"], rules.pending(public))
                apply_seed_root(params, est2, f.author, pub)
                apply_releases(params, est2, f.author, pub["releases"], require_window=True)
            except PbemError as e:
                rep.violations.append(f"{who}: {e}")
                return rep
            est = est2
            rep.turns_replayed += 1
            continue
        ctx = EngineContext(params, est2, f.author, f.seq, author_mode=False, payload=payload,
                            tree=trees[f.author], audit=priv)
        try:
            orders = rules.orders_from_wire(pub["orders"], priv["orders"])
            out = rules.apply(clone(public), {f.author: clone(privates.get(f.author))}, f.author, orders, ctx)
            ctx.finish()
        except PbemError as e:
            rep.violations.append(f"{who}: the author's secret orders break the rules or their commitments: {e}")
            return rep
        rep.secrets_checked += len(h["commits"]) + sum(1 for r in pub["rolls"] if r["secret"])
        if rules.digest(out.public) != pub["digest"]:
            rep.violations.append(f"{who}: the author's full orders do not give the public state it claimed")
        if f.author in out.private and out.private[f.author] != priv["state"]:
            rep.violations.append(f"{who}: the private state the author kept differs from what its orders give")
        try:
            told = _told_states(d, rules, params, est, public, privates, f, pub)
        except PbemError as e:
            rep.violations.append(f"{who}: what it told another seat: {e}")
            return rep
        apply_seed_root(params, est2, f.author, pub)
        apply_releases(params, est2, f.author, pub["releases"], require_window=True)
        public, est = out.public, est2
        privates.update(told)
        privates[f.author] = priv["state"]
        rep.turns_replayed += 1
    if rules.digest(public) != rules.digest(d.public):
        rep.violations.append("the audited final state differs from the replayed public state")
    # What only the end can check: a block game's moves made hidden and never revealed in play.
    opened = {ref: o.get("value") for ref, o in d.est.get("opened", {}).items()}
    rep.violations.extend(f"at the game's end: {v}" for v in rules.audit_final(public, opened))
    return rep


def _told_states(d: Derived, rules: Any, params: Any, est: EngineState, public: Any,
                 privates: dict[str, Any], f: turnfile.SignedFile, pub: Any) -> dict[str, Any]:
    """The private states of the seats ``f`` told something (Context.tell), as their tools replayed it.

    Each told value is checked against the author's commitment on the way, and
    the author's own later files then start from the state its tool really had.
    """
    out: dict[str, Any] = {}
    for seat in d.con.seats:
        if seat == f.author:
            continue
        part = schema.other_private_part(
            d.keyring.open(f"{f.seq}/{seat}", f.header["private"][seat], f"{seat}'s private part of file {f.seq}"),
            f"file {f.seq}: {seat}'s private part")
        if not part.get("told"):
            continue
        ctx = EngineContext(params, clone(est), f.author, f.seq, author_mode=False,
                            payload=payload_from_wire(pub, f.header["commits"]), holder=seat, told_part=part["told"])
        orders = rules.orders_from_wire(pub["orders"], None)
        res = rules.apply(clone(public), {seat: clone(privates.get(seat))}, f.author, orders, ctx)
        ctx.finish()
        out[seat] = res.private.get(seat, privates.get(seat))
    return out


def _master(f: Any) -> bytes:
    from pbem.formats import canonical

    m = canonical.decode(f.header["payload"])
    return bytes(m["dice_master"])


def summary(d: Derived, rep: AuditReport) -> str:
    if not rep.complete:
        return f"audit waits for reveals from {', '.join(rep.missing_reveals)}"
    if rep.clean:
        return (f"full audit: {rep.turns_replayed} turns replayed with every secret, "
                f"{rep.secrets_checked} secrets checked: no violation")
    return f"full audit: {len(rep.violations)} violation(s)"
