"""Goal → ordered plan steps, without a model.

A goal is split into clauses ("Click button ONE, then click button TWO.", "Enter "Kasey"
into the text field and press Submit."), each clause is read as one or more steps, and
record-creation goals ("Add a new patient named "Jas"") become open → fill → submit. What
proves the goal done is read from the same steps by :mod:`agent.policy.understand`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from agent.policy.frames import read_frame
from agent.policy.lexicon import EXPLORE_PLACES, EXPLORE_PURPOSES, EXPLORE_TRAVERSALS, EXPLORE_VERBS
from agent.policy.goal import ParsedGoal, parse_goal
from agent.policy.text import fold
from planning import Plan, PlanStep
from verification.contract import Clause, ValueSource

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Za-z])")
_VERBS = (
    r"click|tap|press|hit|push|select|choose|pick|check|tick|uncheck|untick|type|enter|input|write|fill|set|"
    r"submit|save|open|go|navigate|focus|hover|scroll|expand|collapse|close|find|add|create|log in|sign in|login|"
    r"wait|pause|forward|reply|send|give|delete|remove|star|flag|archive|mark|change|update"
)
# A run-on that ends in a bare commit ("… to the bottom of the text hit submit") is two clauses.
_RUN_ON_COMMIT = r"(?<!labelled)(?<!labeled)(?<!named)(?<!called)(?<!says)(?<!reads)\s+(?=(?:hit|press|click|tap)\s+(?:the\s+)?(?:submit|ok|done|save|send)(?:\s+button)?\s*$)"
_CLAUSE_SPLIT = re.compile(
    rf",?\s+(?:and then|then|after that)\s+|,?\s+and\s+(?=(?:{_VERBS})\b)|,\s+(?=(?:{_VERBS})\b)|{_RUN_ON_COMMIT}", re.IGNORECASE
)
_GERUND = {"clicking": "click", "pressing": "press", "selecting": "select", "typing": "type", "entering": "enter", "choosing": "choose", "tapping": "tap"}
_BY_MEANS = re.compile(r"^.+?\bby\s+(" + "|".join(_GERUND) + r")\b\s*(?P<rest>.*)$")
_CONTEXT_ONLY = re.compile(r"^(?:navigate|go|browse)\s+(?:through|around|in)\b")
def _alternatives(phrases: Iterable[str]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


# "Switch between the tabs to find", "expand the sections below, to find", "scroll down to find".
_EXPLORE_HOW = re.compile(
    rf"^(?:{_alternatives(EXPLORE_VERBS)})(?:\s+(?:the|all|each|every|of|these|those|different|various|other|available))*"
    rf"(?:\s+(?:{_alternatives(EXPLORE_PLACES)}))?(?:\s+(?:below|above|here|shown|on the page|one by one|one at a time))*"
    rf"\s*,?\s+(?:in order\s+)?to\s+(?:{_alternatives(EXPLORE_PURPOSES)})$"
)
# "Look through the tabs", "switch between the sections": going through several is how.
_TRAVERSE_HOW = re.compile(
    rf"^(?:{_alternatives(EXPLORE_TRAVERSALS)})(?:\s+(?:the|all|each|every|of|these|those|different|various|other|available))*"
    rf"\s+(?:{_alternatives(p for p in EXPLORE_PLACES if p.endswith('s'))})(?:\s+(?:below|above|here|shown|on the page|one by one))*$"
)
_FIND_AND = re.compile(r"^(?:find|locate|look for)\s+and\s+", re.IGNORECASE)
_RECORD = re.compile(
    r"^(?:add|create|register|make|enter)\s+(?:a\s+|an\s+)?(?:new\s+)?(?P<entity>[a-z][a-z -]{1,30}?)"
    r"(?:\s+(?:named|called|with (?:the )?name|whose name is)\s+(?P<name>\S.*?))?(?=\s+with\s|\s*$)"
)
_PAIR = re.compile(r"\b(?P<field>[a-z][a-z ]{0,24}?)\s+(?:is\s+|as\s+|of\s+|=\s*|:\s*)?[\"“'](?P<value>[^\"”']+)[\"”']")
_SUBMIT_WORDS = {"submit", "save", "login", "log in", "sign in", "ok", "done", "create", "confirm", "continue", "send", "search", "next", "apply"}
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
ALL_FIELDS = "*all text fields"
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


_QUOTE_SPAN = re.compile(r"\"[^\"]*\"|“[^”]*”")


def _split_outside_quotes(pattern: re.Pattern[str], text: str) -> list[str]:
    """``pattern.split(text)``, except inside quoted values ('reply with "Vel. Semper."')."""
    quoted = [m.span() for m in _QUOTE_SPAN.finditer(text)]
    parts: list[str] = []
    start = 0
    for match in pattern.finditer(text):
        if any(a < match.start() < b for a, b in quoted) or match.end() == match.start():
            continue
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return parts


def split_clauses(goal: str) -> list[str]:
    clauses: list[str] = []
    for sentence in _split_outside_quotes(_SENTENCE, goal.strip()):
        sentence = sentence.strip().rstrip(".!;")
        for clause in _split_outside_quotes(_CLAUSE_SPLIT, sentence):
            clause = clause.strip(" ,")
            if clause:
                clauses.append(clause)
    return clauses


# "Search for "Ana Silva", open it": what was searched for is what is opened.
_SEARCHED = re.compile(r"^(?:search(?:\s+the\s+[a-z]+)?\s+for|look\s+up|find)\s+(?P<x>\"[^\"]+\"|“[^”]+”|[^,\"]+?)\s*$", re.IGNORECASE)
_OPEN_IT = re.compile(r"^(?:open|click(?:\s+on)?|select)\s+(?:it|that(?:\s+one)?|(?:the|her|his|their|its)\s+(?:record|result|entry|item|profile|page))$", re.IGNORECASE)


def name_opened(clauses: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """"open it" right after a search names what was searched for ("open Ana Silva"): the
    pronoun is the one result the search was for, never whatever happens to be first. The
    words it replaced ("her record") are how, not what (returned as means)."""
    out: list[str] = []
    means: list[str] = []
    for clause in clauses:
        searched = _SEARCHED.match(out[-1]) if out else None
        if searched is not None and (opened := _OPEN_IT.match(clause)) is not None:
            means.append(opened.group(0).split(maxsplit=1)[1])
            clause = f"open {searched.group('x').strip()}"
        out.append(clause)
    return out, tuple(means)


# "Find Casie in the contact book and click on their address": the find names the record the
# next clause's pronoun points at ("their address" = the address for Casie); where to look
# ("in the contact book") only says how.
_FIND_RECORD = re.compile(
    r"^(?:find|locate|look up|look for|search for|go to)\s+(?P<x>[^,]+?)"
    r"(?:\s+(?:in|on|from|among)\s+(?:the|your|my|this)\s+[a-z]+(?:\s+[a-z]+){0,2})?$"
)
_THEIR = re.compile(r"\b(?:their|his|her|its)\s+(?P<np>[a-z][a-z ]*?)(?=\s*$|\s*[,.;])", re.IGNORECASE)


def merge_find(clauses: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """A "find X" clause followed by one that says "their/his/her/its <thing>": the second
    names X's thing ("click on the address for X") and the first is only how (its words go
    to the means). Other clauses are left as they are."""
    out: list[str] = []
    means: list[str] = []
    skip = False
    for index, clause in enumerate(clauses):
        if skip:
            skip = False
            continue
        find = _FIND_RECORD.match(fold(clause).rstrip(".!"))
        following = clauses[index + 1] if index + 1 < len(clauses) else ""
        their = _THEIR.search(following)
        if find is None or their is None or not find.group("x").strip():
            out.append(clause)
            continue
        start = fold(clause).find(find.group("x"))
        record = clause[start : start + len(find.group("x"))].strip() if len(clause) == len(fold(clause)) else find.group("x")
        out.append(f'{following[: their.start()]}the {their.group("np")} for "{record}"{following[their.end() :]}')
        means.extend(w for w in fold(clause).split() if w not in fold(record).split())
        means.append(following[their.start() : their.start("np")].strip())
        skip = True
    return out, tuple(means)


def normalise_clause(clause: str) -> tuple[str | None, tuple[str, ...]]:
    """The clause as an action to read, and the words that only say how or why: a
    context-only clause ("Navigate through the file tree") reads as nothing; "Close the
    dialog by clicking X" reads as "click X" done for "Close the dialog"."""
    folded = fold(clause)
    if _CONTEXT_ONLY.match(folded) and "http" not in folded:
        return None, (clause,)
    if _EXPLORE_HOW.match(folded.rstrip(" ,.")) or _TRAVERSE_HOW.match(folded.rstrip(" ,.")):  # how the target is looked for: explore.py does that
        return None, (clause,)
    if match := _BY_MEANS.match(clause.strip()):
        verb = _GERUND[match.group(1).lower()]
        return f"{verb} {match.group('rest')}".strip(), (clause[: match.start(1)],)
    if _FIND_AND.match(folded):
        return _FIND_AND.sub("", clause.strip(), count=1), ()
    return clause.strip(), ()


