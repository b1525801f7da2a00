"""``PageState``: the one normalised view of a page that every engine reads.

Built either from the V3 ``interactiveTree`` the extension sends (:meth:`PageState.from_v3`)
or from server-side HTML (:meth:`PageState.from_html`). Engines never re-parse HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from verification.elements import MessageKind, PageElement, PageInputError, PageMessage, collapse
from verification.hashing import HtmlTooDeep
from verification.html_extract import TEXT_SUMMARY_LIMIT, extract_html
from verification.skeleton import MESSAGE_LIMIT, Skeleton, make_skeleton
from verification.v3 import V3Parts, parse_v3_tree, v3_hash, v3_skeleton

ERROR_FLAG_TEXT = "The page reports an error"
SUCCESS_FLAG_TEXT = "The page reports success"


@dataclass(frozen=True)
class PageState:
    """Everything known about the page at one request. Immutable; ``element(id)`` is O(1)."""

    url: str
    title: str | None = None
    viewport: tuple[int, int] | None = None
    elements: tuple[PageElement, ...] = ()
    messages: tuple[PageMessage, ...] = ()
    dom_hash: str = ""
    skeleton: Skeleton = field(default_factory=lambda: make_skeleton("v3", {}, {}))
    focused_element_id: str | None = None
    has_errors: bool | None = None
    has_success: bool | None = None
    verification_passed: bool | None = None
    errors_detected: tuple[str, ...] = ()
    success_messages: tuple[str, ...] = ()
    recent_events: tuple[str, ...] = ()
    text_summary: str = ""
    source: Literal["v3", "html"] = "v3"
    _index: dict[str, PageElement] = field(init=False, repr=False, compare=False)
    _memo: dict[str, Any] = field(init=False, repr=False, compare=False)  # derived views, computed once

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {element.id: element for element in self.elements})
        object.__setattr__(self, "_memo", {})

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """A view of the page derived once per page (the page is immutable)."""
        memo = self._memo
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def element(self, element_id: str) -> PageElement | None:
        """The element an action targets, or ``None`` if it is not on this page."""
        return self._index.get(element_id)

    @classmethod
    def from_v3(
        cls,
        tree: Sequence[Mapping[str, Any]],
        *,
        url: str,
        title: str | None = None,
        viewport: Mapping[str, Any] | None = None,
        has_errors: bool | None = None,
        has_success: bool | None = None,
        recent_events: Iterable[str] = (),
        verification_passed: bool | None = None,
        errors_detected: Iterable[str] = (),
        success_messages: Iterable[str] = (),
        dom: str | None = None,
        text: str | None = None,
        extra_elements: Sequence[PageElement] = (),
    ) -> PageState:
        """From the extension's V3 payload. Raises :class:`PageInputError` on a malformed node.

        Messages come from alert/status nodes of the tree, ``errors_detected``,
        ``success_messages`` and — when ``dom`` is also sent — the page's own alerts. The
        page's text is ``text`` (the extension's ``pageText``, one block per line) when sent,
        else the text of ``dom``, else what the tree's names say. ``extra_elements`` are
        elements the tree lacks that the full DOM holds (:func:`dom_only_elements`).
        """
        parts = parse_v3_tree(tree)
        if extra_elements:
            parts = replace(parts, elements=(*parts.elements, *extra_elements))
        errors = tuple(collapse(e, MESSAGE_LIMIT) for e in errors_detected if e and e.strip())
        successes = tuple(collapse(s, MESSAGE_LIMIT) for s in success_messages if s and s.strip())
        dom_text = ""
        dom_messages: tuple[PageMessage, ...] = ()
        if dom is not None:
            extraction = extract_html(dom, with_hash=False)
            dom_messages = extraction.messages
            dom_text = extraction.text
            title = title if title is not None else extraction.title
        messages = _merge_messages(
            parts.tree_messages,
            tuple(PageMessage("error", e) for e in errors),
            tuple(PageMessage("success", s) for s in successes),
            dom_messages,
        )
        flags = _flags(messages, has_errors, has_success)
        return cls(
            url=url,
            title=title,
            viewport=_viewport(viewport),
            elements=parts.elements,
            messages=messages,
            dom_hash=v3_hash(parts, messages, title, flags),
            skeleton=v3_skeleton(parts, messages, flags),
            focused_element_id=next((e.id for e in parts.elements if "focused" in e.states), None),
            has_errors=has_errors,
            has_success=has_success,
            verification_passed=verification_passed,
            errors_detected=errors,
            success_messages=successes,
            recent_events=tuple(str(event) for event in recent_events),
            text_summary=_page_text(text) or dom_text or _summary_from_tree(parts, messages),
            source="v3",
        )

    @classmethod
    def from_html(
        cls,
        html: str,
        *,
        url: str,
        title: str | None = None,
        volatile_attributes: Iterable[str] | None = None,
    ) -> PageState:
        """From server-side HTML: elements keyed by ``data-llm-id``, else ``id``, else
        ``name``, else a positional key; hidden elements are kept and marked ``hidden``."""
        if not isinstance(html, str):
            raise PageInputError(f"dom: expected HTML text, got {type(html).__name__}")
        try:
            extraction = extract_html(html, volatile_attributes=volatile_attributes)
        except HtmlTooDeep as exc:
            raise PageInputError(f"dom: {exc}") from exc
        return cls(
            url=url,
            title=title if title is not None else extraction.title,
            elements=extraction.elements,
            messages=extraction.messages,
            dom_hash=extraction.dom_hash or "",
            skeleton=extraction.skeleton,
            focused_element_id=extraction.focused_element_id,
            text_summary=extraction.text,
            source="html",
        )

    @classmethod
    def from_elements(
        cls,
        elements: Iterable[PageElement],
        *,
        url: str,
        messages: Iterable[PageMessage] = (),
        title: str | None = None,
    ) -> PageState:
        """A page made of ready elements (tests, fixtures, other engines): skeleton and hash
        are derived exactly as for a V3 tree."""
        parts = V3Parts(elements=tuple(elements))
        notes = tuple(messages)
        return cls(
            url=url,
            title=title,
            elements=parts.elements,
            messages=notes,
            dom_hash=v3_hash(parts, notes, title, {}),
            skeleton=v3_skeleton(parts, notes, {}),
            focused_element_id=next((e.id for e in parts.elements if "focused" in e.states), None),
            text_summary=_summary_from_tree(parts, notes),
            source="v3",
        )


def _page_text(text: str | None) -> str:
    """Sent page text: spacing collapsed inside each line, empty lines dropped."""
    if not text:
        return ""
    return "\n".join(line for line in (" ".join(raw.split()) for raw in text.splitlines()) if line)


def _viewport(viewport: Mapping[str, Any] | None) -> tuple[int, int] | None:
    if viewport is None:
        return None
    if not isinstance(viewport, Mapping):
        raise PageInputError(
            f"viewport: expected {{'width': …, 'height': …}}, got {type(viewport).__name__}"
        )
    size: list[int] = []
    for key in ("width", "height"):
        value = viewport.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise PageInputError(f"viewport.{key}: expected a number >= 0, got {value!r}")
        size.append(int(value))
    return size[0], size[1]


def _merge_messages(*groups: tuple[PageMessage, ...]) -> tuple[PageMessage, ...]:
    seen: set[tuple[str, str]] = set()
    out: list[PageMessage] = []
    for group in groups:
        for message in group:
            key = (message.kind, message.text.casefold())
            if key not in seen:
                seen.add(key)
                out.append(message)
    return tuple(out)


def _flags(
    messages: Sequence[PageMessage], has_errors: bool | None, has_success: bool | None
) -> dict[str, str]:
    """Client-reported hasErrors/hasSuccess with no message text become skeleton messages,
    so a flag flipping shows up in the diff like any new alert."""
    kinds: set[MessageKind] = {m.kind for m in messages}
    flags: dict[str, str] = {}
    if has_errors and "error" not in kinds:
        flags["error:flag"] = ERROR_FLAG_TEXT
    if has_success and "success" not in kinds:
        flags["success:flag"] = SUCCESS_FLAG_TEXT
    return flags


def _summary_from_tree(parts: V3Parts, messages: Sequence[PageMessage]) -> str:
    texts = [m.text for m in messages] + [
        e.name for e in parts.elements if e.name and not (e.hidden or e.occluded)
    ]
    return collapse(" · ".join(texts), TEXT_SUMMARY_LIMIT)
