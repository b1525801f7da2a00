from __future__ import annotations

import json
from typing import Any

import pytest

from tests.unit.verification.support import URL, html_page, page_from_html, v3_page
from verification import PageElement, PageInputError, PageMessage, PageState, dom_hash

# ---------------------------------------------------------------- V3 tree


def test_v3_minified_keys_become_full_elements() -> None:
    page = v3_page(
        {"i": "12", "r": "link", "n": "Gmail", "xy": [900, 20]},
        {"i": 14, "r": "inp", "n": "Search", "v": "", "s": "focused"},
        {
            "i": "15",
            "r": "btn",
            "n": "Google Search",
            "s": "disabled",
            "box": [1, 2, 30, 40],
            "f": 2,
        },
        {"i": "16", "r": "chk", "n": "Remember me", "s": ["checked", "required"]},
        {
            "i": "17",
            "r": "sel",
            "n": "Colour",
            "v": "Red",
            "occ": True,
            "scr": {"depth": 1, "h": 800},
        },
        title="Google",
        viewport={"width": 1280, "height": 800},
    )
    assert [e.role for e in page.elements] == ["link", "textbox", "button", "checkbox", "combobox"]
    gmail, search, button, remember, colour = page.elements
    assert gmail.xy == (900.0, 20.0) and gmail.frame == 0
    assert search.id == "14" and search.value == "" and "focused" in search.states
    assert page.focused_element_id == "14"
    assert button.disabled and not button.actionable
    assert button.box == (1.0, 2.0, 30.0, 40.0) and button.frame == 2
    assert remember.states == frozenset({"checked", "required"})
    assert colour.occluded and not colour.actionable and colour.scroll == {"depth": 1, "h": 800}
    assert page.viewport == (1280, 800) and page.title == "Google" and page.source == "v3"


def test_element_lookup_by_id() -> None:
    page = v3_page(*({"i": str(n), "r": "btn", "n": f"B{n}"} for n in range(500)))
    assert page.element("499") is page.elements[499]
    assert page.element("nope") is None


def test_unknown_v3_keys_and_roles_pass_through() -> None:
    page = v3_page({"i": "1", "r": "treeitem", "n": "Node", "future": [1, 2]})
    assert page.elements[0].role == "treeitem"


def test_v3_messages_come_from_alert_nodes_and_sentinel_fields() -> None:
    page = v3_page(
        {"i": "1", "r": "btn", "n": "Save"},
        {"i": "2", "r": "alert", "n": "Name is required"},
        errors_detected=["Name is required", "  "],
        success_messages=["Saved"],
        has_errors=True,
        verification_passed=False,
        recent_events=["node added"],
    )
    assert page.messages == (  # the alert reports a failure: an error message, the same as the sentinel's
        PageMessage("error", "Name is required"),
        PageMessage("success", "Saved"),
    )
    assert [e.id for e in page.elements] == ["1"]  # the alert is a message, not an element
    assert page.errors_detected == ("Name is required",) and page.success_messages == ("Saved",)
    assert page.verification_passed is False and page.recent_events == ("node added",)
    assert page.has_errors is True


def test_has_errors_without_text_becomes_a_skeleton_message() -> None:
    page = v3_page({"i": "1", "r": "btn", "n": "Save"}, has_errors=True, has_success=True)
    assert page.skeleton["messages"] == {
        "error:flag": "The page reports an error",
        "success:flag": "The page reports success",
    }


def test_v3_with_dom_takes_messages_and_text_from_the_html() -> None:
    dom = html_page(
        '<div role="alert" class="alert-danger">Card declined</div><p>Checkout</p>', title="Pay"
    )
    page = v3_page({"i": "1", "r": "btn", "n": "Pay"}, dom=dom)
    assert PageMessage("error", "Card declined") in page.messages
    assert "Checkout" in page.text_summary and page.title == "Pay"
    assert page.skeleton["messages"] == {"error:0": "Card declined"}