def _step(kind: str, description: str, *, target: str | None = None, value: str | None = None, criterion: str) -> PlanStep:
    return PlanStep(index=0, kind=kind, description=description, target=target, value=value, success_criterion=criterion)  # type: ignore[arg-type]


def _record_steps(clause: str, folded: str) -> list[PlanStep] | None:
    match = _RECORD.match(folded)
    if not match:
        return None
    entity = match.group("entity").strip()
    pairs = {fold(m.group("field")).removeprefix("with ").strip(): m.group("value") for m in _PAIR.finditer(clause)}
    name = match.group("name")
    fields: dict[str, str] = {}
    if name:
        quoted = re.search(r"[\"“']([^\"”']+)[\"”']", clause)
        fields["name"] = quoted.group(1) if quoted else clause[match.start("name") : match.end("name")].strip()
    for field, value in pairs.items():
        field = re.sub(rf"^(?:{re.escape(entity)}\s+)?(?:named|called)$", "name", field)
        if field and value not in fields.values():
            fields[field] = value
    if not fields:
        return None
    steps = [_step("open", f"Open the form to add a new {entity}", target=entity, criterion=f"a form for a new {entity} is shown")]
    for field, value in fields.items():
        steps.append(_step("fill", f"Enter {value!r} as the {field}", target=field, value=value, criterion=f"the {field} field holds {value!r}"))
    steps.append(_step("submit", f"Save the new {entity}", target="save", criterion=f"the {entity} is saved"))
    return steps


