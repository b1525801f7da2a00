"""Request bodies: orjson on the fast path, the standard library for lone surrogates."""

from __future__ import annotations

import json
import math

import pytest

from app.json_body import REPLACEMENT, decode_json


def test_a_well_formed_body_decodes_as_the_standard_library_would() -> None:
    body = json.dumps({"url": "https://x.example/é", "tree": [{"i": 1, "xy": [1.5, 2]}], "ok": True, "none": None}).encode()
    assert decode_json(body) == json.loads(body)


def test_lone_surrogates_anywhere_become_the_replacement_character() -> None:
    body = b'{"a": "x\\ud83d", "\\udc00k": ["\\ud800", {"b": "\\ud83d\\ude00 pair"}], "n": 3}'
    decoded = decode_json(body)
    assert decoded == {"a": "x" + REPLACEMENT, REPLACEMENT + "k": [REPLACEMENT, {"b": "\U0001f600 pair"}], "n": 3}
    json.dumps(decoded).encode("utf-8")  # every string is valid Unicode again


def test_what_only_the_standard_library_reads_still_decodes() -> None:
    assert math.isnan(decode_json(b'{"v": NaN}')["v"])
    assert decode_json(b"[18446744073709551616]") == [2**64]


@pytest.mark.parametrize("body", [b'{"url": ', b"", b"{'single': 1}", b'{"a": "\\ud83d"'])
def test_invalid_json_raises_the_error_fastapi_turns_into_400(body: bytes) -> None:
    with pytest.raises(json.JSONDecodeError):
        decode_json(body)
