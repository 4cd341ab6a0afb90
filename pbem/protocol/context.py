"""Applying one turn file: the rules Context in author and replay mode.

The same rules code runs on the author's machine (author mode: full orders,
the author's own seeds and secrets) and on every other machine (replay mode:
the public projection of the orders plus what the file publishes). The
author's tool also replays its own new file in replay mode before it writes
it, so a rules module that let a secret leak into the public state is caught
on the author's machine, not by an opponent.

Engine bookkeeping (``EngineState``) is public and derived from the files
alone: next roll index per seat, seeds released so far, commitments made and
opened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, cast

from pbem.errors import AuthError, InvalidInput, StateError
from pbem.protocol import commit as commitments
from pbem.protocol import dice, schema
from pbem.protocol.schema import OpeningWire, OtherPart, PrivatePart, PublicPart, RefOpening, RollRecord
from pbem.rulesapi import SecretRoll, copy_data

Rng = Callable[[int], bytes]


class CommitWire(TypedDict):
    """A commitment as pbem.protocol.commit.Commitment.to_wire writes it."""

    label: str
    seat: str
    ctx: str
    digest: bytes


class Opened(TypedDict):
    """A commitment opened: its value and the file that opened it (or the reveal at that file)."""

    value: Any
    seq: int
    revealed: NotRequired[bool]  # True: opened by its author's reveal (pbem.play.reveal)


class EndAgreement(TypedDict):
    """An end proposal open or agreed (pbem.play.ending)."""

    proposer: str
    accepted: list[str]
    agreed: bool


class EngineState(TypedDict):
    """The engine's own state (a plain dict: it is cached in canonical encoding)."""

    used: dict[str, int]  # next roll index, by roller
    released: dict[str, dict[str, list[bytes]]]  # releaser -> roller -> seeds, slot by slot
    commits: dict[str, CommitWire]  # by ref "seq.i"
    opened: dict[str, Opened]
    revealed_rolls: dict[str, list[int] | None]  # secret rolls by ref "seat.k": None until revealed
    reserved: dict[str, int]  # strict dice: rolls reserved, by roller
    end: NotRequired[EndAgreement]
    # The seed roots of dice epochs 1, 2, ... by seat, once a game outgrows its genesis trees:
    # absent before, so a game that never does keeps its state (and cache) as it was.
    epochs: NotRequired[dict[str, list[bytes]]]


class FileRejected(AuthError):
    """A file whose contents do not match what its author's tool must have produced."""

    default_hint = "the file is inconsistent with the rules or the dice; keep it as evidence and ask its author"


