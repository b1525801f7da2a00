"""Reference client of Stepwise: a real Chromium (Playwright) driven exactly as the browser
extension does it. See ``docs/client.md``."""

from client.actions import execute_action
from client.api import InteractAnswer, StepwiseAPIError, StepwiseClient
from client.browser import BrowserUnavailable, launch_browser, new_context
from client.chain import ChainItem, ChainOutcome, run_chain
from client.errors import ActionError
from client.loop import run_task
from client.records import RunResult, StepRecord
from client.snapshot import ExtractOptions, PageProbe, PageSnapshot
from client.stability import NetworkTracker, StabilityConfig, wait_for_stability
from client.state import TaskStateStore

__all__ = [
    "ActionError",
    "BrowserUnavailable",
    "ChainItem",
    "ChainOutcome",
    "ExtractOptions",
    "InteractAnswer",
    "NetworkTracker",
    "PageProbe",
    "PageSnapshot",
    "RunResult",
    "StabilityConfig",
    "StepRecord",
    "StepwiseAPIError",
    "StepwiseClient",
    "TaskStateStore",
    "execute_action",
    "launch_browser",
    "new_context",
    "run_chain",
    "run_task",
    "wait_for_stability",
]
