"""Element references resolve strictly, on what a person sees, within the row or section the
goal names — and never on a decoy."""

from __future__ import annotations

from typing import Any

import pytest

from verification import ElementRef, PageElement, PageState, resolve_ref
from verification.contract import matches, words

URL = "https://app.example/people"


def page(*nodes: dict[str, Any], viewport: dict[str, int] | None = None) -> PageState:
    return PageState.from_v3(list(nodes), url=URL, viewport=viewport)


def people_table() -> PageState:
    rows = [("Ana Silva", "ana@x.io"), ("Bob Stone", "bob@x.io"), ("Chen Wei", "chen@x.io")]
    nodes: list[dict[str, Any]] = []
    for n, (name, mail) in enumerate(rows):
        ctx = [f"row: {name} · {mail} · Member", "section: Team"]
        nodes.append({"i": f"e{n}", "r": "btn", "n": "Edit", "ctx": ctx})
        nodes.append({"i": f"d{n}", "r": "btn", "n": "Deactivate", "ctx": ctx})
    nodes.append({"i": "s", "r": "btn", "n": "Save", "ctx": ["section: Billing"]})
    return page(*nodes)


def test_the_row_the_goal_names_picks_that_rows_button_never_the_first() -> None:
    table = people_table()
    ref = ElementRef(name="Deactivate", role="button", container="Bob Stone", container_kind="row")
    assert [e.id for e in resolve_ref(ref, table).elements] == ["d1"]
    # The kind is a hint: a card layout with the same name still resolves.
    assert resolve_ref(ref.model_copy(update={"container_kind": "card"}), table).element.id == "d1"  # type: ignore[union-attr]


def test_a_button_repeated_in_every_row_without_a_row_is_ambiguous() -> None:
    found = resolve_ref(ElementRef(name="Edit", role="button"), people_table())
    assert not found.found and found.ambiguous
    assert "3 elements match" in found.reason


def test_a_row_that_is_not_on_the_page_resolves_to_nothing() -> None:
    found = resolve_ref(ElementRef(name="Edit", container="Dana Kim"), people_table())
    assert not found.found and not found.ambiguous


def test_a_section_scopes_a_control() -> None:
    ref = ElementRef(name="Save", container="Billing", container_kind="section")
    assert resolve_ref(ref, people_table()).element.id == "s"  # type: ignore[union-attr]
    assert not resolve_ref(ref.model_copy(update={"container": "Team"}), people_table()).found


def test_every_word_of_the_name_must_be_there_and_the_exact_label_wins() -> None:
    shown = page({"i": "1", "r": "btn", "n": "Save draft"}, {"i": "2", "r": "btn", "n": "Save"}, {"i": "3", "r": "btn", "n": "Send"})
    assert resolve_ref(ElementRef(name="Save"), shown).element.id == "2"  # type: ignore[union-attr]
    assert resolve_ref(ElementRef(name="save draft"), shown).element.id == "1"  # type: ignore[union-attr]
    assert not resolve_ref(ElementRef(name="Save and close"), shown).found
    assert {e.id for e in matches(ElementRef(name="Save"), shown)} == {"1", "2"}


def test_identical_controls_in_no_container_are_interchangeable() -> None:
    twins = page({"i": "1", "r": "btn", "n": "OK"}, {"i": "2", "r": "btn", "n": "OK"})
    assert resolve_ref(ElementRef(name="OK"), twins).element.id == "1"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("wanted", "label"),
    [("x", "×"), ("close", "×"), ("x", "Close"), ("login", "Sign in"), ("log in", "Log-in"), ("notifcations", "Notifications"), ("patients", "Patient")],
)
def test_synonyms_plurals_and_small_typos_are_the_same_word(wanted: str, label: str) -> None:
    assert resolve_ref(ElementRef(name=wanted), page({"i": "1", "r": "btn", "n": label})).found


