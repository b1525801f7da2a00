"""Acting on a record of a feed or list — a post, a tweet, a user's row — whose action may sit
behind the record's own overflow menu ("⋯", "more", a kebab).

==========  ==================================================================  ======================
reading     says                                                                steps
==========  ==================================================================  ======================
click       'For the user @leo, click on the "Mute" button.', 'On Ana's post,    click <name> of the
            click "Share via DM"', 'Click "Report" for the post by @bob',       record (its overflow
            'Tap Block on @leo's tweet'                                         menu opened when the
                                                                                name is not shown)
verb        "Like the post from @leo", "Retweet @ana's post", "Mute the user    click <verb's control>
            @leo", "Block @leo", "Share the tweet by Ana"                       of the record
==========  ==================================================================  ======================

The record is a phrase of slots: "the user @X", "the <noun> by/from X", "X's <noun>", or a
bare "@handle"; the nouns and verbs are data (``FEED_NOUNS``, ``FEED_ACTIONS``). A scope said
as its own clause ("For the user @leo, click …", "On Ana's post, click …") is put after the
next clause by :func:`merge_record_scope`. The click's target is a record reference
("the "Mute" of the post from @leo", ``ElementRef.record``): the control must be in an entry
(row, item, card) whose text carries the record's words — an ``@handle`` as it is written
(verification.contract.records). Opening the record's overflow menu when the control is not
shown is the refinement's move (agent.policy.overflow).
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.lexicon import FEED_ACTIONS, FEED_NOUNS, PRONOUNS
from agent.policy.text import fold

_NOUN: Final = "(?:" + "|".join(sorted(map(re.escape, FEED_NOUNS), key=len, reverse=True)) + ")s?"
_HANDLE: Final = r"@[a-z0-9_][a-z0-9_.-]*"
_NAME: Final = r"[a-z0-9][a-z0-9.'’-]*(?:\s+[a-z0-9][a-z0-9.'’-]*){0,2}?"
_OWNER_NOUNS: Final = r"(?:user|account|author|profile|person)"
# The record, as slots: who it belongs to (and the noun, which only says what kind).
RECORD: Final[tuple[str, ...]] = (
    rf"(?:the\s+)?{_OWNER_NOUNS}\s+(?P<who>{_HANDLE}|{_NAME})",
    rf"(?:the\s+)?{_NOUN}\s+(?:by|from|of|posted\s+by|written\s+by|sent\s+by)\s+(?:the\s+{_OWNER_NOUNS}\s+)?(?P<who>{_HANDLE}|{_NAME})",
    rf"(?P<who>{_HANDLE}|{_NAME})['’]s?\s+{_NOUN}",
    rf"(?P<who>{_HANDLE})",
)
_SCOPE: Final = tuple(re.compile(rf"^(?:for|on|in|under|at)\s+{record}$") for record in RECORD)
_QUOTED: Final = r"(?P<q>\"[^\"]+\"|“[^”]+”|'[^']+')"
_UNQUOTED: Final = r"(?P<u>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)"
_KIND: Final = r"(?:\s+(?:button|link|icon|option|item|menu\s+item|entry|action))?"
_CLICK: Final = r"(?:click|tap|press|select|choose|hit|pick)\s+(?:on\s+)?(?:the\s+)?"
_VERBS: Final = "|".join(sorted(map(re.escape, FEED_ACTIONS), key=len, reverse=True))
_READINGS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (kind, re.compile(f"^{template.replace('{R}', record)}$"))
    for kind, template in (
        ("click", rf"{_CLICK}(?:{_QUOTED}|{_UNQUOTED}){_KIND}\s+(?:for|on|of|in|from|under|at)\s+{{R}}"),
        ("verb", rf"(?P<verb>{_VERBS})\s+{{R}}"),
    )
    for record in RECORD
)
_NOT_A_WHO: Final = frozenset({"it", "this", "that", "them", "all", "everything", "me", "you", "the", "a", "an"}) | PRONOUNS


def merge_record_scope(clauses: list[str]) -> list[str]:
    """'For the user @leo' + 'click on the "Mute" button' → 'click on the "Mute" button for
    the user @leo': a clause that only names the record scopes the next one."""
    out: list[str] = []
    pending: str | None = None
    for clause in clauses:
        raw = clause.strip().rstrip(".!,;")
        if pending is not None:
            out.append(f"{raw} {pending}")
            pending = None
            continue
        if any(p.match(fold(raw)) for p in _SCOPE) and _who_ok(raw):
            pending = raw
            continue
        out.append(clause)
    if pending is not None:
        out.append(pending)  # a scope with nothing after it: left to be declined
    return out


def _who_ok(raw: str) -> bool:
    for pattern in _SCOPE:
        match = pattern.match(fold(raw))
        if match is not None:
            return not (set(match.group("who").split()) & _NOT_A_WHO)
    return False


def read_feed_action(raw: str, folded: str) -> Frame | None:
    """A clause that acts on a record of a feed or list (see the module doc), else None."""
    for kind, pattern in _READINGS:
        match = pattern.match(folded)
        if match is None:
            continue
        who = _original(raw, folded, match.start("who"), match.end("who")).strip()
        if not who or set(fold(who).split()) & _NOT_A_WHO or fold(who) in FEED_NOUNS:
            continue
        groups = match.groupdict()
        if kind == "verb":
            name = FEED_ACTIONS[groups["verb"]]
            target = f'"{name}" of the post from {who}'
        elif groups.get("q"):
            name = _unquote(_original(raw, folded, match.start("q"), match.end("q")))
            target = f'"{name}" of the post from {who}'
        else:
            name = _original(raw, folded, match.start("u"), match.end("u"))
            if set(fold(name).split()) & _NOT_A_WHO:
                continue
            target = f'"{name}" of the post from {who}'
        slots = {w for w in fold(who).split()} | set(fold(name).split())
        means = tuple(w for w in folded.split() if w not in slots)
        step = _step("click", f"Click {name!r} on the record of {who}", target=target, criterion=f"{name!r} of {who}'s record was clicked")
        return Frame([step], means)
    return None
