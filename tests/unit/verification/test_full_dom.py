"""Elements of the full DOM that the V3 tree lacks join the page (only those the client can act on)."""

from __future__ import annotations

from verification import PageState, dom_only_elements

TREE = [{"i": "1", "r": "btn", "n": "Reply"}]
DOM = """<html><body>
<button data-llm-id="1">Reply</button>
<span role="button" tabindex="0" data-llm-id="77">Archive</span>
<button id="delete">Delete</button>
<button data-llm-id="78" style="display:none">Hidden</button>
</body></html>"""


def test_only_stamped_visible_elements_the_tree_lacks() -> None:
    extra = dom_only_elements(DOM, TREE)
    assert [(e.id, e.name) for e in extra] == [("77", "Archive")]
    assert dom_only_elements("<p>no stamps</p>", TREE) == ()
    assert dom_only_elements(DOM.replace('data-llm-id="77"', 'data-llm-id="1"'), TREE) == ()


def test_the_page_gets_them_next_to_the_tree() -> None:
    page = PageState.from_v3(TREE, url="https://m.example/", dom=DOM, extra_elements=dom_only_elements(DOM, TREE))
    assert [e.id for e in page.elements] == ["1", "77"]
    assert page.element("77") is not None and page.element("77").actionable  # type: ignore[union-attr]
    plain = PageState.from_v3(TREE, url="https://m.example/", dom=DOM)
    assert [e.id for e in plain.elements] == ["1"] and plain.dom_hash != page.dom_hash
