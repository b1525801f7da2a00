"""Intent frames: a clause of a goal, as people write it, read into plan steps.

Each frame is one intent with its slots, said with any verb phrase of the lexicon
(:mod:`agent.policy.lexicon`):

=========  ==========================================================  =====================
intent     says                                                        steps
=========  ==========================================================  =====================
commit     "save", "submit the form", "save the settings"                  submit
login      "Log in as alice with password x", "Sign in with username   fill user, fill
           "bob" and password "y"", "sign in as bob, password y"        password, submit
search     "Search for laptop", "look up "desk""                       fill search, Enter
on / off   "Turn on SMS alerts", "switch dark mode off", "disable X"   check / uncheck
record     "Deactivate Bob Stone", "Delete Ana's account", "Reply to   click <Verb> in the
           Sam's message"                                               record's row/card
message    "Forward the email from Ana to Bob", "reply to the email    click its control (in its
           by Ana with "Hi"", "star the email from Ana"                 row or open view), fill, Send
                                                                        (agent.policy.record_frames)
as         "Enter 9:37 PM as the time", "select 12/02/2016 as the      fill
           date"
set list   "set name to Ann, email to a@b.c and city to Oslo"          fill × n
fill list  "type Ada into First name, Lovelace into Last name", "fill   fill × n (select × n
           in the name with Ann, the city with Oslo", 'fill the form:   for "choose Red in
           Name "Ann", City "Oslo"'                                     Colour, L in Size")
widget     "Select 7 with the slider", "use the spinner to set 3",     fill (the widget)
           "move the volume slider to 40"
menu path  "Select File > Export > PDF"                                open…, click
copy       "Copy the text of the 2nd text area, paste it into the       fill (value read on
           text input"                                                  the page)
find word  "Find the 5th word in the paragraph" (then "type it into…")  (the next fill's
                                                                        value is read)
suggest    "Enter an item that starts with "An" and ends with "ica"",  suggest (type, then
           "Type "San" in City and choose "San Francisco" from the     choose the suggestion
           suggestions", "Select "Berlin" from the autocomplete"        that fits)
=========  ==========================================================  =====================

The frames that set values (as, set list, widget, copy, find word) live in
:mod:`agent.policy.value_frames`, the lists of fields (fill list) in
:mod:`agent.policy.field_lists`; the autocomplete frames in :mod:`agent.policy.suggest`. A
frame returns the steps and the words that only say *how* (the verb phrase, slot keywords), which the contract's coverage counts as accounted for. A clause no frame reads
falls through to the imperative grammar of :mod:`agent.policy.goal`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from agent.policy.lexicon import (
    COMMIT_OBJECTS,
    COMMIT_VERBS,
    EDIT_VERBS,
    INTENT_PHRASES,
    MENU_PATH_SEPARATORS,
    PRONOUNS,
    RECORD_BUTTON,
    RECORD_NOUNS,
    SEARCH_PLACES,
    SECRET_WORDS,
    TOGGLE_VERBS,
    USER_WORDS,
)
from agent.policy.text import QUOTED, fold, quoted_text
from verification.contract import parse_date, parse_month_day
from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.feed_frames import read_feed_action
from agent.policy.field_lists import choose_pairs, fill_form, fill_pairs, fill_with
from agent.policy.order_frames import read_order
from agent.policy.record_frames import read_record_action
from agent.policy.suggest import chosen_from, described_item, typed_then_chosen
from agent.policy.value_frames import as_the, copy, find_word, set_list, use_field, with_widget
from planning import PlanStep

_VALUE: Final = r"(?:\"[^\"]+\"|“[^”]+”|'[^']+'|[^\s,;]+)"
_USER_KEYS: Final = "|".join(sorted(map(re.escape, USER_WORDS), key=len, reverse=True))
_SECRET_KEYS: Final = "|".join(map(re.escape, SECRET_WORDS))
_LOGIN_USER: Final = (
    re.compile(rf"\b(?:{_USER_KEYS})\s+(?:is\s+|of\s+|=\s*|:\s*)?(?P<v>{_VALUE})", re.IGNORECASE),
    re.compile(rf"\bas\s+(?P<v>{_VALUE})", re.IGNORECASE),
)
_LOGIN_SECRET: Final = re.compile(rf"\b(?P<k>{_SECRET_KEYS})\s+(?:is\s+|of\s+|=\s*|:\s*)?(?P<v>{_VALUE})", re.IGNORECASE)
_LEADING: Final = re.compile(r"^(?:the|a|an|this|that)\s+")
_NAMED: Final = re.compile(r"^(?:[a-z]+\s+){1,2}(?:named|called|titled|labell?ed)\s+")
_POSSESSIVE: Final = re.compile(rf"^(?P<owner>.+?)['’]s?\s+(?P<noun>{'|'.join(sorted(RECORD_NOUNS))})s?$")
_POLITE: Final = re.compile(r"^(?:please|kindly|(?:can|could|would) you(?: please)?)\s+", re.IGNORECASE)
# "search for laptop in the Books section": the search is narrowed to a part of the site.
_NARROWED: Final = re.compile(r"\s(?:in|on|under|within|from)\s+(?:the|a|an|my|our)\s+\S+")
_ORDINAL: Final = r"first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th)"
_RECORD_OF: Final = re.compile(
    rf"^(?:the\s+)?(?:(?P<ord>{_ORDINAL})\s+)?(?P<noun>{'|'.join(sorted(RECORD_NOUNS))})s?\s+(?:of|for|from|by)\s+(?P<owner>.+)$"
)
# "search my mail for …", "search the help pages for …": where the search looks, then what for.
_SEARCH_SCOPE: Final = re.compile(r"\s*(?:my|our|your|the|this)\s+(?P<place>[a-z]+(?:\s+[a-z]+){0,2}?)\s+for\s+")
# Where the record is taken out of, not part of its name: "remove Bob Smith from the team".
_FROM_PLACE: Final = re.compile(r"\s+from\s+(?:the|my|our|this|your)\s+[a-z]+(?:\s+(?:list|page|group))?$")
# An object with one of these is more than a record's name ("forward X to my team").
_NOT_A_NAME: Final = re.compile(r"\s(?:to|with|as|into|in|on|at|using|via|and|then)\s")





def _intent(folded: str, intent: str) -> tuple[str, int] | None:
    """The verb phrase of ``intent`` that starts the clause, and where the rest begins."""
    for phrase in sorted(INTENT_PHRASES[intent], key=len, reverse=True):
        if folded == phrase or folded.startswith(phrase + " "):
            return phrase, len(phrase) + 1
    return None


def _login(raw: str, folded: str) -> Frame | None:
    found = _intent(folded, "login")
    if found is None:
        return None
    phrase, rest_at = found
    rest = raw[rest_at:] if len(raw) == len(folded) else folded[rest_at:]
    secret = _LOGIN_SECRET.search(rest)
    user = None
    for pattern in _LOGIN_USER:
        for match in pattern.finditer(rest):
            if secret is not None and match.start("v") == secret.start("v"):
                continue
            user = match
            break
        if user is not None:
            break
    if user is None and secret is None:
        return None
    steps: list[PlanStep] = []
    means = [phrase, *(k for k in USER_WORDS + SECRET_WORDS if k in fold(rest))]
    if user is not None:
        name = _unquote(user.group("v"))
        field_ = "email" if "@" in name else "username"
        steps.append(_step("fill", f"Enter {name!r} as the {field_}", target=field_, value=name, criterion=f"the {field_} field holds {name!r}"))
    if secret is not None:
        key = fold(secret.group("k"))
        value = _unquote(secret.group("v"))
        steps.append(_step("fill", f"Enter the {key}", target=key, value=value, criterion=f"the {key} field holds the {key}"))
    steps.append(_step("submit", "Log in", target="log in", criterion="signed in"))
    return Frame(steps, tuple(means))


def _search(raw: str, folded: str) -> Frame | None:
    found = _intent(folded, "search")
    if found is None:
        return None
    phrase, rest_at = found
    end, means = len(folded), [phrase]
    place = re.search(rf"\s+(?:in|on|at|from)\s+(?:the|this|our)\s+({'|'.join(sorted(SEARCH_PLACES))})$", folded)
    if place is not None:
        end = place.start()
        means.append(place.group(1))
    if (scope := _SEARCH_SCOPE.match(folded, rest_at, end)) is not None:
        rest_at = scope.end()  # "search my mail for shipping delay": where, then what
        means.append(scope.group("place"))
    said = _original(raw, folded, rest_at, end)
    query = _unquote(said)
    if (lead := QUOTED.match(said.strip())) is not None and lead.end() < len(said.strip()):
        # 'search for "pet fees" in the help articles': the quotes say what to type; where to
        # type it is more than this frame can check, so the rest stays unaccounted.
        query = quoted_text(lead)
    elif _NARROWED.search(f" {query}") and not re.match(r"^[\"“']", query.strip()):
        return None  # a search narrowed to a part of the site is more than this frame
    if not query or fold(query).startswith(("the ", "a ", "an ")) and '"' not in raw:
        return None  # "look for the Save button" is a find, not a search
    if query == said.strip() and _not_a_query(query):  # a quoted query is typed as given
        return None
    steps = [
        _step("fill", f"Enter {query!r} in the search field", target="search field", value=query, criterion=f"the search field holds {query!r}"),
        _step("press", "Run the search", target="search field", value="Enter", criterion="the results are shown"),
    ]
    return Frame(steps, tuple(means))


_FROM_TO: Final = re.compile(r"\bfrom\s+\S.*\s+to\s+\S")
_MAX_QUERY_WORDS: Final = 8
_RELATIVE: Final = re.compile(r"\s(?:that|which|who|whose|where)\s")


def _not_a_query(query: str) -> bool:
    """A search reads the words a person would type into the box. Words that say where from
    and where to, when, or run on like a sentence are a form's values ("flights from Chicago
    to Miami on 20 December for 4"); a relative clause describes what to find ("mail from Dana
    that has attachments") rather than words to type. Typed whole, either finds nothing asked for."""
    folded = fold(query)
    dated = any(parse_month_day(" ".join(w)) or parse_date(" ".join(w)) for w in _windows(folded.split(), 3))
    described = _RELATIVE.search(folded) is not None
    return bool(_FROM_TO.search(folded)) or dated or described or len(folded.split()) > _MAX_QUERY_WORDS


