"""The metric functions of bench/knowledge_quality.py and the fixture questions' shape."""

from __future__ import annotations

import pytest

from bench.knowledge_quality import (
    DocMeta,
    Question,
    contains,
    first_hit,
    leaks,
    load_manifest,
    load_questions,
    mrr_at,
    recall_at,
    split_of,
)
from knowledge.retrieve import RetrievedChunk


def test_first_hit_is_one_based() -> None:
    assert first_hit([False, True, True]) == 2
    assert first_hit([True]) == 1
    assert first_hit([False, False]) is None
    assert first_hit([]) is None


def test_recall_and_mrr() -> None:
    ranks = [1, 2, 6, None]
    assert recall_at(ranks, 5) == pytest.approx(0.5)
    assert recall_at(ranks, 10) == pytest.approx(0.75)
    assert mrr_at(ranks, 10) == pytest.approx((1 + 0.5 + 1 / 6) / 4)
    assert mrr_at(ranks, 5) == pytest.approx((1 + 0.5) / 4)
    assert recall_at([], 5) == 0.0 and mrr_at([], 10) == 0.0


def test_contains_ignores_case_and_line_wraps() -> None:
    assert contains("kept for\n10   Years here", "10 years")
    assert not contains("kept for 10 months", "10 years")


def _chunk(document_id: str) -> RetrievedChunk:
    return RetrievedChunk(id="c", document_id=document_id, source="s", title="", heading_path=(),
                          text="", phase=1, hidden=False, score=1.0)


def test_leaks_count_foreign_tenants_and_domains() -> None:
    docs = {
        "own": DocMeta("t1", ["a.test"], "html"),
        "wide": DocMeta("t1", [], "pdf"),
        "other-domain": DocMeta("t1", ["b.test"], "html"),
        "other-tenant": DocMeta("t2", ["a.test"], "html"),
    }
    q = Question(id="q", question="?", tenant="t1", domains=["a.test"], answer_contains=None,
                 source=None, forbidden_source=None, tags=[])
    chunks = [_chunk(d) for d in ("own", "wide", "other-domain", "other-tenant", "unknown")]
    assert leaks(q, chunks, docs) == (2, 1)
    unscoped = Question(**{**q.__dict__, "domains": None})
    assert leaks(unscoped, chunks, docs) == (2, 0)


def test_fixture_questions_cover_the_brief() -> None:
    questions = load_questions()
    sources = {d["source"] for d in load_manifest()}
    answerable = [q for q in questions if q.answer_contains is not None]
    assert len(questions) >= 120 and len(questions) - len(answerable) >= 15
    assert all(q.source in sources for q in answerable)
    assert all(q.forbidden_source in sources for q in questions if q.answer_contains is None)
    assert len({q.id for q in questions}) == len(questions)
    splits = split_of(questions)
    assert abs(sum(s == "tune" for s in splits.values()) - len(questions) / 2) <= 1
    formats = {d["file"].rsplit(".", 1)[-1] for d in load_manifest()}
    assert formats == {"html", "md", "txt", "json", "csv", "pdf", "docx"}
