"""The V3 ``interactiveTree`` (minified JSON from the extension) → elements and skeleton.

Keys: ``i`` id, ``r`` role (``btn``, ``inp``, ``link``, ``chk``, ``sel`` …), ``n`` name,
``v`` value, ``s`` state (``"disabled"``, ``"checked,expanded"`` or a list), ``xy``,
``f`` frame, ``box``, ``scr`` scroll container, ``occ`` occluded, ``ctx`` the containers
the element sits in (``["row: Bob Smith · bob@x.org", "section: People"]``, nearest first,
at most 3 of at most 200 characters), ``t`` its visible text when the name overrode it,
``ty`` the kind of field (an input's type, ``textarea``, ``select``, ``select-multiple``,
``contenteditable``). Unknown keys are ignored so the extension can add fields; a malformed known key raises
:class:`~verification.elements.PageInputError` naming the node index and the key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from verification.elements import CONTAINER_LIMIT, MESSAGE_ROLES, PageElement, PageInputError, PageMessage, collapse, control_name
from verification.elements import field_type, message_kind_of, new_element, normalize_role, normalize_state
from verification.hashing import canonical_hash
from verification.skeleton import Descriptor, Skeleton, descriptor, make_skeleton, message_map

NAME_LIMIT: Final = 300
CTX_ENTRY_LIMIT: Final = 200
_STATE_SPLIT: Final = str.maketrans({",": " ", ";": " ", "|": " "})


@dataclass(frozen=True, slots=True)
class V3Parts:
    elements: tuple[PageElement, ...]
    tree_messages: tuple[PageMessage, ...] = ()
    collapsed_ids: frozenset[str] = frozenset()  # elements whose state says "collapsed"


def _fail(index: int, key: str, message: str) -> PageInputError:
    return PageInputError(f"interactiveTree[{index}].{key}: {message}")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text_field(node: Mapping[str, Any], key: str, index: int) -> str | None:
    value = node.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise _fail(index, key, f"expected text, got {type(value).__name__}")


def _states(node: Mapping[str, Any], index: int) -> tuple[frozenset[str], bool]:
    raw = node.get("s")
    if raw is None:
        return frozenset(), False
    if isinstance(raw, str):
        tokens = raw.translate(_STATE_SPLIT).split()
    elif isinstance(raw, Sequence) and all(isinstance(t, str) for t in raw):
        tokens = [t.strip() for t in raw if t.strip()]
    else:
        raise _fail(
            index, "s", "expected a state string like 'checked,expanded' or a list of strings"
        )
    states = {normalize_state(t) for t in tokens}
    collapsed = "collapsed" in states
    states.discard("enabled")
    return frozenset(states), collapsed


def _coords(node: Mapping[str, Any], key: str, size: int, index: int) -> tuple[float, ...] | None:
    raw = node.get(key)
    if raw is None:
        return None
    if (
        not isinstance(raw, Sequence)
        or isinstance(raw, str)
        or len(raw) != size
        or not all(_number(x) for x in raw)
    ):
        shape = "[x, y]" if size == 2 else "[x, y, width, height]"
        raise _fail(index, key, f"expected {shape} numbers, got {raw!r}")
    return tuple(float(x) for x in raw)


def _containers(raw: Any, index: int) -> tuple[str, ...]:
    """``ctx``: a list of at most 3 strings of at most 200 characters (blank ones dropped)."""
    if type(raw) is list and len(raw) <= CONTAINER_LIMIT:  # the common case, checked once
        kept: list[str] = []
        for entry in raw:
            if type(entry) is not str or len(entry) > CTX_ENTRY_LIMIT:
                break  # the general reader below names what is wrong
            text = " ".join(entry.split())
            if text:
                kept.append(text)
        else:
            return tuple(kept)
    if type(raw) is not list and (isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence)):
        raise _fail(index, "ctx", f"expected a list of container strings, got {type(raw).__name__}")
    if len(raw) > CONTAINER_LIMIT:
        raise _fail(
            index,
            "ctx",
            f"expected at most {CONTAINER_LIMIT} containers (nearest first), got {len(raw)}",
        )
    out: list[str] = []
    for n, entry in enumerate(raw):
        if type(entry) is not str:
            raise _fail(index, "ctx", f"entry {n}: expected a string, got {type(entry).__name__}")
        if len(entry) > CTX_ENTRY_LIMIT:
            raise _fail(
                index,
                "ctx",
                f"entry {n}: expected at most {CTX_ENTRY_LIMIT} characters, got {len(entry)}",
            )
        text = collapse(entry)
        if text:
            out.append(text)
    return tuple(out)


_NUMBER_TYPES: Final = (int, float)  # checked with ``type(x) in``: excludes bool


def _pair(raw: Any) -> tuple[float, float] | None:
    """``[x, y]`` of two JSON numbers, or ``None`` when it is anything else."""
    if type(raw) is list and len(raw) == 2:
        x, y = raw
        if type(x) in _NUMBER_TYPES and type(y) in _NUMBER_TYPES:
            return (float(x), float(y))
    return None


def _element(node: Any, index: int) -> tuple[PageElement | PageMessage, bool]:
    """One node. Written for the common case — a JSON object whose known keys hold the
    documented types — with one ``type()`` check per key; anything else goes through the
    general readers, which accept any mapping/sequence and raise the error naming the key."""
    if type(node) is not dict:
        if not isinstance(node, Mapping):
            raise PageInputError(
                f"interactiveTree[{index}]: expected an object, got {type(node).__name__}"
            )
        node = dict(node)
    get = node.get
    raw_id = get("i")
    if type(raw_id) is str:
        element_id = raw_id.strip()
    elif type(raw_id) is int:
        element_id = str(raw_id)
    else:
        element_id = ""
    if not element_id:
        raise _fail(index, "i", f"expected a non-empty element id, got {raw_id!r}")
    raw_role = get("r")
    if raw_role is not None and type(raw_role) is not str:
        raise _fail(index, "r", f"expected a role string, got {type(raw_role).__name__}")
    role = normalize_role(raw_role)
    raw_name = get("n")
    if raw_name is None:
        name = ""
    elif type(raw_name) is str:
        name = collapse(raw_name, NAME_LIMIT)
    else:
        name = collapse(_text_field(node, "n", index) or "", NAME_LIMIT)
    value = get("v")
    if value is not None and type(value) is not str:
        value = _text_field(node, "v", index)
    if get("s") is None:
        states: frozenset[str] = frozenset()
        collapsed = False
    else:
        states, collapsed = _states(node, index)
    raw_xy = get("xy")
    xy = None if raw_xy is None else (_pair(raw_xy) or _coords(node, "xy", 2, index))
    box = _coords(node, "box", 4, index) if get("box") is not None else None
    frame = get("f")
    if frame is None:
        frame = 0
    elif type(frame) is not int or frame < 0:
        raise _fail(index, "f", f"expected a frame number >= 0, got {frame!r}")
    scroll = get("scr")
    if scroll is not None and not isinstance(scroll, Mapping):
        raise _fail(
            index,
            "scr",
            f"expected an object like {{'depth': …, 'h': …}}, got {type(scroll).__name__}",
        )
    occluded = get("occ")
    if occluded is None:
        occluded = False
    elif type(occluded) is not bool:
        raise _fail(index, "occ", f"expected true/false, got {occluded!r}")
    if role in MESSAGE_ROLES:
        return PageMessage(kind=message_kind_of(MESSAGE_ROLES[role], name), text=name), collapsed
    raw_ctx = get("ctx")
    container = () if raw_ctx is None else _containers(raw_ctx, index)
    text = get("t")
    if text is not None:
        if type(text) is str and len(text) <= NAME_LIMIT:
            text = " ".join(text.split())
        else:
            text = collapse(_text_field(node, "t", index) or "", NAME_LIMIT)
        if not text or text == name or text.lower() == name.lower():
            text = None  # kept only when it says something other than the name
    if (fn := get("fn")) is not None and type(fn) is not str:
        raise _fail(index, "fn", f"expected the control's name attribute as a string, got {type(fn).__name__}")
    placeholder = get("ph")
    if placeholder is not None and type(placeholder) is not str:
        raise _fail(index, "ph", f"expected the field's placeholder as a string, got {type(placeholder).__name__}")
    tag, input_type = field_type(get("ty"))
    if get("ty") is not None and tag is None and input_type is None:
        raise _fail(index, "ty", f"expected a field type such as 'text' or 'textarea', got {get('ty')!r}")
    element = new_element(
        element_id,  # id
        role,
        name,
        value,
        tag,
        input_type,
        collapse(placeholder, NAME_LIMIT) or None if placeholder else None,  # placeholder
        None,  # href
        states,
        "hidden" in states,
        occluded,
        xy,
        (box[0], box[1], box[2], box[3]) if box else None,
        frame,
        (),  # options
        None,  # context
        dict(scroll) if scroll else None,
        container,
        text,
        control_name(fn),
    )
    return element, collapsed


def parse_v3_tree(tree: Sequence[Mapping[str, Any]]) -> V3Parts:
    if isinstance(tree, (str, bytes)) or not isinstance(tree, Sequence):
        raise PageInputError(
            f"interactiveTree: expected a list of nodes, got {type(tree).__name__}"
        )
    elements: list[PageElement] = []
    messages: list[PageMessage] = []
    collapsed: set[str] = set()
    seen: set[str] = set()
    for index, node in enumerate(tree):
        item, is_collapsed = _element(node, index)
        if isinstance(item, PageMessage):
            if item.text:
                messages.append(item)
            continue
        if item.id in seen:
            raise _fail(index, "i", f"duplicate element id {item.id!r}")
        seen.add(item.id)
        elements.append(item)
        if is_collapsed:
            collapsed.add(item.id)
    return V3Parts(tuple(elements), tuple(messages), frozenset(collapsed))


def v3_skeleton(
    parts: V3Parts, messages: Sequence[PageMessage], flags: Mapping[str, str]
) -> Skeleton:
    element_map: dict[str, Descriptor] = {}
    for element in parts.elements:
        if element.hidden:
            continue
        expanded = (
            "true"
            if "expanded" in element.states
            else ("false" if element.id in parts.collapsed_ids else None)
        )
        element_map[element.id] = descriptor(element, text=element.name, aria_expanded=expanded)
    return make_skeleton("v3", element_map, message_map(messages, flags=flags))


def _canonical(element: PageElement, collapsed: bool) -> list[Any]:
    out = [
        element.id,
        element.role,
        element.name,
        element.value,
        sorted(element.states),
        collapsed,
        element.hidden,
        element.occluded,
        element.xy,
        element.box,
        element.frame,
        element.scroll,
    ]
    if element.container or element.text is not None:  # absent: the hash of an older client
        out += [list(element.container), element.text]
    return out


def v3_hash(
    parts: V3Parts, messages: Sequence[PageMessage], title: str | None, flags: Mapping[str, str]
) -> str:
    """Stable hash of the tree as the client saw it: geometry (xy, box, scroll) included,
    so a layout shift changes the hash but not the skeleton."""
    return canonical_hash(
        {
            "tree": [_canonical(e, e.id in parts.collapsed_ids) for e in parts.elements],
            "messages": [[m.kind, m.text] for m in messages],
            "title": title,
            "flags": dict(flags),
        }
    )
