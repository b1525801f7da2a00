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
# What an inline style that hides says somewhere: nothing else is parsed.
_HIDING_HINTS: Final = ("none", "hidden", "collapse", "opacity", ":-", "clip")

Declarations = dict[str, tuple[str, bool]]  # property -> (value, !important)


def style_blocks(html: str) -> str:
    """The text of the page's ``<style>`` blocks (read before they are scrubbed)."""
    return "\n".join(m.group(1) for m in _STYLE_BLOCK.finditer(html))


def inline_hides(style: str, *, field: bool = False) -> bool:
    """Does an inline ``style`` attribute hide its element? (A quick look first: most
    styles say nothing that could.)"""
    compact = style.replace(" ", "").lower()
    return any(hint in compact for hint in _HIDING_HINTS) and hides(declarations(style), field=field)


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
    ``select`` is the extraction's CSS engine.

    Cost: one CSS pass for every rule that hides (their selectors joined), one for every rule
    that sets the same properties otherwise; only the few nodes both reach are resolved rule
    by rule (at most :data:`MAX_CASCADE` rules — beyond, such a node is left visible: what
    cannot be known is not assumed hidden). A sheet with more than :data:`MAX_RULES` hiding
    rules (or twice as many that set the same properties) is not read at all, for the same
    reason: its cost is bounded."""
    if root is None or not css.strip():
        return []
    rules = list(_rules(css))
    hiding: list[tuple[int, str, Declarations]] = []
    showing: list[tuple[int, str, Declarations]] = []
    for n, (sel, decls) in enumerate(rules):
        (hiding if hides(decls) else showing).append((n, sel, decls))
    if not hiding or len(hiding) > MAX_RULES:  # a sheet this large is not read: nothing assumed hidden
        return []
    hidden_at = _matched(select, [sel for _n, sel, _d in hiding], root)
    if not hidden_at:
        return []
    props = {name for _n, _sel, decls in hiding for name in decls}
    others = [(n, sel, decls) for n, sel, decls in showing if props & decls.keys()]
    if len(others) > 2 * MAX_RULES:
        return []
    contested = _matched(select, [sel for _n, sel, _d in others], root).keys() & hidden_at.keys() if others else set()
    contested |= {m for m, node in hidden_at.items() if props & declarations(node.attributes.get("style") or "").keys()}
    out = [node for mem, node in hidden_at.items() if mem not in contested]
    if contested and len(hiding) + len(others) <= MAX_CASCADE:
        out += _cascade(select, root, hiding + others, {m: hidden_at[m] for m in contested})
    return out


MAX_CASCADE: Final = 200
MAX_RULES: Final = 300


def _matched(select: Callable[[str, LexborNode], list[LexborNode]], selectors: list[str], root: LexborNode) -> dict[int, LexborNode]:
    """The nodes any of ``selectors`` matches (one pass; a selector Lexbor cannot read is
    left out)."""
    if not selectors:
        return {}
    try:
        return {n.mem_id: n for n in select(", ".join(selectors), root)}
    except SelectolaxError:
        out: dict[int, LexborNode] = {}
        for selector in selectors:
            try:
                out.update((n.mem_id, n) for n in select(selector, root))
            except SelectolaxError:
                continue  # a selector Lexbor cannot read: nothing is known from it
        return out


def _wins(node: LexborNode, matching: list[tuple[int, str, Declarations]], inline: Declarations) -> bool:
    """Do the hiding rules that match ``node`` still hide it under its inline style?"""
    merged = _merge(matching)
    for name, (value, important) in inline.items():
        if name not in merged or not merged[name][1] or important:
            merged[name] = (value, important)
    return hides(merged, field=see_through_field(node.tag or "", node.attributes.get("type")))


def _merge(matching: list[tuple[int, str, Declarations]]) -> Declarations:
    won: dict[str, tuple[tuple[int, int, int, int, int], str, bool]] = {}
    for order, selector, decls in matching:
        spec = _specificity(selector)
        for name, (value, important) in decls.items():
            rank = (int(important), *spec, order)
            if name not in won or rank >= won[name][0]:
                won[name] = (rank, value, important)
    return {name: (value, important) for name, (_rank, value, important) in won.items()}


def _cascade(
    select: Callable[[str, LexborNode], list[LexborNode]],
    root: LexborNode,
    rules: list[tuple[int, str, Declarations]],
    nodes: dict[int, LexborNode],
) -> list[LexborNode]:
    """Nodes a hiding rule and another rule both reach, resolved rule by rule."""
    matching: dict[int, list[tuple[int, str, Declarations]]] = {mem: [] for mem in nodes}
    for order, selector, decls in rules:
        for mem in _matched(select, [selector], root).keys() & nodes.keys():
            matching[mem].append((order, selector, decls))
    return [nodes[mem] for mem, found in matching.items() if _wins(nodes[mem], found, declarations(nodes[mem].attributes.get("style") or ""))]
