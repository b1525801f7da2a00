"""The containers an element sits in (``PageElement.container``) and its visible text when
the name overrides it (``PageElement.text``): from the V3 tree and from HTML."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.verification.support import URL, page_from_html, v3_page
from verification import PageElement, PageInputError, PageState
from verification.hashing import canonical_hash
from verification.html_containers import ContainerNames
from verification.v3 import parse_v3_tree, v3_hash


def element(page: PageState, key: str) -> PageElement:
    found = page.element(key)
    assert found is not None, [e.id for e in page.elements]
    return found


def containers(body: str, key: str) -> tuple[str, ...]:
    return element(page_from_html(body), key).container


# ---------------------------------------------------------------- V3 tree


def test_v3_ctx_and_t_become_container_and_text() -> None:
    page = v3_page(
        {"i": "1", "r": "btn", "n": "Save", "t": "Delete", "ctx": ["row: Bob Smith · bob@x.org", "section: People"]},
        {"i": "2", "r": "btn", "n": "Edit"},
    )
    decoy, plain = page.elements
    assert decoy.container == ("row: Bob Smith · bob@x.org", "section: People")
    assert decoy.text == "Delete" and decoy.name == "Save"
    assert plain.container == () and plain.text is None


def test_v3_text_equal_to_the_name_and_blank_entries_are_dropped() -> None:
    page = v3_page(
        {"i": "1", "r": "btn", "n": "Save", "t": "  SAVE \n", "ctx": ["  card:   Team \n plan ", " "]},
        {"i": "2", "r": "btn", "n": "Go", "t": "", "ctx": []},
    )
    first, second = page.elements
    assert first.text is None and first.container == ("card: Team plan",)
    assert second.text is None and second.container == ()


def test_v3_ctx_and_t_leave_the_skeleton_alone_but_not_the_hash() -> None:
    node = {"i": "1", "r": "btn", "n": "Deactivate"}
    plain = v3_page(node)
    active = v3_page({**node, "ctx": ["row: Ana Silva · Member"]})
    inactive = v3_page({**node, "ctx": ["row: Ana Silva · Inactive"]})
    decoy = v3_page({**node, "t": "Delete"})
    assert plain.skeleton == active.skeleton == inactive.skeleton == decoy.skeleton
    assert len({plain.dom_hash, active.dom_hash, inactive.dom_hash, decoy.dom_hash}) == 4
    assert v3_page({**node, "ctx": [], "t": "deactivate"}).dom_hash == plain.dom_hash


def test_a_v3_tree_without_ctx_and_t_hashes_as_before() -> None:
    tree = [{"i": "1", "r": "btn", "n": "Save", "xy": [1, 2], "s": "disabled"}]
    parts = parse_v3_tree(tree)
    before = canonical_hash(
        {
            "tree": [["1", "button", "Save", None, ["disabled"], False, False, False, (1.0, 2.0), None, 0, None]],
            "messages": [],
            "title": None,
            "flags": {},
        }
    )
    assert v3_hash(parts, (), None, {}) == before


@pytest.mark.parametrize(
    ("node", "message"),
    [
        ({"ctx": "row: Bob"}, "interactiveTree[0].ctx: expected a list of container strings, got str"),
        ({"ctx": {"row": "Bob"}}, "interactiveTree[0].ctx: expected a list of container strings, got dict"),
        ({"ctx": ["row: Bob", 7]}, "interactiveTree[0].ctx: entry 1: expected a string, got int"),
        ({"ctx": [None]}, "interactiveTree[0].ctx: entry 0: expected a string, got NoneType"),
        ({"ctx": ["a", "b", "c", "d"]}, "interactiveTree[0].ctx: expected at most 3 containers"),
        ({"ctx": ["row: " + "x" * 200]}, "interactiveTree[0].ctx: entry 0: expected at most 200 characters"),
        ({"t": {"text": "Delete"}}, "interactiveTree[0].t: expected text, got dict"),
        ({"t": ["Delete"]}, "interactiveTree[0].t: expected text, got list"),
    ],
)
def test_malformed_ctx_and_t_name_the_node_and_key(node: dict[str, Any], message: str) -> None:
    with pytest.raises(PageInputError) as info:
        PageState.from_v3([{"i": "1", "r": "btn", "n": "Save", **node}], url=URL)
    assert message in str(info.value)
    assert info.value.field == message.partition(":")[0]


def test_ctx_of_a_later_node_names_its_index() -> None:
    with pytest.raises(PageInputError) as info:
        PageState.from_v3([{"i": "1"}, {"i": "2"}, {"i": "3", "ctx": "x"}], url=URL)
    assert info.value.field == "interactiveTree[2].ctx"


# ---------------------------------------------------------------- HTML: rows


PEOPLE = """
<section aria-labelledby="people-h"><h2 id="people-h">People</h2>
<table>
  <thead><tr><th>Name</th><th>Email</th><th><button id="sort">Sort</button></th></tr></thead>
  <tbody>
    <tr><td>Alice Jones</td><td>alice@x.org</td><td><button id="edit-a">Edit</button> <button id="del-a">Delete</button></td></tr>
    <tr><td><a id="bob" href="/bob">Bob Smith</a></td><td>bob@x.org</td><td><button id="edit-b">Edit</button></td></tr>
    <tr role="presentation"><td>Layout</td><td><button id="layout">Go</button></td></tr>
  </tbody>
