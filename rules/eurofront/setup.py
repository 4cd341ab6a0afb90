"""Set-up: the historical deployment as public tokens and private identities, and the seal.

``initial_state`` is computed alike by every tool from public files, so it cannot hide which
token is which unit: every token starts bound to the units of its hex in a fixed order. Each
seat's first file (``seal``) shuffles its blocks within each hex with secret rolls and commits
to every block's identity (``ctx.commit``; the ref is public). From then on only the owner
knows which of its blocks in a hex is which, and an opening (``ctx.open``) is checked against
the commitment by every other tool.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import InvalidInput

from . import assign, placement, sealed_place
from . import state as st
from .data import SEATS, Board, ScwData

PREFIX = {"nationalists": "n", "republicans": "r"}


def blank_public(scenario: str) -> dict[str, Any]:
    return {"scenario": scenario, "month": "1936-07", "fortnight": 1, "turn": 1, "last": "1939-05",
            "phase": "seal", "active": SEATS[0], "over": None, "weather": "dry", "weather_dice": [], "shuffle": True,
            "sealed": [], "blocks": {}, "hqs": {}, "command": [], "moved": [], "crossed": {}, "battles": {},
            "active_battles": [], "airstrikes": {}, "partial": {}, "losses": {}, "retreats": {},
            "railheads": {s: [] for s in SEATS}, "produced": "1936-07", "pp": {}, "saved": {}, "production_refs": {},
            "aid": {"french": 2, "soviet": 1}, "arrived": [], "tokens": {}, "removed": {},
            "setup": "historical", "militia": {}, "placing": {}, "placed_file": 0, "morocco": 0, "last_placer": None,
            "recognition": {"tried": {}, "try": None}, "garrisons": {}, "v2": True}


def add_block(public: dict[str, Any], private: dict[str, Any], token: str, side: str, hex_: str,
              ident: dict[str, Any]) -> None:
    public["blocks"][token] = {"side": side, "hex": hex_, "ref": None, "lost": 0, "up": False,
                               "opened": None, "trail": []}
    private[side]["blocks"][token] = dict(ident)


def initial_state(data: ScwData, setup: str, option: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The set-up modes of the seed (placement.py): every unit at its O/B location (historical);
    infantry and HQs there, militia by Random Militia Deployment in each seal (semi-historical);
    infantry and HQs placed in turn, one a file, then the militia (free)."""
    if setup not in ("historical", "semi-historical", "free"):
        raise InvalidInput(f"set-up {setup!r} is not one of the SCW's",
                           hint="option setup=historical, semi-historical or free")
    if option is not None and (option != "sealed-free" or setup != "free"):
        raise InvalidInput(f"set-up option {option!r} is not one of the SCW's",
                           hint="setup-option=sealed-free, with setup=free (sealed_place.py)")
    public = blank_public(data.name)
    public["setup"], public["ob"] = setup, True  # every identity is a unit of the O/B (assign.py)
    private: dict[str, Any] = {s: {"blocks": {}} for s in SEATS}
    for side in SEATS:
        kinds = ("placed", "militia") if setup == "historical" else ("placed",)
        units = sorted((u for u in data.units if u.side == side and u.setup in kinds and u.at),
                       key=lambda u: (data.board.places[u.at or ""].hex, u.uid))
        if setup == "free":
            private[side]["pool"] = placement.free_pool(data, side)
            public["placing"][side] = len(units)
            units = []
        for i, u in enumerate(units, start=1):
            ident = {"unit": u.uid, "type": u.type, "nation": u.nation, "cv": u.cv, "max": u.max}
            add_block(public, private, f"{PREFIX[side]}{i}", side, data.board.places[u.at or ""].hex, ident)
        if setup != "historical":
            first = 1 + len(units) + public["placing"].get(side, 0)
            militia = sorted((u for u in data.units if u.side == side and u.setup == "militia"), key=lambda u: u.uid)
            public["militia"][side] = [f"{PREFIX[side]}{first + k}" for k in range(len(militia))]
            for tok, u in zip(public["militia"][side], militia, strict=True):
                private[side]["blocks"][tok] = {"unit": u.uid, "type": u.type, "nation": u.nation, "cv": u.cv,
                                                "max": u.max}
    if setup == "free":
        public["phase"], public["shuffle"] = "place", False  # each identity is chosen in secret
        public["morocco"] = len(placement.morocco_units(data, SEATS[0]))
        if option == "sealed-free":  # each side seals its whole placement in one file
            public["sealed_free"], public["place_refs"] = True, {}
    public["weather"] = st.weather_for(public["month"])
    public["railheads"] = initial_railheads(data.board)
    if "1" not in data.rules:  # 8.36 Control by Isolation: replaced by SCW 1 where it applies
        public["isolation"] = True
    return public, private


def initial_railheads(board: Board) -> dict[str, list[str]]:
    """SCW Historical Game: "Railhead markers are placed in friendly controlled ports and French
    border hexes, Bayonne and Perpignan" (the French border: the Republicans' French Aid, SCW 3)."""
    out: dict[str, list[str]] = {s: [] for s in SEATS}
    for p in {p.hex: p for p in board.places.values()}.values():
        if p.port and p.loyal in out and p.country in board.playable:
            out[p.loyal].append(p.hex)
        if p.border_rail:
            out["republicans"].append(p.hex)
    return {s: sorted(set(v)) for s, v in out.items()}


def groups(public: dict[str, Any], seat: str) -> list[list[str]]:
    """The seat's tokens by hex (hexes sorted, tokens in token order): what the seal shuffles."""
    hexes = sorted({b["hex"] for b in public["blocks"].values() if b["side"] == seat})
    return [st.blocks_at(public, h, seat) for h in hexes]


def shuffle_rolls(public: dict[str, Any], seat: str) -> int:
    """The seal's rolls: the secret shuffle, then the public militia dice (over-reserved)."""
    shuffle = sum(len(g) - 1 for g in groups(public, seat)) if public["shuffle"] else 0
    return shuffle + placement.militia_rolls(public, seat)


def seal(env: Any) -> None:
    """Shuffle within each hex (Fisher-Yates on secret rolls), then commit to each identity."""
    pub, seat = env.public, env.seat
    if sealed_place.on(pub) and pub["placing"].get(seat):
        sealed_place.open_placement(env)  # both placements were sealed before either is opened
    mine = env.private["blocks"] if env.private is not None else None
    if pub["shuffle"]:
        for g in groups(pub, seat):
            for i in range(len(g) - 1, 0, -1):
                roll = env.ctx.secret_roll(i + 1, f"seal {seat} {pub['blocks'][g[0]]['hex']}")
                if mine is not None and roll.values is not None:
                    j = roll.values[0] - 1
                    mine[g[i]], mine[g[j]] = mine[g[j]], mine[g[i]]
    assign.check_totals(env)  # 22.2: the author's tool, before committing the CVs
    placement.place_militia(env)
    tokens = sorted((t for t, b in pub["blocks"].items() if b["side"] == seat), key=st.token_key)
    for t in tokens:
        value = {"token": t, **mine[t]} if mine is not None else None
        pub["blocks"][t]["ref"] = env.ctx.commit("block", value, t)
    pub["sealed"].append(seat)
    env.ctx.event("sealed", side=seat, blocks=len(tokens))