def test_ordinals_count_in_page_order_within_the_role() -> None:
    fields = page(*({"i": f"f{n}", "r": "inp", "n": ""} for n in range(3)), {"i": "b", "r": "btn", "n": "Go"})
    assert resolve_ref(ElementRef(role="textbox", ordinal=2), fields).element.id == "f1"  # type: ignore[union-attr]
    assert resolve_ref(ElementRef(role="textbox", ordinal=-1), fields).element.id == "f2"  # type: ignore[union-attr]
    assert not resolve_ref(ElementRef(role="textbox", ordinal=4), fields).found
    assert [e.id for e in resolve_ref(ElementRef(role="textbox", every=True), fields).elements] == ["f0", "f1", "f2"]


def test_the_commit_control_is_found_whatever_its_label() -> None:
    form = page({"i": "1", "r": "inp", "n": "Name"}, {"i": "2", "r": "btn", "n": "Create patient"}, {"i": "3", "r": "link", "n": "Help"})
    assert resolve_ref(ElementRef(name="submit", commit=True), form).element.id == "2"  # type: ignore[union-attr]
    assert resolve_ref(ElementRef(commit=True), form).element.id == "2"  # type: ignore[union-attr]
    two = page({"i": "1", "r": "btn", "n": "Save"}, {"i": "2", "r": "btn", "n": "Submit"})
    assert not resolve_ref(ElementRef(commit=True), two).found  # which one? no guess


DECOYS: list[tuple[str, dict[str, Any]]] = [
    ("hidden", {"s": "hidden"}),
    ("behind a modal", {"occ": True}),
    ("in another frame", {"f": 2}),
    ("zero-size", {"box": [10, 10, 0, 0]}),
    ("1x1 sr-only", {"box": [10, 10, 1, 1]}),
    ("parked off the page", {"box": [-9999, 10, 80, 20]}),
    ("right of the viewport", {"box": [5000, 10, 80, 20]}),
]


@pytest.mark.parametrize(("why", "extra"), DECOYS, ids=[d[0] for d in DECOYS])
def test_a_decoy_is_never_the_element(why: str, extra: dict[str, Any]) -> None:
    decoy = {"i": "1", "r": "chk", "n": "SMS notifications", "s": "checked", **extra}
    found = resolve_ref(ElementRef(name="SMS notifications"), page(decoy, viewport={"width": 1280, "height": 800}))
    assert not found.found, why


def test_an_aria_label_that_contradicts_the_visible_text_is_not_that_control() -> None:
    # <button aria-label="Save">Delete</button>: a person reads "Delete".
    decoy = page({"i": "1", "r": "btn", "n": "Save", "t": "Delete"})
    assert not resolve_ref(ElementRef(name="Save"), decoy).found
    # An icon button whose only name is its aria-label is fine.
    icon = page({"i": "1", "r": "btn", "n": "Search"})
    assert resolve_ref(ElementRef(name="Search"), icon).found
    # A label that adds to the visible text ("Save" shown, "Save changes" announced) is fine.
    longer = page({"i": "1", "r": "btn", "n": "Save changes", "t": "Save"})
    assert resolve_ref(ElementRef(name="Save"), longer).found


def test_a_reference_must_name_something() -> None:
    with pytest.raises(ValueError):
        ElementRef(name="  ")
    with pytest.raises(ValueError):
        ElementRef(name="x", ordinal=0)
    assert ElementRef(name="Edit", role="button", container="Bob Stone", container_kind="row").describe() == (
        "the button 'Edit' in the row for 'Bob Stone'"
    )


def test_words_are_canonical() -> None:
    assert words("Sign in") == ("login",)
    assert words("E-mail ×") == ("email", "x")


def test_a_quoted_label_is_matched_with_its_spelling_when_only_case_differs() -> None:
    links = page({"i": "1", "r": "link", "n": "eget"}, {"i": "2", "r": "link", "n": "Eget"})
    assert resolve_ref(ElementRef(name="Eget", exact=True), links).element.id == "2"  # type: ignore[union-attr]
    assert [e.id for e in matches(ElementRef(name="Eget", exact=True), links)] == ["2"]
    # Unquoted, case is not the user's choice: the two are the same label, the first is used.
    assert resolve_ref(ElementRef(name="Eget"), links).element.id == "1"  # type: ignore[union-attr]
    # A quoted label no element spells exactly still resolves case-insensitively.
    assert resolve_ref(ElementRef(name="EGET", exact=True), links).found


