"""Properties that must hold for any input, checked with generated data."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from planning import page_similarity, summarise_history, verdict_for
from planning.blocks import element_line
from verification import PageElement, PageState

_ROLES = st.sampled_from(["btn", "inp", "link", "chk", "sel"])
_NAMES = st.text(min_size=0, max_size=30)


@st.composite
def pages(draw: st.DrawFn) -> PageState:
    nodes = draw(st.lists(st.tuples(_ROLES, _NAMES), max_size=15))
    path = draw(st.sampled_from(["/a", "/b"]))
    tree = [{"i": str(i), "r": role, "n": name} for i, (role, name) in enumerate(nodes)]
    return PageState.from_v3(tree, url=f"https://x.example{path}")


@settings(max_examples=60, deadline=None)
@given(pages(), pages())
def test_similarity_is_bounded_and_symmetric(a: PageState, b: PageState) -> None:
    ab, ba = page_similarity(a, b), page_similarity(b, a)
    assert 0.0 <= ab.score <= 1.0
    assert abs(ab.score - ba.score) < 1e-9
    assert page_similarity(a, a).score == 1.0


@given(st.floats(0, 1), st.floats(0, 1), st.integers(0, 3), st.booleans())
def test_verdict_is_monotonic_in_score(low: float, high: float, retries: int, blocking: bool) -> None:
    low, high = min(low, high), max(low, high)
    rank = {"FAIL": 0, "RETRY": 1, "PASS": 2}
    assert rank[verdict_for(low, retries, blocking=blocking)] <= rank[verdict_for(high, retries, blocking=blocking)]
    assert rank[verdict_for(high, retries + 1, blocking=blocking)] <= rank[verdict_for(high, retries, blocking=blocking)]


@given(st.lists(st.sampled_from(["verified", "failed", None, "corrected"]), max_size=40), st.integers(0, 15))
def test_summary_window_accounts_for_every_action(verdicts: list[str | None], keep: int) -> None:
    actions = [(i, f'click("{i}")', v) for i, v in enumerate(verdicts)]
    window = summarise_history(actions, keep_last=keep)
    assert len(window.recent) == min(len(actions), keep)
    older = len(actions) - len(window.recent)
    assert (window.summary_line == "") is (older == 0)
    if older:
        assert window.summary_line.startswith(f"{older} earlier step")


@given(st.text(min_size=1, max_size=20), _NAMES, st.one_of(st.none(), _NAMES))
def test_element_lines_stay_one_line(element_id: str, name: str, value: str | None) -> None:
    line = element_line(PageElement(id=element_id, role="button", name=name, value=value))
    assert len(line.splitlines()) == 1
    assert line.startswith("[")
