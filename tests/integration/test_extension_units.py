"""The extension's own unit tests (node's test runner on extension/test/), and the parity of its
action parser with the server's grammar: every action the server can write, and malformed ones,
parse to the same fields in TypeScript (src/shared/actions.ts) as in verification.parse_action."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from verification import Action, ActionSyntaxError, format_action, parse_action

EXTENSION = Path(__file__).resolve().parents[2] / "extension"

CASES = [
    format_action(Action("click", target="12")),
    format_action(Action("click", target="f2-7")),
    format_action(Action("setValue", target="3", value='Jas "the" \\ tester\nline two é')),
    format_action(Action("select", target="5", value="France")),
    format_action(Action("press", value="Enter")),
    format_action(Action("press", target="4", value="Tab")),
    format_action(Action("scroll", value="down")),
    format_action(Action("scroll", target="8")),
    format_action(Action("scroll", target="8", value="bottom")),
    format_action(Action("hover", target="1")),
    format_action(Action("navigate", value="https://example.com/a?b=1&c=2#top")),
    format_action(Action("goBack")),
    format_action(Action("wait", seconds=2)),
    format_action(Action("wait", seconds=0.5)),
    format_action(Action("finish")),
    format_action(Action("fail", value="the form refused the date")),
    format_action(Action("googleSearch", value="stepwise agent")),
    "click('12')",
    "CLICK( 12 );",
    "setvalue(\"3\", 'it\\'s')",
    "scroll()",
    "wait()",
    "scroll(UP)",
    "press(\"Escape\")",
]
MALFORMED = ["explode(\"1\")", "click()", "click(\"1\"", "setValue(\"1\")", "wait(-1)", "wait(\"soon\")"]


def _node() -> str:
    node = shutil.which("node")
    if node is None or not (EXTENSION / "node_modules" / "esbuild").is_dir():
        pytest.fail("Node or the extension's npm packages are missing: run `make extension`")
    return node


def test_the_extension_unit_tests_pass_and_its_parser_agrees_with_the_server(tmp_path: Path) -> None:
    node = _node()
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps([{"text": text} for text in CASES + MALFORMED]), encoding="utf-8")
    done = subprocess.run(
        [node, "--test", *sorted(f"test/{p.name}" for p in (EXTENSION / "test").glob("*.test.mjs"))],
        cwd=EXTENSION, env={**os.environ, "STEPWISE_ACTION_CASES": str(cases_file)},
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1500:]
    results = json.loads(Path(str(cases_file) + ".out").read_text(encoding="utf-8"))
    for text, result in zip(CASES, results[: len(CASES)], strict=True):
        expected = parse_action(text)
        assert result.get("parsed") == {
            "name": expected.name, "target": expected.target, "value": expected.value, "seconds": expected.seconds,
        }, (text, result)
    for text, result in zip(MALFORMED, results[len(CASES):], strict=True):
        with pytest.raises(ActionSyntaxError):
            parse_action(text)
        assert "error" in result, (text, result)
