"""Values the goal points at: read on the page once, recorded, then proven in the field."""

from __future__ import annotations

import pytest

from agent.policy import understand
from verification import PageState
from verification.contract import ElementRef, ValueSource, read_value, resolve

URL = "https://app.example/form"


def _page(body: str) -> PageState:
    return PageState.from_html(f"<html><body>{body}</body></html>", url=URL)


COPY_PAGE = """
<p>Copy the text below.</p>
<textarea id="a1">First area text</textarea>
<textarea id="a2">Second area, with more words</textarea>
<input id="dst" type="text">
<button id="go">Submit</button>
"""


def test_the_kind_of_text_field_named_is_preferred_where_the_page_has_both() -> None:
    page = _page(COPY_PAGE)
    line = resolve(ElementRef(role="textbox", field_kind="line"), page)
    assert [e.id for e in line.elements] == ["dst"]
    second = resolve(ElementRef(role="textbox", field_kind="textarea", ordinal=2), page)
    assert [e.id for e in second.elements] == ["a2"]


def test_a_field_kind_the_page_does_not_have_does_not_hide_the_field() -> None:
    page = _page('<textarea id="only"></textarea>')
    assert [e.id for e in resolve(ElementRef(role="textbox", field_kind="line"), page).elements] == ["only"]


@pytest.mark.parametrize(
    ("source", "value"),
    [
        (ValueSource(element=ElementRef(role="textbox", field_kind="textarea", ordinal=2)), "Second area, with more words"),
        (ValueSource(element=ElementRef(role="textbox", field_kind="textarea", ordinal=2), word=-1), "words"),
        (ValueSource(element=ElementRef(role="textbox", field_kind="textarea", ordinal=1), word=2, case="upper"), "AREA"),
    ],
)
def test_a_field_value_or_one_of_its_words_is_read(source: ValueSource, value: str) -> None:
    found = read_value(source, _page(COPY_PAGE))
    assert found is not None and found[0] == value


def test_the_paragraph_is_the_one_long_block_of_text() -> None:
    page = PageState(url=URL, text_summary="Find the word\nLorem ipsum, dolor sit amet consectetur adipiscing elit.\nSubmit")
    assert read_value(ValueSource(word=3), page) == ("dolor", "word 3 of the paragraph")


def test_two_paragraphs_of_similar_length_are_never_guessed_between() -> None:
    page = PageState(url=URL, text_summary="One two three four five six.\nSeven eight nine ten eleven twelve.")
    assert read_value(ValueSource(word=1), page) is None
    one_run = PageState(url=URL, text_summary="Title Lorem ipsum dolor sit amet consectetur")  # no blocks to tell apart
    assert read_value(ValueSource(word=1), one_run) is None


def test_a_word_beyond_the_text_is_not_read() -> None:
    assert read_value(ValueSource(element=ElementRef(role="textbox", field_kind="textarea", ordinal=1), word=9), _page(COPY_PAGE)) is None


def test_the_contract_reads_once_and_proves_the_destination_holds_what_was_read() -> None:
    from verification.contract import evaluate

    goal = "Copy the text from the 2nd text area below and paste it into the text input, then press Submit."
    contract = understand(goal).contract
    field, _submit = contract.clauses
    assert field.read is not None and field.value is None
    first = evaluate(contract, _page(COPY_PAGE), step=0)
    read = first.reads[field.id]
    assert read.value == "Second area, with more words" and read.step == 0 and "textbox" in (read.element or "")
    assert first.result(field.id).status in ("pending", "failed")  # the input is still empty
    pasted = COPY_PAGE.replace('<input id="dst" type="text">', '<input id="dst" type="text" value="Second area, with more words">')
    changed = pasted.replace("Second area, with more words</textarea>", "edited later</textarea>")
    later = evaluate(first, _page(changed), step=1)
    assert later.reads[field.id] == read  # the value was fixed when it was first read
    assert later.result(field.id).status == "holds"


def test_a_v3_page_that_does_not_say_which_field_is_a_text_area_is_never_guessed() -> None:
    tree = [{"i": "1", "r": "inp", "v": "Some text to copy"}, {"i": "2", "r": "inp", "v": ""}]
    page = PageState.from_v3(tree, url=URL)
    assert not resolve(ElementRef(role="textbox", field_kind="line"), page).found
    assert read_value(ValueSource(element=ElementRef(role="textbox", field_kind="textarea")), page) is None


def _v3_copy(source: str, pasted: str) -> PageState:
    tree = [
        {"i": "1", "r": "inp", "v": source, "ty": "textarea"},
        {"i": "2", "r": "inp", "v": pasted, "ty": "text"},
        {"i": "3", "r": "btn", "n": "Submit"},
    ]
    return PageState.from_v3(tree, url=URL)