def test_v3_hash_ignores_key_order_but_sees_geometry() -> None:
    a = v3_page({"i": "1", "r": "btn", "n": "Save", "xy": [1, 2]})
    b = PageState.from_v3([{"xy": [1, 2], "n": "Save", "r": "btn", "i": "1"}], url=URL)
    moved = v3_page({"i": "1", "r": "btn", "n": "Save", "xy": [1, 99]})
    assert a.dom_hash == b.dom_hash
    assert a.dom_hash != moved.dom_hash
    assert a.skeleton == moved.skeleton  # a layout shift is not an interactive change


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ("not a list", "interactiveTree: expected a list of nodes"),
        ([["i", "1"]], "interactiveTree[0]: expected an object"),
        ([{"r": "btn"}], "interactiveTree[0].i: expected a non-empty element id"),
        ([{"i": True}], "interactiveTree[0].i"),
        ([{"i": "1"}, {"i": " "}], "interactiveTree[1].i"),
        ([{"i": "1", "r": 5}], "interactiveTree[0].r: expected a role string"),
        ([{"i": "1", "n": {"x": 1}}], "interactiveTree[0].n: expected text"),
        ([{"i": "1", "s": 3}], "interactiveTree[0].s"),
        ([{"i": "1", "xy": [1]}], "interactiveTree[0].xy: expected [x, y] numbers"),
        ([{"i": "1", "xy": ["1", "2"]}], "interactiveTree[0].xy"),
        ([{"i": "1", "box": [1, 2, 3]}], "interactiveTree[0].box: expected [x, y, width, height]"),
        ([{"i": "1", "f": -1}], "interactiveTree[0].f: expected a frame number"),
        ([{"i": "1", "occ": "yes"}], "interactiveTree[0].occ: expected true/false"),
        ([{"i": "1", "scr": [1]}], "interactiveTree[0].scr"),
        ([{"i": "1"}, {"i": 1}], "interactiveTree[1].i: duplicate element id '1'"),
    ],
)
def test_malformed_v3_nodes_name_the_index_and_field(tree: object, message: str) -> None:
    with pytest.raises(PageInputError) as info:
        PageState.from_v3(tree, url=URL)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert info.value.field == message.partition(":")[0]
    assert isinstance(info.value, ValueError)


def test_malformed_viewport_is_a_page_input_error() -> None:
    with pytest.raises(PageInputError, match=r"viewport\.height") as info:
        PageState.from_v3([], url=URL, viewport={"width": 10, "height": "tall"})
    assert info.value.field == "viewport.height"


# ---------------------------------------------------------------- HTML


def test_html_keys_prefer_llm_id_then_id_then_name_then_position() -> None:
    page = page_from_html(
        '<button data-llm-id="14" id="save">Save</button>'
        '<input id="email"><input name="phone">'
        '<input type="radio" name="color" value="red"><input type="radio" name="color" value="blue">'
        "<a href='/help'>Help</a><button>Cancel</button>"
    )
    assert [e.id for e in page.elements] == [
        "14",
        "email",
        "phone",
        "color=red",
        "color=blue",
        "a:0",
        "button:0",
    ]


def test_duplicate_ids_get_a_suffix() -> None:
    page = page_from_html('<button id="go">One</button><button id="go">Two</button>')
    assert [e.id for e in page.elements] == ["go", "go~2"]


def test_roles_types_and_states_from_html() -> None:
    page = page_from_html(
        '<input id="a" type="checkbox" checked required>'
        '<input id="b" type="number" readonly><input id="c" type="search"><input id="d" type="submit" value="Send">'
        '<select id="e" multiple><option>x</option></select><textarea id="f">hello</textarea>'
        '<div id="g" role="tab" aria-selected="true">Tab</div><div id="h" contenteditable="true">Edit me</div>'
        '<button id="i" aria-expanded="true" aria-disabled="true">Menu</button><summary id="j">More</summary>'
    )
    roles = {e.id: e.role for e in page.elements}
    assert roles == {
        "a": "checkbox",
        "b": "spinbutton",
        "c": "searchbox",
        "d": "button",
        "e": "listbox",
        "f": "textbox",
        "g": "tab",
        "h": "textbox",
        "i": "button",
        "j": "button",
    }
    states = {e.id: e.states for e in page.elements}
    assert states["a"] == {"checked", "required"}
    assert states["b"] == {"readonly"}
    assert states["g"] == {"selected"}
    assert states["i"] == {"expanded", "disabled"}
    assert page.element("d").name == "Send" and page.element("d").input_type == "submit"  # type: ignore[union-attr]
    assert page.element("f").value == "hello" and page.element("h").value == "Edit me"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "markup",
    [
        '<div style="display:none"><button id="x">Hidden</button></div>',
        '<div style="DISPLAY: NONE;"><span><button id="x">Hidden</button></span></div>',
        '<div style="visibility: hidden"><button id="x">Hidden</button></div>',
        '<section hidden><button id="x">Hidden</button></section>',
        '<div aria-hidden="true"><button id="x">Hidden</button></div>',
        '<button id="x" hidden>Hidden</button>',
        '<input id="x" type="hidden" value="t">',
        '<dialog><button id="x">Hidden</button></dialog>',
    ],
)
def test_hidden_elements_are_marked_not_dropped(markup: str) -> None:
    page = page_from_html(markup + '<button id="y">Visible</button>')
    hidden = page.element("x")
    assert hidden is not None and hidden.hidden and not hidden.actionable
    assert page.element("y").hidden is False  # type: ignore[union-attr]
    assert "x" not in page.skeleton["elements"] and "y" in page.skeleton["elements"]


