"""Resolving an :class:`ElementRef` on a page — strictly, and only against what a person sees.

A reference resolves to the elements that

* are **perceivable**: not hidden, not behind a modal (``occ``), in the main frame, not
  zero-size, not parked off the page (``left: -9999px``);
* carry **every word of the name** in their accessible name (or placeholder — a labelled
  field's only when the reference says the whole placeholder), with
  plural/singular, small typos and a few synonyms ("×" = "x" = "close") allowed — and whose
  *visible* text, when an ``aria-label`` overrode it, does not contradict that name;
* have a role of the family the reference names;
* sit in a row, card, list item, dialog or section whose text carries every word of the
  container the reference names ("in the row for Bob Stone").

Among several matches the best-named win (an exact label over a longer one); an ordinal
picks by page order; ``every`` keeps them all. Elements with the same role, name and
container are interchangeable (the first is used); otherwise several equally good matches
are **ambiguous** and the reference does not resolve — Stepwise never guesses which row
the user meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from verification.contract.captions import named_by_caption, named_by_field_name, named_by_row_caption
from verification.contract.model import ElementRef, RefRole
from verification.contract.records import exact_entries, in_open_view
from verification.contract.typed_fields import named_by_type
from verification.contract.wording import SEARCH_WORDS, fold, record_names, words, words_within
from verification.elements import PageElement
from verification.page import PageState

ROLE_FAMILIES: Final[dict[RefRole, frozenset[str]]] = {
    "button": frozenset({"button", "menuitem", "tab", "switch", "link"}),
    "link": frozenset({"link", "menuitem", "button", "treeitem"}),
    "textbox": frozenset({"textbox", "searchbox", "combobox", "spinbutton"}),
    "checkbox": frozenset({"checkbox", "switch", "menuitemcheckbox"}),
    "radio": frozenset({"radio", "menuitemradio", "option"}),
    "switch": frozenset({"switch", "checkbox", "button"}),
    "combobox": frozenset({"combobox", "listbox"}),
    "option": frozenset({"option", "radio", "menuitemradio", "treeitem"}),
    "tab": frozenset({"tab"}),
    "menuitem": frozenset({"menuitem", "menuitemcheckbox", "menuitemradio", "link", "button"}),
    "treeitem": frozenset({"treeitem", "link", "button"}),
    "slider": frozenset({"slider"}),
    # a number box counts as a spinner (checked in _scored: a text box must be type=number)
    "spinbutton": frozenset({"spinbutton", "textbox"}),
}
# A role the reference names, preferred over the other roles of its family.
_EXACT_ROLE_BONUS: Final = 0.02
_TOP_TIER: Final = 0.1
_MIN_AREA: Final = 4.0  # px²: an sr-only 1×1 box is not something a person sees
_FAR_OFF: Final = -5000.0
PLACEHOLDER_WHOLE: Final = 0.9  # a labelled field's placeholder names it only when said whole

# Labels of the control that commits a form, for a reference to "the submit button".
COMMIT_WORDS: Final[frozenset[str]] = frozenset(
    "submit save create add ok done confirm continue send apply login next finish update register post book "
    "order pay publish search go".split()
)
_COMMIT_ROLES: Final = frozenset({"button", "link", "menuitem"})
_FIELD_ROLES: Final = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
# "the first result", "the 3rd search result", "the top hit": an entry of the page's result
# list, whatever its title.
_RESULT_NOUNS: Final = frozenset({"result", "results", "hit", "hits", "match", "matches", "listing", "listings"})
_RESULT_WORDS: Final = _RESULT_NOUNS | {"search", "top"}
_RESULT_CONTAINERS: Final = ("item:", "card:", "row:")
_PAGER_NAMES: Final = frozenset({"next", "previous", "prev", "first", "last", "»", "«", ">", "<", "›", "‹", "more"})


def perceivable(element: PageElement, page: PageState) -> bool:
    """Would a person see this element now? Hidden, covered, other-frame, zero-size and
    off-page elements never satisfy a clause."""
    if element.hidden or element.occluded or element.frame != 0:
        return False
    box = element.box
    if box is not None:
        x, y, width, height = box
        if width * height < _MIN_AREA or x + width <= 0 or y + height <= _FAR_OFF:
            return False
        if page.viewport is not None and x >= page.viewport[0]:
            return False
    return True


def _name_score(ref_words: tuple[str, ...], element: PageElement) -> float:
    best = words_within(ref_words, element.name)
    if element.placeholder:
        hint = words_within(ref_words, element.placeholder)
        best = max(best, hint if not element.labelled or hint >= PLACEHOLDER_WHOLE else 0.0)
    if best and element.text is not None and any(ch.isalnum() for ch in element.text) and words_within(ref_words, element.text) == 0.0:
        return 0.0  # an aria-label that says what the visible text does not (a glyph — 🗑, ✕ — says nothing)
    return best


def _in_container(ref: ElementRef, element: PageElement) -> bool:
    """In the container the reference names — or named for it: an icon button whose own label
    names the record ("Delete invoice INV-7", "Remove Milk from the cart") is that record's."""
    wanted = words(ref.container or "")
    if not wanted:
        return ref.container_kind is None or any(c.startswith(f"{ref.container_kind}:") for c in element.container)
    for name in record_names(wanted):
        if any(words_within(name, entry.partition(":")[2]) > 0.0 for entry in element.container):
            return True
    return ref.container_kind is None and ref.name.strip() != "" and words_within(wanted, element.name) > 0.0


