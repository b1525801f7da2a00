"""Node-level reading for the HTML extraction: classify the nodes one CSS pass found,
and answer per-node questions (text, value, name, ancestors) as cheaply as possible."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Final

from selectolax.lexbor import LexborCSSSelector, LexborHTMLParser, LexborNode

from verification.elements import MessageKind, collapse
from verification.hashing import PRUNED_TAGS
from verification.html_rules import (
    CONTAINER_ROLES,
    CONTAINER_TAGS,
    HEADING_TAGS,
    container_kind,
    explicit_role,
    hides_subtree,
    is_interactive,
    message_kind,
)
from verification.html_suggestions import suggestion_item

NAME_LIMIT: Final = 100
CONTEXT_LIMIT: Final = 80
MAX_OPTIONS: Final = 100
FORM_TAGS: Final[frozenset[str]] = frozenset({"input", "select", "textarea"})
NO_TEXT_TAGS: Final[frozenset[str]] = frozenset({"input", "select"})
_BUTTON_INPUTS: Final[dict[str, str]] = {
    "submit": "Submit",
    "reset": "Reset",
    "button": "",
    "image": "",
}

_local = threading.local()


def _selector() -> LexborCSSSelector:
    # Each parsed document would otherwise build its own CSS engine (~150 KB); one engine
    # per thread serves every document. Lexbor's engine is not thread-safe, hence per thread.
    selector: LexborCSSSelector | None = getattr(_local, "selector", None)
    if selector is None:
        selector = _local.selector = LexborCSSSelector()  # type: ignore[no-untyped-call]  # stub lacks -> None
    return selector


def select(query: str, node: LexborNode | None) -> list[LexborNode]:
    """Nodes matching ``query`` in ``node``'s subtree (the node itself included)."""
    return _selector().find(query, node) if node is not None else []


def select_first(query: str, node: LexborNode) -> LexborNode | None:
    found = _selector().find(query, node)
    return found[0] if found else None


# The mem_ids of the containers around a node, nearest first.
Chain = tuple[int, ...]
CHAIN_LIMIT: Final = 6  # a few more than an element keeps: unnamed ones are skipped
# Ancestor facts, as a plain tuple (cheaper than a NamedTuple on this hot path):
# (inside a hidden subtree, nearest ancestor id, nearest <label> mem_id,
#  nearest <fieldset> mem_id, inside a message node, containers)
_Ancestry = tuple[bool, "str | None", "int | None", "int | None", bool, Chain]
HIDDEN: Final = 0
ANCHOR: Final = 1
LABEL: Final = 2
FIELDSET: Final = 3
IN_MESSAGE: Final = 4
CONTAINERS: Final = 5
ROOT: _Ancestry = (False, None, None, None, False, ())


class Walker:
    """Memoised ancestor facts: each distinct ancestor is visited once per page.

    ``kinds`` holds the container kind of the nodes whose tag alone does not tell it (an
    explicit role, a card class); ``containers`` collects every container met, by mem_id
    (:meth:`kind` tells which)."""

    def __init__(self, hidden: set[int], messages: set[int], kinds: dict[int, str]) -> None:
        self.hidden = hidden
        self.messages = messages
        self.kinds = kinds
        self.memo: dict[int, _Ancestry] = {}
        self.containers: dict[int, LexborNode] = {}

    def kind(self, mem: int) -> str:
        """The kind of the container ``containers[mem]``."""
        return self.kinds.get(mem) or CONTAINER_TAGS[self.containers[mem].tag or ""]

    def of(self, node: LexborNode | None) -> _Ancestry:
        path: list[LexborNode] = []
        memo = self.memo
        found = ROOT
        while node is not None:
            known = memo.get(node.mem_id)
            if known is not None:
                found = known
                break
            path.append(node)
            node = node.parent
        hidden_ids = self.hidden
        message_ids = self.messages
        kinds = self.kinds
        containers = self.containers
        for item in reversed(path):
            mem = item.mem_id
            tag = item.tag
            hidden, anchor, label, fieldset, in_message, chain = found
            if tag in CONTAINER_TAGS or mem in kinds:
                kind = kinds.get(mem)
                if kind is None:
                    kind = CONTAINER_TAGS[tag]  # type: ignore[index]  # tag is a str here
                if kind:
                    containers[mem] = item
                    chain = (mem, *chain[: CHAIN_LIMIT - 1])
            node_id = item.id
            if (
                node_id
                or chain is not found[CONTAINERS]
                or tag == "label"
                or tag == "fieldset"
                or mem in hidden_ids
                or mem in message_ids
            ):  # else: the parent's facts, shared (most nodes; saves a tuple each)
                found = (
                    hidden or mem in hidden_ids,
                    node_id or anchor,
                    mem if tag == "label" else label,
                    mem if tag == "fieldset" else fieldset,
                    in_message or mem in message_ids,
                    chain,
                )
            memo[mem] = found
        return found


def node_text(node: LexborNode, limit: int) -> str:
    return collapse(node.text(separator=" ", strip=True)[: limit * 4], limit)


def collapse_prefix(text: str, limit: int) -> str:
    """Whitespace-collapse only as much of ``text`` as needed for ``limit`` characters."""
    window = limit * 2
    while True:
        out = " ".join(text[:window].split())
        if len(out) >= limit or window >= len(text):
            return out[:limit]
        window *= 4


