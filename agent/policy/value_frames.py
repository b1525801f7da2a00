"""Intent frames that set values: "X as the <field>", "set A to x, B to y", "select 7 with
the slider", and values read on the page ("copy the text of …, paste it into …", "find the
5th word of the paragraph"). See :mod:`agent.policy.frames` for the table of frames."""

from __future__ import annotations

import re
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.lexicon import PRONOUNS, VALUE_WIDGETS
from agent.policy.references import source_ref
from planning import PlanStep
from verification.contract import ValueSource

_AS_THE: Final = re.compile(
    r"^(?P<verb>enter|type|input|write|put|select|choose|pick|set|fill in|use)\s+(?P<v>.+?)\s+as\s+(?:the|your|a|an)\s+(?P<f>[a-z][a-z -]{0,40})$",
    re.IGNORECASE,
)
_SET_PAIR: Final = re.compile(r"^(?:(?:the|her|his|their|its|my|your)\s+)?(?P<f>[a-z][a-z ]{0,30}?)\s+(?:to|=|:)\s+(?P<v>.+)$")
_SET_VERB: Final = re.compile(r"^(?:set|change|update|make)\s+", re.IGNORECASE)
_LIST: Final = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


def as_the(raw: str, folded: str) -> Frame | None:
    match = _AS_THE.match(folded)
    if match is None:
        return None
    value = _unquote(_original(raw, folded, match.start("v"), match.end("v")))
    field_ = match.group("f").strip()
    return Frame([_step("fill", f"Enter {value!r} as the {field_}", target=field_, value=value, criterion=f"the {field_} holds {value!r}")], ())


_WIDGET: Final = r"(?:" + "|".join(map(re.escape, VALUE_WIDGETS)) + r")"
_WITH_WIDGET: Final = (
    # "set opacity to 35 with the slider", "turn the volume to 8 using the spinner"
    re.compile(rf"^(?:set|move|turn|adjust|change)\s+(?:the\s+)?(?P<n>[a-z]+(?:\s+[a-z]+)?)\s+to\s+(?P<v>.+?)\s+(?:with|using|on|via)\s+(?:the\s+)?(?P<f>{_WIDGET})$"),
    # "select 7 with the slider", "enter 5 using the quantity spinner"
    re.compile(rf"^(?:select|choose|pick|set|enter|put|input|dial)\s+(?P<v>.+?)\s+(?:with|using|on|via|in)\s+(?:the\s+)?(?P<f>(?:[a-z]+\s+)?{_WIDGET})$"),
    # "use the slider to select 40", "use the Quantity spinner to set 3"
    re.compile(rf"^use\s+(?:the\s+)?(?P<f>(?:[a-z]+\s+)?{_WIDGET})\s+to\s+(?:select|choose|pick|set|enter|input)\s+(?P<v>.+)$"),
    # "move the slider to 40", "drag the volume slider to 25"
    re.compile(rf"^(?:move|drag|slide|turn|adjust|set)\s+(?:the\s+)?(?P<f>(?:[a-z]+\s+)?{_WIDGET})\s+to\s+(?P<v>.+)$"),
)


# "use the textbox to enter "Renda"", "use the comment box to write hello": the field said first.
_USE_FIELD: Final = re.compile(
    r"^use\s+(?:the|a|an|your)\s+(?P<f>[a-z][a-z -]{0,40}?)\s+(?:below\s+|above\s+)?to\s+(?:enter|type|input|write|fill in|put in)\s+(?P<v>.+)$"
)


def use_field(raw: str, folded: str) -> Frame | None:
    """A value typed with a field the sentence names before the value."""
    match = _USE_FIELD.match(folded)
    if match is None or re.search(_WIDGET, match.group("f")):
        return None  # a slider or spinner is set by :func:`with_widget`
    value = _unquote(_original(raw, folded, match.start("v"), match.end("v")))
    field_ = match.group("f").strip()
    step = _step("fill", f"Enter {value!r} in the {field_}", target=field_, value=value, criterion=f"the {field_} holds {value!r}")
    return Frame([step], ("use", "below", "above"))


