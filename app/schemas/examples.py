"""Examples of the interact exchange in the OpenAPI document: requests (a new task, a
continuation, a chain continuation) and answers (the next action, completed, a question, a
failure, a replay), taken from real answers of the deterministic path. A test validates each
against its own model, so an example that goes stale fails."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Final

TASK: Final = "3f0c1b9e-7d2a-4c55-9a8e-0b6f2d1c4e77"
SESSION: Final = "b7a4e2d1-5c3f-4e8a-9d6b-1f2e3a4c5d6e"

# The examples themselves are data (interact_examples.json), as the service answered them.
_EXAMPLES: Final = json.loads((Path(__file__).with_name("interact_examples.json")).read_text(encoding="utf-8"))
REQUEST_EXAMPLES: Final[dict[str, dict[str, Any]]] = _EXAMPLES["requests"]
RESPONSE_EXAMPLES: Final[dict[str, dict[str, Any]]] = _EXAMPLES["answers"]


def restore_examples(doc: dict[str, Any]) -> None:
    """Put the interact examples back into a generated document as written: FastAPI writes the
    document without null values, which would drop `taskId: null` from an answer whose schema
    requires the field."""
    operation = doc["paths"]["/api/agent/interact"]["post"]
    operation["requestBody"]["content"]["application/json"]["examples"] = copy.deepcopy(REQUEST_EXAMPLES)
    operation["responses"]["200"]["content"]["application/json"]["examples"] = copy.deepcopy(RESPONSE_EXAMPLES)