def _windows(said: list[str], size: int) -> list[list[str]]:
    return [said[i : i + n] for n in range(1, size + 1) for i in range(len(said) - n + 1)]


def _commit(raw: str, folded: str) -> Frame | None:
    """"save", "submit the form", "save the settings": the form's commit control."""
    verbs = "|".join(COMMIT_VERBS)
    match = re.match(rf"^(?P<verb>{verbs})(?:\s+(?:the|my|your|these|all)?\s*(?P<obj>[a-z ]+?))?$", folded)
    if match is None:
        return None
    obj = (match.group("obj") or "").split()
    if any(w not in COMMIT_OBJECTS for w in obj):
        return None  # "save the draft as PDF": more than a commit
    verb = match.group("verb")
    return Frame([_step("submit", f"{verb.capitalize()} the form", target=verb, criterion="the form is committed")], tuple(obj))


def _toggle(raw: str, folded: str) -> Frame | None:
    state, target, phrase = None, None, ""
    for intent in ("on", "off"):
        if found := _intent(folded, intent):
            state, phrase = intent, found[0]
            target = _original(raw, folded, found[1], len(folded))
            break
    if state is None:
        verbs = "|".join(TOGGLE_VERBS)
        if match := re.match(rf"^(?P<verb>{verbs})\s+(?P<t>.+?)\s+(?P<state>on|off)$", folded):
            state, phrase = match.group("state"), f"{match.group('verb')} {match.group('state')}"
            target = _original(raw, folded, match.start("t"), match.end("t"))
    if state is None or not target or not target.strip():
        return None
    kind = "check" if state == "on" else "uncheck"
    label = target.strip()
    return Frame([_step(kind, f"Turn {state} {label}", target=label, criterion=f"{label} is {state}")], tuple(phrase.split()))


