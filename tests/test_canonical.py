from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.errors import EncodingError
from pbem.formats import canonical

scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text() | st.binary()
values = st.recursive(scalars, lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                      max_leaves=30)


@given(values)
def test_round_trip(v: Any) -> None:
    b = canonical.encode(v)
    assert canonical.decode(b) == v
    assert canonical.encode(canonical.decode(b)) == b


@given(st.dictionaries(st.text(), st.integers(0, 10), min_size=2))
def test_key_order_does_not_matter(d: dict[str, int]) -> None:
    rev = dict(reversed(list(d.items())))
    assert canonical.encode(d) == canonical.encode(rev)


def test_keys_sorted_bytewise_not_by_codepoint_order_of_python() -> None:
    # U+FF21 sorts after U+E000 both ways, but compare bytes vs str for surrogate-range chars
    d = {"\uffff": 1, "\U00010000": 2}
    b = canonical.encode(d)
    assert list(canonical.decode(b)) == ["\uffff", "\U00010000"]


@pytest.mark.parametrize("raw", [
    msgpack.packb({"b": 1, "a": 2}),  # unsorted
    b"\x82\xa1a\x01\xa1a\x02",  # duplicate key
    b"\xcd\x00\x01",  # uint16 holding 1: not minimal
    b"\xd0\x05",  # int8 holding 5: not minimal
    msgpack.packb(1.5),  # float
    msgpack.packb({1: 2}),  # non-string key
    b"\xd4\x01\x00",  # ext type
    b"\x01\x02",  # trailing data
    b"\xda\x00\x01a",  # str16 for a 1-byte string: not minimal
    b"\x92\x01",  # truncated
    b"\xc1",  # never used byte
])
def test_non_canonical_rejected(raw: bytes) -> None:
    with pytest.raises(EncodingError):
        canonical.decode(raw)


def test_encode_refuses() -> None:
    for bad in (1.0, 2**63, -(2**63) - 1, {1: 1}, object()):
        with pytest.raises(EncodingError):
            canonical.encode(bad)


def test_deep_nesting_refused() -> None:
    v: Any = []
    for _ in range(100):
        v = [v]
    with pytest.raises(EncodingError):
        canonical.encode(v)
    with pytest.raises(EncodingError):
        canonical.decode(b"\x91" * 100 + b"\xc0")
