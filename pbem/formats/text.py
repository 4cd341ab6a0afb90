"""Text that a player's editor or shell wrote: orders, cards, passphrase files.

Windows tools write what Linux ones do not: CRLF line ends (Notepad), a UTF-8
byte order mark (older Notepad, many editors' "UTF-8 with BOM"), and UTF-16
with a BOM (Windows PowerShell 5's ``>``, so ``pbem orders template GAME >
orders.txt`` there). All of it is read as the same text a Linux editor would
have written; anything else that is not UTF-8 is refused with a hint, never
guessed (a wrong guess would change a unit's or a passphrase's letters).
"""

from __future__ import annotations

import codecs

from pbem.errors import InvalidInput

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode_text(data: bytes, what: str) -> str:
    """``data`` as text with LF line ends and no BOM; ``what`` names it in the refusal."""
    encoding = "utf-16" if data.startswith(_UTF16_BOMS) else "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InvalidInput(f"{what} is not UTF-8 text (byte {e.start} cannot be read)",
                           hint="save it as UTF-8 (in most editors: Save as..., Encoding: UTF-8)") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")