@dataclass
class GameParams:
    game_id: bytes
    seats: list[str]  # in seat order (the order of the proposal's cards)
    roots: dict[str, bytes]
    depth: int
    window: int
    strict: bool = False

    def release_target(self, est: EngineState, roller: str) -> int:
        """How many of ``roller``'s slots every other player must have released by now.

        Window mode: the next ``window`` rolls, ahead of time (more when the
        roller asked for more with a dice request). Strict mode: only the rolls
        reserved in an earlier signed file, so the action was fixed before
        anyone released the seeds that decide it. Never past the trees every
        seat has committed (``releasable``).
        """
        return min(self._wanted(est, roller), self.releasable(est))

    def _wanted(self, est: EngineState, roller: str) -> int:
        reserved = int(est["reserved"].get(roller, 0))
        if self.strict:
            return max(reserved, int(est["used"][roller]))
        return max(reserved, int(est["used"][roller]) + self.window)

    def release_needed(self, est: EngineState, roller: str) -> int:
        """How many of ``roller``'s slots must be out before ``roller`` may write its next file.

        Strict: every reserved slot (the roller must roll them next). Window:
        at least one roll ahead, or what the roller requested.
        """
        reserved = int(est["reserved"].get(roller, 0))
        if self.strict:
            return reserved
        return max(reserved, int(est["used"][roller]) + 1)

    def release_owed(self, est: EngineState, roller: str) -> list[str]:
        """The seats (in seat order) that still owe ``roller`` seeds before it can move.

        First those whose seed root of the epoch those seeds fall in is not
        committed yet (``roller`` itself among them): no seat releases a seed
        of an epoch before every seat's root of it is fixed.
        """
        need = self.release_needed(est, roller)
        if need > self.releasable(est):
            trees = (need - 1) // self.per_epoch + 1
            late = [p for p in self.seats if self.trees(est, p) < trees]
            if late:
                return late
        return [p for p in self.seats if p != roller and len(est["released"][p][roller]) < need]

    def available(self, est: EngineState, roller: str) -> int:
        """How many of ``roller``'s slots every other seat has released."""
        return min((len(est["released"][p][roller]) for p in self.seats if p != roller), default=0)

    # -- dice epochs (docs/protocol.md §11, "Epochs") --------------------------------------------
    @property
    def per_epoch(self) -> int:
        return dice.per_epoch(self.depth, len(self.seats))

    def locate(self, roller: str, k: int) -> tuple[int, int]:
        """Roll ``k`` of ``roller``: (its dice epoch, its slot in every seat's tree of that epoch)."""
        return dice.locate(self.seats.index(roller), k, len(self.seats), self.depth)

    def trees(self, est: EngineState, seat: str) -> int:
        """How many seed trees ``seat`` has committed (the genesis one included)."""
        return 1 + len(est.get("epochs", {}).get(seat, []))

    def root(self, est: EngineState, seat: str, epoch: int) -> bytes:
        if epoch == 0:
            return self.roots[seat]
        later = est.get("epochs", {}).get(seat, [])
        if epoch > len(later):
            raise StateError(f"{seat} has not committed its seed root of dice epoch {epoch} yet",
                             hint=f"wait for {seat}'s next file, then play again")
        return later[epoch - 1]

    def releasable(self, est: EngineState) -> int:
        """How many rolls of each roller the trees every seat has committed hold."""
        return self.per_epoch * min(self.trees(est, p) for p in self.seats)

    def trees_due(self, est: EngineState) -> int:
        """How many trees each seat must have committed by the end of a file.

        One more as soon as some roller's wanted releases pass the middle of the
        last tree: the new roots then travel in the files of play, well before
        a seed of theirs is needed.
        """
        want = max(self._wanted(est, r) for r in self.seats)
        return (want + self.per_epoch // 2) // self.per_epoch + 1


def new_engine_state(seats: list[str]) -> EngineState:
    return {
        "used": {s: 0 for s in seats},
        "released": {p: {r: [] for r in seats if r != p} for p in seats},
        "commits": {},
        "opened": {},
        "revealed_rolls": {},
        "reserved": {},
    }


def apply_releases(params: GameParams, est: EngineState, releaser: str,
                   wires: list[Any], *, require_window: bool) -> None:
    """Check and record seed releases by ``releaser`` (must be contiguous, then cover the window)."""
    rel = est["released"][releaser]
    for w in wires:
        r = dice.SeedRelease.from_wire(w)
        if not isinstance(w, list) or r.seat not in rel:
            raise FileRejected(f"{releaser} released a seed for unknown roller {r.seat!r}")
        k = len(rel[r.seat])
        epoch, index = params.locate(r.seat, k)
        if r.index != index:
            raise FileRejected(f"{releaser}'s seed release for {r.seat} is out of order")
        if k >= params.releasable(est):
            raise FileRejected(f"{releaser} released a seed of dice epoch {epoch} for {r.seat} before "
                               "every seat's seed root of that epoch was committed")
        # SeedRelease.seat names the roller; the leaf is bound to the releaser's tree.
        dice.SeedRelease(releaser, r.index, r.seed, r.proof).check(
            params.game_id, params.root(est, releaser, epoch), params.depth)
        rel[r.seat].append(r.seed)
    if require_window:
        for roller, seeds in rel.items():
            if len(seeds) < params.release_target(est, roller):
                raise FileRejected(
                    f"{releaser} did not release enough dice seeds for {roller}",
                    hint="the author's tool is not a conforming pbem; ask them to upgrade")


def make_releases(params: GameParams, est: EngineState, tree: dice.SeedTree,
                  releaser: str) -> list[Any]:
    """``releaser``'s releases due now; ``tree`` is its genesis tree (later epochs derive from it)."""
    out: list[Any] = []
    for roller, seeds in est["released"][releaser].items():
        for k in range(len(seeds), params.release_target(est, roller)):
            epoch, idx = params.locate(roller, k)
            r = tree.for_epoch(epoch).release(idx)
            out.append(dice.SeedRelease(roller, idx, r.seed, r.proof).to_wire())
    return out


def _new_public() -> PublicPart:
    return {"orders": None, "rolls": [], "roller_seeds": [], "revealed": [], "releases": [],
            "openings": [], "events": [], "commits": []}


def _new_private() -> PrivatePart:
    return {"orders": None, "state": None, "openings": {}, "secret_rolls": {}, "events": []}


@dataclass
class Payload:
    """What a turn file publishes (public) and seals to its author (private)."""

    public: PublicPart = field(default_factory=_new_public)
    private: PrivatePart = field(default_factory=_new_private)
    # Only the digests go into the clear header; each one's label and context
    # (e.g. "combat 3 0412": a target hex) are game content and travel in the
    # encrypted public part as public["commits"], index for index.
    commits: list[bytes] = field(default_factory=list)
    # What the author tells another seat (``EngineContext.tell``): openings
    # ({ref, value, nonce}) sealed in that seat's private part, by seat.
    told: dict[str, list[RefOpening]] = field(default_factory=dict)

    def other_part(self, seat: str) -> OtherPart:
        """The private part sealed to ``seat``, which is not the author: only what it was told."""
        told = self.told.get(seat)
        # "told" only when there is something: every other file's parts stay as they were.
        return {"events": [], "told": told} if told else {"events": []}


class EngineContext:
    """The rules Context. ``tree``/``secrets`` are given in author mode only.

    ``holder`` and ``told_part``, in replay mode: the seat this tool holds and
    what the author told it in its private part (checked against the public
    commitments as the rules tell it).
    """

    def __init__(self, params: GameParams, est: EngineState, seat: str, seq: int, *,
                 author_mode: bool, payload: Payload | None = None,
                 tree: dice.SeedTree | None = None, secrets: dict[str, Any] | None = None,
                 rng: Rng | None = None, audit: PrivatePart | None = None,
                 holder: str | None = None, told_part: list[RefOpening] | None = None) -> None:
        self.params = params
        self.game_id = params.game_id
        self.est = est
        self.seat = seat
        self.seq = seq
        # In an audit (after the game, with every secret revealed) the rules see
        # the author's view, but the engine checks the file instead of making one.
        self.author_mode = author_mode or audit is not None
        self.audit = audit
        self._produce = author_mode and audit is None
        self.tree = tree
        self.secrets = secrets or {"openings": {}, "secret_rolls": {}}
        self.rng = rng
        self.payload = payload or Payload()
        self._roll_i = 0
        self._seed_i = 0  # roller seeds consumed (one per public roll)
        self._commit_i = 0
        self._open_i = 0
        self._reveal_i = 0
        self.events: list[dict[str, Any]] = []
        self.private_events: list[dict[str, Any]] = []
        self.holder = holder
        self._told_part = told_part if holder is not None and holder != seat else None
        self._told_i = 0
        self.told: list[tuple[str, Any]] = []
        # Strict mode burns the author's slots that were out before this file
        # and stay unrolled, so no roller keeps a known roll for a later choice.
        self._available_at_start = params.available(est, seat)

    @property
    def strict_dice(self) -> bool:
        return self.params.strict

    # -- dice ---------------------------------------------------------------
    def _other_seeds(self, k: int) -> dict[str, bytes]:
        out = {}
        for p in self.params.seats:
            if p == self.seat:
                continue
            seeds = self.est["released"][p][self.seat]
            if k >= len(seeds):
                raise StateError(
                    f"{p} has not released its dice seed for {self.seat}'s roll {k}",
                    hint=f"wait for {p}'s next file, then play again")
            out[p] = seeds[k]
        return out

    def _values(self, k: int, own_seed: bytes, sides: int, count: int) -> list[int]:
        seeds = self._other_seeds(k)
        seeds[self.seat] = own_seed
        ordered = [seeds[s] for s in self.params.seats]
        return dice.roll(self.game_id, self.seat, k, ordered, sides, count)

    def _own_release(self, k: int) -> dice.SeedRelease:
        assert self.tree is not None
        epoch, index = self.params.locate(self.seat, k)
        return self.tree.for_epoch(epoch).release(index)

    def _check_own_release(self, w: Any, k: int) -> bytes:
        r = dice.SeedRelease.from_wire(w)
        epoch, index = self.params.locate(self.seat, k)
        if r.seat != self.seat or r.index != index:
            raise FileRejected(f"roll {k} of {self.seat}: the seed released is for another slot")
        r.check(self.game_id, self.params.root(self.est, self.seat, epoch), self.params.depth)
        return r.seed

    def _next_record(self, sides: int, purpose: str, count: int, secret: bool) -> RollRecord:
        rolls = self.payload.public["rolls"]
        if self._roll_i >= len(rolls):
            raise FileRejected(f"the rules rolled '{purpose}' but the file records no such roll")
        rec = rolls[self._roll_i]
        self._roll_i += 1
        k = self.est["used"][self.seat]
        want = {"k": k, "sides": sides, "count": count, "purpose": purpose, "secret": secret}
        have: dict[str, Any] = dict(rec)
        for key, v in want.items():
            if have.get(key) != v:
                raise FileRejected(f"roll record {self._roll_i} differs from what the rules asked for ({key})")
        return rec

    def roll(self, sides: int, purpose: str, count: int = 1) -> list[int]:
        k = self.est["used"][self.seat]
        if self._produce:
            rel = self._own_release(k)
            values = self._values(k, rel.seed, sides, count)
            self.payload.public["rolls"].append(
                {"k": k, "sides": sides, "count": count, "purpose": purpose, "secret": False,
                 "values": values})
            self.payload.public["roller_seeds"].append(
                dice.SeedRelease(self.seat, rel.index, rel.seed, rel.proof).to_wire())
        else:
            rec = self._next_record(sides, purpose, count, False)
            seeds = self.payload.public["roller_seeds"]
            if self._seed_i >= len(seeds):
                raise FileRejected(f"roll {k} of {self.seat}: the roller's seed is missing")
            seed = self._check_own_release(seeds[self._seed_i], k)
            self._seed_i += 1
            values = self._values(k, seed, sides, count)
            if rec.get("values") != values:
                raise FileRejected(f"roll {k} of {self.seat} ({purpose}): the recorded dice are not the fair ones")
        self.est["used"][self.seat] = k + 1
        return values

    def secret_roll(self, sides: int, purpose: str, count: int = 1) -> SecretRoll:
        k = self.est["used"][self.seat]
        ref = f"{self.seat}.{k}"
        values: list[int] | None = None
        if self._produce:
            rel = self._own_release(k)
            values = self._values(k, rel.seed, sides, count)
            self.payload.public["rolls"].append(
                {"k": k, "sides": sides, "count": count, "purpose": purpose, "secret": True,
                 "values": None})
            self.payload.private["secret_rolls"][ref] = {"k": k, "sides": sides, "count": count,
                                                         "values": values}
        else:
            rec = self._next_record(sides, purpose, count, True)
            if rec.get("values") is not None:
                raise FileRejected("a secret roll's values were published")
            if self.audit is not None:
                assert self.tree is not None
                epoch, index = self.params.locate(self.seat, k)
                values = self._values(k, self.tree.for_epoch(epoch).seed(index), sides, count)
                sealed = self.audit["secret_rolls"].get(ref)
                claimed = sealed.get("values") if sealed is not None else None
                if claimed != values:
                    raise FileRejected(f"secret roll {ref} ({purpose}): the author used {claimed}, "
                                       f"the committed seeds give {values}")
        self.est["used"][self.seat] = k + 1
        self.est["revealed_rolls"][ref] = None
        return SecretRoll(ref, values)

    def reveal_roll(self, ref: str) -> list[int]:
        seat, _, ks = ref.partition(".")
        if seat != self.seat or ref not in self.est["revealed_rolls"]:
            raise FileRejected(f"{self.seat} cannot reveal roll {ref}")
        if self.est["revealed_rolls"][ref] is not None:
            raise FileRejected(f"roll {ref} was revealed already")
        k = int(ks)
        if self._produce:
            info = self.secrets["secret_rolls"].get(ref)
            if info is None:
                raise StateError(f"this tool does not hold secret roll {ref}")
            rel = self._own_release(k)
            self.payload.public["revealed"].append(
                {"ref": ref, "sides": info["sides"], "count": info["count"],
                 "seed": dice.SeedRelease(self.seat, rel.index, rel.seed, rel.proof).to_wire()})
            values = self._values(k, rel.seed, info["sides"], info["count"])
        else:
            recs = self.payload.public["revealed"]
            if self._reveal_i >= len(recs):
                raise FileRejected(f"the rules revealed roll {ref} but the file does not")
            rec = recs[self._reveal_i]
            self._reveal_i += 1
            if rec.get("ref") != ref:
                raise FileRejected(f"revealed roll {rec.get('ref')} is not {ref}")
            seed = self._check_own_release(rec["seed"], k)
            values = self._values(k, seed, int(rec["sides"]), int(rec["count"]))
        self.est["revealed_rolls"][ref] = values
        return values

    def reserve_rolls(self, count: int, roller: str | None = None) -> None:
        """Announce ``count`` rolls ``roller`` (default: this file's author) makes in a later file.

        Strict mode: the other seats release their seeds for those slots only
        in files signed after this one (this file's author releases its own at
        once when it reserves for someone else), so the action that needs the
        rolls is fixed before anyone, the roller included, can compute them.
        Window mode: a no-op, seeds are released ahead anyway.
        """
        who = self.seat if roller is None else roller
        if who not in self.params.seats:
            raise FileRejected(f"a roll reservation for {who!r}, which is not a seat of this game")
        if not 0 <= count <= 1024:
            raise FileRejected(f"a roll reservation of {count} rolls")
        if not self.params.strict:
            return
        used = int(self.est["used"][who])
        current = int(self.est["reserved"].get(who, used))
        self.est["reserved"][who] = max(current, used) + count

    # -- commitments --------------------------------------------------------
    def commit(self, label: str, value: Any, context: str = "") -> str:
        ref, _ = self._commit(label, value, f"{self.seq}:{context}")
        return ref

    def tell(self, seat: str, label: str, value: Any, context: str = "") -> str:
        """Tell ``seat`` alone ``value``: sealed in its private part, committed to in the public one.

        The commitment (label ``tell:<label>``, context naming the recipient)
        is what every tool sees; the recipient's tool checks the told value
        against it, and the full audit checks it after the author's reveal.
        """
        if seat not in self.params.seats or seat == self.seat:
            raise StateError(f"the rules tell {seat!r} something, which is not another seat of this game",
                             hint="a bug in the game's rules module: report it")
        ref, opening = self._commit(f"tell:{label}", value, f"{self.seq}:{seat}:{context}")
        if self._produce:
            assert opening is not None
            self.payload.told.setdefault(seat, []).append({"ref": ref, "value": opening["value"],
                                                           "nonce": opening["nonce"]})
        elif self._told_part is not None and self.holder == seat:
            self.told.append((label, self._check_told(ref, label)))
        return ref

    def _check_told(self, ref: str, label: str) -> Any:
        """The value the author told this tool's seat under commitment ``ref``, checked against it."""
        who = f"file {self.seq} by {self.seat}"
        assert self._told_part is not None
        if self._told_i >= len(self._told_part) or self._told_part[self._told_i].get("ref") != ref:
            raise FileRejected(f"{who}: the rules tell you '{label}' ({ref}), but {self.seat} sealed "
                               "nothing of it in your private part",
                               hint=f"{self.seat}'s tool is not a conforming pbem; keep the file as evidence")
        rec = self._told_part[self._told_i]
        self._told_i += 1
        c = commitments.Commitment.from_wire(self.est["commits"][ref])
        opening = commitments.Opening.from_wire(rec)
        if not commitments.verify(c, self.game_id, opening):
            raise FileRejected(f"{who}: what {self.seat} told you ('{label}', {ref}) differs from "
                               f"{self.seat}'s public commitment to it",
                               hint=f"{self.seat} sealed one value for you and committed to another; "
                                    "keep the file as evidence")
        return opening.value

    def _commit(self, label: str, value: Any, ctx: str) -> tuple[str, OpeningWire | None]:
        """Make (author) or check (replay, audit) the next commitment: (ref, opening wire or None)."""
        ref = f"{self.seq}.{self._commit_i}"
        ow: OpeningWire | None = None
        if self._produce:
            c, o = commitments.commit(label, self.game_id, self.seat, ctx, value, self.rng)
            ow = cast(OpeningWire, o.to_wire())
            self.payload.commits.append(c.digest)
            self.payload.public["commits"].append({"label": c.label, "ctx": c.context})
            self.payload.private["openings"][ref] = ow
            self.secrets["openings"][ref] = ow
        else:
            metas = self.payload.public.get("commits", [])
            if self._commit_i >= min(len(self.payload.commits), len(metas)):
                raise FileRejected(f"the rules committed '{label}' but the file has no such commitment")
            meta = metas[self._commit_i]
            if not isinstance(meta, dict):
                raise FileRejected(f"commitment {ref}: its label and context are malformed")
            # The seat is the signed author; label and context come from the public part.
            c = commitments.Commitment.from_wire({"label": meta.get("label"), "seat": self.seat,
                                                  "ctx": meta.get("ctx"),
                                                  "digest": self.payload.commits[self._commit_i]})
            if (c.label, c.seat, c.context) != (label, self.seat, ctx):
                raise FileRejected(f"commitment {ref} is labelled differently from what the rules made")
            if self.audit is not None:
                sealed_opening = self.audit["openings"].get(ref)
                if sealed_opening is None:
                    raise FileRejected(f"the author's private part lacks the opening of {ref}")
                opening = commitments.Opening.from_wire(sealed_opening)
                commitments.check(c, self.game_id, opening)
                if opening.value != value:
                    raise FileRejected(f"commitment {ref} ({label}) sealed {opening.value!r}, "
                                       f"but the author's orders give {value!r}")
        self._commit_i += 1
        self.est["commits"][ref] = cast(CommitWire, commitments.Commitment(label, self.seat, ctx, c.digest).to_wire())
        return ref, ow

    def open(self, ref: str) -> Any:
        if ref not in self.est["commits"]:
            raise FileRejected(f"no commitment {ref} to open")
        c = commitments.Commitment.from_wire(self.est["commits"][ref])
        if c.seat != self.seat:
            raise FileRejected(f"{self.seat} cannot open {c.seat}'s commitment {ref}")
        if ref in self.est["opened"]:
            return self.est["opened"][ref]["value"]
        if self._produce:
            o = self.secrets["openings"].get(ref)
            if o is None:
                raise StateError(f"this tool does not hold the opening of commitment {ref}")
            opening = commitments.Opening.from_wire(o)
            self.payload.public["openings"].append({"ref": ref, "value": opening.value, "nonce": opening.nonce})
        else:
            recs = self.payload.public["openings"]
            if self._open_i >= len(recs):
                raise FileRejected(f"the rules opened {ref} but the file holds no opening")
            rec = recs[self._open_i]
            self._open_i += 1
            if rec.get("ref") != ref:
                raise FileRejected(f"opening {rec.get('ref')} is not {ref}")
            opening = commitments.Opening.from_wire(rec)
        commitments.check(c, self.game_id, opening)
        self.est["opened"][ref] = {"value": opening.value, "seq": self.seq}
        return opening.value

    # -- events -------------------------------------------------------------
    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, **fields})

    def private_event(self, kind: str, **fields: Any) -> None:
        self.private_events.append({"kind": kind, **fields})

    def finish(self) -> None:
        """Replay mode: everything the file records must have been consumed by the rules."""
        if self.params.strict:
            used = int(self.est["used"][self.seat])
            self.est["used"][self.seat] = max(used, self._available_at_start)
        if self._produce:
            self.payload.public["events"] = self.events
            self.payload.private["events"] = self.private_events
            return
        p = self.payload.public
        if (self._roll_i != len(p["rolls"]) or self._commit_i != len(self.payload.commits)
                or self._open_i != len(p["openings"]) or self._reveal_i != len(p["revealed"])):
            raise FileRejected("the file records rolls, commitments or openings the rules did not make")
        if len(p["roller_seeds"]) != sum(1 for r in p["rolls"] if not r["secret"]):
            raise FileRejected("the file publishes roller seeds that no roll used")
        if p["events"] != self.events:
            raise FileRejected("the file's event log differs from what the rules produce")
        if self._told_part is not None and self._told_i != len(self._told_part):
            raise FileRejected(f"file {self.seq} by {self.seat}: your private part holds told values "
                               "the rules did not tell you")


