"""A superlative is proven by the list the task picked from (agent.extremes): the record acted in
is the extreme of the figure the word compares, among the records that say what the goal says of
it — and only when the page showed the whole list."""

from __future__ import annotations

from agent.extremes import peers_of, proven_extremes
from agent.proof_words import account_extremes
from verification import PageElement, PageState
from verification.contract import Clause, ClauseResult, Contract, ElementRef

def _whole(*records: str) -> dict:
    return {"records": list(records), "first": [], "paged": False, "later_page": False, "sort": None}


FLIGHTS = (
    "Nonstop BOS to DEN 7:05 AM – 9:15 AM 2h 10m $189",
    "1 stop BOS to DEN 6:00 AM – 10:10 AM 4h 10m $150",
    "Nonstop BOS to DEN 9:05 AM – 11:20 AM 2h 15m $205",
)


def test_the_cheapest_is_the_lowest_price_among_the_records_that_say_what_the_goal_says() -> None:
    assert proven_extremes("book the cheapest nonstop flight from BOS to DEN", ["cheapest"], [_whole(*FLIGHTS)]) == {"cheapest"}
    assert proven_extremes("book the cheapest flight from BOS to DEN", ["cheapest"], [_whole(*FLIGHTS)]) == set()  # the 1-stop costs less


def test_earliest_shortest_and_best_rated_compare_their_own_figures() -> None:
    assert proven_extremes("take the earliest nonstop", ["earliest"], [_whole(*FLIGHTS)]) == {"earliest"}
    assert proven_extremes("the shortest flight", ["shortest"], [_whole(*FLIGHTS)]) == {"shortest"}
    assert proven_extremes("the earliest flight", ["earliest"], [_whole(*FLIGHTS)]) == set()
    tents = ("Trail 2P tent ★ 4.8 $200", "Ridge 3P tent ★ 4.5 $150")
    assert proven_extremes("wishlist the best rated tent", ["best", "rated"], [_whole(*tents)]) == {"best", "rated"}
    assert proven_extremes("wishlist the best rated tent", ["best", "rated"], [_whole(*tents[::-1])]) == set()


def test_a_record_without_the_figure_or_without_peers_proves_nothing() -> None:
    assert proven_extremes("the cheapest one", ["cheapest"], [_whole("Trail tent", "Ridge tent $150")]) == set()
    assert proven_extremes("the cheapest one", ["cheapest"], [_whole("Trail tent $90")]) == set()
    assert proven_extremes("the newest one", ["newest"], [_whole(*FLIGHTS)]) == set()  # no date to compare


def test_a_figure_read_two_ways_must_agree() -> None:
    cards = ("Save $80 Stove $120", "Mug $25")  # the first price says cheapest, the lowest does not
    assert proven_extremes("buy the cheapest", ["cheapest"], [_whole(*cards)]) == set()


def _card(i: int, text: str) -> PageElement:
    return PageElement(id=str(i), role="button", name="Select", container=(f"card: {text}", "section: Choose your flight"))


def test_peers_are_the_lists_records_and_a_list_with_a_next_page_is_not_whole() -> None:
    cards = [_card(i, t) for i, t in enumerate(FLIGHTS)]
    page = PageState(url="https://fly.example/results", elements=tuple(cards))
    assert peers_of(cards[2], page) == {**_whole(FLIGHTS[2], FLIGHTS[0], FLIGHTS[1]), "first": [FLIGHTS[0], FLIGHTS[1]]}
    alone = PageElement(id="8", role="button", name="Search")
    assert peers_of(alone, page) is None
    filter_ = PageElement(id="7", role="checkbox", name="Nonstop", container=("card: Nonstop from $99", "section: Filters"))
    with_filters = PageState(url="https://fly.example/results", elements=(filter_, *cards))
    assert peers_of(cards[0], with_filters)["records"] == list(FLIGHTS)  # another list's cards are no peers


