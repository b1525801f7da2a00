"""The containers an element sits in, named as a person would name them (server-side HTML).

``PageElement.container``, nearest first, at most :data:`CONTAINER_LIMIT`, each
``"<kind>: <text>"`` with the text whitespace-collapsed and cut at
:data:`CONTAINER_TEXT_LIMIT` characters:

* ``row`` (``tr``, ``[role=row]``): the texts of the row's cells, the element's own text
  taken out of its cell, joined with " · ";
* ``item`` (``li``, ``[role=listitem]``, a box repeated with its tag and class that holds
  text and a control — :mod:`verification.html_repeated`) and ``card`` (``article``, ``[role=article]``, a
  card class — see :func:`~verification.html_rules.container_kind`): its heading, else its
  text without the element's own text;
* ``dialog`` (``dialog``, ``[role=dialog]``, ``[role=alertdialog]``): aria-label,
  aria-labelledby text or heading;
* ``section`` (``section``, ``[role=region]``, ``fieldset``): aria-label, aria-labelledby
  text, legend or heading;
* ``form``: aria-label, aria-labelledby text, heading or legend.

A container with no identifying text is skipped, except a dialog (``"dialog:"``: "the OK
button in the dialog" still means something). An entry equal to a nearer one is dropped.
A container's heading (or legend) is the first one inside it whose nearest container it is:
a section never takes its name from a card inside it.

Cost: each container is read once per page, from the nodes the one CSS pass found and the
ancestors the :class:`~verification.html_nodes.Walker` visits anyway; per element, only its
own text is taken out of a row cell or an item/card text, and only where that changes the
first :data:`CONTAINER_TEXT_LIMIT` characters. Hidden elements get none (they never satisfy
a goal-contract clause, and a V3 tree never holds them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from selectolax.lexbor import LexborNode

from verification.elements import CONTAINER_LIMIT, CONTAINER_TEXT_LIMIT, collapse
from verification.html_nodes import (
    CONTAINERS,
    NAME_LIMIT,
    Chain,
    PageNodes,
    Walker,
    collapse_prefix,
    node_text,
)

# Characters of a row cell / item / card text kept: enough to take an element's text out
# and still have CONTAINER_TEXT_LIMIT left.
TEXT_WINDOW: Final = 400
_LABELLED: Final[frozenset[str]] = frozenset({"dialog", "section", "form"})  # by aria-labelledby


def _entry(kind: str, text: str) -> str | None:
    if text:
        return f"{kind}: {text}"
    return f"{kind}:" if kind == "dialog" else None


def _window(node: LexborNode) -> str:
    """The node's text, collapsed, cut at TEXT_WINDOW (no ellipsis)."""
    raw = node.text(separator=" ", skip_empty=True)  # = strip=True once collapsed; cheaper
    return " ".join(raw.split()) if len(raw) <= TEXT_WINDOW else collapse_prefix(raw, TEXT_WINDOW)


def _cut(text: str) -> str:
    """``collapse(text, CONTAINER_TEXT_LIMIT)`` for a text that is already collapsed."""
    if len(text) <= CONTAINER_TEXT_LIMIT:
        return text
    return text[: CONTAINER_TEXT_LIMIT - 1].rstrip() + "…"


def _without(text: str, own: str) -> str:
    """Collapsed ``text`` without the first occurrence of the collapsed ``own`` — as whole
    words if it occurs so ("Edit" leaves "Editha" alone), else anywhere."""
    at = f" {text} ".find(f" {own} ")
    if at < 0:
        at = text.find(own[:CONTAINER_TEXT_LIMIT])  # a long text may run past the window
        if at < 0:
            return text
    return f"{text[:at].rstrip()} {text[at + len(own):].lstrip()}".strip()


_SEPARATOR: Final = " · "


@dataclass(frozen=True, slots=True)
class _Row:
    mem: int
    cells: dict[int, tuple[int, str]]  # child element mem_id → (offset in ``joined``, text)
    joined: str  # the cells' texts joined with " · "
    whole: str | None  # the entry when the element's own text changes nothing shown

    def entry(self, node: LexborNode, own: str) -> str | None:
        joined = self.joined
        if joined.find(own[:CONTAINER_TEXT_LIMIT], 0, CONTAINER_TEXT_LIMIT + len(own)) < 0:
            return self.whole  # taking it out would change nothing of what is kept
        cell = node  # the row's child the element is in (or is)
        parent = cell.parent
        while parent is not None and parent.mem_id != self.mem:
            cell, parent = parent, parent.parent
        offset, text = self.cells.get(cell.mem_id, (CONTAINER_TEXT_LIMIT, ""))
        if offset >= CONTAINER_TEXT_LIMIT or own not in text:
            return self.whole
        before, after = joined[:offset], joined[offset + len(text) :]
        rest = _without(text, own)
        if rest:
            return _entry("row", _cut(before + rest + after))
        if before:
            return _entry("row", _cut(before[: -len(_SEPARATOR)] + after))
        return _entry("row", _cut(after[len(_SEPARATOR) :]))


def _row(mem: int, cells: list[tuple[int, str]]) -> _Row:
    by_cell: dict[int, tuple[int, str]] = {}
    offset = 0
    for cell, text in cells:
        by_cell[cell] = (offset, text)
        if text:
            offset += len(text) + len(_SEPARATOR)
    joined = _SEPARATOR.join(text for _cell, text in cells if text)
    return _Row(mem, by_cell, joined, _entry("row", _cut(joined)))


