from __future__ import annotations

import re
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.verification.support import html_page
from verification import SkeletonError, diff_skeletons, extract_semantic_skeleton
from verification.skeleton import Descriptor, make_skeleton


def skel(body: str):
    return extract_semantic_skeleton(html_page(body))


def test_identical_pages_have_no_changes() -> None:
    body = '<button id="s">Save</button><div role="alert">Hi</div>'
    assert diff_skeletons(skel(body), skel(body)) == []


def test_each_kind_of_line_in_the_documented_wording() -> None:
    before = skel(
        '<button id="s">Save</button><a id="old" href="/old">Old</a><div class="toast">Draft kept</div>'
    )
    after = skel(
        '<button id="s">Saved</button><a id="new" href="/new">New</a><div role="alert">Patient saved</div>'
    )
    assert diff_skeletons(before, after) == [
        "New message/alert appeared: 'Patient saved' (alert)",
        "Message/alert disappeared: 'Draft kept' (toast)",
        "Element 's' (button) changed 'text' from 'Save' to 'Saved'",
        "New element appeared: link 'New' (href '/new') (id 'new')",
        "Element disappeared: link 'Old' (href '/old') (id 'old')",
    ]


def test_state_changes_are_labelled_with_the_unchanged_text() -> None:
    before = skel('<button id="m" aria-expanded="false">Menu</button><input id="n" value="">')
    after = skel(
        '<button id="m" aria-expanded="true" disabled>Menu</button><input id="n" value="Jas">'
    )
    assert diff_skeletons(before, after) == [
        "Element 'm' (button 'Menu') changed 'disabled' from 'false' to 'true'",
        "Element 'm' (button 'Menu') changed 'ariaExpanded' from 'false' to 'true'",
        "Element 'n' (textbox) changed 'value' from '' to 'Jas'",
    ]


def test_values_are_quoted_on_one_line_and_truncated() -> None:
    long_text = "word " * 40
    before = skel('<textarea id="t"></textarea>')
    after = skel(f'<textarea id="t">{long_text}\nmore</textarea>')
    (line,) = diff_skeletons(before, after)
    new_value = re.search(r"to '(.*)'$", line).group(1)  # type: ignore[union-attr]
    assert len(new_value) <= 60 and new_value.endswith("…") and "\n" not in line


def test_a_new_toast_does_not_renumber_existing_messages() -> None:
    before = skel('<div class="toast">Copied</div>')
    after = skel('<div class="toast">Saved</div><div class="toast">Copied</div>')
    assert diff_skeletons(before, after) == ["New message/alert appeared: 'Saved' (toast)"]


def test_cap_keeps_the_most_relevant_and_counts_the_rest() -> None:
    before = skel(
        "".join(f'<a id="o{n}" href="/o{n}">Old {n}</a>' for n in range(30))
        + '<button id="s">Save</button>'
    )
    after = skel(
        '<div role="alert">Saved</div><button id="s">Saved</button>'
        + "".join(f'<a id="n{n}" href="/n{n}">New {n}</a>' for n in range(30))
    )
    lines = diff_skeletons(before, after, limit=10)
    assert len(lines) == 10
    assert lines[0] == "New message/alert appeared: 'Saved' (alert)"
    assert lines[1].startswith("Element 's'")
    assert lines[-1] == "… and 53 more changes"  # 62 changes, 9 shown


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        diff_skeletons(skel(""), skel(""), limit=0)


def test_different_sources_cannot_be_diffed() -> None:
    with pytest.raises(SkeletonError, match="cannot diff"):
        diff_skeletons(make_skeleton("v3", {}, {}), make_skeleton("html", {}, {}))


def test_malformed_skeletons_raise_skeleton_errors() -> None:
    with pytest.raises(SkeletonError):
        diff_skeletons({"elements": {}}, skel(""))


# ------------------------------------------------------------ properties

_fields = st.fixed_dictionaries(
    {},
    optional={
        "tag": st.sampled_from(["a", "button", "input"]),
        "role": st.sampled_from(["link", "button", "textbox"]),
        "text": st.text(max_size=12),
        "value": st.text(max_size=12),
        "href": st.text(max_size=8),
        "disabled": st.just(True),
        "ariaExpanded": st.sampled_from(["true", "false"]),
        "checked": st.just(True),
    },
)
_keys = st.text(alphabet="abcde123", min_size=1, max_size=3)
_kinds = st.sampled_from(["error", "success", "alert", "status", "toast"])


@st.composite
def skeletons(draw: st.DrawFn):
    elements = cast(dict[str, Descriptor], draw(st.dictionaries(_keys, _fields, max_size=8)))
    texts = draw(
        st.lists(
            st.tuples(_kinds, st.sampled_from(["Saved", "Oops", "Hi", "Required", "x"])), max_size=5
        )
    )
    messages = {f"{kind}:{n}": text for n, (kind, text) in enumerate(texts)}
    return make_skeleton("html", elements, messages)


def _mirror(line: str) -> str:
    if line.startswith("New element appeared: "):
        return "Element disappeared: " + line.removeprefix("New element appeared: ")
    if line.startswith("Element disappeared: "):
        return "New element appeared: " + line.removeprefix("Element disappeared: ")
    if line.startswith("New message/alert appeared: "):
        return "Message/alert disappeared: " + line.removeprefix("New message/alert appeared: ")
    if line.startswith("Message/alert disappeared: "):
        return "New message/alert appeared: " + line.removeprefix("Message/alert disappeared: ")
    match = re.fullmatch(r"(Element .* changed '\w+' from )('.*') to ('.*')", line)
    assert match, line
    return f"{match.group(1)}{match.group(3)} to {match.group(2)}"


@given(skeletons())
def test_identical_skeletons_produce_no_observations(skeleton) -> None:
    assert diff_skeletons(skeleton, skeleton) == []


@settings(max_examples=200)
@given(skeletons(), skeletons())
def test_diff_in_both_directions_mirrors(a, b) -> None:
    forward = diff_skeletons(a, b, limit=1000)
    backward = diff_skeletons(b, a, limit=1000)
    assert sorted(_mirror(line) for line in forward) == sorted(backward)


@given(skeletons(), skeletons(), st.integers(min_value=1, max_value=12))
def test_limit_is_respected(a, b, limit: int) -> None:
    full = diff_skeletons(a, b, limit=1000)
    capped = diff_skeletons(a, b, limit=limit)
    assert len(capped) == min(len(full), limit)
    if len(full) > limit:
        assert capped[:-1] == full[: limit - 1]
        assert capped[-1] == f"… and {len(full) - limit + 1} more changes"
    else:
        assert capped == full