def _record_owner(text: str) -> tuple[str, str, tuple[str, ...]]:
    """The words that identify the record, and an ordinal among that record's kind
    ("Chen Wei's account" → "Chen Wei"; "the last email from Ana" → "Ana", "last")."""
    folded = fold(text).rstrip(".!")
    means: list[str] = []
    if match := _POSSESSIVE.match(folded):
        means.append(match.group("noun"))
        return _original(text, fold(text), match.start("owner"), match.end("owner")).strip(), "", tuple(means)
    if match := _RECORD_OF.match(folded):
        means.append(match.group("noun"))
        owner = _original(text, fold(text), match.start("owner"), match.end("owner")).strip()
        return owner, match.group("ord") or "", tuple(means)
    stripped = _LEADING.sub("", folded)
    if place := _FROM_PLACE.search(stripped):
        means.extend(place.group(0).split())  # accounted for: where it is removed from
        stripped = stripped[: place.start()]
    if match := _NAMED.match(stripped):
        means.extend(match.group(0).split())
        stripped = stripped[match.end() :]
    start = fold(text).find(stripped)
    return (_original(text, fold(text), start, start + len(stripped)) if start >= 0 else stripped).strip(), "", tuple(means)


def _record(raw: str, folded: str) -> Frame | None:
    found = _intent(folded, "record")
    if found is None:
        return None
    verb, rest_at = found
    rest = _original(raw, folded, rest_at, len(folded))
    if not rest.strip() or re.match(r"^(?:the\s+)?(?:button|link|icon)\b", fold(rest)):
        return None
    owner, ordinal, means = _record_owner(rest)
    if _NOT_A_NAME.search(f" {fold(owner)} "):
        return None
    if not owner or set(fold(owner).split()) <= PRONOUNS | RECORD_NOUNS | {"it", "this", "that", "them", "all", "everything"}:
        return None  # "delete my account", "remove it": no record named — not this frame
    button = RECORD_BUTTON.get(verb, verb)
    target = f"{ordinal} {button} button for {owner}".strip()
    step = _step("click", f"{button.capitalize()} {owner}", target=target, criterion=f"{owner} is {button}d")
    return Frame([step], means, edits=verb in EDIT_VERBS)