@dataclass(frozen=True, slots=True)
class _Text:
    kind: str
    text: str
    whole: str | None  # the entry when the element's own text is not in its first part
    empty: str | None  # the entry when the element's own text is all of it

    def entry(self, node: LexborNode, own: str) -> str | None:
        text = self.text
        if own == text:  # a list item that is just a link
            return self.empty
        if text.find(own[:CONTAINER_TEXT_LIMIT], 0, CONTAINER_TEXT_LIMIT + len(own)) < 0:
            return self.whole
        return _entry(self.kind, _cut(_without(text, own)))


def _text(kind: str, text: str) -> _Text:
    return _Text(kind, text, _entry(kind, _cut(text)), _entry(kind, ""))


class ContainerNames:
    """Names of one page's containers, each read once."""

    def __init__(self, page: PageNodes, walker: Walker, refs: Mapping[str, str]) -> None:
        self.page = page
        self.walker = walker
        self.refs = refs
        # Per container: its entry, None when it is skipped, or what the entry is made of
        # once the element's own text is known.
        self.entries: dict[int, str | _Row | _Text | None] = {}
        self._headings: tuple[dict[int, LexborNode], dict[int, LexborNode]] | None = None
        self._by_id: dict[str, LexborNode | str] | None = None
        self._other_ids: dict[str, str] | None = None

    def of(self, node: LexborNode, chain: Chain, text: str) -> tuple[str, ...]:
        """The entries for ``node`` (an element), whose ancestors' containers are ``chain``
        and whose text, cut at ``NAME_LIMIT``, is ``text`` (empty for inputs and selects:
        their values and options stay in a row's or an item's text)."""
        out: list[str] = []
        own: str | None = None
        entries = self.entries
        for mem in chain:
            if mem in entries:
                found = entries[mem]
            else:
                found = entries[mem] = self._read(mem)
            if found is None:
                continue
            if isinstance(found, str):
                entry: str | None = found
            else:
                if own is None:
                    own = text if len(text) < NAME_LIMIT else _window(node)
                entry = found.entry(node, own) if own else found.whole
            if entry is not None and entry not in out:
                out.append(entry)
                if len(out) == CONTAINER_LIMIT:
                    break
        return tuple(out)

    def _read(self, mem: int) -> str | _Row | _Text | None:
        node = self.walker.containers[mem]
        kind = self.walker.kind(mem)
        if kind == "row":
            cells = [(cell.mem_id, _window(cell)) for cell in node.iter()]
            return _row(mem, cells) if cells else _text(kind, _window(node))
        headings, legends = self._owned()
        heading = headings.get(mem)
        name = node_text(heading, CONTAINER_TEXT_LIMIT) if heading is not None else ""
        if kind in ("item", "card"):
            return _entry(kind, name) if name else _text(kind, _window(node))
        attrs = node.attributes
        label = collapse(attrs.get("aria-label") or "", CONTAINER_TEXT_LIMIT)
        if not label and attrs.get("aria-labelledby"):
            label = self._labelledby((attrs.get("aria-labelledby") or "").split())
        if not label and node.tag == "fieldset":
            label = self.page.legends.get(mem, "")
        if not label and not name and kind == "form" and mem in legends:
            name = node_text(legends[mem], CONTAINER_TEXT_LIMIT)
        return _entry(kind, label or name)

    def _labelledby(self, ids: list[str]) -> str:
        """The text aria-labelledby names: mostly a heading (its id is at hand) or an
        element's label (read already); any other id is looked up in one CSS pass."""
        by_id = self._by_id
        if by_id is None:
            by_id = self._by_id = {}
            for heading, _is_legend in self.page.headings:
                heading_id = heading.id
                if heading_id and heading_id not in by_id:
                    by_id[heading_id] = heading
        texts: list[str] = []
        for ref in ids:
            found = by_id.get(ref)
            if found is None and ref not in self.refs:
                found = self._look_up().get(ref)
            if isinstance(found, LexborNode):
                found = by_id[ref] = node_text(found, CONTAINER_TEXT_LIMIT)
            texts.append(found if found is not None else self.refs.get(ref, ""))
        return collapse(" ".join(texts), CONTAINER_TEXT_LIMIT)

    def _look_up(self) -> dict[str, str]:
        """The texts of every id that the aria-labelledby of a dialog, section or form around
        an element names, in one CSS pass (the first time one is not a heading's)."""
        if self._other_ids is None:
            walker = self.walker
            for node, _tag, _attrs, _role in self.page.interactive:
                walker.of(node.parent)  # every container an element is in is now known
            wanted: set[str] = set()
            for mem, node in walker.containers.items():
                if walker.kind(mem) in _LABELLED:
                    wanted.update((node.attributes.get("aria-labelledby") or "").split())
            self._other_ids = self.page.text_by_id(wanted, CONTAINER_TEXT_LIMIT)
        return self._other_ids

    def _owned(self) -> tuple[dict[int, LexborNode], dict[int, LexborNode]]:
        """Each container's first heading and first legend among those it is the nearest
        container of — from the headings the CSS pass found, in document order."""
        if self._headings is None:
            headings: dict[int, LexborNode] = {}
            legends: dict[int, LexborNode] = {}
            for heading, is_legend in self.page.headings:
                chain = self.walker.of(heading.parent)[CONTAINERS]
                if chain:
                    (legends if is_legend else headings).setdefault(chain[0], heading)
            self._headings = (headings, legends)
        return self._headings
