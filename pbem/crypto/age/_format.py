"""The age v1 header: strict parsing, canonical encoding and the header MAC.

The parser accepts exactly the ABNF of the spec and nothing else. Leniency
here would make files malleable: two different byte strings that parse to the
same header could be swapped without breaking the MAC check of a re-encoding
implementation. So we MAC the header bytes exactly as received, and reject
anything that does not re-encode to those same bytes (non-canonical base64,
padding, CR, empty or non-VCHAR arguments, over-long lines).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ._errors import HeaderError, HmacError

VERSION_LINE = b"age-encryption.org/v1"
_VERSION_PREFIX = b"age-encryption.org/"
_STANZA_PREFIX = b"-> "
_MAC_PREFIX = b"---"
_COLUMNS = 64
_MAC_B64_LEN = 43  # 32 bytes, unpadded
NONCE_SIZE = 16
FILE_KEY_SIZE = 16

_B64_ALPHABET = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)


def b64encode_raw(data: bytes) -> bytes:
    """Standard base64 without ``=`` padding."""
    return base64.b64encode(data).rstrip(b"=")


def b64decode_raw(text: bytes, what: str) -> bytes:
    """Decode canonical unpadded base64, raising :class:`HeaderError` otherwise.

    Canonical means the unused low bits of the last character are zero; the
    check is done by re-encoding, which also rejects every other way two
    strings could decode to the same bytes.
    """
    if any(c not in _B64_ALPHABET for c in text) or len(text) % 4 == 1:
        raise HeaderError(f"{what} is not valid unpadded base64")
    try:
        out = base64.b64decode(text + b"=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise HeaderError(f"{what} is not valid unpadded base64") from None
    if b64encode_raw(out) != text:
        raise HeaderError(f"{what} is not canonical base64")
    return out


@dataclass(frozen=True)
class Stanza:
    """One recipient stanza: its arguments (the first is the type) and body."""

    args: tuple[str, ...]
    body: bytes

    @property
    def type(self) -> str:
        return self.args[0]

    def encode(self) -> bytes:
        text = b64encode_raw(self.body)
        lines = [_STANZA_PREFIX + " ".join(self.args).encode("ascii")]
        lines += [text[i : i + _COLUMNS] for i in range(0, len(text), _COLUMNS)]
        if len(text) % _COLUMNS == 0:
            # The body always ends with a short line; when it is an exact
            # multiple of 64 columns (or empty), that line is empty.
            lines.append(b"")
        return b"\n".join(lines) + b"\n"


@dataclass(frozen=True)
class Header:
    """A parsed header. ``mac_input`` is the exact bytes the MAC covers."""

    stanzas: tuple[Stanza, ...]
    mac: bytes
    mac_input: bytes

    def encode(self) -> bytes:
        return self.mac_input + b" " + b64encode_raw(self.mac) + b"\n"


def _is_vchar_arg(arg: bytes) -> bool:
    return len(arg) > 0 and all(0x21 <= c <= 0x7E for c in arg)


def _header_mac(file_key: bytes, mac_input: bytes) -> hmac.HMAC:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"", info=b"header").derive(
        file_key
    )
    h = hmac.HMAC(key, hashes.SHA256())
    h.update(mac_input)
    return h


def encode_header(stanzas: list[Stanza], file_key: bytes) -> bytes:
    """Serialize a header and compute its MAC with ``file_key``."""
    mac_input = (
        VERSION_LINE + b"\n" + b"".join(s.encode() for s in stanzas) + _MAC_PREFIX
    )
    mac = _header_mac(file_key, mac_input).finalize()
    return Header(tuple(stanzas), mac, mac_input).encode()


def verify_header_mac(header: Header, file_key: bytes) -> None:
    """Raise :class:`HmacError` unless the header MAC matches ``file_key``."""
    try:
        # HMAC.verify compares in constant time.
        _header_mac(file_key, header.mac_input).verify(header.mac)
    except InvalidSignature:
        raise HmacError(
            "the header MAC does not match: the header was altered"
        ) from None


class _Lines:
    """Reads LF-terminated lines; a missing LF is a truncated header."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def next(self) -> bytes:
        end = self.data.find(b"\n", self.pos)
        if end < 0:
            raise HeaderError("the header is truncated (a line has no end)")
        line = self.data[self.pos : end]
        self.pos = end + 1
        return line


def _parse_stanza(arg_line: bytes, lines: _Lines) -> Stanza:
    args = arg_line[len(_STANZA_PREFIX) :].split(b" ")
    if not all(_is_vchar_arg(a) for a in args):
        raise HeaderError("a recipient stanza has an empty or non-printable argument")
    body_lines: list[bytes] = []
    while True:
        line = lines.next()
        if len(line) > _COLUMNS:
            raise HeaderError("a recipient stanza body line is longer than 64 columns")
        if any(c not in _B64_ALPHABET for c in line):
            raise HeaderError(
                "a recipient stanza body is not unpadded base64 (or lacks its final short line)"
            )
        body_lines.append(line)
        if len(line) < _COLUMNS:
            break
    body = b64decode_raw(b"".join(body_lines), "a recipient stanza body")
    return Stanza(tuple(a.decode("ascii") for a in args), body)


def parse_header(data: bytes) -> tuple[Header, bytes, bytes]:
    """Parse a binary age file into ``(header, payload nonce, encrypted payload)``."""
    lines = _Lines(data)
    if not data.startswith(_VERSION_PREFIX):
        raise HeaderError(
            "not an age file: it does not start with 'age-encryption.org/'"
        )
    version = lines.next()
    if version == VERSION_LINE + b"\r":
        raise HeaderError(
            "the header has CRLF line endings",
            hint="the file was converted as text in transit; send it as a binary attachment or armored",
        )
    if version != VERSION_LINE:
        raise HeaderError(
            "unsupported age format version (only age-encryption.org/v1 is supported)",
            hint="the file was made by a newer or different age implementation; ask for an age v1 file",
        )
    stanzas: list[Stanza] = []
    while True:
        start = lines.pos
        line = lines.next()
        if line.startswith(_STANZA_PREFIX):
            stanzas.append(_parse_stanza(line, lines))
        elif line.startswith(_MAC_PREFIX):
            break
        else:
            raise HeaderError(
                "a header line is neither a recipient stanza ('-> ') nor the MAC line ('--- ')"
            )
    if not stanzas:
        raise HeaderError("the header has no recipient stanzas")
    mac_input = data[: start + len(_MAC_PREFIX)]
    if len(line) != len(_MAC_PREFIX) + 1 + _MAC_B64_LEN or line[
        len(_MAC_PREFIX)
    ] != ord(" "):
        raise HeaderError("the header MAC line is malformed")
    mac = b64decode_raw(line[len(_MAC_PREFIX) + 1 :], "the header MAC")
    # The payload nonce is a fixed-size part of the file; a file too short to
    # hold it is truncated, not a payload authentication failure.
    nonce = data[lines.pos : lines.pos + NONCE_SIZE]
    if len(nonce) != NONCE_SIZE:
        raise HeaderError("the file is truncated: the payload nonce is missing")
    return Header(tuple(stanzas), mac, mac_input), nonce, data[lines.pos + NONCE_SIZE :]
