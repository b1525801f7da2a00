"""A record's action behind its overflow menu: the readings of the goal (feed_frames), the
record reference (an @handle as written), the overflow move (agent.policy.overflow) and the
repeated boxes the server reads as list items (verification.html_repeated)."""

from __future__ import annotations

from typing import Any

import pytest

from agent.policy import understand
from agent.policy.overflow import record_overflow
from agent.policy.references import read_ref
from agent.policy.refine import refine_step
from planning import Plan, PlanStep
from verification import ElementRef, PageState, resolve_ref
from verification.html_extract import extract_html


def _read(goal: str) -> tuple[list[tuple[str, str | None]], tuple[str, ...]]:
    found = understand(goal)
    return [(s.kind, s.target) for s in found.plan.steps], found.contract.unaccounted


@pytest.mark.parametrize(
    ("goal", "target"),
    [
        ('For the user @leo, click on the "Mute" button.', '"Mute" of the post from @leo'),
        ('For the user @consectetur, click on the "Block" button.', '"Block" of the post from @consectetur'),
        ("On Ana's post, click \"Share via DM\"", '"Share via DM" of the post from Ana'),
        ('Click "Report" for the post by @bob', '"Report" of the post from @bob'),
        ("Tap Block on @leo's tweet", '"Block" of the post from @leo'),
        ("For @leo, click Mute", '"Mute" of the post from @leo'),
        ("Like the post from @leo", '"like" of the post from @leo'),
        ("Retweet @ana's post", '"retweet" of the post from @ana'),
        ("Mute the user @leo", '"mute" of the post from @leo'),
        ("Block @leo", '"block" of the post from @leo'),
    ],
)
def test_phrasings_click_the_named_control_of_the_record(goal: str, target: str) -> None:
    steps, unaccounted = _read(goal)
    assert unaccounted == ()
    assert steps == [("click", target)]
    ref = read_ref(target).ref
    assert ref is not None and ref.record


@pytest.mark.parametrize("goal", ["Mute the video", "For the user, click Mute", "Like it"])
def test_goals_that_name_no_record_are_not_read_as_one(goal: str) -> None:
    steps, unaccounted = _read(goal)
    assert not any(t and "of the post from" in t for _k, t in steps)


def _feed(menu_open: str | None = None, dup: bool = False) -> PageState:
    posts = [("Leona Park @leon", "coffee first, leo asked"), ("Leo Brandt @leo", "shipping today"), ("Ana Silva @ana", "lunch")]
    if dup:
        posts.append(("Leo Brandt @leo", "second post"))
    nodes: list[dict[str, Any]] = []
    for n, (who, body) in enumerate(posts):
        ctx = [f"item: {who} {body}"]
        nodes += [{"i": f"l{n}", "r": "btn", "n": "like", "ctx": ctx}, {"i": f"m{n}", "r": "btn", "n": "more", "ctx": ctx}]
        if menu_open is not None and n == int(menu_open):
            handle = who.split()[-1]
            nodes += [{"i": f"{k}{n}", "r": "btn", "n": f"{k.capitalize()} {handle}", "ctx": ctx} for k in ("mute", "block")]
    return PageState.from_v3(nodes, url="https://feed.example/")


def _ref(phrase: str) -> ElementRef:
    found = read_ref(phrase).ref
    assert found is not None
    return found


def test_a_handle_names_only_the_entry_that_shows_it() -> None:
    # @leon's post says "leo": it is not @leo's record
    assert resolve_ref(_ref('"like" of the post from @leo'), _feed()).element.id == "l1"  # type: ignore[union-attr]
    assert resolve_ref(_ref('"Mute" of the post from @leo'), _feed("1")).element.id == "mute1"  # type: ignore[union-attr]
    assert not resolve_ref(_ref('"Mute" of the post from @leo'), _feed("0")).found  # only @leon's menu is open


def test_the_records_overflow_is_opened_once_and_an_item_not_on_it_is_reported() -> None:
    ref = _ref('"Mute" of the post from @leo')
    move = record_overflow(_feed(), ref, ())
    assert move.element is not None and move.element.id == "m1"
    again = record_overflow(_feed("1"), _ref('"Pin" of the post from @leo'), (move.key,))
    assert again.element is None and "not on the menu" in again.reason
    assert record_overflow(_feed(), _ref('"Mute" of the post from @zoe'), ()).element is None


def test_several_posts_of_one_owner_only_for_an_action_on_the_owner() -> None:
    assert record_overflow(_feed(dup=True), _ref('"Mute" of the post from @leo'), ()).element is not None
    share = record_overflow(_feed(dup=True), _ref('"Share via DM" of the post from @leo'), ())
    assert share.element is None and "which one" in share.reason


def test_the_refinement_opens_the_menu_then_clicks_the_item() -> None:
    step = PlanStep(index=0, kind="click", description="Mute", target='"Mute" of the post from @leo', success_criterion="muted")
    plan = Plan(goal="g", steps=[step], source="policy")
    ref = _ref(step.target or "")
    first = refine_step(step, _feed(), plan, ref)
    assert first.action is not None and first.action.target == "m1" and not first.completes_step
    step.explored = list(first.explored)
    second = refine_step(step, _feed("1"), plan, ref)
    assert second.action is not None and second.action.target == "mute1"


FEED_HTML = "".join(
    f'<div class="post"><b>{who}</b><p>{body}</p><div class="controls"><span class="like"></span><span class="more"></span></div>'
    f'<button type="button">Follow</button></div>'
    for who, body in [("Leo @leo", "hello"), ("Ana @ana", "lunch")]
)


def test_the_server_reads_repeated_boxes_that_hold_controls_as_items() -> None:
    found = extract_html(f"<main>{FEED_HTML}<div class='note'>just text</div><div class='note'>more text</div></main>")
    follow = [e for e in found.elements if e.name == "Follow"]
    assert [e.container for e in follow] == [("item: Leo @leo hello",), ("item: Ana @ana lunch",)]


def test_a_lone_box_or_boxes_without_controls_are_not_items() -> None:
    lone = extract_html('<div class="post"><b>Leo</b><button type="button">Follow</button></div><div class="other">x</div>')
    assert all(not e.container for e in lone.elements)
