"""ASCII armor: strict PEM (RFC 7468, section 3, figure 3) with label
"AGE ENCRYPTED FILE".

Armored text passes through mail clients, so it is where a file is most easily
altered without anyone noticing. The decoder therefore accepts exactly one
encoding of any given bytes: 64-column lines, canonical padded base64, no PEM
headers, no blank or indented lines. The only tolerances, which the spec
allows and which do not change the decoded bytes, are LF or CRLF line endings
and whitespace before and after the PEM block.
"""

from __future__ import annotations

import base64
import binascii

from ._errors import ArmorError

BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
END = b"-----END AGE ENCRYPTED FILE-----"
_PEM_MARKER = b"-----BEGIN"
_COLUMNS = 64
_BYTES_PER_LINE = _COLUMNS // 4 * 3
_WHITESPACE = b" \t\r\n\v\f"
_BINARY_MAGIC = b"age-encryption.org/"


def armor(data: bytes) -> bytes:
    text = base64.b64encode(data)
    lines = [BEGIN]
    lines += [text[i : i + _COLUMNS] for i in range(0, len(text), _COLUMNS)]
    lines.append(END)
    return b"\n".join(lines) + b"\n"


def is_armored(data: bytes) -> bool:
    """Whether ``data`` should be read as armor rather than as a binary file.

    A binary age file always starts with ``age-encryption.org/``. Anything else
    that starts with a PEM dash run, or carries a PEM begin marker further on,
    is treated as armor, so that armor with leading garbage, a mangled begin
    line or a wrong label is reported as bad armor (and gets the armor hint)
    rather than as an unreadable binary header.
    """
    if data.startswith(_BINARY_MAGIC):
        return False
    return data.lstrip(_WHITESPACE).startswith(b"-----") or _PEM_MARKER in data


def _split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the final LF terminates the last line; it does not start a new one
    # CRLF is accepted as a line ending (the spec allows it); a CR anywhere
    # else remains in the line and makes it invalid.
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def _decode_line(line: bytes) -> bytes:
    if len(line) > _COLUMNS:
        raise ArmorError("an armor line is longer than 64 columns")
    if not line:
        raise ArmorError("the armor contains an empty line")
    try:
        out = base64.b64decode(line, validate=True)
    except (binascii.Error, ValueError):
        raise ArmorError("an armor line is not valid padded base64") from None
    # Re-encoding catches missing padding, non-zero unused bits and padding in
    # the middle: everything that would give the same bytes another spelling.
    if base64.b64encode(out) != line:
        raise ArmorError("an armor line is not canonical base64")
    return out


def dearmor(data: bytes) -> bytes:
    """Decode strict age ASCII armor; raise :class:`ArmorError` on any deviation."""
    lines = _split_lines(data)
    i = 0
    while i < len(lines) and not lines[i].strip(_WHITESPACE):
        i += 1
    if i == len(lines) or lines[i] != BEGIN:
        raise ArmorError(
            "the armor does not start with '-----BEGIN AGE ENCRYPTED FILE-----'"
        )
    i += 1
    out = bytearray()
    while True:
        if i == len(lines):
            raise ArmorError("the armor has no '-----END AGE ENCRYPTED FILE-----' line")
        line = lines[i]
        i += 1
        if line == END:
            break
        chunk = _decode_line(line)
        out += chunk
        if len(chunk) < _BYTES_PER_LINE:
            # Only the last line may be short, and it must be followed by END.
            if i == len(lines) or lines[i] != END:
                raise ArmorError("a short armor line is not followed by the end line")
            i += 1
            break
    if any(line.strip(_WHITESPACE) for line in lines[i:]):
        raise ArmorError("there is data after the end of the armor")
    return bytes(out)