def test_open_dialog_content_is_visible() -> None:
    page = page_from_html('<dialog open><button id="x">OK</button></dialog>')
    assert page.element("x").hidden is False  # type: ignore[union-attr]


def test_names_and_context_come_from_labels_legends_and_aria() -> None:
    page = page_from_html(
        "<form><fieldset><legend>Patient</legend>"
        '<label for="first">First name</label><input id="first" placeholder="e.g. Jas">'
        '<label>Email <input id="email" type="email"></label>'
        '<span id="hint">We never share it</span><input id="phone" aria-label="Phone" aria-describedby="hint">'
        '<span id="lbl">Date of birth</span><input id="dob" aria-labelledby="lbl">'
        "</fieldset></form>"
        '<a id="img" href="/home"><img alt="Home page"></a><button id="t" title="Close dialog"></button>'
    )
    first = page.element("first")
    assert first is not None and first.name == "First name" and first.placeholder == "e.g. Jas"
    assert first.context == "Patient"
    assert page.element("email").name == "Email"  # type: ignore[union-attr]
    phone = page.element("phone")
    assert (
        phone is not None
        and phone.name == "Phone"
        and phone.context == "Patient · We never share it"
    )
    assert page.element("dob").name == "Date of birth"  # type: ignore[union-attr]
    assert page.element("img").name == "Home page"  # type: ignore[union-attr]
    assert page.element("t").name == "Close dialog"  # type: ignore[union-attr]


def test_disabled_fieldset_disables_its_controls() -> None:
    page = page_from_html(
        '<fieldset disabled><input id="a"><button id="b">Go</button></fieldset><input id="c">'
    )
    assert page.element("a").disabled and page.element("b").disabled  # type: ignore[union-attr]
    assert not page.element("c").disabled  # type: ignore[union-attr]


def test_select_options_and_selected_value() -> None:
    page = page_from_html(
        '<select id="c"><option>Red</option><option selected>Blue</option></select><select id="d"><option>Only</option></select>'
    )
    colour = page.element("c")
    assert colour is not None and colour.options == ("Red", "Blue") and colour.value == "Blue"
    assert page.element("d").value == "Only"  # type: ignore[union-attr]


def test_password_values_are_never_kept() -> None:
    page = page_from_html('<input id="pw" type="password" value="hunter2">')
    assert page.element("pw").value is None  # type: ignore[union-attr]
    assert "hunter2" not in json.dumps(page.skeleton)


def test_bare_named_anchors_are_not_elements() -> None:
    page = page_from_html('<a name="top"></a><a id="js">Open</a><a href="#x"></a>')
    assert [e.id for e in page.elements] == ["js", "a:0"]


def test_text_summary_is_visible_text_collapsed_and_capped() -> None:
    page = page_from_html(
        "<script>var secret = 1;</script><style>p{}</style><noscript>enable js</noscript>"
        "<h1>  Patients \n list </h1><div hidden>hidden words</div><div style='display:none'>more hidden</div>"
        "<p>" + "word " * 1000 + "</p>"
    )
    assert page.text_summary.startswith("Patients list word word")
    assert "secret" not in page.text_summary and "hidden" not in page.text_summary
    assert "enable js" not in page.text_summary
    assert len(page.text_summary) <= 2000


def test_title_comes_from_the_document_unless_given() -> None:
    html = html_page("<svg><title>icon</title></svg><p>x</p>", title="Clinic – Patients")
    assert PageState.from_html(html, url=URL).title == "Clinic – Patients"
    assert PageState.from_html(html, url=URL, title="Given").title == "Given"