def with_widget(raw: str, folded: str) -> Frame | None:
    """A value set with a slider or spinner, however the sentence orders the two."""
    for pattern in _WITH_WIDGET:
        if (match := pattern.match(folded)) is not None:
            value = _unquote(_original(raw, folded, match.start("v"), match.end("v")))
            widget = match.group("f").strip()
            if "n" in match.re.groupindex:
                widget = f"{match.group('n')} {widget}"
            step = _step("fill", f"Set the {widget} to {value!r}", target=widget, value=value, criterion=f"the {widget} holds {value!r}")
            return Frame([step], ("move", "drag", "slide", "turn", "adjust", "use", "with", "using", "via"))
    return None


def set_list(raw: str, folded: str) -> Frame | None:
    """"set the name to Ann, the city to Oslo and the age to 5" (values unquoted or quoted)."""
    verb = _SET_VERB.match(folded)
    if verb is None:
        return None
    body = folded[verb.end() :]
    offset = verb.end()
    steps: list[PlanStep] = []
    position = 0
    parts: list[tuple[int, int, bool]] = []
    comma = False
    for sep in _LIST.finditer(body):
        parts.append((position, sep.start(), comma))
        position, comma = sep.end(), "," in sep.group(0)
    parts.append((position, len(body), comma))
    for start, end, after_comma in parts:
        match = _SET_PAIR.match(body[start:end])
        if match is None:
            # "set First name to Ada, Last name Lovelace": not "Ada, Last name Lovelace" typed
            # into First name — where the first value ends is a guess, so nothing is read.
            return Frame([], ()) if steps and after_comma else None
        name = " ".join(w for w in match.group("f").split() if w not in PRONOUNS)
        value = _unquote(_original(raw, folded, offset + start + match.start("v"), offset + start + match.end("v")))
        if not name or not value:
            return None
        steps.append(_step("fill", f"Set the {name} to {value!r}", target=name, value=value, criterion=f"the {name} holds {value!r}"))
    if len(steps) < 2 and not any(w in PRONOUNS for w in folded.split()):
        return None  # one pair: the imperative grammar reads it ("set X to Y")
    return Frame(steps, tuple(PRONOUNS & set(folded.split())))


_NTH: Final = r"(?P<ord>\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)"
_COPY: Final = re.compile(
    r"^copy\s+(?:the\s+)?(?:(?:text|value|contents?|words?)\s+)?(?:in|from|of|inside)\s+(?P<src>.+?),?\s+"
    r"(?:and\s+)?(?:then\s+)?paste\s+(?:it|that|them|this)\s+(?:in|into|to|inside)\s+(?P<dst>.+)$"
)
_FIND_WORD: Final = re.compile(
    rf"^(?:find|read|get|take|look at|locate|remember|copy)\s+(?:the\s+)?{_NTH}\s+word\s+(?:in|of|from|inside)\s+(?P<src>.+)$"
)
_CASE: Final = re.compile(r"\s+(?:in|using|with)\s+(?P<case>upper|lower)\s?case(?:\s+letters)?$")


def _nth(text: str) -> int:
    words_ = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
    return words_[text] if text in words_ else int(re.sub(r"\D", "", text))


def copy(raw: str, folded: str) -> Frame | None:
    """"Copy the text in the textarea below, paste it into the textbox"."""
    match = _COPY.match(folded)
    if match is None:
        return None
    source = source_ref(match.group("src"))
    dst = _original(raw, folded, match.start("dst"), match.end("dst"))
    if source is None:
        return None
    step = _step("fill", f"Paste the text of {match.group('src')} into {dst}", target=dst, value=None, criterion=f"{dst} holds the copied text")
    return Frame([step], ("copy", "paste", "text"), read=ValueSource(element=source))


def find_word(raw: str, folded: str) -> Frame | None:
    """"Find the 5th word in the paragraph" — the value a following "type it …" uses."""
    case = _CASE.search(folded)
    body = folded[: case.start()] if case else folded
    match = _FIND_WORD.match(body)
    if match is None:
        return None
    src = match.group("src")
    element = None if re.search(r"\b(?:paragraph|passage|text above|text below)\b", src) else source_ref(src)
    if element is None and not re.search(r"\b(?:paragraph|passage|text)\b", src):
        return None
    read = ValueSource(element=element, word=_nth(match.group("ord")), case=case.group("case") if case else None)  # type: ignore[arg-type]
    return Frame([], ("find", "word", "paragraph", "passage", "case", "letters"), read=read)
