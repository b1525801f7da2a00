from __future__ import annotations

import pytest

from planning import KEEP_LAST, HistoryWindow, summarise_history


def _history(n: int, verdicts: list[str | None] | None = None) -> list[tuple[int, str, str | None]]:
    verdicts = verdicts or ["verified"] * n
    return [(i, f'click("{i}")', verdicts[i]) for i in range(n)]


def test_short_history_is_kept_whole() -> None:
    window = summarise_history(_history(3))
    assert window.summary_line == ""
    assert window.recent == ['step 0: click("0") — verified', 'step 1: click("1") — verified', 'step 2: click("2") — verified']
    assert window.as_text() == "\n".join(window.recent)


def test_exactly_keep_last_is_not_summarised() -> None:
    assert summarise_history(_history(KEEP_LAST)).summary_line == ""


def test_long_history_keeps_the_last_ten_raw() -> None:
    verdicts: list[str | None] = ["verified", "failed", "Success", None, "corrected", "FAILED"] + ["verified"] * 10
    window = summarise_history(_history(16, verdicts))
    assert window.summary_line == "6 earlier steps completed (2 verified, 2 failed)."
    assert len(window.recent) == 10
    assert window.recent[0].startswith("step 6:")
    assert window.as_text().splitlines()[0] == window.summary_line


def test_singular_and_unverified() -> None:
    window = summarise_history([(0, "wait(1)", None), (1, 'click("4")', None)], keep_last=1)
    assert window.summary_line == "1 earlier step completed (0 verified, 0 failed)."
    assert window.recent == ['step 1: click("4") — not verified yet']


def test_keep_last_zero_and_negative() -> None:
    window = summarise_history(_history(2), keep_last=0)
    assert window == HistoryWindow("2 earlier steps completed (2 verified, 0 failed).", [])
    assert window.as_text() == window.summary_line
    with pytest.raises(ValueError):
        summarise_history(_history(2), keep_last=-1)


def test_empty_history() -> None:
    window = summarise_history([])
    assert window == HistoryWindow("", [])
    assert window.as_text() == ""
