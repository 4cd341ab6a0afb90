"""Player identities and player cards.

An identity is an Ed25519 signing key and an X25519 (age) key, kept in one
file encrypted with age's scrypt recipient (work factor 18 by default: about a
second to unlock, which makes guessing a stolen file's passphrase costly).

A player card is the public half: name, email, both public keys, self-signed.
Players compare card fingerprints (``SHA256:...``) out of band before a game;
after that every file is checked against the card recorded in the genesis.
"""

from __future__ import annotations

import base64
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pbem.crypto import age, ed25519
from pbem.errors import (
    AlreadyExists,
    AuthError,
    InvalidInput,
    NotFound,
    WeakKey,
    WrongPassphrase,
)
from pbem.formats import canonical
from pbem.formats.hashing import fingerprint, lhash
from pbem.formats.text import decode_text
from pbem.store.fsutil import atomic_write

CARD_SIG = "pbem/v1/card"
CARD_FPR = "pbem/v1/card-fingerprint"
CARD_BEGIN = "-----BEGIN PBEM PLAYER CARD-----"
CARD_END = "-----END PBEM PLAYER CARD-----"
MAX_CARD = 4096
IDENTITY_WORK_FACTOR = 18

Rng = Callable[[int], bytes]

# The X25519 public values of small order (and their non-canonical twins):
# a card carrying one would make every shared secret predictable.
_X25519_LOW_ORDER = {
    bytes(32),
    (1).to_bytes(32, "little"),
    bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
    bytes.fromhex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
}


def _x25519_public_bytes(recipient: str) -> bytes:
    from pbem.crypto.age import _bech32

    try:
        hrp, data = _bech32.decode(recipient)
    except age.AgeError as e:
        raise InvalidInput(f"bad age recipient: {e}") from None
    if hrp != "age" or len(data) != 32:
        raise InvalidInput("card's age key is not an X25519 age recipient")
    return data


def check_x25519_recipient(recipient: str) -> None:
    pub = _x25519_public_bytes(recipient)
    # Clearing the top bit maps non-canonical encodings onto the list above.
    masked = pub[:31] + bytes([pub[31] & 0x7F])
    if pub in _X25519_LOW_ORDER or masked in _X25519_LOW_ORDER:
        raise WeakKey("the card's age key is a low-order X25519 point")


@dataclass(frozen=True)
class Card:
    name: str
    email: str
    signing_key: bytes  # Ed25519 public key
    age_recipient: str  # age1...
    created: int
    body: bytes  # canonical bytes that were signed
    signature: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(lhash(CARD_FPR, self.body))

    @property
    def fingerprint_bytes(self) -> bytes:
        return lhash(CARD_FPR, self.body)

    def to_bytes(self) -> bytes:
        return canonical.encode({"body": self.body, "sig": self.signature})

    def to_text(self) -> str:
        b64 = base64.b64encode(self.to_bytes()).decode("ascii")
        lines = [b64[i : i + 64] for i in range(0, len(b64), 64)]
        return "\n".join(
            [f"# pbem player card: {self.name} <{self.email}>",
             f"# fingerprint: {self.fingerprint}", CARD_BEGIN, *lines, CARD_END]
        ) + "\n"

    @staticmethod
    def from_bytes(data: bytes) -> Card:
        if len(data) > MAX_CARD:
            raise InvalidInput("player card is too large")
        outer = canonical.expect_map(canonical.decode(data), "card")
        if set(outer) != {"body", "sig"}:
            raise InvalidInput("player card: unexpected fields")
        body = canonical.get(outer, "body", bytes, "card")
        sig = canonical.get(outer, "sig", bytes, "card")
        m = canonical.expect_map(canonical.decode(body), "card body")
        if m.get("v") != 1 or m.get("type") != "pbem-card":
            raise InvalidInput("not a pbem v1 player card")
        pub = canonical.get(m, "ed25519", bytes, "card")
        ed25519.validate_public_key(pub)
        recipient = canonical.get(m, "age", str, "card")
        check_x25519_recipient(recipient)
        if not ed25519.verify(pub, CARD_SIG.encode() + b"\x00" + body, sig):
            raise AuthError("player card signature is invalid",
                            hint="the card was altered; ask the player to send it again")
        return Card(
            name=canonical.get(m, "name", str, "card"),
            email=canonical.get(m, "email", str, "card"),
            signing_key=pub,
            age_recipient=recipient,
            created=canonical.get(m, "created", int, "card"),
            body=body,
            signature=sig,
        )

    @staticmethod
    def from_text(text: str | bytes) -> Card:
        if isinstance(text, bytes):
            # a card saved on Windows may carry CRLF, a BOM, or be UTF-16 (PowerShell's '>')
            text = decode_text(text, "player card")
        if CARD_BEGIN not in text or CARD_END not in text:
            raise InvalidInput("no PBEM PLAYER CARD block found",
                               hint="a card starts with " + CARD_BEGIN)
        inner = text.split(CARD_BEGIN, 1)[1].split(CARD_END, 1)[0]
        try:
            raw = base64.b64decode("".join(inner.split()), validate=True)
        except ValueError:
            raise InvalidInput("player card is not valid base64") from None
        return Card.from_bytes(raw)