class PageNodes:
    """Mutable state of one extraction; turned into an :class:`HtmlExtraction`."""

    def __init__(self, tree: LexborHTMLParser) -> None:
        self.tree = tree
        self.hidden_ids: set[int] = set()
        self.hidden_nodes: list[LexborNode] = []
        self.interactive: list[tuple[LexborNode, str, dict[str, str | None], str | None]] = []
        self.message_nodes: list[tuple[LexborNode, MessageKind]] = []
        self.pruned: list[LexborNode] = []
        self.labels_for: dict[str, str] = {}
        self.label_nodes: dict[int, LexborNode] = {}
        self.legends: dict[int, str] = {}
        self.disabled_fieldsets: set[int] = set()
        self.title: str | None = None
        # Containers: kinds the tag does not tell, and the headings and legends that may
        # name them (in document order, True for a legend).
        self.container_kinds: dict[int, str] = {}
        self.headings: list[tuple[LexborNode, bool]] = []
        # Dialogs that make the rest of the page inert while shown, and inert subtrees
        # (filled by extract_html, from their own pass when the page has them).
        self.modals: list[LexborNode] = []
        self.inert_ids: set[int] = set()

    def classify(self, nodes: Iterable[LexborNode]) -> None:
        seen: set[int] = set()
        for node in nodes:
            mem = node.mem_id
            if mem in seen:  # Lexbor reports a node once per selector of the list it matches
                continue
            seen.add(mem)
            tag = node.tag or ""
            if tag in PRUNED_TAGS:
                self.pruned.append(node)
                continue
            attrs = node.attributes
            role = explicit_role(attrs)
            classes = attrs.get("class")
            if (
                role in CONTAINER_ROLES
                or tag in CONTAINER_TAGS
                or (classes is not None and ("card" in classes or "Card" in classes))
            ):
                container = container_kind(tag, role, attrs)
                if container != CONTAINER_TAGS.get(tag, ""):  # a role or class says otherwise
                    self.container_kinds[mem] = container
            if hides_subtree(tag, attrs):
                self.hidden_ids.add(mem)
                self.hidden_nodes.append(node)
            if tag == "label":
                target = attrs.get("for")
                if target:
                    self.labels_for.setdefault(target, node_text(node, CONTEXT_LIMIT))
                else:
                    self.label_nodes[mem] = node
                continue
            if tag == "legend":
                self.headings.append((node, True))
                parent = node.parent
                if parent is not None and parent.tag == "fieldset":
                    self.legends.setdefault(parent.mem_id, node_text(node, CONTEXT_LIMIT))
                continue
            if tag == "fieldset":
                if "disabled" in attrs:
                    self.disabled_fieldsets.add(mem)
                continue
            if tag == "title":
                parent = node.parent
                if self.title is None and parent is not None and parent.tag == "head":
                    self.title = node_text(node, 300)
                continue
            if tag in HEADING_TAGS or role == "heading":
                self.headings.append((node, False))
            if is_interactive(tag, role, attrs):
                self.interactive.append((node, tag, attrs, role))
                continue
            parent = node.parent
            if role is None and parent is not None and suggestion_item(tag, attrs, parent.tag or "", parent.attributes):
                self.interactive.append((node, tag, attrs, "option"))  # an autocomplete's suggestion
                continue
            kind = message_kind(role, attrs)
            if kind is not None:
                self.message_nodes.append((node, kind))

    def referenced_text(self) -> dict[str, str]:
        """Text of elements named by aria-labelledby / aria-describedby, in one CSS pass."""
        wanted: set[str] = set()
        for _node, _tag, attrs, _role in self.interactive:
            for attr in ("aria-labelledby", "aria-describedby"):
                value = attrs.get(attr)
                if value:
                    wanted.update(value.split())
        return self.text_by_id(wanted, CONTEXT_LIMIT)

    def text_by_id(self, wanted: set[str], limit: int) -> dict[str, str]:
        """Text of the elements with these ids (the first of each), in one CSS pass."""
        if not wanted:
            return {}
        ids = sorted(wanted)[:200]
        query = ", ".join(
            '[id="{}"]'.format(i.replace("\\", "\\\\").replace('"', '\\"')) for i in ids
        )
        out: dict[str, str] = {}
        for node in select(query, self.tree.root):
            node_id = node.id
            if node_id and node_id not in out:
                out[node_id] = node_text(node, limit)
        return out


def element_value(
    node: LexborNode, tag: str, input_type: str | None, role: str, attrs: dict[str, str | None]
) -> tuple[str | None, tuple[str, ...]]:
    if tag == "input":
        return (None if input_type == "password" else attrs.get("value")), ()
    if tag == "textarea":
        return node.text().strip(), ()
    if tag == "select":
        options = select("option", node)[:MAX_OPTIONS]
        texts = tuple(node_text(option, NAME_LIMIT) for option in options)
        chosen = next((i for i, option in enumerate(options) if "selected" in option.attributes), 0)
        return (texts[chosen] if texts else None), texts
    if role in ("textbox", "searchbox") or "contenteditable" in attrs:
        return node_text(node, 1000), ()
    return attrs.get("aria-valuenow"), ()


def element_name(
    node: LexborNode,
    tag: str,
    input_type: str | None,
    attrs: dict[str, str | None],
    text: str,
    label: str,
    labelledby: str,
) -> str:
    aria = attrs.get("aria-label")
    if aria and aria.strip():
        return collapse(aria, NAME_LIMIT)
    if labelledby:
        return labelledby
    if label and tag in FORM_TAGS:
        return label
    if text:
        return text
    if tag == "input" and input_type in _BUTTON_INPUTS:
        return collapse(
            attrs.get("value") or attrs.get("alt") or _BUTTON_INPUTS[input_type], NAME_LIMIT
        )
    if tag not in NO_TEXT_TAGS:
        image = select_first("img[alt]", node)
        if image is not None:
            alt = collapse(image.attributes.get("alt") or "", NAME_LIMIT)
            if alt:
                return alt
    for attr in ("title", "placeholder"):
        value = attrs.get(attr)
        if value and value.strip():
            return collapse(value, NAME_LIMIT)
    return ""
