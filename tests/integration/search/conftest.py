from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fake_tavily import TEST_API_KEY, FakeTavily


@pytest.fixture
def fake_tavily() -> Iterator[FakeTavily]:
    with FakeTavily(api_key=TEST_API_KEY) as server:
        yield server