</table></section>
"""


def test_a_row_is_named_by_its_cells_without_the_elements_own_text() -> None:
    page = page_from_html(PEOPLE)
    assert element(page, "edit-a").container == ("row: Alice Jones · alice@x.org · Delete", "section: People")
    assert element(page, "del-a").container == ("row: Alice Jones · alice@x.org · Edit", "section: People")
    assert element(page, "edit-b").container[0] == "row: Bob Smith · bob@x.org"
    assert element(page, "bob").container[0] == "row: bob@x.org · Edit"  # its own cell empties
    assert element(page, "sort").container[0] == "row: Name · Email"
    assert element(page, "layout").container == ("section: People",)  # role=presentation: no row


def test_aria_rows_and_whole_word_removal() -> None:
    body = (
        '<div role="grid"><div role="row"><div role="gridcell">Editha Edit</div>'
        '<div role="gridcell"><button id="e">Edit</button></div></div></div>'
        '<ul><li>Editha Edit <button id="li-e">Edit</button></li></ul>'
    )
    page = page_from_html(body)
    assert element(page, "e").container == ("row: Editha Edit",)
    assert element(page, "li-e").container == ("item: Editha Edit",)  # "Editha" is not "Edit"


# ---------------------------------------------------------------- HTML: items and cards


def test_list_items_by_heading_else_text() -> None:
    body = (
        "<ul>"
        '<li>Milk <button id="milk">Remove</button></li>'
        '<li><h4>Eggs</h4><p>A dozen</p><button id="eggs">Remove</button></li>'
        '<li><a id="home" href="/">Home</a></li>'
        '<li role="presentation">Skip <a id="skip" href="#main">me</a></li>'
        "</ul>"
        '<div role="list"><div role="listitem">Bread <button id="bread">Remove</button></div></div>'
    )
    page = page_from_html(body)
    assert element(page, "milk").container == ("item: Milk",)
    assert element(page, "eggs").container == ("item: Eggs",)
    assert element(page, "home").container == ()  # an item that is only the link names nothing
    assert element(page, "skip").container == ()
    assert element(page, "bread").container == ("item: Bread",)


def test_cards_by_tag_role_and_class() -> None:
    body = (
        '<article><h3>Starter</h3><p>One person</p><a id="a" href="/buy/1">Choose</a></article>'
        '<div role="article"><p>Team plan for five</p><a id="b" href="/buy/2">Choose</a></div>'
        '<div class="cards"><div class="product-card"><div class="card-body">'
        '<h5 class="card-title">Lamp</h5><button id="c">Add</button></div></div></div>'
        '<div class="discount-banner"><button id="d">Apply</button></div>'
        '<div class="ProductCard"><p>Desk</p><button id="e">Add</button></div>'
    )
    page = page_from_html(body)
    assert element(page, "a").container == ("card: Starter",)
    assert element(page, "b").container == ("card: Team plan for five",)
    # "cards" (a grid of them) and "card-body" (a part of one) are not cards.
    assert element(page, "c").container == ("card: Lamp",)
    assert element(page, "d").container == ()
    assert element(page, "e").container == ("card: Desk",)


def test_a_heading_names_only_its_nearest_container() -> None:
    body = (
        "<section>"
        '<section><h2>Billing</h2><button id="pay">Pay</button></section>'
        '<section><h2>Shipping</h2><button id="ship">Ship</button></section>'
        '<button id="outer">Outer</button>'
        "</section>"
    )
    page = page_from_html(body)
    assert element(page, "ship").container == ("section: Shipping",)  # not also "Billing"
    assert element(page, "outer").container == ()


# ---------------------------------------------------------------- HTML: dialogs, sections, forms


def test_dialogs_by_label_labelledby_and_heading() -> None:
    body = (
        '<dialog open aria-label="Confirm"><button id="a">OK</button></dialog>'
        '<div role="dialog" aria-labelledby="t"><span id="t">Delete Bob?</span><button id="b">Yes</button></div>'
        '<div role="alertdialog"><h2>Session expiring</h2><button id="c">Stay</button></div>'
        '<dialog open><button id="d">Close</button></dialog>'
        '<dialog><button id="e">Hidden</button></dialog>'
    )
    page = page_from_html(body)
    assert element(page, "a").container == ("dialog: Confirm",)
    assert element(page, "b").container == ("dialog: Delete Bob?",)
    assert element(page, "c").container == ("dialog: Session expiring",)
    assert element(page, "d").container == ("dialog:",)  # "the Close button in the dialog"
    hidden = element(page, "e")
    assert hidden.hidden and hidden.container == ()


def test_sections_fieldsets_and_forms() -> None:
    body = (
        '<section aria-label="Profile"><button id="a">Save</button></section>'
        '<div role="region" aria-labelledby="r"><h3 id="r">Danger zone</h3><button id="b">Delete</button></div>'
        '<form aria-label="Address"><fieldset><legend>Street</legend><input id="c"></fieldset>'
        '<button id="d">Save</button></form>'
        '<form><h2>Sign in</h2><input id="e" aria-label="Email"></form>'
        '<form><input id="f" aria-label="Search"></form>'
        '<section><div><button id="g">Lonely</button></div></section>'
    )
    page = page_from_html(body)
    assert element(page, "a").container == ("section: Profile",)
    assert element(page, "b").container == ("section: Danger zone",)
    assert element(page, "c").container == ("section: Street", "form: Address")
    assert element(page, "d").container == ("form: Address",)
    assert element(page, "e").container == ("form: Sign in",)
    assert element(page, "f").container == ()  # an unnamed form or section is skipped
    assert element(page, "g").container == ()


def test_nested_containers_keep_the_nearest_three() -> None:
    body = (
        '<section aria-label="Admin"><form aria-label="Users">'
        '<article class="card"><h3>Team A</h3><table><tr><td>Bob</td><td><button id="x">Edit</button></td></tr>'
        "</table></article></form></section>"
    )
    assert containers(body, "x") == ("row: Bob", "card: Team A", "form: Users")


def test_container_text_is_collapsed_and_cut() -> None:
    long = "word " * 60
    body = f'<section aria-label="{long}"><button id="x">Go</button></section>'
    (entry,) = containers(body, "x")
    assert entry.startswith("section: word word") and entry.endswith("…")
    assert len(entry) == len("section: ") + 120


def test_each_container_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    original = ContainerNames._read

    def counting(self: ContainerNames, mem: int) -> Any:
        reads.append(mem)
        return original(self, mem)

    monkeypatch.setattr(ContainerNames, "_read", counting)
    rows = "".join(f'<tr><td>Person {n}</td><td><button>Edit</button> <button>Delete</button></td></tr>' for n in range(50))
    page = page_from_html(f'<section aria-label="People"><table>{rows}</table></section>')
    assert len(page.elements) == 100
    assert len(reads) == len(set(reads)) == 51  # 50 rows and the section
    assert page.elements[99].container == ("row: Person 49 · Edit", "section: People")


# ---------------------------------------------------------------- HTML: visible text


def test_visible_text_is_kept_when_the_name_overrides_it() -> None:
    body = (
        '<button id="decoy" aria-label="Save">Delete</button>'
        '<button id="save">Save</button>'
        '<button id="case" aria-label="save">  SAVE </button>'
        '<span id="l">Remove Bob</span><a id="ref" href="/x" aria-labelledby="l">Delete</a>'
        '<button id="icon" title="Close"></button>'
        '<input id="field" aria-label="Name" value="Jas"><textarea id="area" aria-label="Notes">hello</textarea>'
    )
    page = page_from_html(body)
    decoy = element(page, "decoy")
    assert decoy.name == "Save" and decoy.text == "Delete"
    assert element(page, "ref").text == "Delete"
    for key in ("save", "case", "icon", "field", "area"):
        assert element(page, key).text is None, key


def test_pages_without_containers_are_unchanged() -> None:
    page = page_from_html('<button id="a">Save</button><a id="b" href="/x">Help</a>')
    assert [(e.container, e.text) for e in page.elements] == [((), None), ((), None)]


def test_an_entry_inside_a_bare_wrapper_is_still_an_entry() -> None:
    """A classless div (an animation or layout wrapper) around one box of a list of repeated
    boxes is looked through, wherever the wrapped box stands and however deep."""
    field = '<div class="field"><label for="{id}">{label}</label><input id="{id}"></div>'
    boxes = [field.format(id=f"f{n}", label=label) for n, label in enumerate(("Name", "Date of birth", "Notes"))]
    for wrapped in range(3):
        for depth in (1, 2):
            shown = list(boxes)
            shown[wrapped] = "<div>" * depth + shown[wrapped] + "</div>" * depth
            page = page_from_html("<form>" + "".join(shown) + "<button>Save</button></form>")
            assert [element(page, f"f{n}").container for n in range(3)] == [
                ("item: Name",), ("item: Date of birth",), ("item: Notes",)
            ], (wrapped, depth)
    # A wrapper with a class, a role or text of its own is a box of its own: not looked through.
    for wrapper in ('<div class="highlight">', '<div role="group">', "<div>New: "):
        page = page_from_html("<form>" + boxes[0] + wrapper + boxes[1] + "</div></form>")
        assert (element(page, "f0").container, element(page, "f1").container) == ((), ()), wrapper  # no twins left