_FIELD_NOISE = {"enter", "type", "input", "write", "fill", "in", "and", "the", "a", "with", "set", "my", "your"}


def _field_name(raw: str) -> str:
    words = fold(raw).split()
    while words and words[0] in _FIELD_NOISE:
        words.pop(0)
    return " ".join(words)


def _fill_steps(clause: str, goal: ParsedGoal) -> list[PlanStep]:
    if re.search(r"\b(?:both|all|each|every)\b", fold(clause)):
        quoted = _QUOTED.search(clause)
        value = quoted.group(1) if quoted else (goal.value or "")
        return [_step("fill", f"Enter {value!r} into every text field", target=ALL_FIELDS, value=value, criterion=f"every field holds {value!r}")]
    named = [(_field_name(m.group("field")), m.group("value")) for m in _PAIR.finditer(clause)]
    named = [(f, v) for f, v in named if f]
    generic_target = goal.target is None or not goal.target.text
    if len(named) > 1 or (named and generic_target):
        return [_step("fill", f"Enter {v!r} as the {f}", target=f, value=v, criterion=f"the {f} field holds {v!r}") for f, v in named]
    value = goal.value or ""
    target = (goal.phrase or _target_phrase(goal)) if goal.target else "text field"
    return [_step("fill", f"Enter {value!r} into {target}", target=target, value=value, criterion=f"the field holds {value!r}")]


def _target_phrase(goal: ParsedGoal) -> str:
    """A target as words parse_target reads back the same way (text, role, ordinal)."""
    target = goal.target
    assert target is not None
    role_word = {"textbox": "field", "combobox": "list"}.get(target.role or "", target.role or "")
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", -1: "last"}.get(target.ordinal or 0, f"{target.ordinal}th" if target.ordinal else "")
    return " ".join(part for part in (ordinal, target.text, role_word) if part)


@dataclass(frozen=True)
class ClauseReading:
    steps: list[PlanStep]
    means: tuple[str, ...] = ()  # words that only say how the work is done
    edits: bool = False  # opens a record's form: the values set after it are saved by its commit
    read: ValueSource | None = None  # a value read on the page (for its fill step, or the next one)
    results: tuple[Clause, ...] = ()  # what shows once the clause's steps are done


def read_clause(clause: str) -> ClauseReading:
    """One clause of a goal → its steps: an intent frame when the clause is said as one
    (:mod:`agent.policy.frames`), else the imperative grammar."""
    normalised, means = normalise_clause(clause)
    if normalised is None:
        return ClauseReading([], means)
    if frame := read_frame(normalised):
        return ClauseReading(frame.steps, means + frame.means, frame.edits, frame.read, frame.results)
    return ClauseReading(_imperative_steps(normalised), means)


