"""Schemathesis over the live OpenAPI document: no input may produce a server error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.audit.servers import Deployment

_UNLIMITED = {"STEPWISE_RATE_LIMIT_PER_MINUTE": "1000000", "STEPWISE_API_RATE_LIMIT_PER_MINUTE": "1000000"}


def schemathesis(examples: int = 300, seed: int = 1) -> dict[str, Any]:
    with Deployment(settings=_UNLIMITED) as deployment:
        key = deployment.key("tenant-a")
        base = deployment.serve()
        report = deployment.root / "schemathesis.json"
        done = subprocess.run(
            [str(Path(sys.executable).with_name("schemathesis")), "run", f"{base}/openapi.json",
             "--checks", "not_a_server_error", "-n", str(examples), "--seed", str(seed),
             "-H", f"Authorization: Bearer {key}", "--generation-database", "none", "--no-color",
             "--report", "json", "--report-json-path", str(report), "--workers", "2", "--request-timeout", "30"],
            capture_output=True, text=True, cwd=deployment.root, check=False,
        )  # fmt: skip
        summary = _summary(report) if report.exists() else {}
    tail = done.stdout.strip().splitlines()[-12:]
    return {"exit_code": done.returncode, "examples_per_operation": examples, **summary, "output_tail": tail}


def _summary(report: Path) -> dict[str, Any]:
    data = json.loads(report.read_text())
    return {key: data[key] for key in ("statistic", "failures", "errors") if key in data} or {"report_keys": sorted(data)}
