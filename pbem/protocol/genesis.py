"""Genesis: the host's proposal and the players' countersignatures.

1. The host picks a random game id and writes a *proposal*: ruleset (name,
   version, hash), scenario (name, hash), the seats mapped to player cards,
   options, and the host's own dice-seed Merkle root.
2. Each other player checks the cards' fingerprints out of band, checks that
   its own pbem computes the same rules and scenario hashes, and answers with
   a *join* naming the proposal's hash and adding its own seed root.
3. Play starts when every seat has joined. The genesis hash that the first
   turn file chains to covers the proposal and every join, so nobody can
   later swap a seed root or a card.

Each proposal and join also carries ``escrow``: the player's 32-byte dice
master secret, age-encrypted to that player's own key. It lets a player who
lost their game folder rebuild it from the files and their identity alone;
nobody else can open it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from pbem import rulesapi
from pbem.crypto import age
from pbem.errors import InvalidInput, NotAddressedToYou, PbemError, StateError, Unsupported, WrongGame
from pbem.formats import canonical, padding
from pbem.formats.hashing import lhash
from pbem.protocol import dice, releases, schema, seatkey, turnfile
from pbem.protocol.context import EngineState, GameParams, make_releases, new_engine_state
from pbem.protocol.identity import Card, Keys
from pbem.protocol.turnfile import SignedFile

GENESIS = "pbem/v1/genesis"
ZERO32 = bytes(32)
# Strict dice by default: no roller can compute a roll before the action that
# uses it is signed. Window mode is an explicit option the joiner accepts.
DEFAULT_OPTIONS: dict[str, Any] = {"dice_depth": 13, "dice_window": 64, "strict_dice": True}
MIN_DEPTH = 4  # read_proposal refuses a shallower seed tree


def depth_for(rolls: int, nseats: int, options: dict[str, Any]) -> int:
    """The smallest seed-tree depth whose genesis trees hold ``rolls`` rolls of every seat, with a margin.

    ``rolls``: the rules' estimate (``RulesModule.dice_estimate``). The margin is
    a quarter more, plus the window that window mode releases ahead, and the
    trees must hold it before a new dice epoch falls due (past the middle of a
    tree, pbem.protocol.context.GameParams.trees_due), so a game that keeps to
    its estimate never needs one. Capped at the deepest tree a proposal may
    have: a longer game moves on to new epochs in play.
    """
    need = rolls + rolls // 4 + (0 if options.get("strict_dice", True) else int(options["dice_window"]))
    for depth in range(MIN_DEPTH, schema.MAX_DEPTH + 1):
        per = dice.per_epoch(depth, nseats)
        if per - per // 2 > need:
            return depth
    return schema.MAX_DEPTH


# Scenarios loaded in this process, by (rules, version, scenario): one load per command,
# where each proposal read (receive, load, join, audit) used to parse the scenario again.
_SCENARIOS: dict[tuple[str, str, str], rulesapi.Scenario] = {}


def load_scenario(rules: rulesapi.RulesModule, name: str) -> rulesapi.Scenario:
    """``rules.load_scenario(name)``, once per process (a scenario is never changed once loaded)."""
    key = (rules.name, rules.version, name)
    if key not in _SCENARIOS:
        _SCENARIOS[key] = rules.load_scenario(name)
    return _SCENARIOS[key]


@dataclass
class Constitution:
    """What the proposal fixes for the whole game."""

    proposal: SignedFile
    cards: dict[str, Card]
    options: dict[str, Any]
    _initial: tuple[Any, dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    _scenario: rulesapi.Scenario | None = field(default=None, repr=False, compare=False)

    def initial_state(self) -> tuple[Any, dict[str, Any]]:
        """The rules' starting (public, private by seat), a fresh copy each call.

        Computed once per constitution: loading (and hashing) the scenario is
        the costly part, and genesis, the start of play and the audit all need it.
        """
        if self._initial is None:
            public, private = self.rules.initial_state(self.scenario, {s: c.name for s, c in self.cards.items()},
                                                       self.options)
            # a rule changed by a later release keeps its old meaning in this release's games
            self._initial = self.rules.started_by(public, str(self.h["rules_version"])), private
        return copy.deepcopy(self._initial)

    @property
    def scenario(self) -> rulesapi.Scenario:
        """The scenario this pbem loads under the proposal's name (loaded once)."""
        if self._scenario is None:
            self._scenario = load_scenario(self.rules, self.h["scenario"])
        return self._scenario

    def sides_of(self, seat: str) -> tuple[str, ...]:
        return self.scenario.sides_of(seat)

    @property
    def game_id(self) -> bytes:
        return self.proposal.game

    @property
    def host(self) -> str:
        return self.proposal.author

    @property
    def seats(self) -> list[str]:
        return sorted(self.cards)

    @property
    def h(self) -> dict[str, Any]:
        return self.proposal.header

    @property
    def rules(self) -> rulesapi.RulesModule:
        return rulesapi.get(self.h["rules"])

    def seats_of(self, card: Card) -> tuple[str, ...]:
        """Every seat ``card`` holds, in seat order (several only where the scenario allows it)."""
        return tuple(s for s in self.seats if self.cards[s].fingerprint == card.fingerprint)

    def seat_of(self, card: Card) -> str | None:
        """The first seat ``card`` holds, or None."""
        mine = self.seats_of(card)
        return mine[0] if mine else None

    def players(self) -> dict[str, tuple[str, ...]]:
        """One entry per player (card): its first seat -> every seat it holds, in seat order."""
        out: dict[str, tuple[str, ...]] = {}
        for seat in self.seats:
            if not any(seat in held for held in out.values()):
                out[seat] = self.seats_of(self.cards[seat])
        return out

    def fellow_seats(self, seat: str) -> tuple[str, ...]:
        """The seats held by the player who holds ``seat`` (``seat`` included)."""
        return self.seats_of(self.cards[seat])

    def params(self, roots: dict[str, bytes]) -> GameParams:
        return GameParams(self.game_id, self.seats, roots, int(self.options["dice_depth"]),
                          int(self.options["dice_window"]), bool(self.options["strict_dice"]))


