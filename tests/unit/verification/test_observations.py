from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from structlog.testing import capture_logs

from tests.unit.verification.support import URL, before_of, html_page, page_from_html, v3_page
from verification import BeforeState, ClientObservations, PageState, build_observation_list

FORM = '<form id="f"><input id="name" value=""><button id="save">Save</button></form><p class="clock">12:00</p>'


def test_url_change_and_no_change_lines() -> None:
    before = before_of(page_from_html(FORM))
    moved = build_observation_list(
        before, page_from_html(FORM, url="https://app.example.com/patients/7"), None
    )
    assert moved.url_changed
    assert moved.observations[0] == (
        "Navigation occurred: URL changed from 'https://app.example.com/patients' to 'https://app.example.com/patients/7'"
    )
    same = build_observation_list(before, page_from_html(FORM), None)
    assert not same.url_changed and same.observations[0] == "URL did not change"


@pytest.mark.parametrize(
    ("a", "b", "changed"),
    [
        ("https://X.com", "https://x.com/", False),
        ("https://x.com/a", "https://x.com/a#top", True),
        ("https://x.com/a?q=1", "https://x.com/a?q=2", True),
        (" https://x.com/a ", "https://x.com/a", False),
    ],
)
def test_url_comparison_ignores_only_browser_normalisation(a: str, b: str, changed: bool) -> None:
    page = page_from_html(FORM)
    before = BeforeState(url=a, dom_hash=page.dom_hash, skeleton=dict(page.skeleton))
    assert build_observation_list(before, page_from_html(FORM, url=b), None).url_changed is changed


def test_skeleton_changes_are_the_observations_and_are_meaningful() -> None:
    before = before_of(page_from_html(FORM))
    after = page_from_html(FORM.replace('value=""', 'value="Jas"'))
    result = build_observation_list(before, after, None)
    assert result.observations == [
        "URL did not change",
        "Element 'name' (textbox) changed 'value' from '' to 'Jas'",
    ]
    assert result.meaningful_content_change and result.compared_by == "skeleton"


def test_ticker_only_change_is_not_meaningful() -> None:
    before = before_of(page_from_html(FORM))
    after = page_from_html(
        FORM.replace("12:00", "12:01").replace("</form>", "</form><div class='ad'>Buy now</div>")
    )
    result = build_observation_list(before, after, None)
    assert result.observations == [
        "URL did not change",
        "Page content updated (DOM changed; no interactive element changes detected)",
    ]
    assert not result.meaningful_content_change and result.dom_changed


def test_identical_page() -> None:
    result = build_observation_list(before_of(page_from_html(FORM)), page_from_html(FORM), None)
    assert result.observations == [
        "URL did not change",
        "Page content did not change (no interactive element or alert changes)",
    ]
    assert not result.meaningful_content_change and not result.dom_changed


def test_without_a_stored_skeleton_the_hash_decides() -> None:
    page = page_from_html(FORM)
    before = BeforeState(url=URL, dom_hash=page.dom_hash, skeleton=None)
    ticker = page_from_html(FORM.replace("12:00", "12:01"))
    changed = build_observation_list(before, ticker, None)
    assert changed.observations == ["URL did not change", "Page content updated (DOM changed)"]
    assert changed.meaningful_content_change and changed.compared_by == "hash"
    same = build_observation_list(before, page, None)
    assert same.observations == [
        "URL did not change",
        "Page content did not change (DOM hash identical)",
    ]
    assert not same.meaningful_content_change


def test_hash_only_path_lists_the_alerts_on_the_page_as_context() -> None:
    page = page_from_html(FORM)
    before = BeforeState(url=URL, dom_hash=page.dom_hash, skeleton=None)
    after = page_from_html(FORM + '<div role="alert">Name is required</div>')
    assert (
        "Message/alert on page: 'Name is required' (error)"
        in build_observation_list(before, after, None).observations
    )


@pytest.mark.parametrize(
    "broken",
    [
        {"version": 99, "source": "html", "elements": {}, "messages": {}},
        {"elements": "x"},
        {"source": "html"},
    ],
)
def test_unreadable_skeleton_falls_back_to_the_hash(broken: dict) -> None:
    page = page_from_html(FORM)
    before = BeforeState(url=URL, dom_hash=page.dom_hash, skeleton=broken)
    after = page_from_html(FORM.replace("12:00", "12:01"))
    with capture_logs() as logs:
        result = build_observation_list(before, after, None)
    assert result.compared_by == "hash" and result.meaningful_content_change
    assert "Page content updated (DOM changed)" in result.observations
    assert "Page snapshot format changed" not in " ".join(result.observations)
    assert any(entry["event"] == "verification.skeleton_fallback" for entry in logs)


def test_skeleton_of_the_other_source_falls_back_to_the_hash() -> None:
    v3 = v3_page({"i": "1", "r": "btn", "n": "Save"})
    html = page_from_html('<button id="1">Save</button>')
    result = build_observation_list(before_of(v3), html, None)
    assert result.compared_by == "hash"
    assert (
        result.observations[1]
        == "Page snapshot format changed (v3 → html); compared by DOM hash only"
    )
    assert result.observations[2] == "Page content updated (DOM changed)"
    assert result.meaningful_content_change


def test_focus_changes_are_reported() -> None:
    before = before_of(
        v3_page(
            {"i": "1", "r": "inp", "n": "Name", "s": "focused"},
            {"i": "2", "r": "inp", "n": "Email"},
        )
    )
    after = v3_page(
        {"i": "1", "r": "inp", "n": "Name"}, {"i": "2", "r": "inp", "n": "Email", "s": "focused"}
    )
    assert (
        "Focus moved from element '1' to element '2'"
        in build_observation_list(before, after, None).observations
    )
    lost = v3_page({"i": "1", "r": "inp", "n": "Name"}, {"i": "2", "r": "inp", "n": "Email"})
    assert "Focus left element '1'" in build_observation_list(before, lost, None).observations