def _field(i: str, name: str = "", input_type: str | None = None) -> PageElement:
    return PageElement(id=i, role="textbox", name=name, tag="input", input_type=input_type)


@pytest.mark.parametrize(
    ("fields", "ref_name", "expected"),
    [
        # the one unnamed field whose type takes the value
        ([_field("a", "Name"), _field("t", input_type="time")], "time", "t"),
        ([_field("d", input_type="date"), _field("n", "Notes")], "date", "d"),
        ([_field("p", "Phone"), _field("m", input_type="email")], "email address", "m"),
        # a page whose only field has no name
        ([_field("only", input_type="text")], "date", "only"),
        # a named field is found by its name, as ever
        ([_field("s", "Start time", "time"), _field("e", "End time", "time")], "start time", "s"),
        # never a guess: two unnamed fields of no telling type, a field named otherwise, or no kind word
        ([_field("a"), _field("b")], "date", None),
        ([_field("n", "Name")], "date", None),
        ([_field("t1", input_type="time"), _field("t2", input_type="time")], "time", None),
        ([_field("only")], "reason", None),
    ],
)
def test_a_field_named_by_the_kind_of_value_it_takes(fields: list[PageElement], ref_name: str, expected: str | None) -> None:
    found = resolve_ref(ElementRef(name=ref_name), PageState.from_elements(fields, url=URL))
    assert (found.element.id if found.element else None) == expected


def _results_page(layout: str) -> PageState:
    nodes: list[dict[str, Any]] = [
        {"i": "nav1", "r": "link", "n": "Home", "ctx": ["item: Home · About"]},
        {"i": "nav2", "r": "link", "n": "About", "ctx": ["item: Home · About"] if layout != "cards" else ["item: About"]},
        {"i": "q", "r": "inp", "n": "Search", "v": "headphones"},
    ]
    titles = ["Sony WH-1000XM5", "Bose QC45", "AKG K371"]
    for n, title in enumerate(titles):
        ctx = {"list": f"item: {title} · Wireless, 30 h", "cards": f"card: {title} · $299", "table": f"row: {title} · 4.5 stars"}[layout]
        nodes.append({"i": f"r{n}", "r": "link", "n": title, "ctx": [ctx]})
        nodes.append({"i": f"a{n}", "r": "link", "n": "Reviews", "ctx": [ctx]})  # a second link in the entry
    nodes += [{"i": "p1", "r": "link", "n": "1", "ctx": ["item: 1"]}, {"i": "p2", "r": "link", "n": "2", "ctx": ["item: 2"]}, {"i": "pn", "r": "link", "n": "Next", "ctx": ["item: Next"]}]
    return page(*nodes)


@pytest.mark.parametrize("layout", ["list", "cards", "table"])
@pytest.mark.parametrize(
    ("name", "ordinal", "expected"),
    [("result", 1, "r0"), ("search result", 2, "r1"), ("result", -1, "r2"), ("top result", None, "r0"), ("hit", 3, "r2")],
)
def test_the_nth_result_is_the_nth_entry_of_the_result_list(layout: str, name: str, ordinal: int | None, expected: str) -> None:
    found = resolve_ref(ElementRef(name=name, ordinal=ordinal), _results_page(layout))
    assert found.element is not None and found.element.id == expected


def test_results_need_a_list_and_are_never_guessed_without_an_ordinal() -> None:
    assert not resolve_ref(ElementRef(name="result", ordinal=4), _results_page("list")).found
    assert resolve_ref(ElementRef(name="result"), _results_page("list")).ambiguous
    lone = page({"i": "q", "r": "inp", "n": "Search"}, {"i": "r0", "r": "link", "n": "Only one", "ctx": ["item: Only one"]})
    assert not resolve_ref(ElementRef(name="result", ordinal=1), lone).found


