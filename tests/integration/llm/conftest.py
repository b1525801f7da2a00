from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fake_gemini import FakeGemini


@pytest.fixture
def fake_gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server
    assert server.unscripted == 0, f"{server.unscripted} requests had no scripted reply"
