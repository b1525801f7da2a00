"""Schemathesis over the live OpenAPI document: no input may produce a server error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.audit.servers import UNLIMITED, Deployment


def schemathesis(examples: int = 300, seed: int = 1) -> dict[str, Any]:
    with Deployment(settings=UNLIMITED) as deployment:
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
    lines = done.stdout.strip().splitlines()
    cases = next((line.strip() for line in lines if " generated" in line), "")  # "5427 generated, 5427 passed"
    server_errors = sum(1 for line in lines if "Server error" in line)
    return {"exit_code": done.returncode, "examples_per_operation": examples, "test_cases": cases,
            "server_error_failures": server_errors, **summary, "output_tail": lines[-12:]}  # fmt: skip


def _summary(report: Path) -> dict[str, Any]:
    data = json.loads(report.read_text())
    return {key: data[key] for key in ("statistic", "failures", "errors") if key in data} or {"report_keys": sorted(data)}