def contact(name: str, goal_line: str = "", *, cards: bool = False) -> PageState:
    """A details card whose values are links under plain-text captions."""
    values = {"Phone": "531-159-6223", "Email": f"{name.lower()}@mail.example", "Address": "645 Stephenson Loop"}
    nodes = [{"i": str(n), "r": "link", "n": v, **({"ctx": [f"card: {name}"]} if cards else {})} for n, v in enumerate(values.values(), 1)]
    nodes.append({"i": "next", "r": "link", "n": ">"})
    text = "\n".join([goal_line, name, *(f"{k}: {v}" for k, v in values.items()), "1", ">"] if goal_line else [name, *(f"{k}: {v}" for k, v in values.items())])
    return PageState.from_v3(nodes, url=URL, text=text)


@pytest.mark.parametrize(("said", "expected"), [("address", "3"), ("phone number", "1"), ("email", "2"), ("e-mail", "2")])
def test_a_value_is_named_by_the_caption_on_its_line(said: str, expected: str) -> None:
    found = resolve_ref(ElementRef(name=said), contact("Casie"))
    assert [e.id for e in found.elements] == [expected]


def test_the_record_is_the_title_above_the_captions_never_the_goal_shown_on_the_page() -> None:
    goal = "Find Casie in the contact book and click on their address."
    ref = ElementRef(name="address", container="Casie")
    assert resolve_ref(ref, contact("Casie", goal)).element.id == "3"  # type: ignore[union-attr]
    # Etti's card, with the goal (which says Casie) shown above it: not Casie's address.
    assert not resolve_ref(ref, contact("Etti", goal)).found


def test_a_captioned_value_in_a_card_is_found_through_the_card() -> None:
    ref = ElementRef(name="address", container="Casie")
    assert resolve_ref(ref, contact("Casie", cards=True)).element.id == "3"  # type: ignore[union-attr]
    assert not resolve_ref(ref, contact("Etti", cards=True)).found


def test_a_caption_for_something_else_names_nothing() -> None:
    assert not resolve_ref(ElementRef(name="fax"), contact("Casie")).found


def _dialog(title: str, *buttons: str, outside: tuple[str, ...] = ()) -> PageState:
    nodes = [{"i": f"b{n}", "r": "btn", "n": name, "ctx": [f"dialog: {title}"]} for n, name in enumerate(buttons)]
    nodes += [{"i": f"o{n}", "r": "btn", "n": name} for n, name in enumerate(outside)]
    return page(*nodes)


EITHER = ElementRef(name="Cancel", role="button", container_kind="dialog", exact=True, label_or_container=True)


def test_a_label_after_a_container_phrase_names_the_button_when_the_dialog_has_no_such_label() -> None:
    # "the button in the dialog box labeled "Cancel"", the dialog untitled (or titled otherwise)
    for title in ("", "Confirm"):
        found = resolve_ref(EITHER, _dialog(title, "Close", "Cancel", "OK", outside=("Cancel",)))
        assert found.element is not None and found.element.id == "b1"


def test_the_label_names_the_dialog_when_only_the_dialog_carries_it() -> None:
    found = resolve_ref(EITHER, _dialog("Cancel", "Yes, cancel the order"))
    assert found.element is not None and found.element.id == "b0"
    # A dialog named so with two buttons and none named so: no single button is meant.
    two = resolve_ref(EITHER, _dialog("Cancel", "Yes", "No"))
    assert not two.found


def test_a_page_where_both_readings_find_a_different_button_is_never_guessed() -> None:
    both = page(
        {"i": "a", "r": "btn", "n": "Cancel", "ctx": ["dialog: Confirm"]},
        {"i": "b", "r": "btn", "n": "Continue", "ctx": ["dialog: Cancel"]},
    )
    found = resolve_ref(EITHER, both)
    assert not found.found and found.ambiguous and "two ways" in found.reason
    assert matches(EITHER, both) == ()


def test_a_label_outside_any_dialog_does_not_count() -> None:
    assert not resolve_ref(EITHER, page({"i": "o", "r": "btn", "n": "Cancel"})).found


