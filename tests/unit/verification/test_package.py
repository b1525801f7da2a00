from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import verification

ROOT = Path(__file__).resolve().parents[3]
FORBIDDEN = (
    "fastapi",
    "starlette",
    "uvicorn",
    "pymongo",
    "motor",
    "sqlite3",
    "google",
    "langchain",
    "langgraph",
    "openai",
    "httpx",
    "bs4",
)


def test_every_public_name_is_exported() -> None:
    for name in verification.__all__:
        assert hasattr(verification, name), name
    for name in (
        "Action",
        "parse_action",
        "format_action",
        "ActionSyntaxError",
        "PageElement",
        "PageMessage",
        "PageState",
        "PageInputError",
        "dom_hash",
        "extract_semantic_skeleton",
        "diff_skeletons",
        "BeforeState",
        "ClientObservations",
        "build_observation_list",
        "ExpectedOutcome",
        "NextGoal",
        "check_next_goal",
        "VerificationVerdict",
        "VerdictRequest",
        "VerdictModel",
        "VerdictModelError",
        "STEP_TASK_LEVEL_CONTRACT",
        "STEP_TASK_LEVEL_EXAMPLE",
        "VERDICT_INSTRUCTIONS_TIER3",
        "VERDICT_INSTRUCTIONS_TIER2",
        "verify_action_with_observations",
        "VerificationResult",
        "VerificationSettings",
        "VerificationRecord",
        "VerificationMetrics",
    ):
        assert name in verification.__all__, name


def test_importing_the_package_pulls_in_no_framework_database_or_llm_sdk() -> None:
    code = (
        "import sys, verification\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(','.join(sorted(bad)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_modules_stay_small() -> None:
    for path in (ROOT / "verification").glob("*.py"):
        assert len(path.read_text().splitlines()) <= 320, path.name
