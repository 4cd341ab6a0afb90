"""Canonical msgpack: the only bytes pbem hashes or signs.

msgpack itself promises no unique encoding of a value, so a signature over
"the msgpack of X" would be ambiguous. This profile makes it unique:

* maps have ``str`` keys only, sorted by their UTF-8 bytes, never duplicated;
* integers fit in int64 and use msgpack's smallest encoding;
* no floats (rules state must not depend on rounding), no ext types;
* text is ``str``, binary is ``bytes`` (bin family), arrays are lists.

``decode`` re-encodes what it parsed and refuses input whose bytes differ,
which catches unsorted or duplicate keys, non-minimal integers and any other
alternative encoding in one comparison.
"""

from __future__ import annotations

from typing import Any, Union

import msgpack

from pbem.errors import EncodingError

Value = Union[None, bool, int, str, bytes, list["Value"], dict[str, "Value"]]  # noqa: UP007

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_DEPTH = 64


def _normalize(obj: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise EncodingError("value nests deeper than 64 levels")
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, int):
        if not INT64_MIN <= obj <= INT64_MAX:
            raise EncodingError(f"integer {obj} does not fit in int64")
        return obj
    if isinstance(obj, (str, bytes)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [_normalize(x, depth + 1) for x in obj]
    if isinstance(obj, dict):
        for k in obj:
            if not isinstance(k, str):
                raise EncodingError(f"map key {k!r} is not a string")
        items = sorted(obj.items(), key=lambda kv: kv[0].encode("utf-8"))
        return {k: _normalize(v, depth + 1) for k, v in items}
    if isinstance(obj, float):
        raise EncodingError("floats are not allowed in canonical encoding")
    raise EncodingError(f"type {type(obj).__name__} cannot be encoded")


def encode(obj: Any) -> bytes:
    """Canonical bytes of ``obj`` (dicts, lists/tuples, str, bytes, int, bool, None)."""
    packed: bytes = msgpack.packb(_normalize(obj, 0), use_bin_type=True)
    return packed


def _no_ext(code: int, data: bytes) -> Any:
    raise EncodingError(f"msgpack extension type {code} is not allowed")


def _check(obj: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise EncodingError("value nests deeper than 64 levels")
    if isinstance(obj, float):
        raise EncodingError("floats are not allowed in canonical encoding")
    if isinstance(obj, list):
        for x in obj:
            _check(x, depth + 1)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(k, str):
                raise EncodingError(f"map key {k!r} is not a string")
            _check(v, depth + 1)


def decode(data: bytes, *, max_size: int = 64 * 1024 * 1024) -> Any:
    """Parse canonical bytes; raise EncodingError on anything else."""
    if not isinstance(data, (bytes, bytearray)):
        raise EncodingError("expected bytes")
    if len(data) > max_size:
        raise EncodingError(f"encoded value is {len(data)} bytes, more than the {max_size} allowed")
    try:
        obj = msgpack.unpackb(
            bytes(data),
            raw=False,
            use_list=True,
            strict_map_key=False,
            ext_hook=_no_ext,
        )
    except EncodingError:
        raise
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError, UnicodeDecodeError, RecursionError) as exc:
        raise EncodingError(f"not valid msgpack: {exc.__class__.__name__}") from None
    except Exception as exc:  # noqa: BLE001 - msgpack raises undocumented types on garbage
        raise EncodingError(f"not valid msgpack: {exc.__class__.__name__}") from None
    _check(obj, 0)
    try:
        again = encode(obj)
    except EncodingError:
        raise
    if again != bytes(data):
        raise EncodingError(
            "not canonical: keys unsorted or duplicated, or an integer or string not minimally encoded"
        )
    return obj


def expect_map(obj: Any, what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise EncodingError(f"{what}: expected a map")
    return obj


def get(m: dict[str, Any], key: str, typ: type | tuple[type, ...], what: str) -> Any:
    """Fetch a required field of a given type, with a precise error."""
    if key not in m:
        raise EncodingError(f"{what}: missing field {key!r}")
    v = m[key]
    if isinstance(v, bool) and typ is int:
        raise EncodingError(f"{what}: field {key!r} must be an integer")
    if not isinstance(v, typ):
        raise EncodingError(f"{what}: field {key!r} has the wrong type")
    return v
