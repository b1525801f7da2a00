from __future__ import annotations

import json

import pytest

from tests.unit.verification.support import html_page
from verification import SkeletonError, extract_semantic_skeleton
from verification.skeleton import validate_skeleton


def skeleton_of(body: str) -> dict:
    return dict(extract_semantic_skeleton(html_page(body)))


def test_shape_is_json_and_versioned() -> None:
    skeleton = skeleton_of('<button id="s">Save</button><div role="alert">Name is required</div>')
    assert json.loads(json.dumps(skeleton)) == skeleton
    assert skeleton == {
        "version": 1,
        "source": "html",
        "elements": {"s": {"tag": "button", "role": "button", "text": "Save"}},
        "messages": {"error:0": "Name is required"},
    }


def test_descriptor_fields() -> None:
    skeleton = skeleton_of(
        '<a id="l" href="/patients">Patients</a>'
        '<input id="n" value="Jas" disabled>'
        '<button id="m" aria-expanded="false">Menu</button>'
        '<input id="c" type="checkbox" checked>'
        '<button id="long">' + "x" * 80 + "</button>"
        '<button id="ws">   Save\n   draft   </button>'
    )
    elements = skeleton["elements"]
    assert elements["l"] == {"tag": "a", "role": "link", "text": "Patients", "href": "/patients"}
    assert elements["n"] == {"tag": "input", "role": "textbox", "value": "Jas", "disabled": True}
    assert elements["m"] == {
        "tag": "button",
        "role": "button",
        "text": "Menu",
        "ariaExpanded": "false",
    }
    assert elements["c"] == {"tag": "input", "role": "checkbox", "checked": True}
    assert len(elements["long"]["text"]) == 50
    assert elements["ws"]["text"] == "Save draft"


def test_interactive_elements_include_aria_widgets() -> None:
    skeleton = skeleton_of(
        '<div id="b" role="button">B</div><span id="l" role="link">L</span><li id="m" role="menuitem">M</li>'
        '<div id="c" role="checkbox">C</div><div id="t" role="tab">T</div><div id="o" role="option">O</div>'
        '<div id="n" role="navigation">not interactive</div><p id="p">plain</p>'
    )
    assert list(skeleton["elements"]) == ["b", "l", "m", "c", "t", "o"]


@pytest.mark.parametrize(
    ("markup", "kind"),
    [
        ('<div role="alert">Oops</div>', "alert"),
        ('<div role="alertdialog">Really delete?</div>', "alert"),
        ('<div role="status">Saved</div>', "status"),
        ('<div aria-live="assertive">Session expires soon</div>', "alert"),
        ('<div class="toast">Copied</div>', "toast"),
        ("<div data-toast>Copied</div>", "toast"),
        ('<span class="error">Required</span>', "error"),
        ('<span class="success">Done</span>', "success"),
        ('<div class="alert">Notice</div>', "alert"),
        ('<div class="alert alert-danger">Failed</div>', "error"),
        ('<div role="alert" class="toast-success">Saved</div>', "success"),
    ],
)
def test_messages_and_their_kinds(markup: str, kind: str) -> None:
    messages = skeleton_of(markup)["messages"]
    assert list(messages) == [f"{kind}:0"]


def test_polite_live_regions_are_not_messages() -> None:
    # aria-live="polite" is used for tickers and counters; only assertive ones are alerts
    assert skeleton_of('<div aria-live="polite">12:01</div>')["messages"] == {}


def test_nested_empty_and_hidden_messages_are_skipped() -> None:
    messages = skeleton_of(
        '<div class="alert"><div role="alert">Card declined</div></div>'
        '<div role="alert"></div>'
        '<div class="error" style="display:none">Email is invalid</div>'
        '<div hidden><p class="error">Hidden error</p></div>'
    )["messages"]
    assert messages == {"error:0": "Card declined"}  # an alert that reports a failure is an error


def test_hidden_elements_are_left_out_so_showing_them_reads_as_appearing() -> None:
    before = skeleton_of('<div id="modal" hidden><button id="ok">OK</button></div>')
    after = skeleton_of('<div id="modal"><button id="ok">OK</button></div>')
    assert "ok" not in before["elements"] and "ok" in after["elements"]


# ------------------------------------------------------------ positional keys


def test_positional_keys_use_the_nearest_ancestor_id() -> None:
    skeleton = skeleton_of(
        '<nav id="top"><a href="/a">A</a><a href="/b">B</a></nav><main><button>Go</button></main>'
    )
    assert list(skeleton["elements"]) == ["#top a:0", "#top a:1", "button:0"]


