"""Acting on a record found in a list — an email, a message, a ticket: a small grammar of slots.

=========  ==============================================================  ============================
action     says                                                            steps
=========  ==============================================================  ============================
forward    "Forward the email from Ana to Bob", "Forward to Bob the email   click Forward (of the
           from Ana", "Send Bob the message you received from Ana", "Give   record), fill "to" with Bob,
           Bob the information Ana sent to you"                             Send
reply      "Reply to the email by Ana with the text "Hi"", "reply to Ana's  click Reply (of the record),
           message with "Hi""                                               fill the text area, Send
delete     "Delete the email from Ana", "move the message from Ana to the   click Delete/trash; the
           trash", "click the trash icon to delete the email by Ana"        record is gone after it
star       "Star the email from Ana", "flag Ana's message", "click the star  click the star (not when
           icon to mark the email by Ana as important"                      it is already on)
archive    "Archive the email from Ana"                                     click Archive
=========  ==============================================================  ============================

The record is a phrase of slots (:data:`RECORD`): "the <noun> from/by <who>", "<who>'s
<noun>", "the <noun> you got / received from <who>", "the <noun> <who> sent (to) you"; the
nouns are data (``MESSAGE_NOUNS`` of the lexicon). Its control is "the <control> button of
the <noun> from <who>" — a record reference (:mod:`verification.contract.records`): in the
record's row, or in its open view once the record is opened.

"Find the email by Ana and forward that email to Bob": :func:`merge_record_find` puts the
record the find names in place of the next clause's "that email" / "it" / "them" (or after
a bare "forward to Bob"); the find and the pronoun only say how.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.lexicon import MESSAGE_NOUNS, PRONOUNS, RECORD_ACTIONS
from agent.policy.text import fold
from planning import PlanStep
from verification.contract import Clause

_NOUN: Final = "(?:" + "|".join(sorted(map(re.escape, MESSAGE_NOUNS), key=len, reverse=True)) + ")s?"
_WHO: Final = r"(?P<who>[a-z0-9][a-z0-9.'’-]*(?:\s+[a-z0-9][a-z0-9.'’-]*){0,3}?)"
_GOT: Final = r"(?:that\s+)?(?:you(?:'ve|\s+have)?\s+)?(?:got|received|gotten)"
# The record, as slots: its noun and who it is from.
RECORD: Final = (
    rf"(?:the\s+)?(?P<noun>{_NOUN})\s+(?:{_GOT}\s+from|from|by|sent\s+by)\s+{_WHO}",
    rf"(?:the\s+)?(?P<noun>{_NOUN})\s+(?:that\s+)?{_WHO}\s+sent(?:\s+(?:to\s+)?(?:you|me))?",
    rf"{_WHO}['’]s?\s+(?P<noun>{_NOUN})",
)
_TEXT: Final = r"(?P<text>\"[^\"]+\"|“[^”]+”|'[^']+')"
_DEST: Final = r"(?P<dest>[a-z0-9][a-z0-9.@'’-]*(?:\s+[a-z0-9][a-z0-9.@'’-]*){0,2}?)"


def _clauses(action: str, template: str) -> list[tuple[str, re.Pattern[str]]]:
    return [(action, re.compile("^" + template.replace("{R}", record) + "$")) for record in RECORD]


_READINGS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    reading
    for action, template in (
        ("forward", rf"(?:forward|send|give)\s+(?:to\s+)?{_DEST}\s+(?=the\s){{R}}"),
        ("forward", rf"(?:forward|send)\s+{{R}}\s+to\s+{_DEST}"),
        ("reply", rf"reply\s+to\s+{{R}}\s+(?:with|saying)\s+(?:the\s+)?(?:(?:text|message|words?|reply)\s+)?{_TEXT}"),
        ("reply", rf"reply\s+{_TEXT}\s+to\s+{{R}}"),
        ("delete", r"(?:delete|remove|trash|discard)\s+{R}"),
        ("delete", r"move\s+{R}\s+to\s+(?:the\s+)?(?:trash|bin)"),
        ("star", r"(?:star|flag)\s+{R}"),
        ("star", r"mark\s+{R}\s+as\s+(?P<as>important|starred|flagged)"),
        ("archive", r"archive\s+{R}"),
        ("icon", rf"(?:click|tap|press)\s+(?:on\s+)?(?:the\s+)?(?P<icon>[a-z]+)\s+(?:icon|button)\s+to\s+(?P<purpose>{'|'.join(RECORD_ACTIONS)})\s+{{R}}(?:\s+as\s+(?P<as>important|starred|flagged))?"),
        ("icon", r"(?:click|tap|press)\s+(?:on\s+)?(?:the\s+)?(?P<icon>[a-z]+)\s+(?:icon|button)\s+(?:of|for|on|in)\s+{R}"),
    )
    for reading in _clauses(action, template)
)
# What each action's control is called, when the goal does not name the icon.
_CONTROL: Final[dict[str, str]] = {"forward": "forward", "reply": "reply", "delete": "delete", "star": "star", "archive": "archive"}
_NOT_A_WHO: Final = frozenset({"it", "this", "that", "them", "all", "everything", "me", "you"}) | PRONOUNS


def _control_target(control: str, noun: str, who: str) -> str:
    return f"the {control} button of the {noun} from {who}"


def read_record_action(raw: str, folded: str) -> Frame | None:
    """A clause that acts on a record of a list (see the module doc), else None."""
    for action, pattern in _READINGS:
        match = pattern.match(folded)
        if match is None:
            continue
        who = _original(raw, folded, match.start("who"), match.end("who")).strip()
        if not who or set(fold(who).split()) & _NOT_A_WHO or fold(who) in MESSAGE_NOUNS:
            continue
        dest = match.groupdict().get("dest")
        if dest is not None and set(dest.split()) & {"and", "or", "&"}:
            continue  # several recipients: more than one To value
        noun = re.sub(r"s$", "", match.group("noun")) if match.group("noun") not in MESSAGE_NOUNS else match.group("noun")
        return _frame(action, match, raw, folded, who, noun)
    return None


_PURPOSE: Final[dict[str, str]] = {"delete": "delete", "remove": "delete", "trash": "delete", "star": "star", "flag": "star", "mark": "star", "archive": "archive"}


def _frame(action: str, match: re.Match[str], raw: str, folded: str, who: str, noun: str) -> Frame:
    groups = match.groupdict()
    slots = {fold(who), *(fold(_original(raw, folded, match.start(k), match.end(k))) for k in ("dest", "text") if groups.get(k))}
    means = tuple(w for w in folded.split() if not any(w in s.split() for s in slots))
    control = _CONTROL.get(action, "")
    if action == "icon":  # "click the trash icon to delete the email by Ana": the icon named, the purpose how
        control = groups["icon"]
        action = _PURPOSE.get(groups.get("purpose") or "", "click")
    target = _control_target(control, noun, who)
    open_step = _step("click", f"{control.capitalize()} the {noun} from {who}", target=target, criterion=f"the {noun} from {who} is {action}ed")
    steps: list[PlanStep] = [open_step]
    results: tuple[Clause, ...] = ()
    if action == "forward":
        dest = _original(raw, folded, match.start("dest"), match.end("dest")).strip()
        steps += [
            _step("fill", f"Address it to {dest!r}", target='the "to" field', value=dest, criterion=f"the To field holds {dest!r}"),
            _step("submit", "Send it", target="send", criterion="the message is sent"),
        ]
    elif action == "reply":
        text = _unquote(_original(raw, folded, match.start("text"), match.end("text")))
        steps += [
            _step("fill", f"Write {text!r} in the reply", target="the text area", value=text, criterion=f"the reply holds {text!r}"),
            _step("submit", "Send the reply", target="send", criterion="the reply is sent"),
        ]
    elif action == "star":
        open_step.value = "on"  # a star already on is not clicked off
    elif action == "delete":
        results = (
            Clause(id="", kind="shown", appear=False, value=who, description=f"the {noun} from {who} is gone from the page after it is deleted"),
        )
    return Frame(steps, means, results=results)


# "Find the email by Ana", "go to the message from Ana", "search for the mail Ana sent you"
_FIND: Final = re.compile(
    r"^(?:please\s+)?(?:find|locate|look\s+for|look\s+up|go\s+to|navigate\s+to|open|search\s+for|get|check)\s+(?P<rec>.+?)"
    r"(?:\s+(?:in|on)\s+(?:the|your|my)\s+(?:inbox|mailbox|list|messages|mail))?$"
)
_REFERENCE: Final = re.compile(rf"\b(?:(?:that|this|the)\s+{_NOUN}|it|them|him|her)\b")
_BARE_FORWARD: Final = re.compile(r"^(?P<verb>forward|send)\s+to\s+(?!(?:the|that|this)\s)")
_QUOTED: Final = re.compile(r"[\"“']")


def _record_of(phrase: str) -> str | None:
    for template in RECORD:
        if re.fullmatch(template, fold(phrase)) is not None:
            return phrase
    return None


def merge_record_find(clauses: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """"Find the email by Ana" + "forward that email to Bob" → "forward the email by Ana to
    Bob" (the find and the pronoun go to the means). Other clauses are left as they are."""
    out: list[str] = []
    means: list[str] = []
    skip = False
    for index, clause in enumerate(clauses):
        if skip:
            skip = False
            continue
        raw = clause.strip().rstrip(".!,")
        find = _FIND.match(fold(raw))
        record = _record_of(_original(raw, fold(raw), find.start("rec"), find.end("rec"))) if find is not None else None
        following = clauses[index + 1] if index + 1 < len(clauses) else ""
        merged = _refer(following, record) if record is not None else None
        if find is None or record is None or merged is None:
            out.append(clause)
            continue
        out.append(merged[0])
        means.extend([*(w for w in fold(raw).split() if w not in fold(record).split()), merged[1]])
        skip = True
    return out, tuple(means)


def _refer(clause: str, record: str) -> tuple[str, str] | None:
    """The clause with its reference to the record found ("that email", "it", "them")
    replaced by the record, and the words replaced; None when it does not refer to one."""
    raw = re.sub(r"^(?:please\s+)", "", clause.strip().rstrip(".!,"), flags=re.IGNORECASE)
    text = fold(raw)
    if len(text) != len(raw):
        return None
    if (bare := _BARE_FORWARD.match(text)) is not None:
        return f"{raw[: bare.end('verb')]} {record} to {raw[bare.end() :]}", ""
    reference = _REFERENCE.search(text)
    if reference is not None and not _QUOTED.search(text[: reference.start()]):
        return f"{raw[: reference.start()]}{record}{raw[reference.end() :]}", reference.group(0)
    return None
