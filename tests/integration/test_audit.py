"""The hardening audit (``make bench-audit``) in miniature, against real ``stepwise serve``
processes: a tenant cannot reach another's task, and identical concurrent continuations make
one step. The full-size figures are in docs/benchmarks.md."""

from __future__ import annotations

from bench.audit import checks
from bench.audit.form import FIELDS, FormPage, goal


def test_the_audit_form_changes_as_a_browser_would() -> None:
    page = FormPage()
    page.apply({"name": "setValue", "target": "f1", "value": "Lee"})
    page.apply({"name": "click", "target": "cancel"})
    assert [n.get("v") for n in page.tree() if n["i"] == "f1"] == ["Lee"] and not page.saved
    page.apply({"name": "click", "target": "save"})
    assert page.tree()[-1]["n"] == "Contact saved"
    assert goal(tuple("abcde")).lower().count("type ") == len(FIELDS)


def test_another_tenant_reaches_nothing() -> None:
    result = checks.isolation(tries=2)
    assert result["leaks"] == 0, result["examples"]


def test_identical_concurrent_continuations_make_one_step() -> None:
    result = checks.race(workers=1, tasks=2, concurrent=6)
    assert result["violations"] == 0, result["examples"]
    assert result["answers"]["200 new"] == 2
