"""Fingerprint a demo game's files: what each seat can decrypt, hashed, file by file.

Run the demo twice with the same injected randomness and clock, once before a
refactoring and once after, and compare the two outputs: the refactoring
changed no file's meaning when they are equal::

    PBEM_INSECURE_CLOCK=1796086926 .venv/bin/python -m pbem.cli.demo --out /tmp/fp/demo-out
    .venv/bin/python tools/demo_fingerprint.py /tmp/fp/demo-out > before.txt

The rules hash is left out, and so is everything that hashes over it: a file's
``prev`` (the previous file's hash), the attestation of the previous file, and
signatures. Everything else of the header is printed, and each encrypted blob
is printed as the SHA-256 of its unpadded plaintext for every seat that can
open it, with the state digest the public part claims.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from pbem.crypto import age
from pbem.formats import canonical, padding
from pbem.protocol import turnfile
from pbem.protocol.identity import Identity, load_identity

# Fields that bind the rules hash (directly or through a file hash or a signature).
SKIP = {"rules_hash", "prev", "prev_attest"}
BLOBS = {"public", "escrow"}


def _short(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()[:16]


def _open(blob: bytes, idents: dict[str, Identity]) -> str:
    for seat, ident in sorted(idents.items()):
        try:
            plain = padding.unpad(age.decrypt(blob, [ident.age_identity]), "blob")
        except age.AgeError:
            continue
        return f"plain={_short(plain)}(opened by {seat})"
    return f"sealed len={len(blob)}"


def _value(key: str, v: Any, idents: dict[str, Identity]) -> str:
    if key in BLOBS and isinstance(v, bytes):
        out = _open(v, idents)
        if key == "public" and out.startswith("plain="):
            for ident in idents.values():
                try:
                    part = canonical.decode(padding.unpad(age.decrypt(v, [ident.age_identity]), "public"))
                except age.AgeError:
                    continue
                return f"{out} digest={bytes(part['digest']).hex()[:16]} phase={part['phase']}"
        return out
    if key == "private" and isinstance(v, dict):
        return " ".join(f"{s}:{_open(b, {s: idents[s]} if s in idents else {})}" for s, b in sorted(v.items()))
    if isinstance(v, bytes):
        return v.hex()[:16]
    return _short(canonical.encode(v)) if isinstance(v, (dict, list)) else repr(v)


def main() -> None:
    out = Path(sys.argv[1])
    idents = {h.name: load_identity(h / "config" / "identity.age", f"demo passphrase of {h.name}")
              for h in sorted((out / "homes").iterdir()) if (h / "config" / "identity.age").exists()}
    for p in sorted((out / "files").glob("*.pbem"), key=lambda p: (p.name.split("-")[1], p.name)):
        f = turnfile.parse(p.read_bytes())
        fields = " ".join(f"{k}={_value(k, v, idents)}" for k, v in sorted(f.header.items()) if k not in SKIP)
        print(f"{p.name}: {fields}")


if __name__ == "__main__":
    main()