def clone(x: Any) -> Any:
    return copy_data(x)


def payload_from_wire(public: Any, commits: list[Any], *, where: str = "a turn file") -> Payload:
    # Every field of the part, to the last nested record, before the engine or
    # a rules module reads one: the author may run a modified pbem.
    part = schema.public_part(public, f"{where}: public part")
    schema.commit_digests(commits, f"{where}: commitments")
    if not isinstance(public, dict):
        raise InvalidInput("public part is not a map")
    need = {"orders", "rolls", "roller_seeds", "revealed", "releases", "openings", "events", "commits",
            "phase", "digest"}
    if set(public) - {"seed_root"} != need:  # a new dice epoch's root only where one is due
        raise InvalidInput("public part has missing or unknown fields")
    for k in need - {"orders", "phase", "digest"}:
        if not isinstance(public[k], list):
            raise InvalidInput(f"public part: {k} must be a list")
    if not isinstance(public["phase"], str):
        raise InvalidInput("public part: phase must be a string")
    if not isinstance(public["digest"], bytes) or len(public["digest"]) != 32:
        raise InvalidInput("public part: the state digest must be 32 bytes")
    # The header holds the digests, the public part their labels and contexts: one each, in order.
    if len(public["commits"]) != len(commits):
        raise InvalidInput(f"public part: {len(public['commits'])} commitment labels for "
                           f"{len(commits)} commitment digests in the header")
    p = Payload()
    p.public = part
    p.commits = list(commits)
    return p