def test_positional_keys_survive_an_insertion_elsewhere() -> None:
    body = '<nav id="top"><a href="/a">A</a></nav><form id="f"><button>Save</button><button>Cancel</button></form>'
    before = skeleton_of(body)
    after = skeleton_of(
        body.replace('<nav id="top">', '<nav id="top"><a href="/new">New</a>').replace(
            "<form", "<p>promo</p><button>Ad</button><form"
        )
    )
    for key in ("#f button:0", "#f button:1"):
        assert before["elements"][key] == after["elements"][key]


def test_positional_keys_survive_a_label_change() -> None:
    before = skeleton_of('<form id="f"><button>Save</button></form>')
    after = skeleton_of('<form id="f"><button>Saved</button></form>')
    assert before["elements"].keys() == after["elements"].keys()


def test_positional_keys_count_hidden_elements_so_showing_one_shifts_nothing() -> None:
    before = skeleton_of('<form id="f"><button hidden>Undo</button><button>Save</button></form>')
    after = skeleton_of('<form id="f"><button>Undo</button><button>Save</button></form>')
    assert before["elements"]["#f button:1"] == after["elements"]["#f button:1"]


def test_stable_keys_are_not_counted_in_positions() -> None:
    before = skeleton_of('<div id="d"><button>One</button></div>')
    after = skeleton_of('<div id="d"><button id="new">New</button><button>One</button></div>')
    assert before["elements"]["#d button:0"] == after["elements"]["#d button:0"]


# ------------------------------------------------------------ parser edge cases


def test_noscript_content_is_text_not_elements() -> None:
    # Parsed with scripting on, as the browser that produced the snapshot did.
    skeleton = skeleton_of(
        '<noscript><a href="/nojs">Use basic site</a><div role="alert">Enable JS</div></noscript>'
    )
    assert skeleton["elements"] == {} and skeleton["messages"] == {}


def test_template_content_is_not_part_of_the_page() -> None:
    skeleton = skeleton_of(
        '<template id="row"><button>Delete</button><div class="error">x</div></template>'
    )
    assert skeleton["elements"] == {} and skeleton["messages"] == {}


def test_malformed_markup_is_repaired_like_a_browser() -> None:
    skeleton = skeleton_of(
        '<div><button id="a">Unclosed<div><span></a><a id="b" href="/b">B</p></div>'
    )
    assert set(skeleton["elements"]) == {"a", "b"}
    assert skeleton["elements"]["b"]["href"] == "/b"


def test_nested_links_become_siblings_like_in_a_browser() -> None:
    skeleton = skeleton_of(
        '<a id="outer" href="/o">Outer <a id="inner" href="/i">Inner</a> tail</a>'
    )
    elements = skeleton["elements"]
    assert elements["outer"]["text"] == "Outer"
    assert elements["inner"]["text"] == "Inner"


def test_uppercase_markup() -> None:
    skeleton = skeleton_of('<BUTTON ID="X" DISABLED>Go</BUTTON>')
    assert skeleton["elements"]["X"] == {
        "tag": "button",
        "role": "button",
        "text": "Go",
        "disabled": True,
    }


def test_empty_document() -> None:
    assert extract_semantic_skeleton("")["elements"] == {}


# ------------------------------------------------------------ validation


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "must be an object"),
        (
            {"version": 0, "source": "html", "elements": {}, "messages": {}},
            "unsupported skeleton version",
        ),
        ({"version": 1, "source": "pdf", "elements": {}, "messages": {}}, "source must be"),
        (
            {"version": 1, "source": "html", "elements": [], "messages": {}},
            "'elements' must be an object",
        ),
        (
            {"version": 1, "source": "html", "elements": {"a": "b"}, "messages": {}},
            "must map its key to an object",
        ),
        (
            {"version": 1, "source": "html", "elements": {}, "messages": {"a": 1}},
            "must map its key to text",
        ),
        ({"version": 1, "source": "html", "elements": {}}, "'messages' must be an object"),
    ],
)
def test_validation_explains_what_is_wrong(value: object, message: str) -> None:
    with pytest.raises(SkeletonError, match=message):
        validate_skeleton(value)


def test_odd_field_values_in_a_stored_skeleton_still_diff() -> None:
    # Field values are compared and rendered as text, so a stored number cannot crash a diff.
    from verification import diff_skeletons

    old = {"version": 1, "source": "html", "elements": {"a": {"text": 3}}, "messages": {}}
    new = {"version": 1, "source": "html", "elements": {"a": {"text": "3 items"}}, "messages": {}}
    assert diff_skeletons(old, new) == ["Element 'a' changed 'text' from '3' to '3 items'"]