class Keys(Protocol):
    """What a player's tools need of an unlocked identity: its public card, a signature, and
    the opening of files encrypted to it. ``Identity`` holds the secrets in this process; the
    key agent's ``AgentIdentity`` (pbem.protocol.keyagent) asks the one process that does."""

    @property
    def name(self) -> str: ...

    @property
    def email(self) -> str: ...

    @property
    def signing_key(self) -> bytes: ...

    @property
    def age_recipient(self) -> str: ...

    def sign(self, message: bytes) -> bytes: ...

    def age_key(self) -> age.Identity: ...

    def card(self) -> Card: ...


@dataclass(frozen=True)
class Identity:
    name: str
    email: str
    signing_seed: bytes
    age_identity: str
    created: int

    @property
    def signing_key(self) -> bytes:
        return ed25519.public_from_seed(self.signing_seed)

    @property
    def age_recipient(self) -> str:
        return age.x25519_recipient(self.age_identity)

    def sign(self, message: bytes) -> bytes:
        return ed25519.sign(self.signing_seed, message)

    def age_key(self) -> age.Identity:
        """What opens files encrypted to this player (``age.decrypt(data, [ident.age_key()])``)."""
        return age.parse_identity(self.age_identity)

    def card(self) -> Card:
        body = canonical.encode({
            "v": 1, "type": "pbem-card", "name": self.name, "email": self.email,
            "ed25519": self.signing_key, "age": self.age_recipient, "created": self.created,
        })
        sig = self.sign(CARD_SIG.encode() + b"\x00" + body)
        return Card(self.name, self.email, self.signing_key, self.age_recipient,
                    self.created, body, sig)

    def to_bytes(self) -> bytes:
        return canonical.encode({
            "v": 1, "type": "pbem-identity", "name": self.name, "email": self.email,
            "ed25519_seed": self.signing_seed, "age_identity": self.age_identity,
            "created": self.created,
        })

    @staticmethod
    def from_bytes(data: bytes) -> Identity:
        m = canonical.expect_map(canonical.decode(data), "identity")
        if m.get("v") != 1 or m.get("type") != "pbem-identity":
            raise InvalidInput("not a pbem v1 identity")
        seed = canonical.get(m, "ed25519_seed", bytes, "identity")
        if len(seed) != 32:
            raise InvalidInput("identity: signing seed must be 32 bytes")
        ident = Identity(
            name=canonical.get(m, "name", str, "identity"),
            email=canonical.get(m, "email", str, "identity"),
            signing_seed=seed,
            age_identity=canonical.get(m, "age_identity", str, "identity"),
            created=canonical.get(m, "created", int, "identity"),
        )
        age.x25519_recipient(ident.age_identity)  # raises on a malformed key
        return ident


