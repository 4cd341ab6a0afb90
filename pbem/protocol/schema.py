"""The exact shape of everything pbem decodes from a file, checked before any code uses it.

A file can be validly signed by a real player and still be hostile: its author
runs a modified pbem. So every decoded part (the signed header's lists and
maps, a turn's public and private parts, a reveal's payload, a dice escrow)
is checked here against its schema (exact keys, types, lengths, counts)
before the engine or a rules module reads a single field of it. A failure is
a typed ``MalformedPart`` that names where (file, seat, field) and why.

Caps are far above what a conforming pbem writes (the France 1940 demo's
largest file has 5 rolls, 19 events and 5 releases), and low enough that no
file can make a receive expensive. Counts are checked before the items they
count, so a file with a million entries costs one ``len``.

This module imports no other part of the engine: it is the bottom layer
that every reader calls.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from pbem.errors import InvalidInput, LimitExceeded

MAX_SEATS = 8
MAX_NAME = 64  # seat names, refs, labels
MAX_STR = 4096  # any other string inside a part
MAX_BYTES = 4096  # any bytes value inside a part that has no fixed length
MAX_LIST = 4096  # any list or map inside a part (orders, events' fields, state)
MAX_NODES = 200_000  # values in one generic tree (orders, an event, an opened value)
MAX_CARD = 4096
MAX_OPTIONS = 32
MAX_DEPTH = 20  # dice Merkle tree depth (genesis refuses more)
MAX_SLOT = 1 << MAX_DEPTH
MAX_WINDOW = 1024
MAX_RELEASES = (MAX_SEATS - 1) * MAX_WINDOW  # a full window for every other seat
MAX_ROLLS = 1024
MAX_DICE = 64  # dice in one roll
MAX_SIDES = 1000
MAX_COMMITS = 256
MAX_OPENINGS = 256
MAX_EVENTS = 4096
MAX_FILE_KEYS = 1 << 20
MAX_COUNTER = 1 << 31  # roll numbers and other counters


# --- the parts' shapes, for the type checker (plain dicts at run time) ----------------
# A seed release travels as the list [roller, slot, seed, proof] (pbem.protocol.dice.SeedRelease).
ReleaseWire = list[Any]


class RollRecord(TypedDict):
    """A roll in the public part; ``values`` is None for a secret roll."""

    k: int
    sides: int
    count: int
    purpose: str
    secret: bool
    values: list[int] | None


class RevealedRoll(TypedDict):
    """A secret roll revealed: the roller's seed for its slot."""

    ref: str
    sides: int
    count: int
    seed: ReleaseWire


class OpeningWire(TypedDict):
    """An opening as pbem.protocol.commit.Opening.to_wire writes it."""

    value: Any
    nonce: bytes


class RefOpening(TypedDict):
    """An opening with the ref of its commitment (public openings, values told to a seat)."""

    ref: str
    value: Any
    nonce: bytes


class CommitMeta(TypedDict):
    """A commitment's label and context (its digest is in the header, index for index)."""

    label: str
    ctx: str


class SeedRootWire(TypedDict):
    """The author's seed root of a new dice epoch (docs/protocol.md §11, "Epochs")."""

    epoch: int
    root: bytes


class PublicPart(TypedDict):
    """A turn file's public part. ``phase`` and ``digest`` are set last, by the author's tool
    after the rules ran; every part on the wire has them."""

    orders: Any
    rolls: list[RollRecord]
    roller_seeds: list[ReleaseWire]
    revealed: list[RevealedRoll]
    releases: list[ReleaseWire]
    openings: list[RefOpening]
    events: list[dict[str, Any]]
    commits: list[CommitMeta]
    phase: NotRequired[str]
    digest: NotRequired[bytes]
    seed_root: NotRequired[SeedRootWire]  # only in a file that opens a dice epoch (pbem.protocol.context)


class SecretRollRecord(TypedDict):
    """A secret roll's values, sealed to its roller."""

    k: int
    sides: int
    count: int
    values: list[int]


