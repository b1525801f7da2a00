"""An autocomplete's suggestions in server-side HTML: the items of a list whose class or id
says it holds suggestions (jQuery UI's ``ul.ui-autocomplete``, "suggestions", "typeahead" …)
are options, as the page script lists them. The CSS pass only looks for them on pages that
carry a hint word (:func:`extract_query`)."""

from __future__ import annotations

import re
from typing import Final

# Class or id words of a list of an autocomplete's suggestions (jQuery UI's ul.ui-autocomplete,
# "suggestions", "typeahead" …), as the page script reads them.
# Substrings the CSS query looks for (fewer selectors are a cheaper pass for Lexbor); the
# exact words are checked by suggestion_list: "complet" covers (auto-)complete, awesomplete
# and completion(s), "ahead" type(-)ahead.
SUGGESTION_HINTS: Final[tuple[str, ...]] = ("complet", "suggest", "ahead")
_SUGGESTION_LIST: Final = re.compile(
    r"(?:^|[-_\s])(?:ui-autocomplete|autocomplete|auto-complete|autocomplete-items|autocomplete-list|suggest|suggests|"
    r"suggestion|suggestions|typeahead|type-ahead|awesomplete|completions?)(?:[-_\s]|$)",
    re.IGNORECASE,
)
_SUGGESTION_TAGS: Final[frozenset[str]] = frozenset({"li", "div", "a", "span", "p"})


def suggestion_list(tag: str, attributes: dict[str, str | None]) -> bool:
    """A list of an autocomplete's suggestions, by its class or id words."""
    if tag in ("input", "textarea", "select"):
        return False
    hint = f"{attributes.get('class') or ''} {attributes.get('id') or ''}"
    return _SUGGESTION_LIST.search(hint) is not None


def suggestion_item(tag: str, attributes: dict[str, str | None], parent_tag: str, parent: dict[str, str | None]) -> bool:
    """An item of a suggestion list with no role of its own: an ``option``, as the page script
    lists it (a jQuery UI ``li.ui-menu-item`` is otherwise only text)."""
    return tag in _SUGGESTION_TAGS and suggestion_list(parent_tag, parent) and not suggestion_list(tag, attributes)


_HINT_BYTES: Final = tuple(word.encode() for word in SUGGESTION_HINTS)


def may_have_suggestions(data: bytes) -> bool:
    """Does a page (scrubbed HTML bytes) carry a hint word anywhere? A substring test (~0.1 ms
    for 200 KB, where a pattern over class attributes took milliseconds); text that happens to
    say "complete" only costs the longer CSS query."""
    lowered = data.lower()
    return any(word in lowered for word in _HINT_BYTES)
