"""What an HTML page hides without a browser: the page's own <style> rules (matched with a real
CSS engine, cascade by specificity and order, inline style and !important over them),
inline opacity 0, off-page offsets, zero size — and, while an aria-modal dialog is open,
everything outside it is covered. Elements named alike must be told apart by it."""

from __future__ import annotations

import pytest

from verification import PageState


def page(body: str, css: str = "") -> PageState:
    return PageState.from_html(f"<html><head><style>{css}</style></head><body>{body}</body></html>", url="https://app.example/")


def hidden(state: PageState, key: str) -> bool:
    element = state.element(key)
    assert element is not None, key
    return element.hidden


@pytest.mark.parametrize(
    ("css", "markup"),
    [
        (".ghost { display: none }", '<button data-llm-id="x" class="ghost">Save</button>'),
        ("#old { visibility: hidden }", '<button data-llm-id="x" id="old">Save</button>'),
        ("div.wrap > button { opacity: 0 }", '<div class="wrap"><button data-llm-id="x">Save</button></div>'),
        ("[data-legacy] { display:none!important }", '<div data-legacy><a data-llm-id="x" href="#">Save</a></div>'),
        (".parked { position: absolute; left: -9999px }", '<button data-llm-id="x" class="parked">Save</button>'),
        (".sr { position:absolute; width:1px; height:1px; overflow:hidden; clip: rect(0 0 0 0) }", '<a data-llm-id="x" class="sr" href="#">Save</a>'),
        ("/* old */ .a, .b { display: none }", '<button data-llm-id="x" class="b">Save</button>'),
    ],
)
def test_a_style_rule_that_hides_an_element_is_read(css: str, markup: str) -> None:
    assert hidden(page(markup + '<button data-llm-id="y">Save</button>', css), "x")
    assert not hidden(page(markup + '<button data-llm-id="y">Save</button>', css), "y")


@pytest.mark.parametrize(
    "style",
    ["opacity: 0", "opacity:0.0", "position:absolute; left:-9999px", "position: fixed; top: -10000px",
     "width:0; height:0; overflow:hidden", "display : none", "visibility:hidden", "text-indent: -9999px"],
)  # fmt: skip
def test_an_inline_style_that_hides_a_button_is_read(style: str) -> None:
    assert hidden(page(f'<button data-llm-id="x" style="{style}">Save</button>'), "x")


@pytest.mark.parametrize(
    ("css", "markup"),
    [
        (".panel { display: none } .panel.open { display: block }", '<div class="panel open"><button data-llm-id="x">Save</button></div>'),
        (".x { display: none }", '<button data-llm-id="x" class="x" style="display: inline-block">Save</button>'),
        ("@media (max-width: 400px) { .m { display: none } }", '<button data-llm-id="x" class="m">Save</button>'),
        (".m:hover .sub { display: none } .half { opacity: 0.5 }", '<button data-llm-id="x" class="half">Save</button>'),
        ("button::before { display: none } [[broken { display: none }", '<button data-llm-id="x">Save</button>'),
        (".box { width: 0; height: 0 }", '<button data-llm-id="x" class="box">Save</button>'),  # overflows: still seen
    ],
)
def test_what_is_shown_again_or_cannot_be_known_stays_visible(css: str, markup: str) -> None:
    assert not hidden(page(markup, css), "x")


@pytest.mark.parametrize(
    "markup",
    [
        '<input data-llm-id="x" type="checkbox" style="opacity:0"><label>Remember me</label>',
        '<input data-llm-id="x" type="text" style="opacity: 0; width: 1px; height: 1px">',
    ],
)
def test_a_transparent_field_a_page_draws_over_is_still_used(markup: str) -> None:
    assert not hidden(page(markup), "x")
    assert hidden(page('<input data-llm-id="x" type="submit" value="Save" style="opacity:0">'), "x")


@pytest.mark.parametrize("dialog", ['<div role="dialog" aria-modal="true">', '<section aria-modal="TRUE" role="alertdialog">'])
def test_outside_an_open_modal_dialog_everything_is_covered(dialog: str) -> None:
    close = dialog.split()[0].lstrip("<")
    state = page(f'<button data-llm-id="behind">Save</button>{dialog}<p>Cookies?</p><button data-llm-id="in">Accept</button></{close}>')
    assert state.element("behind").occluded and not state.element("behind").actionable  # type: ignore[union-attr]
    assert not state.element("in").occluded  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "dialog",
    [
        '<div role="dialog" aria-modal="true" hidden><button data-llm-id="in">Accept</button></div>',
        '<div role="dialog" aria-modal="false"><button data-llm-id="in">Accept</button></div>',
        '<div role="dialog" aria-modal="true" class="closed"><button data-llm-id="in">Accept</button></div>',
    ],
)
def test_a_closed_or_non_modal_dialog_covers_nothing(dialog: str) -> None:
    state = page(f'<button data-llm-id="behind">Save</button>{dialog}', ".closed { display: none }")
    assert not state.element("behind").occluded  # type: ignore[union-attr]


def test_an_inert_subtree_is_covered() -> None:
    state = page('<div inert><button data-llm-id="x">Save</button></div><button data-llm-id="y">Save</button>')
    assert state.element("x").occluded and not state.element("y").occluded  # type: ignore[union-attr]