class PrivatePart(TypedDict):
    """The private part sealed to a file's author."""

    orders: Any
    state: Any
    openings: dict[str, OpeningWire]
    secret_rolls: dict[str, SecretRollRecord]
    events: list[dict[str, Any]]


class OtherPart(TypedDict):
    """The private part sealed to another seat: ``told`` only when the author told it something."""

    events: list[Any]
    told: NotRequired[list[RefOpening]]


class RevealPayload(TypedDict):
    """What a reveal publishes: its author's file keys (by part label), dice master and openings."""

    file_keys: dict[str, bytes]
    dice_master: bytes
    openings: dict[str, OpeningWire]


class MalformedPart(InvalidInput):
    """A decoded part whose shape is not what a conforming pbem writes."""

    default_hint = ("the file is signed but malformed: its author's tool is not a conforming pbem; "
                    "keep the file as evidence and ask its author to send a fresh one")


class TooMany(LimitExceeded):
    """A count in a file over pbem's cap, refused before its items are parsed."""

    default_hint = "the file holds more entries than any genuine pbem file; it was made to be expensive"


# --- primitives ------------------------------------------------------------------


def _bad(where: str, why: str) -> MalformedPart:
    return MalformedPart(f"{where}: {why}")


def count(v: Any, cap: int, where: str) -> None:
    """Refuse a list or map with more than ``cap`` entries (before looking at any of them)."""
    if len(v) > cap:
        raise TooMany(f"{where}: {len(v)} entries, more than the {cap} pbem accepts")


def as_map(v: Any, where: str, keys: set[str] | None = None, *, optional: frozenset[str] = frozenset()
           ) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _bad(where, f"expected a map, found {_kind(v)}")
    if keys is not None:
        have = set(v)
        missing = keys - have
        unknown = have - keys - set(optional)
        if missing or unknown:
            raise _bad(where, "fields differ: " + ", ".join(
                [f"missing {k!r}" for k in sorted(missing)] + [f"unknown {k!r}" for k in sorted(unknown)[:5]]))
    return v


