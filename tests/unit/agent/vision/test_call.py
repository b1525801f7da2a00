"""Which images go with a model call; de-duplication; when to ask for a screenshot."""

from __future__ import annotations

from agent.vision import ModeDecision, VisionContext, VisionState, plan_call, read_screenshot
from agent.vision.call import position_lines
from tests.support.images import b64, other_layout, screenshot
from verification import PageElement, PageState

HYBRID = ModeDecision("hybrid", ("visual_terms",), ("icon",))
TEXT = ModeDecision("text")
SHOT = read_screenshot(b64(screenshot()))
SAME = read_screenshot(b64(screenshot(fmt="PNG", noise=2)))
OTHER = read_screenshot(b64(other_layout()))


def allowed(shot: object = None, client_hash: str | None = None) -> VisionContext:
    return VisionContext(allowed=True, screenshot=shot, client_hash=client_hash)  # type: ignore[arg-type]


def test_text_mode_or_a_tenant_that_did_not_allow_it_sends_nothing_and_asks_nothing() -> None:
    for decision, vision in ((TEXT, allowed(SHOT)), (HYBRID, VisionContext(allowed=False, screenshot=SHOT)), (HYBRID, VisionContext())):
        call = plan_call(decision, vision, VisionState(), step=0, max_asks=2)
        assert (call.images, call.ask, call.note) == ((), False, None)
        assert call.state == VisionState()


def test_a_new_screen_is_sent_and_remembered() -> None:
    call = plan_call(HYBRID, allowed(SHOT), VisionState(), step=3, max_asks=2)
    [image] = call.images
    assert (image.name, image.data, image.mime_type) == ("screenshot", SHOT.data, "image/jpeg")
    assert (call.state.last_hash, call.state.last_sent_step, call.state.images_sent) == (SHOT.phash, 3, 1)


def test_the_same_screen_is_not_sent_again_and_the_call_says_so() -> None:
    state = plan_call(HYBRID, allowed(SHOT), VisionState(), step=0, max_asks=2).state
    again = plan_call(HYBRID, allowed(SAME), state, step=1, max_asks=2)
    assert again.images == () and again.note is not None and "step 0" in again.note
    assert again.state.images_skipped == 1 and again.state.last_hash == SHOT.phash
    changed = plan_call(HYBRID, allowed(OTHER), again.state, step=2, max_asks=2)
    assert len(changed.images) == 1 and changed.state.images_sent == 2


def test_a_client_hash_of_the_screen_already_sent_needs_no_upload() -> None:
    state = VisionState(last_hash=SHOT.phash, last_sent_step=0, images_sent=1)
    call = plan_call(HYBRID, allowed(client_hash=SHOT.phash), state, step=1, max_asks=2)
    assert (call.images, call.ask) == ((), False) and call.note is not None


def test_no_screenshot_asks_for_one_a_bounded_number_of_times() -> None:
    state = VisionState()
    asks = []
    for step in range(4):
        call = plan_call(HYBRID, allowed(client_hash=OTHER.phash if step == 3 else None), state, step=step, max_asks=2)
        asks.append(call.ask)
        state = call.state
    assert asks == [True, True, False, False] and state.screenshot_asks == 2


def test_positions_are_given_only_with_an_image() -> None:
    page = PageState(
        url="https://x.example/", viewport=(1280, 800),
        elements=(PageElement(id="1", role="button", box=(1200, 10, 32, 32)), PageElement(id="2", role="link", name="Home", xy=(40, 20)),
                  PageElement(id="3", role="button", hidden=True, box=(0, 0, 1, 1))),
    )  # fmt: skip
    with_image = plan_call(HYBRID, allowed(SHOT), VisionState(), step=0, max_asks=2)
    lines = position_lines(page, with_image, SHOT)
    assert lines[0].startswith("screenshot 1024x640 px of a 1280x800 viewport")
    assert lines[1:] == ["[1] box x=1200 y=10 w=32 h=32", "[2] centre x=40 y=20"]
    assert position_lines(page, plan_call(TEXT, allowed(SHOT), VisionState(), step=0, max_asks=2), SHOT) == []


def test_no_round_trip_for_a_screenshot_when_the_policy_resolved_the_target() -> None:
    call = plan_call(HYBRID, allowed(), VisionState(), step=0, max_asks=2, resolved=True)
    assert (call.ask, call.images) == (False, ()) and call.state.screenshot_asks == 0
    with_shot = plan_call(HYBRID, allowed(SHOT), VisionState(), step=0, max_asks=2, resolved=True)
    assert len(with_shot.images) == 1, "a screenshot the client sent is still used"
