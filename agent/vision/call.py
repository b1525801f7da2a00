"""For one model call that chooses the next action: which images go with it, and whether
to ask the client for a screenshot instead of choosing blind.

Pure: decided from the mode router's decision, the request's visual context and what the
task remembers (``VisionState``), so it is unit-tested without a model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from agent.llm import ImageBlock
from agent.vision.context import VisionContext
from agent.vision.mode import ModeDecision
from agent.vision.screenshot import Screenshot, same_screen
from agent.vision.state import VisionState
from verification import PageState

SCREENSHOT_BLOCK: Final = "screenshot"


@dataclass(frozen=True, slots=True)
class CallVision:
    """``images``: sent with the call; ``note``: a data line saying why none is (the same
    screen as before); ``ask``: answer with a request for a screenshot; ``state``: the
    task's updated memory of it."""

    decision: ModeDecision
    state: VisionState
    images: tuple[ImageBlock, ...] = ()
    note: str | None = None
    ask: bool = False


def plan_call(
    decision: ModeDecision, vision: VisionContext, state: VisionState, *, step: int, max_asks: int, resolved: bool = False
) -> CallVision:
    """* text mode, or images not allowed for this tenant: no image;
    * a screenshot of a screen the model was already sent in this task (same perceptual
      hash): not sent again, the call says so;
    * a new screenshot: sent, and remembered;
    * no screenshot but the client's ``screenshotHash`` names the screen last sent: nothing
      to send, nothing to ask;
    * no screenshot at all: ask for one, at most ``max_asks`` times per task, unless the
      policy already ``resolved`` the step's target from the element list (a round trip is
      not worth it then); past that the model chooses from the element list alone."""
    if not decision.hybrid or not vision.allowed:
        return CallVision(decision, state)
    shot = vision.screenshot
    if shot is not None:
        if same_screen(shot.phash, state.last_hash):
            skipped = state.model_copy(update={"images_skipped": state.images_skipped + 1})
            return CallVision(decision, skipped, note=_unchanged(state))
        sent = state.model_copy(update={"last_hash": shot.phash, "last_sent_step": step, "images_sent": state.images_sent + 1})
        return CallVision(decision, sent, images=(ImageBlock(SCREENSHOT_BLOCK, shot.data, shot.mime_type),))
    if same_screen(vision.client_hash, state.last_hash):
        return CallVision(decision, state.model_copy(update={"images_skipped": state.images_skipped + 1}), note=_unchanged(state))
    if not resolved and state.screenshot_asks < max_asks:
        return CallVision(decision, state.model_copy(update={"screenshot_asks": state.screenshot_asks + 1}), ask=True)
    return CallVision(decision, state)


def _unchanged(state: VisionState) -> str:
    return f"The screen looks the same as in the screenshot sent at step {state.last_sent_step}; it is not sent again."


def position_lines(page: PageState, call: CallVision, shot: Screenshot | None, *, limit: int = 200) -> list[str]:
    """Where each element is, for a model that is sent a screenshot: its box in the
    viewport's CSS pixels, and how the screenshot's pixels map to them. Empty without an image."""
    if not call.images or shot is None:
        return []
    lines = []
    if page.viewport is not None and page.viewport[0]:
        scale = shot.width / page.viewport[0]
        lines.append(f"screenshot {shot.width}x{shot.height} px of a {page.viewport[0]}x{page.viewport[1]} viewport (x{scale:.2f})")
    for element in page.elements:
        if element.hidden or len(lines) >= limit:
            continue
        if element.box is not None:
            x, y, w, h = (round(v) for v in element.box)
            lines.append(f"[{element.id}] box x={x} y={y} w={w} h={h}")
        elif element.xy is not None:
            lines.append(f"[{element.id}] centre x={round(element.xy[0])} y={round(element.xy[1])}")
    return lines
