from __future__ import annotations

import json

from verification import VerificationMetrics, VerificationRecord


def record(tier: int, success: bool, confidence: float, **kwargs: object) -> VerificationRecord:
    data: dict[str, object] = {
        "tier": tier,
        "decided_by": "rules" if tier == 1 else "model",
        "action": 'click("1")',
        "goal": "g",
        "action_succeeded": success,
        "task_completed": False,
        "goal_achieved": False,
        "success": success,
        "confidence": confidence,
        "observations": ["URL did not change"],
        "error_category": None if success else "no_change",
        "duration_ms": 2.0,
        "model_called": tier != 1,
        "tokens_saved": 500 if tier == 1 else 0,
    }
    data.update(kwargs)
    return VerificationRecord.model_validate(data)


def test_empty_summary() -> None:
    summary = VerificationMetrics().summary()
    assert summary["total"] == 0 and summary["pass_rate"] == 0.0
    assert summary["by_tier"][1] == {
        "total": 0,
        "passed": 0,
        "failed": 0,
        "pass_rate": 0.0,
        "avg_duration_ms": 0.0,
    }
    assert summary["confidence_histogram"] == [0] * 10


def test_summary_by_tier_category_and_confidence() -> None:
    metrics = VerificationMetrics()
    metrics.add(record(1, True, 0.95, duration_ms=1.0))
    metrics.add(record(1, False, 0.2, duration_ms=3.0))
    metrics.add(record(3, True, 0.7, goal_achieved=True, next_goal_found=True))
    metrics.add(
        record(
            3,
            False,
            0.5,
            error_category="model_error",
            decided_by="synthetic",
            next_goal_found=False,
        )
    )
    metrics.add(record(2, True, 1.0))
    summary = metrics.summary()
    assert len(metrics) == 5
    assert summary["total"] == 5 and summary["passed"] == 3 and summary["pass_rate"] == 0.6
    assert summary["by_tier"][1] == {
        "total": 2,
        "passed": 1,
        "failed": 1,
        "pass_rate": 0.5,
        "avg_duration_ms": 2.0,
    }
    assert summary["by_tier"][2]["total"] == 1 and summary["by_tier"][3]["failed"] == 1
    assert summary["by_error_category"] == {"no_change": 1, "model_error": 1}
    assert summary["by_decided_by"] == {"rules": 2, "model": 2, "synthetic": 1}
    assert summary["confidence_histogram"] == [0, 0, 1, 0, 0, 1, 0, 1, 0, 2]
    assert summary["goal_achieved"] == 1 and summary["model_call_rate"] == 0.6
    assert summary["tokens_saved"] == 1000
    assert summary["lookahead"] == {"checked": 2, "found": 1, "hit_rate": 0.5}
    json.dumps(summary)


def test_records_are_json_serialisable() -> None:
    data = json.loads(record(1, True, 0.9).model_dump_json())
    assert data["tier"] == 1
    assert data["created_at"].endswith(("Z", "+00:00"))
