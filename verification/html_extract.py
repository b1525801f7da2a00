"""One pass over server-side HTML: elements, messages, skeleton, DOM hash and page text.

Parsing is Lexbor (selectolax), which builds the same tree a browser does — including for
malformed markup — with scripting on, so ``<noscript>`` content is text and
``<template>`` content is not part of the document: neither yields elements.

Cost model: one C-level CSS pass (:data:`~verification.html_rules.EXTRACT_QUERY`) finds
every node of interest in document order; Python touches only those nodes, plus each
distinct ancestor once (memoised) to learn about hidden ancestors, labels, fieldsets, the
containers (rows, list items, cards, dialogs, sections, forms — each named once, see
:mod:`verification.html_containers`) and the nearest ancestor ``id`` used in positional
keys. The DOM hash is computed from the bytes before parsing (see :mod:`verification.hashing`); the page text is read last, after
scripts, styles and hidden subtrees are unlinked from the tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from selectolax.lexbor import LexborNode

from verification.elements import PageElement, PageMessage, collapse, control_name, message_kind_of, new_element
from verification.hashing import hash_scrubbed, parse_html, resolve_volatile, scrub_html
from verification.html_containers import ContainerNames
from verification.html_repeated import repeated_entries
from verification.html_nodes import (
    ANCHOR,
    CONTAINERS,
    CONTEXT_LIMIT,
    FIELDSET,
    FORM_TAGS,
    HIDDEN,
    IN_MESSAGE,
    LABEL,
    NAME_LIMIT,
    NO_TEXT_TAGS,
    PageNodes,
    Walker,
    collapse_prefix,
    element_name,
    element_value,
    node_text,
    select,
)
from verification.html_rules import (
    EXTRACT_QUERY,
    EXTRACT_QUERY_WITH_SUGGESTIONS,
    element_role,
    element_states,
    signature,
    stable_key,
    unique_key,
)
from verification.html_styles import hidden_by_stylesheet, style_blocks
from verification.html_suggestions import may_have_suggestions
from verification.skeleton import Descriptor, Skeleton, descriptor, make_skeleton, message_map

TEXT_SUMMARY_LIMIT: Final = 2000
_TYPED_TAGS: Final[frozenset[str]] = frozenset({"input", "button"})
_TEXT_ROLES: Final[frozenset[str]] = frozenset({"textbox", "searchbox"})


@dataclass(frozen=True, slots=True)
class HtmlExtraction:
    elements: tuple[PageElement, ...]
    messages: tuple[PageMessage, ...]
    skeleton: Skeleton
    dom_hash: str | None
    text: str
    title: str | None
    focused_element_id: str | None


def _build_elements(
    page: PageNodes, walker: Walker
) -> tuple[list[PageElement], dict[str, Descriptor], str | None]:
    refs = page.referenced_text()
    walk_hidden = bool(page.hidden_ids)
    modals = _open_modals(page, walker)
    inert = frozenset(page.inert_ids)
    containers = ContainerNames(page, walker, refs)
    used: set[str] = set()
    ordinals: dict[tuple[str | None, str], int] = {}
    elements: list[PageElement] = []
    skeleton: dict[str, Descriptor] = {}
    focused: str | None = None
    for node, tag, attrs, role_attr in page.interactive:
        get = attrs.get
        input_type = (
            (get("type") or ("submit" if tag == "button" else "text")).lower()
            if tag in _TYPED_TAGS
            else None
        )
        text = "" if tag in NO_TEXT_TAGS else node_text(node, NAME_LIMIT)
        if (
            tag == "a"
            and not text
            and not (get("href") or role_attr or "tabindex" in attrs or "onclick" in attrs)
        ):
            continue  # a bare named anchor (<a name="top"></a>) is not something to act on
        is_form = tag in FORM_TAGS
        key = stable_key(tag, input_type, attrs)
        up = walker.of(node.parent)
        label = ""
        if is_form:
            own_id = get("id")
            label = page.labels_for.get(own_id, "") if own_id else ""
            if not label and up[LABEL] is not None:
                label_node = page.label_nodes.get(up[LABEL])
                label = node_text(label_node, CONTEXT_LIMIT) if label_node is not None else ""
        labelledby = ""
        if refs and "aria-labelledby" in attrs:
            labelledby = collapse(
                " ".join(refs.get(i, "") for i in (get("aria-labelledby") or "").split()),
                NAME_LIMIT,
            )
        role = element_role(tag, input_type, attrs, role_attr)
        text_field = tag == "textarea" or role in _TEXT_ROLES  # its content is a value, not a name
        name = element_name(
            node, tag, input_type, attrs, "" if text_field else text, label, labelledby
        )
        context_parts = [label] if label and label != name else []
        fieldset = up[FIELDSET]
        if fieldset is not None and fieldset in page.legends:
            context_parts.append(page.legends[fieldset])
        if refs and "aria-describedby" in attrs:
            context_parts.extend(refs.get(i, "") for i in (get("aria-describedby") or "").split())
        context = (
            collapse(" · ".join(p for p in context_parts if p), CONTEXT_LIMIT) or None
            if context_parts
            else None
        )
        value, options = element_value(node, tag, input_type, role, attrs)
        states = element_states(
            tag,
            attrs,
            in_disabled_fieldset=fieldset is not None and fieldset in page.disabled_fieldsets,
        )
        hidden = (
            up[HIDDEN] or input_type == "hidden" or (walk_hidden and node.mem_id in page.hidden_ids)
        )
        if key is None:
            anchor = up[ANCHOR]
            sig = signature(tag, input_type, role_attr)
            n = ordinals.get((anchor, sig), 0)
            ordinals[(anchor, sig)] = n + 1
            key = f"#{anchor} {sig}:{n}" if anchor else f"{sig}:{n}"
        if key in used:
            key = unique_key(key, used)
        else:
            used.add(key)
        chain = up[CONTAINERS]
        container = containers.of(node, chain, text) if chain and not hidden else ()
        # The visible text, when an aria-label / aria-labelledby overrode it as the name.
        shown_text = (
            None if text_field or not text or text == name or text.lower() == name.lower() else text
        )
        element = new_element(
            key, role, name, value, tag, input_type, get("placeholder"), get("href") if tag == "a" else None,
            states, hidden, (bool(modals) and not _inside(node, modals)) or (bool(inert) and _inside(node, inert)),
            None, None, 0, options, context, None,
            container, shown_text, control_name(get("name")) if tag in ("input", "select", "textarea", "button") else None,
        )  # fmt: skip
        elements.append(element)
        if states and focused is None and "focused" in states:
            focused = key
        if not hidden:
            shown = name if text_field else text or name
            skeleton[key] = descriptor(element, text=shown, aria_expanded=get("aria-expanded"))
    return elements, skeleton, focused


def _open_modals(page: PageNodes, walker: Walker) -> frozenset[int]:
    """The shown ``aria-modal="true"`` dialogs: while one is open, everything outside it
    is inert (marked covered, as the page script marks it in a browser) — as is everything
    inside an ``inert`` subtree."""
    return frozenset(n.mem_id for n in page.modals if n.mem_id not in page.hidden_ids and not walker.of(n.parent)[HIDDEN])


def _inside(node: LexborNode, within: frozenset[int]) -> bool:
    current: LexborNode | None = node
    while current is not None:
        if current.mem_id in within:
            return True
        current = current.parent
    return False


def _build_messages(page: PageNodes, walker: Walker) -> list[PageMessage]:
    out: list[PageMessage] = []
    for node, kind in page.message_nodes:
        up = walker.of(node.parent)
        if up[HIDDEN] or up[IN_MESSAGE] or node.mem_id in page.hidden_ids:
            continue
        text = node_text(node, 200)
        if text:
            out.append(PageMessage(kind=message_kind_of(kind, text), text=text))
    return out


def extract_html(
    html: str,
    *,
    volatile_attributes: Iterable[str] | None = None,
    with_hash: bool = True,
    with_text: bool = True,
) -> HtmlExtraction:
    """Everything :class:`~verification.page.PageState` needs from HTML, from one parse."""
    volatile = resolve_volatile(volatile_attributes)
    css = style_blocks(html)
    # Scripts, styles and comments never hold elements or visible text: parsing the
    # scrubbed bytes the hash needs anyway gives the same page from a smaller tree.
    data = scrub_html(html)
    digest = hash_scrubbed(data, volatile) if with_hash else None
    tree = parse_html(data)
    query = EXTRACT_QUERY_WITH_SUGGESTIONS if may_have_suggestions(data) else EXTRACT_QUERY
    page = PageNodes(tree)
    page.classify(select(query, tree.root))
    # Rare attributes get their own pass only on a page that has them somewhere.
    if b"aria-modal" in data:
        page.modals = [n for n in select("[aria-modal]", tree.root) if (n.attributes.get("aria-modal") or "").lower() == "true"]
    if b"inert" in data:
        page.inert_ids = {n.mem_id for n in select("[inert]", tree.root)}
    for node in hidden_by_stylesheet(css, tree.root, select):
        if node.mem_id not in page.hidden_ids:
            page.hidden_ids.add(node.mem_id)
            page.hidden_nodes.append(node)
    for mem in repeated_entries(tree.root):
        page.container_kinds.setdefault(mem, "item")  # a feed of <div class="media"> posts
    walker = Walker(
        page.hidden_ids, {node.mem_id for node, _kind in page.message_nodes}, page.container_kinds
    )
    elements, element_map, focused = _build_elements(page, walker)
    messages = _build_messages(page, walker)
    skeleton = make_skeleton("html", element_map, message_map(messages))
    text = _visible_text(page) if with_text else ""
    return HtmlExtraction(
        elements=tuple(elements),
        messages=tuple(messages),
        skeleton=skeleton,
        dom_hash=digest,
        text=text,
        title=page.title,
        focused_element_id=focused,
    )


def _visible_text(page: PageNodes) -> str:
    """Page text without scripts, styles and hidden subtrees (unlinked from the tree first;
    Lexbor only unlinks, so a node inside an already-removed subtree is safe to visit)."""
    for node in page.pruned:
        node.decompose(recursive=False)
    for node in page.hidden_nodes:
        if node.tag != "html":
            node.decompose(recursive=False)
    body = page.tree.body
    if body is None:
        return ""
    return collapse_prefix(body.text(separator=" ", strip=True), TEXT_SUMMARY_LIMIT)


def extract_semantic_skeleton(html: str) -> Skeleton:
    """The semantic skeleton of an HTML page (see :mod:`verification.skeleton`)."""
    return extract_html(html, with_hash=False, with_text=False).skeleton
