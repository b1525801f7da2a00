from __future__ import annotations

import json

from planning import REPLAN_THRESHOLD, page_signatures, page_similarity, similarity_to_signatures, url_key
from planning.similarity import SIGNATURE_LIMIT, interactive_signatures, jaccard, structural_signatures
from verification import PageState

from tests.unit.planning.support import FORM_URL, LIST_URL, form_page, list_page, list_tree


def test_identical_pages_are_fully_similar() -> None:
    similarity = page_similarity(list_page(), list_page())
    assert similarity.score == 1.0
    assert similarity.interactive == 1.0 and similarity.structural == 1.0
    assert not similarity.url_path_changed
    assert not similarity.replan


def test_disjoint_pages_score_low_and_trigger() -> None:
    other = PageState.from_v3(
        [{"i": "a", "r": "chk", "n": "Accept cookies"}, {"i": "b", "r": "img", "n": "Logo"}],
        url=LIST_URL,
        title="Cookie wall",
    )
    similarity = page_similarity(list_page(), other)
    assert similarity.score < 0.2
    assert similarity.replan


def test_values_and_counters_do_not_count_as_change() -> None:
    before = PageState.from_v3(list_tree([{"i": "9", "r": "link", "n": "Inbox (3)"}]), url=LIST_URL, title="Patients")
    after_tree = list_tree([{"i": "9", "r": "link", "n": "Inbox (4)"}])
    after_tree[2] = {**after_tree[2], "v": "Jas"}  # typed into the search box
    after = PageState.from_v3(after_tree, url=LIST_URL, title="Patients")
    assert page_similarity(before, after).score == 1.0


def test_url_path_change_triggers_even_when_the_page_looks_the_same() -> None:
    similarity = page_similarity(list_page(), list_page(url="https://clinic.example.com/archive"))
    assert similarity.url_path_changed
    assert similarity.replan


def test_query_and_anchor_are_not_a_path_change_but_spa_routes_are() -> None:
    assert url_key("https://A.example.com/patients/?page=2#top") == "a.example.com/patients"
    assert url_key("https://a.example.com/patients") == url_key("https://a.example.com/patients/")
    assert url_key("https://a.example.com/#/patients") != url_key("https://a.example.com/#/settings")
    assert url_key("https://a.example.com/app#!/patients/") == "a.example.com/app#/patients"
    assert url_key("https://a.example.com/") == "a.example.com/"
    assert not page_similarity(list_page(), list_page(url=LIST_URL + "?sort=name")).url_path_changed


def test_host_change_is_a_url_change() -> None:
    assert page_similarity(list_page(), list_page(url="https://other.example.org/patients")).url_path_changed


def test_small_change_stays_above_threshold() -> None:
    after = PageState.from_v3(list_tree([{"i": "7", "r": "link", "n": "Grace Hopper"}]), url=LIST_URL, title="Patients")
    similarity = page_similarity(list_page(), after)
    assert REPLAN_THRESHOLD <= similarity.score < 1.0
    assert not similarity.replan


def test_weights_are_forty_sixty() -> None:
    similarity = page_similarity(list_page(), form_page(url=LIST_URL))
    assert abs(similarity.score - (0.4 * similarity.interactive + 0.6 * similarity.structural)) < 1e-6


def test_hidden_elements_are_ignored() -> None:
    hidden = PageState.from_v3(list_tree([{"i": "8", "r": "btn", "n": "Secret", "s": "hidden"}]), url=LIST_URL, title="Patients")
    assert page_similarity(list_page(), hidden).score == 1.0


def test_stored_signatures_compare_like_the_page_itself() -> None:
    stored = page_signatures(list_page())
    json.dumps(stored)  # stored on the task as JSON
    assert set(stored) == {"interactive", "structural", "url"}
    assert stored["url"] == [url_key(LIST_URL)]
    for after in (list_page(), form_page(), form_page(url=LIST_URL)):
        direct = page_similarity(list_page(), after)
        via_store = similarity_to_signatures(stored, after)
        assert direct == via_store


def test_signatures_without_url_key_fall_back_to_structural() -> None:
    stored = page_signatures(list_page())
    del stored["url"]
    assert not similarity_to_signatures(stored, list_page()).url_path_changed
    assert similarity_to_signatures(stored, form_page()).url_path_changed


def test_empty_pages() -> None:
    assert jaccard(frozenset(), frozenset()) == 1.0
    empty = PageState.from_v3([], url=FORM_URL)
    assert page_similarity(empty, empty).score == 1.0
    assert interactive_signatures(empty) == frozenset()
    assert len(structural_signatures(empty)) == 2  # title + url


def test_huge_pages_are_capped_consistently() -> None:
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = [f"result {a}{b}{c}" for a in letters for b in letters for c in letters][: 2 * SIGNATURE_LIMIT]
    tree = [{"i": str(i), "r": "link", "n": name} for i, name in enumerate(names)]
    page = PageState.from_v3(tree, url=LIST_URL)
    stored = page_signatures(page)
    assert len(stored["interactive"]) == SIGNATURE_LIMIT
    assert similarity_to_signatures(stored, page).score == 1.0
