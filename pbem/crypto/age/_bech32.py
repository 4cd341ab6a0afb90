"""Bech32 (BIP 173) without the 90-character length limit, as age uses it.

Only the original Bech32 checksum constant is used (not Bech32m): age keys are
Bech32. The checksum is always computed over the lowercase form; a string is
valid only if it is entirely lowercase or entirely uppercase.
"""

from __future__ import annotations

from ._errors import KeyFormatError

_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_CHARSET_REV = {c: i for i, c in enumerate(_CHARSET)}
_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _polymod(values: list[int]) -> int:
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i, g in enumerate(_GENERATOR):
            if (top >> i) & 1:
                chk ^= g
    return chk


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convert_bits(
    data: bytes | list[int], from_bits: int, to_bits: int, pad: bool
) -> list[int]:
    acc = 0
    bits = 0
    out: list[int] = []
    maxv = (1 << to_bits) - 1
    for value in data:
        acc = (acc << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (to_bits - bits)) & maxv)
    elif bits >= from_bits or (acc << (to_bits - bits)) & maxv:
        # Leftover bits must be fewer than a whole input group and all zero;
        # otherwise two strings would decode to the same key.
        raise KeyFormatError("invalid Bech32 padding")
    return out


def encode(hrp: str, data: bytes) -> str:
    """Encode ``data`` under ``hrp``; an uppercase ``hrp`` gives an all-uppercase string."""
    upper = hrp.isupper()
    low_hrp = hrp.lower()
    values = _convert_bits(data, 8, 5, pad=True)
    poly = _polymod(_hrp_expand(low_hrp) + values + [0] * 6) ^ 1
    checksum = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    text = low_hrp + "1" + "".join(_CHARSET[v] for v in values + checksum)
    return text.upper() if upper else text


def decode(text: str) -> tuple[str, bytes]:
    """Decode a Bech32 string and return ``(lowercase hrp, data)``."""
    if not text.isascii() or any(ord(c) < 33 or ord(c) > 126 for c in text):
        raise KeyFormatError("key contains characters that are not printable ASCII")
    if text.lower() != text and text.upper() != text:
        raise KeyFormatError("key mixes uppercase and lowercase letters")
    low = text.lower()
    pos = low.rfind("1")
    if pos < 1 or pos + 7 > len(low):
        raise KeyFormatError(
            "key is not a Bech32 string (separator or checksum missing)"
        )
    hrp = low[:pos]
    try:
        values = [_CHARSET_REV[c] for c in low[pos + 1 :]]
    except KeyError:
        raise KeyFormatError(
            "key contains a character outside the Bech32 alphabet"
        ) from None
    if _polymod(_hrp_expand(hrp) + values) != 1:
        raise KeyFormatError("key checksum is wrong (a character was mistyped or lost)")
    data = bytes(_convert_bits(values[:-6], 5, 8, pad=False))
    return hrp, data