@dataclass(frozen=True)
class Resolution:
    elements: tuple[PageElement, ...]
    reason: str = ""
    ambiguous: bool = False  # several different elements match equally well

    @property
    def found(self) -> bool:
        return bool(self.elements)

    @property
    def element(self) -> PageElement | None:
        return self.elements[0] if self.elements else None


def _interchangeable(a: PageElement, b: PageElement) -> bool:
    return a.role == b.role and fold(a.name) == fold(b.name) and a.container == b.container


def resolve(ref: ElementRef, page: PageState, *, roles: frozenset[str] | None = None) -> Resolution:
    """The element(s) ``ref`` names on ``page`` (see the module doc). ``roles`` narrows the
    candidates further (a field to type into, a box to tick)."""
    if ref.commit and not ref.name.strip() and ref.role is None:
        return _commit_control(ref, page) or Resolution((), "no single submit control is visible")
    if ref.label_or_container:
        return _either_reading(ref, page, roles)
    found = _resolve(ref, page, roles)
    if ref.commit and not found.found:
        return _commit_control(ref, page) or found
    return found


def _either_reading(ref: ElementRef, page: PageState, roles: frozenset[str] | None) -> Resolution:
    """"the button in the dialog labeled "Cancel"": the element named so in such a
    container, or the one element of the container named so — whichever the page has;
    never a guess between two different elements."""
    named = ref.model_copy(update={"label_or_container": False})
    found = [resolve(r, page, roles=roles) for r in (named, named.model_copy(update={"name": "", "container": ref.name, "exact": False}))]
    hits = [f for f in found if f.found]
    if len(hits) == 1 or (len(hits) == 2 and hits[0].elements == hits[1].elements):
        return hits[0]
    if not hits:
        return next((f for f in found if f.ambiguous), found[0])
    names = ", ".join(describe_element(h.elements[0]) for h in hits)
    return Resolution((), f"{ref.describe()} reads two ways on this page ({names})", ambiguous=True)


def _commit_control(ref: ElementRef, page: PageState) -> Resolution | None:
    """The page's one submit control: a submit-typed button, else the one button whose
    label is a commit word (Save, Submit, OK…) — one carrying the named label when the goal
    names it (``ref.named``)."""
    buttons = [
        e for e in page.elements
        if e.role in _COMMIT_ROLES and perceivable(e, page) and "disabled" not in e.states
        and (not (ref.container or ref.container_kind) or _in_container(ref, e))
    ]  # fmt: skip
    if ref.named:  # "Click Submit": a commit control labelled so (seen so), never another one
        buttons = [e for e in buttons if _name_score(words(ref.name), e) > 0.0]
    elif not set(words(ref.name)) & SEARCH_WORDS and any(e.role == "searchbox" or e.input_type == "search" for e in page.elements):
        # The header's "Search" runs the site search box: never the submit of the form the goal fills.
        buttons = [e for e in buttons if not set(words(e.text or e.name)) <= SEARCH_WORDS]
    # A submit button whose visible text overrides its aria-label counts by what it shows.
    typed = [e for e in buttons if e.input_type == "submit" and (e.text is None or _commit_label(e.text))]
    if len(typed) == 1:
        return Resolution((typed[0],))
    # Judged by the label a person sees: an aria-label "Save" on a button showing "Delete
    # account" is not a Save button.
    named = [e for e in buttons if e.role == "button" and _commit_label(e.text or e.name)]
    if len(named) == 1:
        return Resolution((named[0],))
    return None