def test_html_page_hash_is_dom_hash_and_messages_are_found() -> None:
    html = html_page(
        '<div class="toast">Saved</div><div class="alert alert-danger">Oops</div><p>x</p>'
    )
    page = PageState.from_html(html, url=URL)
    assert page.dom_hash == dom_hash(html)
    assert page.messages == (PageMessage("toast", "Saved"), PageMessage("error", "Oops"))
    assert page.source == "html" and page.has_errors is None


def test_focus_reported_by_the_client_marks_the_focused_element() -> None:
    page = page_from_html('<input id="a"><input id="b" data-llm-focused>')
    assert page.focused_element_id == "b"


def test_non_text_html_is_a_page_input_error() -> None:
    with pytest.raises(PageInputError):
        PageState.from_html(b"<p>x</p>", url=URL)  # type: ignore[arg-type]


def test_lone_surrogates_do_not_crash_extraction() -> None:
    page = PageState.from_html(html_page('<button id="b">Save \ud800</button>'), url=URL)
    assert page.element("b") is not None


def test_from_elements_builds_a_consistent_page() -> None:
    page = PageState.from_elements(
        [
            PageElement(id="1", role="button", name="Save"),
            PageElement(id="2", role="textbox", name="Name", hidden=True),
        ],
        url=URL,
        messages=[PageMessage("success", "Saved")],
    )
    assert page.element("2").hidden  # type: ignore[union-attr]
    assert page.skeleton["elements"] == {"1": {"role": "button", "text": "Save"}}
    assert page.skeleton["messages"] == {"success:0": "Saved"}
    assert page.dom_hash and page.source == "v3"


def test_page_state_is_immutable() -> None:
    page = page_from_html("<button>x</button>")
    with pytest.raises(AttributeError):
        page.url = "other"  # type: ignore[misc]


def test_the_fast_element_constructor_matches_the_dataclass() -> None:
    from dataclasses import FrozenInstanceError, fields, replace

    from verification.elements import new_element

    values = ("k", "button", "Save", None, "button", "submit", None, None, frozenset({"disabled"}), False,
              False, None, None, 0, (), "ctx", None, ("row: Bob Smith",), "Delete", "delete")  # fmt: skip
    fast = new_element(*values)
    kwargs: dict[str, Any] = {f.name: v for f, v in zip(fields(PageElement), values, strict=True)}
    slow = PageElement(**kwargs)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
    assert replace(fast, name="Saved").name == "Saved"
    with pytest.raises(FrozenInstanceError):
        fast.name = "x"  # type: ignore[misc]
    with pytest.raises(ValueError):
        new_element("too", "few")


# ---------------------------------------------------------------- autocomplete suggestions


@pytest.mark.parametrize(
    "html",
    [
        # jQuery UI: a focusable ul appended to the body, items with no role
        '<input id="tags" value="An"><ul class="ui-menu ui-autocomplete" tabindex="0">'
        '<li class="ui-menu-item" style="display:none">Anjelica</li>'
        '<li class="ui-menu-item"><div class="ui-menu-item-wrapper" tabindex="-1">Angola</div></li>'
        '<li class="ui-menu-item"><div class="ui-menu-item-wrapper" tabindex="-1">Antarctica</div></li></ul>',
        # plain divs under the field
        '<div class="autocomplete"><input id="tags" value="An"><div class="autocomplete-items">'
        '<div hidden>Anjelica</div><div>Angola</div><div>Antarctica</div></div></div>',
        # ARIA: the listbox is the field's popup, its options the suggestions
        '<input id="tags" role="combobox" aria-controls="l" value="An"><ul id="l" role="listbox">'
        '<li role="option" aria-hidden="true">Anjelica</li><li role="option">Angola</li><li role="option">Antarctica</li></ul>',
    ],
)
def test_html_lists_an_autocompletes_suggestions_as_options_and_not_their_list(html: str) -> None:
    page = page_from_html(html)
    options = [(e.name, e.hidden) for e in page.elements if e.role == "option"]
    assert options == [("Anjelica", True), ("Angola", False), ("Antarctica", False)]
    assert [e.role for e in page.elements if e.role != "option"] in (["textbox"], ["combobox"])