def as_list(v: Any, where: str, cap: int, *, length: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise _bad(where, f"expected a list, found {_kind(v)}")
    count(v, cap, where)
    if length is not None and len(v) != length:
        raise _bad(where, f"expected {length} entries, found {len(v)}")
    return v


def as_int(v: Any, where: str, lo: int = 0, hi: int = MAX_COUNTER) -> int:
    # bool is an int subclass in Python, never one on the wire
    if not isinstance(v, int) or isinstance(v, bool):
        raise _bad(where, f"expected an integer, found {_kind(v)}")
    if not lo <= v <= hi:
        raise _bad(where, f"{v} is outside {lo}..{hi}")
    return v


def as_bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise _bad(where, f"expected true or false, found {_kind(v)}")
    return v


def as_str(v: Any, where: str, cap: int = MAX_STR) -> str:
    if not isinstance(v, str):
        raise _bad(where, f"expected text, found {_kind(v)}")
    if len(v) > cap:
        raise _bad(where, f"text of {len(v)} characters, more than {cap}")
    return v


def as_bytes(v: Any, where: str, *, size: int | None = None, cap: int = MAX_BYTES) -> bytes:
    if not isinstance(v, bytes):
        raise _bad(where, f"expected bytes, found {_kind(v)}")
    if size is not None and len(v) != size:
        raise _bad(where, f"expected {size} bytes, found {len(v)}")
    if len(v) > cap:
        raise _bad(where, f"{len(v)} bytes, more than {cap}")
    return v


def _kind(v: Any) -> str:
    return {dict: "a map", list: "a list", str: "text", bytes: "bytes", bool: "a boolean",
            int: "an integer", type(None): "nil"}.get(type(v), type(v).__name__)


def value(v: Any, where: str, *, nodes: int = MAX_NODES) -> Any:
    """A free-form value (orders, an event's fields, a sealed value): only sizes are capped.

    Depth is already capped at decode time (pbem.formats.canonical); this bounds the
    breadth, so that code walking the value later does bounded work.
    """
    budget = [nodes]
    stack: list[Any] = [v]
    while stack:
        x = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise TooMany(f"{where}: more than {nodes} values")
        if isinstance(x, str):
            as_str(x, where)
        elif isinstance(x, bytes):
            as_bytes(x, where)
        elif isinstance(x, list):
            count(x, MAX_LIST, where)
            stack.extend(x)
        elif isinstance(x, dict):
            count(x, MAX_LIST, where)
            for k, item in x.items():
                as_str(k, where, MAX_NAME)
                stack.append(item)
        elif x is not None and not isinstance(x, (int, bool)):
            raise _bad(where, f"a value of type {type(x).__name__}")
    return v


# --- engine records ----------------------------------------------------------------


def release(w: Any, where: str) -> list[Any]:
    """A seed release on the wire: [roller, slot, seed, proof]."""
    w_: list[Any] = as_list(w, where, 4, length=4)
    as_str(w_[0], f"{where} roller", MAX_NAME)
    as_int(w_[1], f"{where} slot", 0, MAX_SLOT)
    as_bytes(w_[2], f"{where} seed", size=32)
    for i, p in enumerate(as_list(w_[3], f"{where} proof", MAX_DEPTH)):
        as_bytes(p, f"{where} proof[{i}]", size=32)
    return w_


def releases(v: Any, where: str) -> list[Any]:
    for i, w in enumerate(as_list(v, where, MAX_RELEASES)):
        release(w, f"{where}[{i}]")
    return list(v)


def commitment(c: Any, where: str) -> dict[str, Any]:
    c_: dict[str, Any] = as_map(c, where, {"label", "seat", "ctx", "digest"})
    as_str(c_["label"], f"{where} label", MAX_NAME)
    as_str(c_["seat"], f"{where} seat", MAX_NAME)
    as_str(c_["ctx"], f"{where} context")
    as_bytes(c_["digest"], f"{where} digest", size=32)
    return c_


def commitments(v: Any, where: str) -> list[Any]:
    for i, c in enumerate(as_list(v, where, MAX_COMMITS)):
        commitment(c, f"{where}[{i}]")
    return list(v)


def commit_digests(v: Any, where: str) -> list[Any]:
    """A turn header's ``commits``: only the 32-byte digests (label and context are encrypted)."""
    for i, d in enumerate(as_list(v, where, MAX_COMMITS)):
        as_bytes(d, f"{where}[{i}]", size=32)
    return list(v)


def commit_meta(c: Any, where: str) -> dict[str, Any]:
    """A commitment's label and context, in the public part (index for index with the header's digests)."""
    c_: dict[str, Any] = as_map(c, where, {"label", "ctx"})
    as_str(c_["label"], f"{where} label", MAX_NAME)
    as_str(c_["ctx"], f"{where} context")
    return c_


def opening(o: Any, where: str, *, with_ref: bool) -> dict[str, Any]:
    o_: dict[str, Any] = as_map(o, where, {"ref", "value", "nonce"} if with_ref else {"value", "nonce"})
    if with_ref:
        as_str(o_["ref"], f"{where} ref", MAX_NAME)
    as_bytes(o_["nonce"], f"{where} nonce", size=32)
    value(o_["value"], f"{where} value")
    return o_


def roll(r: Any, where: str) -> dict[str, Any]:
    r_: dict[str, Any] = as_map(r, where, {"k", "sides", "count", "purpose", "secret", "values"})
    as_int(r_["k"], f"{where} k")
    as_int(r_["sides"], f"{where} sides", 1, MAX_SIDES)
    n = as_int(r_["count"], f"{where} count", 1, MAX_DICE)
    as_str(r_["purpose"], f"{where} purpose")
    as_bool(r_["secret"], f"{where} secret")
    if r_["values"] is not None:
        for i, x in enumerate(as_list(r_["values"], f"{where} values", n)):
            as_int(x, f"{where} values[{i}]", 0, MAX_SIDES)
    return r_


def revealed(r: Any, where: str) -> dict[str, Any]:
    r_: dict[str, Any] = as_map(r, where, {"ref", "sides", "count", "seed"})
    as_str(r_["ref"], f"{where} ref", MAX_NAME)
    as_int(r_["sides"], f"{where} sides", 1, MAX_SIDES)
    as_int(r_["count"], f"{where} count", 1, MAX_DICE)
    release(r_["seed"], f"{where} seed")
    return r_


def event(e: Any, where: str) -> dict[str, Any]:
    e_: dict[str, Any] = as_map(e, where)
    as_str(e.get("kind"), f"{where} kind", MAX_NAME)
    value(e, where, nodes=MAX_LIST)
    return e_


def events(v: Any, where: str) -> list[Any]:
    for i, e in enumerate(as_list(v, where, MAX_EVENTS)):
        event(e, f"{where}[{i}]")
    return list(v)


def _each(v: Any, where: str, cap: int, check: Any) -> list[Any]:
    for i, x in enumerate(as_list(v, where, cap)):
        check(x, f"{where}[{i}]")
    return list(v)


# --- parts -------------------------------------------------------------------------

PUBLIC_KEYS = {"orders", "rolls", "roller_seeds", "revealed", "releases", "openings", "events",
               "commits", "phase", "digest"}
PRIVATE_KEYS = {"orders", "state", "openings", "secret_rolls", "events"}


def public_part(p: Any, where: str) -> PublicPart:
    """A turn file's public part, as the engine and the rules read it."""
    p_: dict[str, Any] = as_map(p, where, PUBLIC_KEYS, optional=frozenset({"seed_root"}))
    if "seed_root" in p_:
        r_: dict[str, Any] = as_map(p_["seed_root"], f"{where} seed_root", {"epoch", "root"})
        as_int(r_["epoch"], f"{where} seed_root epoch", 1)
        as_bytes(r_["root"], f"{where} seed_root root", size=32)
    value(p_["orders"], f"{where} orders")
    _each(p_["rolls"], f"{where} rolls", MAX_ROLLS, roll)
    _each(p_["roller_seeds"], f"{where} roller_seeds", MAX_ROLLS, release)
    _each(p_["revealed"], f"{where} revealed", MAX_ROLLS, revealed)
    releases(p_["releases"], f"{where} releases")
    _each(p_["openings"], f"{where} openings", MAX_OPENINGS,
          lambda o, w: opening(o, w, with_ref=True))
    events(p_["events"], f"{where} events")
    _each(p_["commits"], f"{where} commits", MAX_COMMITS, commit_meta)
    as_str(p_["phase"], f"{where} phase")
    as_bytes(p_["digest"], f"{where} state digest", size=32)
    return cast(PublicPart, p_)


def _secret_roll(r: Any, where: str) -> None:
    r_: dict[str, Any] = as_map(r, where, {"k", "sides", "count", "values"})
    as_int(r_["k"], f"{where} k")
    as_int(r_["sides"], f"{where} sides", 1, MAX_SIDES)
    n = as_int(r_["count"], f"{where} count", 1, MAX_DICE)
    for i, x in enumerate(as_list(r_["values"], f"{where} values", n, length=n)):
        as_int(x, f"{where} values[{i}]", 0, MAX_SIDES)


def private_part(p: Any, where: str) -> PrivatePart:
    """The author's own private part (opened by the author's tool only)."""
    p_: dict[str, Any] = as_map(p, where, PRIVATE_KEYS)
    value(p_["orders"], f"{where} orders")
    value(p_["state"], f"{where} state", nodes=4 * MAX_NODES)
    as_map(p_["openings"], f"{where} openings")
    count(p_["openings"], MAX_OPENINGS, f"{where} openings")
    for ref, o in p_["openings"].items():
        as_str(ref, f"{where} openings", MAX_NAME)
        opening(o, f"{where} opening {ref[:MAX_NAME]}", with_ref=False)
    as_map(p_["secret_rolls"], f"{where} secret_rolls")
    count(p_["secret_rolls"], MAX_ROLLS, f"{where} secret_rolls")
    for ref, r in p_["secret_rolls"].items():
        as_str(ref, f"{where} secret_rolls", MAX_NAME)
        _secret_roll(r, f"{where} secret roll {ref[:MAX_NAME]}")
    events(p_["events"], f"{where} events")
    return cast(PrivatePart, p_)


def other_private_part(p: Any, where: str) -> OtherPart:
    """A private part addressed to this player in someone else's file.

    ``events``: free-form (pbem writes none); ``told``, only when the author told
    this seat something (``Context.tell``): one opening ({ref, value, nonce}) per
    value, each checked against the author's public commitment as the rules replay.
    """
    p_: dict[str, Any] = as_map(p, where, {"events"}, optional=frozenset({"told"}))
    value(p_["events"], f"{where} events")
    if "told" in p_:
        told = as_list(p_["told"], f"{where} told", MAX_LIST)
        for i, o in enumerate(told):
            opening(o, f"{where} told {i}", with_ref=True)
    return cast(OtherPart, p_)


def reveal_payload(m: Any, where: str) -> RevealPayload:
    m_: dict[str, Any] = as_map(m, where, {"file_keys", "dice_master", "openings"})
    as_bytes(m_["dice_master"], f"{where} dice master", size=32)
    keys = as_map(m_["file_keys"], f"{where} file keys")
    count(keys, MAX_FILE_KEYS, f"{where} file keys")
    for label, key in keys.items():
        as_str(label, f"{where} file key label", MAX_NAME)
        as_bytes(key, f"{where} file key {label[:MAX_NAME]}", size=16)
    ops = as_map(m_["openings"], f"{where} openings")
    count(ops, 1 << 16, f"{where} openings")
    for ref, o in ops.items():
        as_str(ref, f"{where} openings", MAX_NAME)
        opening(o, f"{where} opening {ref[:MAX_NAME]}", with_ref=False)
    return cast(RevealPayload, m_)


def escrow(m: Any, where: str) -> bytes:
    m_: dict[str, Any] = as_map(m, where, {"dice_master"})
    return as_bytes(m_["dice_master"], f"{where} dice master", size=32)


# --- the signed header -------------------------------------------------------------


def header(h: dict[str, Any]) -> None:
    """The header's lists and maps, after pbem.protocol.turnfile checked the top-level field types.

    Counts first: a proposal with thousands of cards is refused here, before
    a single card is decoded or a single signature checked.
    """
    kind = h["kind"]
    where = f"{kind} {h['seq']}" if kind == "turn" else kind
    as_str(h["author"], f"{where}: author", MAX_NAME)
    if "cards" in h:
        count(h["cards"], MAX_SEATS, f"{where}: seats")
        for seat, card in h["cards"].items():
            as_str(seat, f"{where}: seat name", MAX_NAME)
            as_bytes(card, f"{where}: card of {seat[:MAX_NAME]}", cap=MAX_CARD)
    if "options" in h:
        count(h["options"], MAX_OPTIONS, f"{where}: options")
        for k, v in h["options"].items():
            as_str(k, f"{where}: option name", MAX_NAME)
            if not isinstance(v, (int, bool, str)) or (isinstance(v, str) and len(v) > MAX_NAME):
                raise _bad(f"{where}: option {k[:MAX_NAME]}", "must be a number, a boolean or a short word")
    if "releases" in h:
        releases(h["releases"], f"{where}: releases")
    if "commits" in h:
        commit_digests(h["commits"], f"{where}: commitments")
    if "private" in h:
        count(h["private"], MAX_SEATS, f"{where}: private parts")
    if "prev_attest" in h:
        count(h["prev_attest"], MAX_SEATS, f"{where}: attestations")
    for k in ("rules", "rules_version", "scenario", "phase", "reason"):
        if k in h:
            as_str(h[k], f"{where}: {k}", MAX_NAME if k != "phase" else MAX_STR)