def dice_mode(options: dict[str, Any]) -> str:
    return "strict" if options.get("strict_dice", True) else "window"


def joins_release(con: Constitution) -> bool:
    """Whether a join carries seed releases: only when it fixes the last seed root.

    No seed of anyone may be visible to a seat before that seat's root is
    fixed, or it could grind its master until its own rolls suit it. With two
    seats the one join fixes the last root, so its releases are safe and save
    the host a dice-release file; with more, the joins may arrive in any
    order, so none of them releases and the first files after genesis do.
    """
    return len(con.cards) == 2


def initial_engine_state(con: Constitution) -> EngineState:
    """The engine state at genesis: nothing used or released, the rules' opening reservations."""
    est = new_engine_state(con.seats)
    if not con.options["strict_dice"]:
        return est
    rules = con.rules
    public, _ = con.initial_state()
    for seat, n in rules.initial_reservations(public).items():
        if seat not in con.cards or not isinstance(n, int) or not 0 <= n <= 1024:
            raise InvalidInput(f"rules {rules.name}: bad opening roll reservation {seat!r}: {n!r}")
        est["reserved"][seat] = n
    return est


def genesis_hash(proposal: SignedFile, joins: dict[str, SignedFile]) -> bytes:
    return lhash(GENESIS, proposal.hash, *[joins[s].hash for s in sorted(joins)])


def read_proposal(f: SignedFile) -> Constitution:
    """Check a proposal's structure, cards and host signature.

    Cheapest first, because anyone who can send mail can send a proposal:
    the seat count is capped, then only the host's card is decoded and the
    host's signature checked, and only then the other cards (each costs a
    key validation and a signature check).
    """
    if f.kind != "proposal" or f.seq != 0 or f.prev != ZERO32:
        raise InvalidInput("not a game proposal")
    raw_cards = f.header["cards"]
    schema.count(raw_cards, schema.MAX_SEATS, "proposal: seats")
    if len(raw_cards) < 2:
        raise InvalidInput("proposal: a game needs at least two seats")
    if f.author not in raw_cards:
        raise InvalidInput("proposal: the host holds no seat")
    for seat, raw in raw_cards.items():
        schema.as_bytes(raw, f"proposal: card for seat {seat[:schema.MAX_NAME]!r}", cap=schema.MAX_CARD)
    host = Card.from_bytes(raw_cards[f.author])
    f.verify_signature(host.signing_key)
    cards: dict[str, Card] = {s: (host if s == f.author else Card.from_bytes(raw)) for s, raw in raw_cards.items()}
    _check_shared_cards(f, cards)
    opts = dict(DEFAULT_OPTIONS)
    opts.update(f.header["options"])
    depth, window = opts["dice_depth"], opts["dice_window"]
    if not (type(depth) is int and MIN_DEPTH <= depth <= schema.MAX_DEPTH and type(window) is int
            and 1 <= window <= schema.MAX_WINDOW and isinstance(opts["strict_dice"], bool)):
        raise InvalidInput("proposal: dice options out of range")
    seatkey.check_option(opts, cards)
    seatkey.check_field(f.header, opts, sorted(cards), "proposal")
    return Constitution(f, cards, opts)