def steps_for_clause(clause: str) -> list[PlanStep]:
    return read_clause(clause).steps


def _imperative_steps(normalised: str) -> list[PlanStep]:
    folded = fold(normalised)
    if record := _record_steps(normalised, folded):
        return record
    goal = parse_goal(normalised)
    target = goal.target
    match goal.intent:
        case "type":
            return _fill_steps(normalised, goal)
        case "select":
            assert target is not None
            phrase = goal.phrase or _target_phrase(goal)
            values = _several(goal.value or "", normalised)
            return [_step("select", f"Choose {v!r} in {target.text or 'the list'}", target=phrase, value=v, criterion=f"{v!r} is chosen") for v in values]
        case "check" | "uncheck":
            assert target is not None
            return [_step(goal.intent, f"{goal.intent.capitalize()} {target.text}", target=goal.phrase or _target_phrase(goal), criterion=f"{target.text} is {goal.intent}ed")]
        case "navigate":
            return [_step("navigate", f"Go to {goal.url}", value=goal.url, criterion="the page at that address is shown")]
        case "back":
            return [_step("navigate", "Go back", value="back", criterion="the previous page is shown")]
        case "scroll":
            if target is not None and goal.direction in ("top", "bottom"):
                phrase = _target_phrase(goal)
                return [_step("find", f"Scroll {phrase} to the {goal.direction}", target=phrase, value=goal.direction, criterion=f"{phrase} is scrolled to the {goal.direction}")]
            return [_step("find", f"Scroll {goal.direction}", target=target.text if target else None, value=goal.direction, criterion="more of the page is shown")]
        case "hover":
            assert target is not None
            return [_step("hover", f"Hover over {target.text}", target=goal.phrase or _target_phrase(goal), criterion="its menu or tooltip shows")]
        case "press" if target is not None:
            return [_step("press", f"Press {goal.key} in {target.text}", target=goal.phrase or _target_phrase(goal), value=goal.key, criterion="the key took effect")]
        case "click":
            assert target is not None
            return _click_steps(normalised, goal)
    return _other_steps(normalised, folded)


def _several(value: str, clause: str) -> list[str]:
    """"Corrine, Catherine and Ada" → three options; a value the user quoted whole, or one
    comma-separated item, stays one."""
    if not value or _QUOTED.search(clause) and fold(value) in {fold(q) for q in _QUOTED.findall(clause)}:
        return [value]
    items = [item.strip() for item in _LIST_SPLIT.split(value) if item.strip()]
    return items if len(items) > 1 and "," in value else [value]


def _click_steps(clause: str, goal: ParsedGoal) -> list[PlanStep]:
    target = goal.target
    assert target is not None
    # "Select X, Y and Z" (no "from"): several options to tick.
    if re.match(r"^(?:select|choose|pick)\b", fold(clause)) and target.role is None:
        items = [i for i in _LIST_SPLIT.split(target.text) if i]
        if items == ["nothing"]:
            return []  # nothing to tick (accounted for as how the goal is done)
        return [_step("check", f"Select {item}", target=item, criterion=f"{item} is selected") for item in items]
    phrase = goal.phrase or _target_phrase(goal)
    kind = "submit" if target.text in _SUBMIT_WORDS else "click"
    return [_step(kind, f"Click {phrase}", target=phrase, criterion=f"{phrase} was activated")]


def _other_steps(clause: str, folded: str) -> list[PlanStep]:
    if m := re.match(r"^focus(?: on| into| in)?\s+(?P<t>.+)$", folded):
        return [_step("focus", f"Focus {m.group('t')}", target=m.group("t"), criterion="the field has focus")]
    if m := re.match(r"^(?:expand|open|show)\s+(?P<t>.+)$", folded):
        return [_step("find", f"Expand {m.group('t')}", target=m.group("t"), criterion="its content is shown")]
    if m := re.match(r"^(?:log ?in|sign in)\b", folded):
        return [_step("submit", "Log in", target="log in", criterion="signed in")]
    return []


def build_plan(goal: str) -> Plan:
    """The deterministic plan for a goal; empty ``steps`` when the goal cannot be read."""
    steps: list[PlanStep] = []
    for clause in split_clauses(goal):
        steps.extend(read_clause(clause).steps)
    for index, step in enumerate(steps):
        step.index = index
    return Plan(goal=goal, steps=steps, source="policy")
