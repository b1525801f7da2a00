"""The fingerprint benchmark runs, finds its targets and writes its JSON (a few runs only)."""

from __future__ import annotations

import json
from pathlib import Path

from bench import memory_fingerprint


def test_benchmark_smoke(tmp_path: Path) -> None:
    out = tmp_path / "fingerprint.json"
    assert memory_fingerprint.main(["--runs", "20", "--pages", str(tmp_path / "none"), "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    clinic = result["pages"][0]
    assert clinic["page"] == "clinic (HTML)" and 90 <= clinic["kb"] <= 110 and 300 <= clinic["elements"] <= 600
    assert clinic["targets_found"] == clinic["targets"] == 5
    assert {"median", "p95"} <= set(clinic["fingerprint_lookup_ms"]) and clinic["ratio_to_from_html"] > 0