def test_a_list_with_more_pages_proves_only_on_its_first_page_sorted_that_way_round() -> None:
    cards = [_card(i, t) for i, t in enumerate(FLIGHTS)]
    nonstop = [FLIGHTS[0], FLIGHTS[2]]
    sort = PageElement(id="s", role="combobox", name="Sort by", value="Price (lowest first)")
    paging = (PageElement(id="p", role="button", name="Previous", states=("disabled",)), PageElement(id="n", role="button", name="Next"))
    first = peers_of(cards[0], PageState(url="https://fly.example/r", elements=(sort, *cards[::2], *paging)))
    assert first is not None and first["records"] == nonstop and first["paged"] and not first["later_page"]
    goal = "the cheapest nonstop"
    assert proven_extremes(goal, ["cheapest"], [first]) == {"cheapest"}
    assert proven_extremes(goal, ["cheapest"], [{**first, "sort": None}]) == set()  # the next page may hold a cheaper one
    assert proven_extremes(goal, ["cheapest"], [{**first, "sort": "Price (highest first)"}]) == set()
    assert proven_extremes(goal, ["cheapest"], [{**first, "later_page": True}]) == set()
    earliest = {**first, "sort": "Departure (earliest first)"}
    assert proven_extremes("the earliest nonstop", ["earliest"], [earliest]) == {"earliest"}


def test_the_contract_strikes_a_proven_superlative_only_once_every_clause_holds() -> None:
    goal = "book the cheapest nonstop flight from BOS to DEN"
    clause = Clause(id="c1", kind="activated", description="Select was pressed", target=ElementRef(name="Select"), action="click")
    contract = Contract(goal=goal, clauses=(clause,), unaccounted=("cheapest",))
    assert account_extremes(contract, goal, [_whole(*FLIGHTS)]).unaccounted == ("cheapest",)  # c1 not shown to hold yet
    held = contract.model_copy(update={"results": {"c1": ClauseResult(id="c1", status="holds", detail="done at step 2")}})
    assert account_extremes(held, goal, [_whole(*FLIGHTS)]).unaccounted == ()


def test_a_list_sorted_to_put_the_extreme_first_proves_its_first_record_whose_figure_is_not_read() -> None:
    packs = [PageElement(id=str(i), role="button", name="Add to cart", container=(f"card: {t}", "section: Backpacks")) for i, t in enumerate(("Daybreak Daypack", "Summit Backpack"))]
    sort = PageElement(id="s", role="combobox", name="Sort by", value="Price: low to high")
    page = PageState(url="https://shop.example/packs", elements=(sort, *packs))
    assert proven_extremes("add the cheapest pack to my cart", ["cheapest"], [peers_of(packs[0], page)]) == {"cheapest"}
    assert proven_extremes("add the cheapest pack to my cart", ["cheapest"], [peers_of(packs[1], page)]) == set()  # not the first
    featured = PageState(url="https://shop.example/packs", elements=(sort.__class__(id="s", role="combobox", name="Sort by", value="Featured"), *packs))
    assert proven_extremes("add the cheapest pack to my cart", ["cheapest"], [peers_of(packs[0], featured)]) == set()


def test_newest_and_oldest_compare_the_records_dates_or_a_sort_by_date() -> None:
    posts = ("Harbour reopens · 12 Nov 2026", "Ferry fares rise · 2026-11-20", "Bridge vote · Nov 3, 2026")
    assert proven_extremes("open the newest post", ["newest"], [_whole(*posts[1:], posts[0])]) == {"newest"}
    assert proven_extremes("open the newest post", ["newest"], [_whole(*posts)]) == set()
    assert proven_extremes("open the oldest post", ["oldest"], [_whole(posts[2], *posts[:2])]) == {"oldest"}
    assert proven_extremes("open the most recent post", ["most", "recent"], [_whole(*posts[1:], posts[0])]) == {"most", "recent"}
    items = [PageElement(id=str(i), role="button", name="Add to cart", container=(f"card: {t}", "section: Products")) for i, t in enumerate(("Filter Bottle", "Trail Mug"))]
    newest_first = PageState(url="https://shop.example/all", elements=(PageElement(id="s", role="combobox", name="Sort by", value="Newest"), *items))
    assert proven_extremes("whats the newest thing you have? add it to my cart", ["newest"], [peers_of(items[0], newest_first)]) == {"newest"}
    assert proven_extremes("whats the newest thing you have? add it to my cart", ["newest"], [peers_of(items[1], newest_first)]) == set()
    assert proven_extremes("add the oldest thing to my cart", ["oldest"], [peers_of(items[0], newest_first)]) == set()  # sorted the other way
