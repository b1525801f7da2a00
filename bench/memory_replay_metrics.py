"""The replay bench's figures, from its episodes (pure functions: no server, no browser).

An *action answer* is an answer that asked for page actions (not finish / fail / a bare
wait); an episode is *served fully as HIT* when it has action answers and every one of
them was ``memory.replay == "HIT"``. A *wrong-element action* is a page event caused by a
replayed (HIT) answer on a real element (the layer's ``data-bench-key``, set before any
perturbation) that the clean run of the same instance did not act on that way: a click on
an element it never clicked, a value in a field where it left another value. Clicks on
the bench's overlay are the planner working around it, not the flow's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import mean
from typing import Any

from bench.memory_episodes import Answer, Episode


def action_answers(episode: Episode) -> list[Answer]:
    return [a for a in episode.answers if a.acts]


def fully_hit(episode: Episode) -> bool:
    acting = action_answers(episode)
    return bool(acting) and all(a.replay == "HIT" for a in acting)


@dataclass(frozen=True)
class Reference:
    """What the clean run of one instance did: the elements it clicked and the values it
    left in fields (by bench key)."""

    clicked: frozenset[str]
    values: dict[str, str]

    @classmethod
    def of(cls, episode: Episode) -> Reference:
        clicked: set[str] = set()
        values: dict[str, str] = {}
        for answer in episode.answers:
            for event in answer.events:
                key = event.get("key")
                if not key or event.get("overlay"):
                    continue
                if event.get("type") == "click":
                    clicked.add(key)
                elif "value" in event:
                    values[key] = str(event["value"])
        return cls(frozenset(clicked), values)


def wrong_events(answer: Answer, reference: Reference) -> list[dict[str, Any]]:
    """The events of ``answer`` on elements the clean run did not act on that way."""
    wrong = []
    for event in answer.events:
        key = event.get("key")
        if event.get("overlay") or not key:
            continue
        if event.get("type") == "click" and key not in reference.clicked and key not in reference.values:
            wrong.append(event)
        elif event.get("type") in ("input", "change") and "value" in event:
            if reference.values.get(key) != str(event["value"]) and not _partial(event, reference.values.get(key)):
                wrong.append(event)
    return wrong


def _partial(event: dict[str, Any], final: str | None) -> bool:
    """An input event on the way to the field's final value (typing char by char)."""
    value = str(event.get("value", ""))
    return final is not None and event.get("type") == "input" and final.startswith(value)


@dataclass(frozen=True)
class Figures:
    """The headline figures of a set of episodes."""

    episodes: int
    success: float | None
    false_completions: int
    fully_hit: float | None
    hit_answers: float | None
    model_calls_in_hit: int  # in HIT answers that verified a replayed step (or started the task): must be 0
    model_calls_in_hit_after_planner: int  # in HIT answers whose request verified a planner (MISS / FALLBACK) step
    model_calls_per_episode: float | None
    answers_per_episode: float | None

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _share(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def figures(episodes: Sequence[Episode]) -> Figures:
    acting = [a for e in episodes for a in action_answers(e)]
    return Figures(
        episodes=len(episodes),
        success=_share([e.success for e in episodes]),
        false_completions=sum(e.false_completion for e in episodes),
        fully_hit=_share([fully_hit(e) for e in episodes]),
        hit_answers=_share([a.replay == "HIT" for a in acting]),
        model_calls_in_hit=sum(calls for e in episodes for calls, after_planner in _hit_calls(e) if not after_planner),
        model_calls_in_hit_after_planner=sum(calls for e in episodes for calls, after_planner in _hit_calls(e) if after_planner),
        model_calls_per_episode=mean(e.model_calls for e in episodes) if episodes else None,
        answers_per_episode=mean(len(e.answers) for e in episodes) if episodes else None,
    )


def _hit_calls(episode: Episode) -> list[tuple[int, bool]]:
    """(model calls, whether the previous answer was the planner's) of each HIT answer. A
    request verifies the previous answer's action before it decides: after a planner step
    that verification may ask the model; after a replayed step it never does."""
    out = []
    for i, answer in enumerate(episode.answers):
        if answer.replay == "HIT":
            after_planner = i > 0 and episode.answers[i - 1].replay != "HIT"
            out.append((answer.model_calls, after_planner))
    return out


def miss_reasons(episodes: Iterable[Episode]) -> Counter[str]:
    """Why action answers were not served from memory (MISS / FALLBACK reasons)."""
    reasons: Counter[str] = Counter()
    for episode in episodes:
        for answer in action_answers(episode):
            if answer.replay != "HIT":
                reasons[f"{answer.replay}: {answer.miss_reason or '-'}"] += 1
    return reasons


def reduction(replay: float | None, baseline: float | None) -> float | None:
    """How much fewer (a share of ``baseline``): 0.4 = 40 % fewer."""
    if replay is None or not baseline:
        return None
    return 1 - replay / baseline


@dataclass(frozen=True)
class OverlayCheck:
    """An overlay episode: the overlay was seen (its Close clicked), every FALLBACK answer was
    the one that closed it, and a HIT came after it (or nothing was left to replay)."""

    seen: bool
    fallback_only_there: bool
    resumed: bool


def overlay_check(episode: Episode) -> OverlayCheck:
    closing = [i for i, a in enumerate(episode.answers) if any(ev.get("overlay") for ev in a.events)]
    acting = [i for i, a in enumerate(episode.answers) if a.acts]
    fallbacks = [i for i in acting if episode.answers[i].replay in ("FALLBACK", "MISS")]
    if not closing:
        return OverlayCheck(False, not fallbacks, False)
    first = closing[0]
    later_acting = [i for i in acting if i > first]
    resumed = any(episode.answers[i].replay == "HIT" for i in later_acting) or not later_acting
    return OverlayCheck(True, set(fallbacks) <= set(closing), resumed)
