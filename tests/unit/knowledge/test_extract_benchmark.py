"""The extraction benchmark's scorer and runner work, on five pages (no speed or F1 target)."""

from __future__ import annotations

import pytest

from bench import knowledge_extraction as bench

pytestmark = pytest.mark.skipif(
    not (bench.DEFAULT_DATA / "ground-truth.json").is_file(),
    reason="the shared article-extraction benchmark is not next to the repository",
)


@pytest.fixture(scope="module")
def truth() -> dict[str, dict[str, str]]:
    return bench.load_ground_truth(bench.DEFAULT_DATA)


def test_five_pages_run_through_extract_and_score(truth: dict[str, dict[str, str]]) -> None:
    page_ids = sorted(truth)[:5]
    result = bench.run(bench.DEFAULT_DATA, truth, page_ids)
    scorer = bench.load_scorer(bench.DEFAULT_DATA)
    metrics = bench.score(scorer, truth, result.predictions, page_ids, n_bootstrap=5)
    assert set(result.predictions) == set(page_ids)
    assert all(prediction["articleBody"] for prediction in result.predictions.values())
    assert 0.0 < metrics["f1"] <= 1.0
    assert 0.0 <= metrics["accuracy"] <= 1.0


def test_the_scorer_separates_perfect_from_truncated_and_padded(
    truth: dict[str, dict[str, str]],
) -> None:
    page_ids = sorted(truth)[:5]
    scorer = bench.load_scorer(bench.DEFAULT_DATA)
    perfect = {page_id: {"articleBody": truth[page_id]["articleBody"]} for page_id in page_ids}
    first_fifth = {
        page_id: {"articleBody": body[: len(body) // 5]}
        for page_id in page_ids
        for body in [truth[page_id]["articleBody"]]
    }
    padded = {  # the article plus another page's article: full recall, precision lost
        page_id: {"articleBody": truth[page_id]["articleBody"] + "\n"
                  + truth[page_ids[(index + 1) % 5]]["articleBody"] * 3}
        for index, page_id in enumerate(page_ids)
    }
    assert bench.score(scorer, truth, perfect, page_ids, n_bootstrap=2)["f1"] == pytest.approx(1.0)
    assert bench.score(scorer, truth, perfect, page_ids, n_bootstrap=2)["accuracy"] == 1.0
    truncated = bench.score(scorer, truth, first_fifth, page_ids, n_bootstrap=2)
    assert truncated["precision"] > 0.9 and truncated["recall"] < 0.35
    noisy = bench.score(scorer, truth, padded, page_ids, n_bootstrap=2)
    assert noisy["recall"] == pytest.approx(1.0) and noisy["precision"] < 0.6


def test_halves_split_by_sorted_id() -> None:
    parts = bench.halves(["d", "b", "a", "c", "e"])
    assert parts["tune (1st half)"] == ["a", "b"]
    assert parts["held out (2nd half)"] == ["c", "d", "e"]
    assert parts["all"] == ["a", "b", "c", "d", "e"]