_WAIT: Final = re.compile(
    r"^(?:wait|pause)(?:\s+for)?\s+(?:(?P<n>\d+(?:\.\d+)?)|(?P<w>a|an|one|two|three|four|five|ten))\s+"
    r"(?:seconds?|secs?|s|moments?)$"
)
_NUMBER_WORDS: Final = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "ten": 10.0}


def _wait(raw: str, folded: str) -> Frame | None:
    """"wait 2 seconds", "pause for a second": time the goal asks to let pass, in order."""
    match = _WAIT.match(folded)
    if match is None:
        return None
    seconds = float(match.group("n")) if match.group("n") else _NUMBER_WORDS[match.group("w")]
    value = f"{seconds:g}"
    return Frame([_step("wait", f"Wait {value} s", value=value, criterion="the time has passed")], tuple(folded.split()))


def _menu_path(raw: str, folded: str) -> Frame | None:
    if not any(sep in raw for sep in MENU_PATH_SEPARATORS):
        return None
    match = re.match(r"^(?:select|choose|pick|click|open|go to|navigate to)(?:\s+on)?\s+(?P<path>.+)$", folded)
    if match is None:
        return None
    path = _original(raw, folded, match.start("path"), match.end("path"))
    items = [_unquote(part) for part in re.split("|".join(map(re.escape, MENU_PATH_SEPARATORS)), path)]
    items = [item.strip() for item in items if item.strip()]
    if len(items) < 2:
        return None
    # Opening each level is the way there (a "find" step); choosing the last item is the work.
    steps = [_step("find", f"Open {item!r}", target=item, criterion=f"the {item!r} menu is open") for item in items[:-1]]
    steps.append(_step("click", f"Choose {items[-1]!r}", target=items[-1], criterion=f"{items[-1]!r} was chosen"))
    return Frame(steps, ())


_FRAMES: Final[tuple[Callable[[str, str], Frame | None], ...]] = (
    copy,
    find_word,
    described_item,
    typed_then_chosen,
    chosen_from,
    _wait,
    _menu_path,
    read_record_action,
    read_feed_action,
    read_order,
    fill_form,
    fill_with,
    fill_pairs,
    choose_pairs,
    _commit,
    _login,
    _search,
    _toggle,
    with_widget,
    use_field,
    as_the,
    set_list,
    _record,
)


def read_frame(clause: str) -> Frame | None:
    """The steps a clause asks for when it is said as one of the frames above."""
    raw = _POLITE.sub("", clause.strip().rstrip(".!"))
    folded = fold(raw)
    for frame in _FRAMES:
        if (found := frame(raw, folded)) is not None:
            return found
    return None
