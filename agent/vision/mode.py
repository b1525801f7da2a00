"""The mode router: does this step need the page's look (hybrid: screenshot + element list)
or is the element list enough (text)?

Pure and deterministic. It reads the goal's words (the spec's visual/spatial keywords:
icon, image, looks like, colour, top/bottom/left/right, corner, next to …) and structured
facts about the step — never a model's prose. Positional words count only in a spatial
phrase ("in the top right corner", "on the left", "next to Save"), so "the right answer" or
"2 items left" stay text goals; colour words only when they describe something on the page
("the red button", "the green one")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

Mode = Literal["text", "hybrid"]
Reason = Literal["visual_terms", "unresolved_target", "client_hybrid"]

_COLOURS: Final = (
    "red|green|blue|yellow|orange|purple|violet|pink|grey|gray|black|white|brown|teal|cyan|magenta|golden|gold|silver"
)
_SIDES: Final = "top|bottom|left|right|upper|lower|middle|centre|center"
_THINGS: Final = (
    "button|buttons|icon|icons|link|links|box|boxes|tab|tabs|card|cards|tile|tiles|square|squares|circle|circles|"
    "shape|shapes|one|ones|item|items|badge|dot|dots|arrow|arrows|bar|banner|label|text|heart|star|flag|thing"
)
#: (what a phrase means, pattern). Data, not logic: add a phrase here, not an if.
VISUAL_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        ("icon", r"\bicons?\b"),
        ("image", r"\b(image|images|picture|pictures|photo|photos|thumbnail|thumbnails|logo|logos|avatar|avatars)\b"),
        ("looks like", r"\b(looks?|looking) like\b|\bshaped like\b|\b(symbol|glyph|pictogram)s?\b"),
        ("colour", r"\b(colou?r|colou?red|shade)\b(?!\s+(field|input|box|picker|code|name|value|dropdown|menu|select))"),
        ("colour word", rf"\b({_COLOURS})(ish)?\s+(\w+\s+)?({_THINGS})\b|\b(in|coloured|colored)\s+({_COLOURS})\b"),
        ("corner", r"\bcorners?\b"),
        ("next to", r"\b(next to|beside|besides|alongside|adjacent to|to the (left|right) of|left of|right of)\b"),
        ("above/below", r"\b(above|below|underneath|beneath|on top of)\s+(the|a|an|that|this|it|[\"'])"),
        ("position", rf"\b(at|on|in|to|near|from|towards)\s+the\s+(very\s+)?({_SIDES})\b(?!\s+(answer|one to|thing to do|now|away))"),
        ("position pair", r"\b(top|bottom|upper|lower)[\s-]+(left|right)\b"),
        ("side", r"\b(left|right|top|bottom)[\s-]+(side|hand|edge|column|panel|sidebar|half|part|of the (page|screen|window))\b"),
        ("on screen", r"\b(on|of) (the )?screen\b|\bvisually\b|\bhighlighted\b"),
    )
)


@dataclass(frozen=True, slots=True)
class ModeFacts:
    """What the router decides from: the goal (and the current step's words), the mode the
    client says it is in, and whether the element list could resolve the step's target."""

    goal: str
    step_text: str = ""
    client_mode: str | None = None
    target_unresolved: bool = False  # the policy found no element for the current step
    nameless_controls: int = 0  # actionable elements with no name (icon-only buttons)


@dataclass(frozen=True, slots=True)
class ModeDecision:
    mode: Mode
    reasons: tuple[Reason, ...] = ()
    terms: tuple[str, ...] = ()  # which visual phrases matched (for logs and the bench)

    @property
    def hybrid(self) -> bool:
        return self.mode == "hybrid"


_QUOTED: Final = re.compile(r'"[^"]*"|“[^”]*”|(?<!\w)\'[^\']*\'(?!\w)')


def visual_terms(text: str) -> tuple[str, ...]:
    """The kinds of visual/spatial phrase ``text`` uses, in ``VISUAL_PATTERNS`` order.
    Quoted text is a value or a name the user gave ("type 'blue'"), not a description of
    the page's look, and is left out."""
    words = _QUOTED.sub(" ", text)
    return tuple(name for name, pattern in VISUAL_PATTERNS if pattern.search(words))


def choose_mode(facts: ModeFacts) -> ModeDecision:
    """``hybrid`` when the goal or step speaks of how the page looks or where things are,
    when the step's target could not be found by its words and the page has controls with
    no name (only a picture could tell them apart), or when the client itself sent the page
    in hybrid mode; else ``text``."""
    reasons: list[Reason] = []
    terms = visual_terms(f"{facts.goal}\n{facts.step_text}")
    if terms:
        reasons.append("visual_terms")
    if facts.target_unresolved and facts.nameless_controls > 0:
        reasons.append("unresolved_target")
    if facts.client_mode == "hybrid":
        reasons.append("client_hybrid")
    return ModeDecision("hybrid" if reasons else "text", tuple(reasons), terms)
