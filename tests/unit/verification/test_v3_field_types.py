"""The V3 ``ty`` key says what kind of field an element is, exactly as the HTML of the same
page would; the request's page text becomes the page's text."""

from __future__ import annotations

import pytest

from verification import PageInputError, PageState


@pytest.mark.parametrize(
    ("html", "ty", "role"),
    [
        ('<textarea id="x"></textarea>', "textarea", "inp"),
        ('<input id="x" type="time">', "time", "inp"),
        ('<input id="x" type="date">', "date", "inp"),
        ('<input id="x" type="password">', "password", "inp"),
        ('<input id="x" type="number">', "number", "inp"),
        ('<input id="x">', "text", "inp"),
        ('<input id="x" type="checkbox">', "checkbox", "chk"),
        ('<select id="x"><option>a</option></select>', "select", "sel"),
    ],
)
def test_a_field_type_from_v3_reads_as_the_same_field_from_html(html: str, ty: str, role: str) -> None:
    from_html = PageState.from_html(f"<body>{html}</body>", url="https://app.example/")
    from_v3 = PageState.from_v3([{"i": "x", "r": role, "ty": ty}], url="https://app.example/")
    (a,), (b,) = from_html.elements, from_v3.elements
    assert (b.tag, b.input_type) == (a.tag, a.input_type)


def test_a_multiple_select_and_an_editable_region_keep_their_kind() -> None:
    page = PageState.from_v3(
        [{"i": "1", "r": "sel", "ty": "select-multiple"}, {"i": "2", "r": "inp", "ty": "contenteditable"}, {"i": "3", "r": "btn"}],
        url="https://app.example/",
    )
    kinds = [(e.tag, e.input_type) for e in page.elements]
    assert kinds == [("select", "select-multiple"), (None, "contenteditable"), (None, None)]


@pytest.mark.parametrize("ty", ["", 7, "x" * 40])
def test_a_malformed_field_type_names_the_node_and_key(ty: object) -> None:
    with pytest.raises(PageInputError, match=r"\[0\]\.ty|ty"):
        PageState.from_v3([{"i": "1", "r": "inp", "ty": ty}], url="https://app.example/")


def test_the_page_text_sent_is_the_pages_text_line_by_line() -> None:
    page = PageState.from_v3(
        [{"i": "1", "r": "btn", "n": "Submit"}],
        url="https://app.example/",
        text="  Date:   \n\nDecember   2016\nSu Mo Tu",
        dom="<body><p>ignored when page text is sent</p></body>",
    )
    assert page.text_summary == "Date:\nDecember 2016\nSu Mo Tu"
    without = PageState.from_v3([{"i": "1", "r": "btn", "n": "Submit"}], url="https://app.example/")
    assert "Submit" in without.text_summary
