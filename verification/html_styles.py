"""What a page's own stylesheet and inline styles hide, as far as it can be known without a
browser (the HTML path; in the V3 path the page script asks the browser itself).

An element is not shown when the rule that wins for it (inline style first, then the
``<style>`` rules by specificity and order, ``!important`` above both) says ``display:
none``, ``visibility: hidden`` / ``collapse``, ``opacity: 0``, parks it far off the page
(``left`` / ``top`` / ``right`` at -1000px or beyond, or a ``text-indent`` as far), or gives
it no size (``width`` and ``height`` of at most 1px with ``overflow: hidden`` or a ``clip``).
``<style>`` selectors are matched with Lexbor's CSS engine (the one the extraction already
uses); a selector it cannot parse, a pseudo-element, and rules inside ``@media`` or other
at-rules (they may not apply to this screen) are left out: what cannot be known is not
assumed hidden. Linked stylesheets are not fetched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Final

from selectolax.lexbor import LexborNode, SelectolaxError

_STYLE_BLOCK: Final = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.IGNORECASE | re.DOTALL)
_COMMENT: Final = re.compile(r"/\*.*?\*/", re.DOTALL)
_AT_BLOCK: Final = re.compile(r"@[^{;]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}|@[^{;]*;")
_RULE: Final = re.compile(r"([^{}]+)\{([^{}]*)\}")
_FAR: Final = -1000.0
_PROPERTIES: Final = frozenset(
    {"display", "visibility", "opacity", "left", "top", "right", "text-indent", "width", "height", "overflow", "clip", "clip-path"}
)
_LENGTH: Final = re.compile(r"^(-?\d*\.?\d+)(px|em|rem|%|vw|vh)?$")
# Inline styles worth reading (with display and visibility): nothing else hides an element.
INLINE_HINTS: Final = ("opacity", "left", "top", "right", "indent", "width", "clip")

Declarations = dict[str, tuple[str, bool]]  # property -> (value, !important)


def style_blocks(html: str) -> str:
    """The text of the page's ``<style>`` blocks (read before they are scrubbed)."""
    return "\n".join(m.group(1) for m in _STYLE_BLOCK.finditer(html))


def declarations(text: str) -> Declarations:
    out: Declarations = {}
    for part in text.split(";"):
        name, sep, value = part.partition(":")
        name = name.strip().lower()
        if not sep or name not in _PROPERTIES:
            continue
        value = value.strip().lower()
        important = value.endswith("!important")
        out[name] = (value.removesuffix("!important").strip(), important)
    return out


def _specificity(selector: str) -> tuple[int, int, int]:
    bare = re.sub(r"\[[^\]]*\]", "[]", selector)
    ids = bare.count("#")
    classes = bare.count(".") + bare.count("[]") + len(re.findall(r":(?!:)[a-z-]+", bare))
    tags = len(re.findall(r"(?:^|[\s>+~(])([a-z][a-z0-9-]*)", bare, re.IGNORECASE))
    return ids, classes, tags


def _rules(css: str) -> Iterator[tuple[str, Declarations]]:
    css = _AT_BLOCK.sub(" ", _COMMENT.sub(" ", css))
    for match in _RULE.finditer(css):
        decls = declarations(match.group(2))
        if not decls:
            continue
        for selector in match.group(1).split(","):
            selector = selector.strip()
            if selector and "::" not in selector and ":before" not in selector and ":after" not in selector:
                yield selector, decls


def _px(value: str) -> float | None:
    found = _LENGTH.match(value.replace(" ", ""))
    if found is None:
        return None
    number, unit = float(found.group(1)), found.group(2) or "px"
    return number * 16 if unit in ("em", "rem") else number if unit == "px" else None


_FIELD_TAGS: Final = frozenset({"input", "select", "textarea"})
_BUTTON_TYPES: Final = frozenset({"submit", "button", "reset", "image"})


def see_through_field(tag: str, input_type: str | None) -> bool:
    """A field (not a button) that may be transparent itself and still be used: a skinned
    checkbox, a terminal's input — what the page draws over it is what a person sees."""
    return tag in _FIELD_TAGS and (input_type or "").lower() not in _BUTTON_TYPES


def hides(decls: Declarations, *, field: bool = False) -> bool:
    """Do these (winning) declarations keep the element from being seen? ``field``: the
    element is a :func:`see_through_field` (its own opacity does not hide it)."""
    get = {name: value for name, (value, _important) in decls.items()}
    if get.get("display") == "none" or get.get("visibility") in ("hidden", "collapse"):
        return True
    opacity = None if field else get.get("opacity")
    if opacity is not None:
        try:
            if float(opacity.rstrip("%")) <= 0.0:
                return True
        except ValueError:
            pass
    for side in ("left", "top", "right", "text-indent"):
        offset = _px(get.get(side, ""))
        if offset is not None and offset <= _FAR:
            return True
    width, height = _px(get.get("width", "")), _px(get.get("height", ""))
    clipped = get.get("overflow") in ("hidden", "clip") or "rect(0" in get.get("clip", "").replace(" ", "")
    return width is not None and height is not None and width <= 1 and height <= 1 and clipped


def hidden_by_stylesheet(
    css: str, root: LexborNode | None, select: Callable[[str, LexborNode], list[LexborNode]]
) -> Iterable[LexborNode]:
    """The nodes the ``<style>`` rules (with each node's inline style over them) hide;
    ``select`` is the extraction's CSS engine."""
    if not css.strip() or root is None:
        return []
    won: dict[int, dict[str, tuple[tuple[int, int, int, int, int], str, bool]]] = {}
    nodes: dict[int, LexborNode] = {}
    for order, (selector, decls) in enumerate(_rules(css)):
        try:
            matched = select(selector, root)
        except SelectolaxError:
            continue  # a selector Lexbor cannot read: nothing is known from it
        if not matched:
            continue
        spec = _specificity(selector)
        for node in matched:
            mem = node.mem_id
            nodes[mem] = node
            current = won.setdefault(mem, {})
            for name, (value, important) in decls.items():
                rank = (int(important), *spec, order)
                if name not in current or rank >= current[name][0]:
                    current[name] = (rank, value, important)
    out: list[LexborNode] = []
    for mem, props in won.items():
        node = nodes[mem]
        merged: Declarations = {name: (value, important) for name, (_rank, value, important) in props.items()}
        inline = declarations(node.attributes.get("style") or "")
        for name, (value, important) in inline.items():
            if name not in merged or not merged[name][1] or important:
                merged[name] = (value, important)
        if hides(merged, field=see_through_field(node.tag or "", node.attributes.get("type"))):
            out.append(node)
    return out