def _commit_label(label: str) -> bool:
    """A short label made of a commit word ("OK", "Save", "Log in now")."""
    label_words = [w for w in words(label) if w != "and"]  # "Accept and send application"
    return bool(set(label_words) & COMMIT_WORDS) and len(label_words) <= 3


def matches(ref: ElementRef, page: PageState) -> tuple[PageElement, ...]:
    """Every perceivable element the reference describes (all its name words, its role,
    its container) — not just the best: whether an action landed on "an element matching
    the description" is a question about this set. An ordinal still names one element."""
    if ref.ordinal is not None or ref.label_or_container:
        return resolve(ref, page).elements
    scored = _scored(ref, page, None)
    found = [e for _s, _o, e in scored]
    if ref.commit and not found:
        commit = _commit_control(ref, page)
        return commit.elements if commit is not None else ()
    return tuple(found)


def _scored(ref: ElementRef, page: PageState, roles: frozenset[str] | None) -> list[tuple[float, int, PageElement]]:
    if ref.commit and not ref.name.strip() and ref.role is None:
        return []
    if is_result_ref(ref):
        return [(0.9, order, e) for order, e in results(page) if roles is None or e.role in roles]
    family = ROLE_FAMILIES[ref.role] if ref.role is not None else None
    ref_words = words(ref.name)
    scored: list[tuple[float, int, PageElement]] = []
    unplaced: list[tuple[float, int, PageElement]] = []  # a record's control anywhere: for its open view
    for order, element in enumerate(page.elements):
        if family is not None and element.role not in family:
            continue
        if ref.role == "spinbutton" and element.role == "textbox" and element.input_type != "number":
            continue
        if roles is not None and element.role not in roles:
            continue
        if not perceivable(element, page):
            continue
        placed = not (ref.container or ref.container_kind) or _in_container(ref, element)
        if not placed and not ref.record:
            continue
        if ref_words:
            score = _name_score(ref_words, element)
        elif ref.name.strip():  # a label of function words only ("To", "From"): that label, spelt so
            score = 1.0 if fold(ref.name).strip(" :") in {fold(element.name).strip(" :"), fold(element.placeholder or "").strip(" :")} else 0.0
        else:
            score = 0.9
        if score == 0.0:
            continue
        if ref.role is not None and element.role == ref.role:
            score += _EXACT_ROLE_BONUS
        (scored if placed else unplaced).append((score, order, element))
    if ref.record and ref.container:
        scored = exact_entries(scored, ref.container, words) if scored else in_open_view(ref, page, unplaced, words, lambda e: perceivable(e, page))
    if not scored:
        scored = _named_by_type(ref, page, family, roles)
    if not scored and ref_words:
        scored = _captioned(ref, page, family, roles)
    if not scored and ref_words:
        pool = [(o, e) for o, e in enumerate(page.elements) if (family is None or e.role in family) and (roles is None or e.role in roles)]
        pool = [(o, e) for o, e in pool if perceivable(e, page)]
        scored = named_by_row_caption(ref_words, [(o, e) for o, e in pool if e.role in _FIELD_ROLES], words=words)
        scored = scored or named_by_field_name(ref_words, pool, words=words)
    if ref.field_kind is not None:
        # "the text area" vs "the text box" where the page has both: the kind named is preferred.
        # Where the page does not say which field is which (a V3 tree without `ty`), several
        # candidates are never guessed between.
        kind = [s for s in scored if _field_kind(s[2]) == ref.field_kind]
        unknown = [s for s in scored if _field_kind(s[2]) is None]
        scored = kind if kind else ([] if unknown and len(scored) > 1 else scored)
    if ref.exact and ref_words:
        # "Click the link "Eget"" on a page with "eget" and "Eget": the user's spelling decides.
        spelled = " ".join(ref.name.split())
        exact = [s for s in scored if spelled in " ".join(s[2].name.split())]
        if exact:
            return exact
    return scored


def _captioned(
    ref: ElementRef, page: PageState, family: frozenset[str] | None, roles: frozenset[str] | None
) -> list[tuple[float, int, PageElement]]:
    """"the address" / "Casie's address": a value shown under a caption ("Address: 645
    Stephenson Loop") — in a container that names the record, or else in the record whose
    title is the line above the captioned ones (:mod:`verification.contract.captions`)."""
    pool = [
        (order, e) for order, e in enumerate(page.elements)
        if (family is None or e.role in family) and (roles is None or e.role in roles) and perceivable(e, page)
    ]  # fmt: skip
    if ref.container_kind is not None:
        pool = [(o, e) for o, e in pool if _in_container(ref, e)]
    boxed = [(o, e) for o, e in pool if e.container and (not ref.container or _in_container(ref, e))]
    plain = [(o, e) for o, e in pool if not e.container]
    name_words = words(ref.name)
    found = named_by_caption(name_words, None, page, boxed, words=words, within=words_within)
    found += named_by_caption(name_words, ref.container, page, plain, words=words, within=words_within)
    return sorted(found, key=lambda s: s[1])


