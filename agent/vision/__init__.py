"""The visual path (hybrid vision + skeleton) and the requests for more of the page.

* :mod:`agent.vision.mode` — the mode router: text or hybrid, from the goal's words and
  structured facts about the step;
* :mod:`agent.vision.screenshot` — a client screenshot decoded, checked, scaled and
  perceptually hashed;
* :mod:`agent.vision.call` — which images go with a model call, de-duplication, whether to
  ask for a screenshot;
* :mod:`agent.vision.full_dom` — when to ask for the full DOM;
* :mod:`agent.vision.steps` — the glue action generation calls (imported from there, not
  here: it needs the graph's state).

See docs/vision.md."""

from agent.vision.call import CallVision, plan_call
from agent.vision.context import VisionContext, load_vision
from agent.vision.full_dom import FullDomFacts, should_ask_full_dom, target_in_text_only
from agent.vision.mode import ModeDecision, ModeFacts, choose_mode, visual_terms
from agent.vision.screenshot import Screenshot, ScreenshotInvalid, read_screenshot, same_screen
from agent.vision.state import VisionState

__all__ = [
    "CallVision",
    "FullDomFacts",
    "ModeDecision",
    "ModeFacts",
    "Screenshot",
    "ScreenshotInvalid",
    "VisionContext",
    "VisionState",
    "choose_mode",
    "load_vision",
    "plan_call",
    "read_screenshot",
    "same_screen",
    "should_ask_full_dom",
    "target_in_text_only",
    "visual_terms",
]
