"""Properties of the rules both backends share (time, windows, search words)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from storage._common import iso, rate_window, search_terms, to_utc

aware = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(9999, 1, 1),
    timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=-7)), timezone(timedelta(hours=5, minutes=30))]
    ),
)


@given(aware, aware)
def test_iso_text_sorts_like_the_instants(a: datetime, b: datetime) -> None:
    assert (iso(a) < iso(b)) == (to_utc(a) < to_utc(b))
    assert len(iso(a)) == len("2026-01-02T03:04:05.678Z")
    assert datetime.fromisoformat(iso(a)) == to_utc(a)


@given(aware, st.integers(min_value=1, max_value=86_400))
def test_rate_window_contains_now_and_retry_after_is_in_range(now: datetime, window: int) -> None:
    w = rate_window(now, window)
    assert w.start <= to_utc(now).timestamp() < w.end == w.start + window
    assert w.start % window == 0
    assert 1 <= w.retry_after_seconds <= window


@given(st.text())
def test_search_terms_are_plain_distinct_words(query: str) -> None:
    terms = search_terms(query)
    assert len(terms) == len(set(terms)) <= 32
    for term in terms:
        assert term and all(ch.isalnum() or ch == "_" for ch in term)
        assert '"' not in term and "-" not in term and ":" not in term