def test_focus_alone_is_not_a_meaningful_change() -> None:
    before = before_of(v3_page({"i": "1", "r": "inp", "n": "Name"}))
    after = v3_page({"i": "1", "r": "inp", "n": "Name", "s": "focused"})
    result = build_observation_list(before, after, None)
    assert "Focus moved to element '1'" in result.observations
    assert not result.meaningful_content_change


@pytest.mark.parametrize(
    ("client", "lines", "saw"),
    [
        (None, [], False),
        (ClientObservations(), [], False),
        (
            ClientObservations(did_network_occur=True),
            ["Background network activity detected"],
            True,
        ),
        (ClientObservations(did_dom_mutate=True), ["DOM was mutated"], True),
        (ClientObservations(did_url_change=True), ["Extension reported URL changed: true"], True),
        (
            ClientObservations(did_url_change=False),
            ["Extension reported URL changed: false"],
            False,
        ),
        (
            ClientObservations(did_network_occur=True, did_dom_mutate=True, did_url_change=False),
            [
                "Background network activity detected",
                "DOM was mutated",
                "Extension reported URL changed: false",
            ],
            True,
        ),
        (ClientObservations(did_network_occur=False, did_dom_mutate=False), [], False),
    ],
)
def test_client_witness_lines(
    client: ClientObservations | None, lines: list[str], saw: bool
) -> None:
    result = build_observation_list(before_of(page_from_html(FORM)), page_from_html(FORM), client)
    assert result.observations[2:] == lines
    assert result.client_saw_something is saw


def test_client_observations_accept_the_extension_field_names() -> None:
    client = ClientObservations.model_validate(
        {"didNetworkOccur": True, "didDomMutate": False, "didUrlChange": None}
    )
    assert (
        client.did_network_occur is True
        and client.did_dom_mutate is False
        and client.did_url_change is None
    )
    assert ClientObservations(did_dom_mutate=True).did_dom_mutate is True
    assert ClientObservations(did_dom_mutate=True).model_dump(by_alias=True) == {
        "didNetworkOccur": None,
        "didDomMutate": True,
        "didUrlChange": None,
    }


def test_extension_check_and_events_are_context_only() -> None:
    before = before_of(v3_page({"i": "1", "r": "btn", "n": "Save"}))
    after = v3_page(
        {"i": "1", "r": "btn", "n": "Save"},
        verification_passed=True,
        recent_events=["dialog opened"],
    )
    result = build_observation_list(before, after, None)
    assert (
        "Extension check of the action: passed (verification_passed: true)" in result.observations
    )
    assert "Recent page events: 'dialog opened'" in result.observations
    assert not result.meaningful_content_change


def test_observation_limit_caps_the_skeleton_lines() -> None:
    before = before_of(page_from_html(""))
    after = page_from_html("".join(f'<a id="l{n}" href="/{n}">L{n}</a>' for n in range(100)))
    result = build_observation_list(before, after, None, limit=5)
    assert len(result.observations) == 6 and result.observations[-1] == "… and 96 more changes"


def test_before_state_round_trips_through_json_and_legacy_names() -> None:
    page = page_from_html(FORM)
    stored = BeforeState.from_page(page).model_dump(mode="json")
    assert set(stored) == {"url", "dom_hash", "skeleton", "active_element"}
    assert BeforeState.model_validate(stored) == BeforeState.from_page(page)
    legacy = BeforeState.model_validate(
        {"url": URL, "domHash": "abc", "semanticSkeleton": None, "activeElement": "3"}
    )
    assert legacy.dom_hash == "abc" and legacy.active_element == "3"


def test_before_state_of_a_real_html_page_detects_the_change() -> None:
    html = html_page(FORM)
    before = BeforeState.from_page(PageState.from_html(html, url=URL))
    after = PageState.from_html(html.replace(">Save<", ">Saving…<"), url=URL)
    assert build_observation_list(before, after, None).observations[1] == (
        "Element 'save' (button) changed 'text' from 'Save' to 'Saving…'"
    )


_roles = st.sampled_from(["btn", "inp", "link", "chk", "sel", "alert", "tab"])
_nodes = st.lists(
    st.fixed_dictionaries(
        {"r": _roles, "n": st.text(max_size=15)},
        optional={
            "v": st.text(max_size=10),
            "s": st.sampled_from(["disabled", "checked,expanded", "focused"]),
        },
    ),
    max_size=12,
)


@given(_nodes, st.booleans())
def test_an_identical_page_never_yields_a_change(nodes: list[dict], has_errors: bool) -> None:
    tree = [{"i": str(n), **node} for n, node in enumerate(nodes)]
    before = PageState.from_v3(tree, url=URL, has_errors=has_errors)
    after = PageState.from_v3(tree, url=URL, has_errors=has_errors)
    result = build_observation_list(BeforeState.from_page(before), after, None)
    assert result.observations == [
        "URL did not change",
        "Page content did not change (no interactive element or alert changes)",
    ]
    assert not (
        result.meaningful_content_change or result.url_changed or result.client_saw_something
    )


def test_fallback_log_lines_carry_session_and_task() -> None:
    page = page_from_html(FORM)
    before = BeforeState(url=URL, dom_hash=page.dom_hash, skeleton={"version": 7})
    with capture_logs() as logs:
        build_observation_list(before, page, None, context={"session_id": "s", "task_id": "t"})
    (entry,) = [e for e in logs if e["event"] == "verification.skeleton_fallback"]
    assert entry["session_id"] == "s" and entry["task_id"] == "t"