def _check_shared_cards(f: SignedFile, cards: dict[str, Card]) -> None:
    """Refuse a card holding several seats unless this pbem's copy of the scenario allows it.

    Checked by every tool that reads the proposal, against its own scenario
    (whose hash must be the proposal's), so the host cannot grant itself seats.
    """
    held: dict[str, int] = {}
    for c in cards.values():
        held[c.fingerprint] = held.get(c.fingerprint, 0) + 1
    most = max(held.values())
    if most == 1:
        return
    h = f.header
    try:
        scen = load_scenario(rulesapi.get(h["rules"]), h["scenario"])
    except PbemError:
        raise InvalidInput("proposal: one player card holds two seats, and this pbem cannot load "
                           f"scenario {h['scenario']!r} of {h['rules']!r} to check that it allows it") from None
    releases.check_scenario(rulesapi.get(h["rules"]), h, scen.digest)
    if most > scen.seats_per_player:
        raise InvalidInput(f"proposal: one player card holds {most} seats; scenario {scen.name} allows "
                           f"{scen.seats_per_player} per player",
                           hint="give every seat its own player's card" if scen.seats_per_player == 1 else
                           f"give no player more than {scen.seats_per_player} seats")


def check_local_rules(con: Constitution) -> None:
    """Refuse a game whose rules or scenario differ from what this pbem has."""
    h = con.h
    try:
        rules = rulesapi.get(h["rules"])
    except PbemError:
        raise Unsupported(f"this pbem has no rules module {h['rules']!r}",
                          hint="install the pbem release that the host uses") from None
    releases.check_rules(rules, h)  # its own rules, or a release it still plays (issue 16)
    scen = load_scenario(rules, h["scenario"])
    releases.check_scenario(rules, h, scen.digest)
    if dice_mode(con.options) not in rules.dice_modes:
        raise Unsupported(f"rules {rules.name} do not support {dice_mode(con.options)} dice")
    if sorted(scen.seats) != sorted(con.cards):
        raise InvalidInput(f"proposal seats {sorted(con.cards)} are not the scenario's {list(scen.seats)}")


def _escrow(ident: Keys, master: bytes, rng: Any) -> bytes:
    return age.encrypt(padding.pad(canonical.encode({"dice_master": master})), [ident.age_recipient], rng=rng)


def open_escrow(ident: Keys, blob: bytes) -> bytes:
    try:
        plain = padding.unpad(age.decrypt(blob, [ident.age_key()]), "the dice escrow")
        m = canonical.expect_map(canonical.decode(plain), "escrow")
    except age.NoMatchError:
        raise NotAddressedToYou("this seat's dice secret is sealed to another identity",
                                hint="open the game with the identity that joined it") from None
    except age.AgeError as e:
        raise InvalidInput(f"dice escrow is damaged: {e}") from None
    return bytes(schema.escrow(m, "dice escrow"))