@pytest.mark.parametrize("glyph", ["🗑", "✕", "×"])
def test_an_icon_button_named_for_its_record_is_that_records(glyph: str) -> None:
    """"Delete invoice INV-7": icon buttons whose aria-label names the record (their visible
    text a glyph that says nothing) in list items that do not repeat the record's type noun."""
    invoices = page(
        {"i": "1", "r": "btn", "n": "Delete invoice INV-7", "t": glyph, "ctx": [f"item: INV-7 · Acme Ltd · €120 {glyph}"]},
        {"i": "2", "r": "btn", "n": "Delete invoice INV-8", "t": glyph, "ctx": [f"item: INV-8 · Globex · €75 {glyph}"]},
    )
    ref = ElementRef(name="delete", role="button", container="invoice INV-7")
    assert [e.id for e in resolve_ref(ref, invoices).elements] == ["1"]
    assert [e.id for e in resolve_ref(ref.model_copy(update={"container": "invoice INV-8"}), invoices).elements] == ["2"]
    assert not resolve_ref(ref.model_copy(update={"container": "invoice INV-9"}), invoices).found


def test_a_record_named_with_its_kind_is_found_in_entries_that_only_carry_its_name() -> None:
    """"Delete the file report.pdf", "Archive project Gemini": a table of files or a grid of
    projects says the kind once (a heading), not in each entry; every entry's button says only
    "Delete"/"Archive". The name alone picks the entry; a name no entry carries finds nothing,
    and a kind word that is the whole name is not dropped."""
    files = page(
        {"i": "1", "r": "btn", "n": "Delete", "ctx": ["row: budget.xlsx 48 KB Delete"]},
        {"i": "2", "r": "btn", "n": "Delete", "ctx": ["row: report.pdf 2.1 MB Delete"]},
        {"i": "3", "r": "btn", "n": "Delete", "ctx": ["row: notes.txt 3 KB Delete"]},
    )
    ref = ElementRef(name="delete", role="button", container="file report.pdf")
    assert [e.id for e in resolve_ref(ref, files).elements] == ["2"]
    assert [e.id for e in resolve_ref(ref.model_copy(update={"container": "report.pdf"}), files).elements] == ["2"]
    assert not resolve_ref(ref.model_copy(update={"container": "file summary.pdf"}), files).found
    assert not resolve_ref(ref.model_copy(update={"container": "file"}), files).found
    projects = page(
        {"i": "7", "r": "btn", "n": "Archive", "ctx": ["card: Apollo 12 tasks Archive"]},
        {"i": "8", "r": "btn", "n": "Archive", "ctx": ["card: Gemini 4 tasks Archive"]},
    )
    assert [e.id for e in resolve_ref(ElementRef(name="archive", role="button", container="project Gemini"), projects).elements] == ["8"]
    # a word that is not a record's kind is never dropped: "Orion Gemini" is not "Gemini"
    assert not resolve_ref(ElementRef(name="archive", role="button", container="Orion Gemini"), projects).found


def test_an_aria_label_a_visible_word_contradicts_is_still_refused() -> None:
    decoy = page({"i": "1", "r": "btn", "n": "Delete invoice INV-7", "t": "Archive"})
    assert not resolve_ref(ElementRef(name="delete", role="button", container="invoice INV-7"), decoy).found


def test_a_field_named_by_its_label_is_found_by_its_placeholder_too() -> None:
    page = PageState.from_v3(url="https://x.test/", tree=[{"i": "a", "r": "inp", "n": "Last name", "ph": "As on the booking"}, {"i": "b", "r": "inp", "n": "Booking reference"}])
    assert page.element("a").placeholder == "As on the booking"
    for said in ("Last name", "As on the booking"):
        assert [e.id for e in resolve_ref(ElementRef(name=said), page).elements] == ["a"]