def test_a_copy_is_exact_spacing_and_case_included() -> None:
    from verification.contract import evaluate

    contract = understand("Copy the text in the textarea below, paste it into the textbox and press Submit.").contract
    field = contract.clauses[0]
    first = evaluate(contract, _v3_copy("Eget rhoncus, Nunc ", ""), step=0)
    assert first.reads[field.id].value == "Eget rhoncus, Nunc "  # the trailing space is part of the text
    trimmed = evaluate(first, _v3_copy("Eget rhoncus, Nunc ", "Eget rhoncus, Nunc"), step=1)
    assert trimmed.result(field.id).status != "holds"  # before this, a trimmed paste was proof
    recased = evaluate(first, _v3_copy("Eget rhoncus, Nunc ", "eget rhoncus, nunc "), step=1)
    assert recased.result(field.id).status != "holds"
    exact = evaluate(first, _v3_copy("Eget rhoncus, Nunc ", "Eget rhoncus, Nunc "), step=1)
    assert exact.result(field.id).status == "holds"


def test_a_value_the_page_cut_short_is_not_read() -> None:
    page = _v3_copy("A very long text that the extension cut…", "")
    assert read_value(ValueSource(element=ElementRef(role="textbox", field_kind="textarea")), page) is None


def test_a_page_that_shows_the_goal_itself_does_not_make_it_the_paragraph() -> None:
    from verification.contract import evaluate

    goal = 'Find the 2nd word in the paragraph, type that into the textbox and press "Submit".'
    contract = understand(goal).contract
    shown = f"{goal}\nLacus, interdum pulvinar imperdiet. Cursus. Nisi,\nLast reward:\n-"
    page = PageState.from_v3([{"i": "1", "r": "inp", "v": "", "ty": "text"}, {"i": "2", "r": "btn", "n": "Submit"}], url=URL, text=shown)
    read = evaluate(contract, page, step=0).reads
    assert [e.value for e in read.values()] == ["interdum"]
    # Without the goal to set aside, the two blocks are too close to tell apart: nothing is read.
    assert read_value(ValueSource(word=2), page) is None


TABLE_LAYOUTS = {
    "plain": "People\nName · Email · Phone\nAna Silva · ana@x.io · 555-0101\nBob Stone · bob@x.io · 555-0199",
    "header-far-above": "Name · Email · Phone\nAna Silva · ana@x.io · 555-0101\nCarol White · carol@x.io · 555-0150\nBob Stone · bob@x.io · 555-0199",
    "extra-columns": "Team\nID · Full name · Phone number · E-mail address · Role\n7 · Bob Stone · 555-0199 · bob@x.io · Editor",
}


@pytest.mark.parametrize("layout", sorted(TABLE_LAYOUTS))
@pytest.mark.parametrize(("column", "expected"), [("phone number", "555-0199"), ("email", "bob@x.io"), ("phone", "555-0199")])
def test_a_table_cell_is_read_by_its_row_and_column_header(layout: str, column: str, expected: str) -> None:
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": "To"}], url=URL, text=TABLE_LAYOUTS[layout])
    found = read_value(ValueSource(row="Bob Stone", column=column), page)
    assert found is not None and found[0] == expected


@pytest.mark.parametrize(
    ("text", "row", "column"),
    [
        ("Name · Phone\nBob Stone · 555-0199\nBob Stone · 555-0100", "Bob Stone", "phone"),  # two such rows
        ("Bob Stone · 555-0199", "Bob Stone", "phone"),  # no header
        ("Name · Phone · Mobile phone\nBob Stone · 1 · 2", "Bob Stone", "phone"),  # two columns could be it
        ("Name · Phone\nAna · 1", "Bob Stone", "phone"),  # no such row
        ("Bob Stone's phone is 555-0199", "Bob Stone", "phone"),  # not a table
    ],
)
def test_a_cell_that_is_not_certain_is_not_read(text: str, row: str, column: str) -> None:
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": "To"}], url=URL, text=text)
    assert read_value(ValueSource(row=row, column=column), page) is None


KEY_VALUE_LAYOUTS = {
    "two-cell rows": "Gender · Male\nFirst name · Melodee\nLast name · Reynolds\nLanguage · Bengali",
    "captions": "Profile\nFirst name: Melodee\nLast name: Reynolds\nLanguage: Bengali",
    "rows after a title": "Details of the record\nLanguage · Bengali\nLast name · Reynolds",
}


@pytest.mark.parametrize("layout", sorted(KEY_VALUE_LAYOUTS))
def test_the_value_of_a_key_is_read_beside_it_where_no_column_is_titled(layout: str) -> None:
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": ""}], url=URL, text=KEY_VALUE_LAYOUTS[layout])
    found = read_value(ValueSource(row="Last name", column="value"), page)
    assert found is not None and found[0] == "Reynolds"


@pytest.mark.parametrize(
    "text",
    [
        "Last name · Reynolds\nLast name · Smith",  # the key twice: which one is not certain
        "Maiden last name · Reynolds",  # a longer key that contains it is another key
        "Name · Last name\nAna · Silva",  # a header row, not a key-value row: no such key
        "Last name Reynolds",  # not a key-value layout
    ],
)
def test_a_value_beside_a_key_that_is_not_certain_is_not_read(text: str) -> None:
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": ""}], url=URL, text=text)
    assert read_value(ValueSource(row="Last name", column="value"), page) is None


def test_a_titled_column_still_wins_over_the_key_value_reading() -> None:
    text = "Key · Value · Note\nLast name · Reynolds · x"
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": ""}], url=URL, text=text)
    assert read_value(ValueSource(row="Last name", column="value"), page) == ("Reynolds", "the 'Value' cell of the row for 'Last name'")