def make_proposal(ident: Keys, *, rules_name: str, scenario: str, my_seat: str,
                  cards: dict[str, Card], options: dict[str, Any], rng: Any, now: int
                  ) -> bytes:
    """The host's proposal, signed by ``my_seat``. The host's other seats (where the scenario lets
    one player hold several) join like any other seat (pbem.play.game.create writes their joins)."""
    rules = rulesapi.get(rules_name)
    scen = load_scenario(rules, scenario)
    if my_seat not in cards:
        raise InvalidInput(f"you must take a seat: {my_seat!r} is not among {sorted(cards)}")
    if sorted(cards) != sorted(scen.seats):
        raise InvalidInput(f"scenario {scenario} has seats {', '.join(scen.seats)}; "
                           f"the proposal names {', '.join(sorted(cards))}",
                           hint="give one --seat SEAT=CARD per scenario seat")
    if cards[my_seat].fingerprint != ident.card().fingerprint:
        raise InvalidInput(f"seat {my_seat} must hold your own card")
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options)
    if not isinstance(opts["strict_dice"], bool):
        raise InvalidInput("strict_dice must be true or false")
    if "dice_depth" not in options:
        opts["dice_depth"] = estimated_depth(rules, scen, len(cards), opts)
    if dice_mode(opts) not in rules.dice_modes:
        raise Unsupported(f"rules {rules.name} do not support {dice_mode(opts)} dice",
                          hint=f"supported: {', '.join(rules.dice_modes)}")
    seatkey.check_option(opts, cards)
    game_id = rng(16)
    master = rng(32)
    tree = dice.SeedTree(master, game_id, my_seat, int(opts["dice_depth"]))
    header: dict[str, Any] = {
        "v": 1, "kind": "proposal", "game": game_id, "seq": 0, "prev": ZERO32,
        "author": my_seat, "time": now, "rules": rules.name, "rules_version": rules.version,
        "rules_hash": rules.rules_hash(), "scenario": scen.name, "scenario_hash": scen.digest,
        "cards": {s: c.to_bytes() for s, c in cards.items()}, "options": opts,
        "seed_root": tree.root, "escrow": _escrow(ident, master, rng),
    }
    if seatkey.enabled(opts):
        header["quorum"] = seatkey.make(master, game_id, my_seat, cards, rng)
    return turnfile.seal(header, ident.sign)


def estimated_depth(rules: rulesapi.RulesModule, scen: rulesapi.Scenario, nseats: int,
                    opts: dict[str, Any]) -> int:
    """The seed-tree depth for a proposal that sets none: from the rules' estimate, else the default."""
    rolls = rules.dice_estimate(scen)
    if rolls is None:
        return int(DEFAULT_OPTIONS["dice_depth"])
    if type(rolls) is not int or rolls < 0:
        raise InvalidInput(f"rules {rules.name}: bad dice estimate {rolls!r} for scenario {scen.name}")
    return depth_for(rolls, nseats, opts)


def joining_seats(con: Constitution, card: Card) -> tuple[str, ...]:
    """The seats ``card`` joins: every seat it holds but the host's (which joined by proposing)."""
    mine = con.seats_of(card)
    if not mine:
        raise NotAddressedToYou("your card holds no seat in this game",
                                hint="ask the host to propose the game with your card")
    return tuple(s for s in mine if s != con.host)


def make_join(ident: Keys, con: Constitution, *, rng: Any, now: int, seat: str | None = None) -> bytes:
    """A join for ``seat`` (default: the first seat this card joins). Each seat joins on its own,
    with its own dice master: one player's seats stay separate rollers (docs/protocol.md §6a)."""
    seats = joining_seats(con, ident.card())
    if seat is None:
        if not seats:
            raise StateError("the host joined by proposing; there is nothing to join")
        seat = seats[0]
    elif seat not in seats:
        raise NotAddressedToYou(f"your card holds no joining seat {seat!r} in this game")
    master = rng(32)
    depth = int(con.options["dice_depth"])
    tree = dice.SeedTree(master, con.game_id, seat, depth)
    params = con.params({seat: tree.root})
    releases = make_releases(params, initial_engine_state(con), tree, seat) if joins_release(con) else []
    header: dict[str, Any] = {
        "v": 1, "kind": "join", "game": con.game_id, "seq": 0, "prev": con.proposal.hash,
        "author": seat, "time": now, "seed_root": tree.root, "releases": releases,
        "escrow": _escrow(ident, master, rng),
    }
    if seatkey.enabled(con.options):
        header["quorum"] = seatkey.make(master, con.game_id, seat, con.cards, rng)
    return turnfile.seal(header, ident.sign)


def check_join(con: Constitution, f: SignedFile) -> None:
    if f.game != con.game_id:
        raise WrongGame("this join belongs to another game")
    if f.prev != con.proposal.hash:
        raise InvalidInput(f"{f.author}'s join answers a different proposal",
                           hint="the host may have re-proposed; ask for the current proposal")
    if f.author not in con.cards or f.author == con.host:
        raise InvalidInput(f"join from seat {f.author!r}, which is not a joining seat of this game")
    f.verify_signature(con.cards[f.author].signing_key)
    seatkey.check_field(f.header, con.options, con.seats, f"{f.author}'s join")