def is_result_ref(ref: ElementRef) -> bool:
    named = set(words(ref.name))
    return bool(named & _RESULT_NOUNS) and named <= _RESULT_WORDS and ref.role in (None, "link") and not ref.container


def results(page: PageState) -> list[tuple[int, PageElement]]:
    """The entries of the page's result list, in page order: the first link of each list
    item, card or table row — after the search box when there is one — where at least two
    such entries exist (one linked item is not a list)."""
    start = next((order for order, e in enumerate(page.elements) if _search_box(e)), -1)
    entries: dict[str, tuple[int, PageElement]] = {}
    for order, element in enumerate(page.elements):
        if order <= start or element.role != "link" or not perceivable(element, page):
            continue
        if element.name.strip().isdigit() or fold(element.name) in _PAGER_NAMES:
            continue  # a pagination link is not a result
        container = next((c for c in element.container if c.startswith(_RESULT_CONTAINERS)), None)
        if container is not None and container not in entries:
            entries[container] = (order, element)
    return sorted(entries.values(), key=lambda entry: entry[0]) if len(entries) >= 2 else []


def _search_box(element: PageElement) -> bool:
    if element.role == "searchbox" or element.input_type == "search":
        return True
    return element.role == "textbox" and "search" in words(f"{element.name} {element.placeholder or ''}")


def _named_by_type(
    ref: ElementRef, page: PageState, family: frozenset[str] | None, roles: frozenset[str] | None
) -> list[tuple[float, int, PageElement]]:
    if ref.container or ref.container_kind or ref.ordinal is not None:
        return []
    fields = [
        (order, e) for order, e in enumerate(page.elements)
        if e.role in _FIELD_ROLES and (family is None or e.role in family) and (roles is None or e.role in roles)
        and perceivable(e, page) and "disabled" not in e.states
    ]  # fmt: skip
    return named_by_type(words(ref.name), fields)


def _field_kind(element: PageElement) -> str | None:
    """'textarea', 'line', or None when the page does not say (no tag, no input type)."""
    if element.tag == "textarea" or element.input_type in ("textarea", "contenteditable"):
        return "textarea"
    if element.tag is None and element.input_type is None:
        return None
    return "line" if element.role in ("textbox", "searchbox") else None


def _resolve(ref: ElementRef, page: PageState, roles: frozenset[str] | None) -> Resolution:
    scored = _scored(ref, page, roles)
    what = ref.describe()
    if not scored:
        return Resolution((), f"no visible element is {what}")
    if ref.every:
        return Resolution(tuple(e for _s, _o, e in sorted(scored, key=lambda s: s[1])))
    if ref.any:  # "a checkbox": whichever comes first
        return Resolution((min(scored, key=lambda s: s[1])[2],))
    top = max(s for s, _o, _e in scored)
    tier = sorted((s for s in scored if top - s[0] < _TOP_TIER), key=lambda s: s[1])
    ordinal = ref.ordinal if ref.ordinal is not None else (1 if "top" in words(ref.name) and is_result_ref(ref) else None)
    if ordinal is not None:
        index = ordinal - 1 if ordinal > 0 else len(tier) + ordinal
        if 0 <= index < len(tier):
            return Resolution((tier[index][2],))
        return Resolution((), f"there is no {what} (only {len(tier)} match)")
    best = [e for s, _o, e in tier if top - s < 0.01]
    if all(_interchangeable(best[0], other) for other in best[1:]):
        return Resolution((best[0],))
    names = ", ".join(describe_element(e) for e in best[:3])
    return Resolution((), f"{what} is ambiguous: {len(best)} elements match ({names})", ambiguous=True)


def describe_element(element: PageElement) -> str:
    """``button "Deactivate" in row: Bob Stone · bob@… `` — for evidence and messages."""
    text = f"{element.role} {element.name!r}" if element.name else element.role
    # The first container that says more than the element's own label: a radio "Yes" is
    # described by its question ("section: Do you live in a controlled parking zone?"), not by
    # the "item: Yes" wrapped around it.
    own = fold(element.name).strip()
    telling = next((c for c in element.container if fold(c.partition(": ")[2]).strip() != own), None)
    if telling is not None:
        text += f" in {telling}"
    return text