def test_a_labelled_fields_placeholder_names_it_only_when_said_whole() -> None:
    """A placeholder under a label is a hint (what a search looks in, an example): "the name"
    is not the search box whose placeholder reads "Name or notes" — but "the CVC field" is the
    field labelled "Security code" whose placeholder is "CVC". An unlabelled field is still
    named by its placeholder."""
    shown = page(
        {"i": "s", "r": "inp", "n": "Search patients", "ty": "search", "ph": "Name or notes"},
        {"i": "c", "r": "inp", "n": "Security code", "ty": "text", "ph": "CVC"},
        {"i": "e", "r": "inp", "n": "", "ty": "text", "ph": "Email address"},
    )
    assert not resolve_ref(ElementRef(name="name", role="textbox"), shown).found
    assert resolve_ref(ElementRef(name="CVC", role="textbox"), shown).element.id == "c"  # type: ignore[union-attr]
    assert resolve_ref(ElementRef(name="email", role="textbox"), shown).element.id == "e"  # type: ignore[union-attr]


def test_a_field_named_only_by_its_form_rows_caption_is_found_by_that_caption() -> None:
    row = lambda caption: ["item: " + caption, "section: Standing order details"]  # noqa: E731
    form = page(
        {"i": "a", "r": "inp", "n": "Amount", "ctx": row("Amount £")},
        {"i": "d", "r": "inp", "n": "DD/MM/YYYY", "ctx": row("First payment date Must be at least one day from today")},
        {"i": "f", "r": "inp", "n": "From", "ctx": row("Travel dates From To")},
        {"i": "t", "r": "inp", "n": "To", "ctx": row("Travel dates From To")},
    )
    assert resolve_ref(ElementRef(name="First payment date"), form).element.id == "d"  # type: ignore[union-attr]
    assert not resolve_ref(ElementRef(name="payment date"), form).found  # the caption opens the row
    assert not resolve_ref(ElementRef(name="Travel dates"), form).found  # a row with two fields names neither


def test_a_label_of_function_words_only_names_that_field_and_no_other() -> None:
    inbox = page({"i": "s", "r": "inp", "n": "Search mail"})
    assert not resolve_ref(ElementRef(name="To"), inbox).found  # never "any text box"
    compose = page({"i": "s", "r": "inp", "n": "Search mail"}, {"i": "t", "r": "inp", "n": "To"}, {"i": "c", "r": "inp", "n": "Cc"})
    assert resolve_ref(ElementRef(name="To"), compose).element.id == "t"  # type: ignore[union-attr]


def test_a_control_no_label_names_is_found_by_the_name_its_form_gives_it() -> None:
    form = page(
        {"i": "27", "r": "chk", "n": "I confirm that the information I have given is correct", "fn": "declaration"},
        {"i": "26", "r": "chk", "n": "Email me a copy", "fn": "send_copy"},
        {"i": "28", "r": "btn", "n": "Accept and send application", "fn": "action"},
    )
    assert resolve_ref(ElementRef(name="declaration", role="checkbox"), form).element.id == "27"  # type: ignore[union-attr]
    assert resolve_ref(ElementRef(name="send copy", role="checkbox"), form).element.id == "26"  # type: ignore[union-attr]
    assert not resolve_ref(ElementRef(name="consent", role="checkbox"), form).found


def test_the_forms_submit_is_never_the_headers_search_button() -> None:
    form = page(
        {"i": "6", "r": "inp", "n": "Search northbridge.gov.uk", "ty": "search"},
        {"i": "7", "r": "btn", "n": "Search"},
        {"i": "27", "r": "chk", "n": "I confirm that the information I have given is correct"},
        {"i": "28", "r": "btn", "n": "Accept and send application"},
        {"i": "29", "r": "btn", "n": "Save and come back later"},
    )
    assert [e.id for e in matches(ElementRef(name="submit", commit=True), form)] == ["28"]
    assert resolve_ref(ElementRef(name="search", commit=True), form).element.id == "7"  # type: ignore[union-attr]


def test_an_element_is_described_by_the_first_container_that_says_more_than_its_label() -> None:
    from verification.contract import describe_element

    radio = PageElement(id="11", role="radio", name="Yes", container=("item: Yes", "section: Do you live in a controlled parking zone?"))
    assert describe_element(radio) == "radio 'Yes' in section: Do you live in a controlled parking zone?"
    button = PageElement(id="d1", role="button", name="Deactivate", container=("row: Bob Stone · bob@x.io · Member",))
    assert describe_element(button) == "button 'Deactivate' in row: Bob Stone · bob@x.io · Member"