def new_identity(name: str, email: str, *, rng: Rng | None = None,
                 now: Callable[[], float] | None = None) -> Identity:
    rng = rng or os.urandom
    if not name.strip() or "\n" in name or "\n" in email:
        raise InvalidInput("name and email must be non-empty single lines")
    return Identity(
        name=name.strip(), email=email.strip(), signing_seed=rng(32),
        age_identity=age.generate_x25519_identity(rng),
        created=int((now or time.time)()),
    )


# A few of the passphrases every guessing tool tries first (lowercase; compared
# after dropping trailing digits and punctuation, so "Password123!" matches).
COMMON_PASSPHRASES = frozenset("""
password passw0rd passwort motdepasse contrasena qwerty qwertz azerty qwertyuiop asdfgh asdfghjkl
zxcvbnm letmein iloveyou welcome admin administrator root login master secret monkey dragon
football baseball soccer hockey shadow sunshine princess superman batman trustno1 abc abcd abcdef
abc123 qazwsx whatever freedom starwars hello hellothere changeme default guest test test123
passphrase mypassword mypassphrase correcthorsebatterystaple pbem wargame
""".split())
MIN_PASSPHRASE = 12
STRONG_ONE_CLASS = 20  # a passphrase this long is strong even of one character class


def passphrase_warnings(passphrase: str) -> list[str]:
    """Why ``passphrase`` is weak (empty if it looks strong enough): advice, never a refusal."""
    out: list[str] = []
    core = passphrase.lower().rstrip("0123456789!?.,;:-_#*@$%& ")
    if passphrase.lower() in COMMON_PASSPHRASES or core in COMMON_PASSPHRASES:
        out.append("it is one of the passphrases every guessing tool tries first")
    if len(passphrase) < MIN_PASSPHRASE:
        out.append(f"it is shorter than {MIN_PASSPHRASE} characters")
    classes = {"lower" if ch.islower() else "upper" if ch.isupper() else "digit" if ch.isdigit() else "other"
               for ch in passphrase}
    if len(classes) == 1 and len(passphrase) < STRONG_ONE_CLASS:
        out.append("it uses one kind of character only (all lowercase, all digits, ...)")
    return out


def change_passphrase(path: Path, old: str, new: str, *, work_factor: int = IDENTITY_WORK_FACTOR,
                      rng: Rng | None = None) -> Identity:
    """Re-encrypt the identity at ``path`` under a new passphrase (the keys stay the same)."""
    if not new:
        raise InvalidInput("the new passphrase must not be empty")
    ident = load_identity(path, old)
    data = age.encrypt_with_passphrase(ident.to_bytes(), new, work_factor=work_factor, rng=rng)
    # atomic: a crash leaves the old file or the new one, never neither.
    atomic_write(path, data, mode=0o600)
    return ident


def save_identity(ident: Identity, path: Path, passphrase: str, *,
                  work_factor: int = IDENTITY_WORK_FACTOR, rng: Rng | None = None) -> None:
    if not passphrase:
        raise InvalidInput("the passphrase must not be empty")
    if path.exists():
        raise AlreadyExists(f"an identity already exists at {path}",
                        hint="use another --home, or move the existing identity away first")
    data = age.encrypt_with_passphrase(ident.to_bytes(), passphrase,
                                       work_factor=work_factor, rng=rng)
    atomic_write(path, data, mode=0o600, exclusive=True)


def load_identity(path: Path, passphrase: str) -> Identity:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise NotFound(f"no identity at {path}",
                       hint="create one with 'pbem key new --name NAME --email EMAIL'") from None
    if len(data) > 64 * 1024:
        raise InvalidInput(f"identity file {path} is too large to be a pbem identity")
    try:
        plain = age.decrypt_with_passphrase(data, passphrase)
    except age.NoMatchError:
        raise WrongPassphrase(f"wrong passphrase for {path}") from None
    except age.AgeError as e:
        raise InvalidInput(f"identity file {path} is corrupted: {e}",
                           hint="restore it from your backup; a damaged identity cannot be repaired") from None
    try:
        return Identity.from_bytes(plain)
    except InvalidInput as e:
        raise InvalidInput(f"identity file {path} is corrupted: {e}",
                           hint="restore it from your backup") from None

