"""A node's ``f`` is its frame's id-prefix number — the same number the extension gives it —
not the frame's place in the browser's frame list (which counts cross-origin frames too)."""

from __future__ import annotations

from client.snapshot import _frame_number


def test_the_main_frame_is_zero() -> None:
    assert _frame_number("") == 0


def test_a_child_frame_is_its_prefix_number() -> None:
    assert _frame_number("f1-") == 1
    assert _frame_number("f12-") == 12
