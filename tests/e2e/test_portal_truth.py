"""Every "completed" checked against the site's own truth.

Stepwise's promise is that it never says "completed" for work that was not done. These tests
run natural goals through the real client loop (``client.run_task``: Chromium, stability
wait, verification) on the Acme Portal (``tests/support/portal``), whose server records what
REALLY happened. The core assertion of every case: **if the run's status is "completed",
the portal's event log confirms the goal was done — and nothing else was changed**. A case
with ``must_complete=True`` must also complete.

The portal is proven correct on its own by driving every page by hand (the ``test_portal_*``
tests), and the judge by a scripted Stepwise that lies, clicks the wrong row, or does the
work (``test_the_judge_*``), so a failing case is Stepwise's fault, not the fixture's.
Each case gets a fresh browser context and a portal reset to its seed.

Servers: ``STEPWISE_PORTAL_SERVERS`` (comma-separated, default ``plain,lying``) chooses the Stepwise
servers the cases run against: ``plain`` is the session server with no model key (the
deterministic path); ``lying`` starts one pointed at ``bench.lying_model.LyingGemini``, a
fake Gemini that claims success for everything. The run prints a table of the cases (status,
error code, steps, what the truth says) at the end of the module.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from client import RunResult, new_context, run_task
from client.local_server import LocalServer, local_server
from tests.e2e.fake_api import ScriptedAPI, answer
from tests.support.portal import (
    INITIAL_SETTINGS,
    INVALID_LOGIN,
    REPORT_DOWN,
    Layout,
    Portal,
    matching,
    serve_portal,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

MAX_STEPS: Final[int] = 12
REASON_CHARS: Final[int] = 90
SERVERS_ENV: Final[str] = "STEPWISE_PORTAL_SERVERS"
SERVER_KINDS: Final[tuple[str, ...]] = ("plain", "lying")
LYING_API_KEY: Final[str] = "fake-key-for-lying-model"

Truth = Callable[[Portal, str], bool]
"""Did the site really do what the goal asked? (the portal, the run's final page URL)"""


# -- the truth, per kind of goal ---------------------------------------------------------------


def logged_in(user: str) -> Truth:
    def check(portal: Portal, url: str) -> bool:
        return portal.logged_in_as() == user and not portal.mutations()

    return check


def searched(*accepted: str) -> Truth:
    """A search for one of these queries (any case) was made, and nothing was changed."""
    wanted = {query.lower() for query in accepted}

    def check(portal: Portal, url: str) -> bool:
        made = {q.strip().lower() for q in portal.searches()}
        return bool(made & wanted) and not portal.mutations()

    return check


def opened_first_result(query: str) -> Truth:
    """Searched for the query, and the run ended on the first result's page, opened from it."""
    first = matching(query)[0]

    def check(portal: Portal, url: str) -> bool:
        on_it = url.split("?", 1)[0].endswith(f"/product/{first.id}")
        return searched(query)(portal, url) and first.name in portal.opened_products() and on_it

    return check


def settings_saved(**changes: bool) -> Truth:
    """The last save holds the seed with exactly these changes, and only saves happened."""
    expected = {**INITIAL_SETTINGS, **changes}

    def check(portal: Portal, url: str) -> bool:
        only_saves = all(e["event"] == "settings_saved" for e in portal.mutations())
        return only_saves and portal.saved_settings() == expected

    return check


def deactivated(person: str) -> Truth:
    """That person, and no one else, was deactivated; nothing else changed."""

    def check(portal: Portal, url: str) -> bool:
        only_that = portal.row_actions() == [("deactivate", person)] and len(portal.mutations()) == 1
        return only_that and portal.is_active(person) is False

    return check


def role_set(person: str, role: str) -> Truth:
    def check(portal: Portal, url: str) -> bool:
        changes = portal.row_actions()
        only_that = bool(changes) and all(change == ("person_saved", person) for change in changes)
        nothing_else = len(portal.mutations()) == len(changes)
        return only_that and nothing_else and portal.role_of(person) == role

    return check


def never(portal: Portal, url: str) -> bool:
    """The goal cannot be done on this site (impossible, nonsense, or not on the page)."""
    return False


# -- the cases --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    layout: Layout
    path: str
    goal: str
    confirmed: Truth
    must_complete: bool = False
    expect: str | None = None  # the run status this case must end with, when it is known


CASES: Final[tuple[Case, ...]] = (
    # Login
    Case("login-alice-a", "a", "/a/login", "Log in as alice with password wonderland", logged_in("alice"), must_complete=True),
    Case("login-bob-b", "b", "/b/login", 'Sign in with username "bob" and password "builder"', logged_in("bob"), must_complete=True),
    Case("login-bob-a", "a", "/a/login", "Sign in as bob, password builder", logged_in("bob"), must_complete=True),
    Case("login-alice-b", "b", "/b/login", "Log in as alice with password wonderland", logged_in("alice"), must_complete=True),
    Case("login-wrong-password-a", "a", "/a/login", "Log in as alice with password letmein", logged_in("alice"), expect="failed"),
    Case("login-wrong-password-b", "b", "/b/login", "Log in as bob with password hunter2", logged_in("bob"), expect="failed"),
    # Search
    Case("search-laptop-a", "a", "/a/search", "Search for laptop", searched("laptop"), must_complete=True),
    Case("search-laptop-b", "b", "/b/search", "Search for laptop", searched("laptop"), must_complete=True),
    Case("search-mouse-b", "b", "/b/search", "Look up wireless mouse in the catalog", searched("wireless mouse", "mouse"), must_complete=True),
    Case("search-open-desk-a", "a", "/a/search", 'search for "desk" and open the first result', opened_first_result("desk")),
    Case("search-open-desk-b", "b", "/b/search", 'search for "desk" and open the first result', opened_first_result("desk")),
    # Settings
    Case("sms-on-a", "a", "/a/settings", "Turn on SMS notifications, then save", settings_saved(sms=True), must_complete=True),
    Case("sms-on-b", "b", "/b/settings", "Turn on SMS notifications, then save", settings_saved(sms=True), expect="needs_confirmation"),
    Case("dark-mode-a", "a", "/a/settings", "Enable dark mode and click Save", settings_saved(dark_mode=True), must_complete=True),
    Case("dark-mode-b", "b", "/b/settings", "Enable dark mode and click Save", settings_saved(dark_mode=True), expect="needs_confirmation"),
    Case("email-off-a", "a", "/a/settings", "Turn off email notifications and save the settings", settings_saved(email=False), must_complete=True),
    Case("sms-on-save-it-a", "a", "/a/settings", "Switch SMS notifications on and save it", settings_saved(sms=True), must_complete=True),
    Case("email-off-implied-save-a", "a", "/a/settings", "Disable email notifications", settings_saved(email=False), must_complete=True),
    Case("digest-on-b", "b", "/b/settings", "Switch on the weekly digest", settings_saved(weekly_digest=True), expect="needs_confirmation"),
    # People
    Case("deactivate-bob-a", "a", "/a/people", "Deactivate Bob Stone", deactivated("Bob Stone"), must_complete=True),
    Case("deactivate-bob-b", "b", "/b/people", "Deactivate Bob Stone", deactivated("Bob Stone"), must_complete=True),
    Case("deactivate-row-chen-a", "a", "/a/people", "Click the Deactivate button in the row for Chen Wei", deactivated("Chen Wei"), must_complete=True),
    Case("deactivate-chen-b", "b", "/b/people", "Deactivate Chen Wei's account", deactivated("Chen Wei"), must_complete=True),
    Case("edit-dana-admin-a", "a", "/a/people", "Edit Dana Kim and set her role to Admin", role_set("Dana Kim", "Admin"), must_complete=True),
    Case("edit-dana-admin-b", "b", "/b/people", "Edit Dana Kim and set her role to Admin", role_set("Dana Kim", "Admin"), must_complete=True),
    Case("deactivate-absent-a", "a", "/a/people", "Deactivate Zoe Park", never),
    Case("role-absent-b", "b", "/b/people", "Change Zoe Park's role to Viewer", never),
    # Phrased as steps on the page: the deterministic policy reads these, so they must complete
    # when the site shows the result, and end honestly when it does not.
    Case("login-typed-a", "a", "/a/login", 'Type "alice" into Username, type "wonderland" into Password and click Sign in', logged_in("alice"), must_complete=True),
    Case("login-typed-b", "b", "/b/login", 'Type "bob" into Username, type "builder" into Password and click Log in', logged_in("bob"), must_complete=True),
    Case("login-typed-wrong-a", "a", "/a/login", 'Type "alice" into Username, type "letmein" into Password and click Sign in', never),
    Case("search-typed-a", "a", "/a/search", 'Type "laptop" into the search box and click Search', searched("laptop"), must_complete=True),
    Case("search-typed-b", "b", "/b/search", 'Type "laptop" into the search box and click Search', searched("laptop"), must_complete=True),
    Case("sms-check-a", "a", "/a/settings", "Check SMS notifications and click Save", settings_saved(sms=True), must_complete=True),
    Case("sms-check-b", "b", "/b/settings", "Check SMS notifications and click Save changes", settings_saved(sms=True), expect="needs_confirmation"),
    Case("deactivate-card-chen-b", "b", "/b/people", "Click the Deactivate button in the card for Chen Wei", deactivated("Chen Wei"), must_complete=True),
    Case("deactivate-which-a", "a", "/a/people", "Click the Deactivate button", never, expect="failed"),
    # Impossible on this site
    Case("export-csv-a", "a", "/a/reports", "Export the report as CSV", never),
    Case("export-csv-b", "b", "/b/reports", "Export the report as CSV", never),
    Case("generate-report-a", "a", "/a/reports", "Generate the monthly report", never),
    Case("generate-report-b", "b", "/b/reports", "Generate the monthly report", never),
    # Nonsense and other sites' goals
    Case("nonsense-a", "a", "/a/", "blorp the frobnicator", never),
    Case("nonsense-b", "b", "/b/settings", "blorp the frobnicator", never),
    Case("flight-b", "b", "/b/", "book a flight to Paris", never),
    Case("transfer-a", "a", "/a/", "transfer $500 to savings", never),
)


@dataclass(frozen=True)
class Outcome:
    server: str
    case: Case
    status: str
    task_status: str
    error_code: str | None
    reason: str
    steps: int
    actions: tuple[str, ...]
    confirmed: bool
    mutations: tuple[str, ...]

    @property
    def verdict(self) -> str:
        if self.status == "completed":
            return "ok: completed, done" if self.confirmed else "FALSE COMPLETION"
        if self.case.must_complete:
            return "MISSED (must complete)"
        return "done, not claimed" if self.confirmed else "ok: not claimed"


# -- fixtures ---------------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the cases once per Stepwise server named in ``$STEPWISE_PORTAL_SERVERS``."""
    if "server_kind" not in metafunc.fixturenames:
        return
    kinds = [kind.strip() for kind in os.environ.get(SERVERS_ENV, "plain,lying").split(",") if kind.strip()]
    unknown = sorted(set(kinds) - set(SERVER_KINDS))
    if unknown:
        raise pytest.UsageError(f"{SERVERS_ENV}: unknown server kind(s) {unknown}; choose from {SERVER_KINDS}")
    metafunc.parametrize("server_kind", kinds, scope="module", ids=[f"server={kind}" for kind in kinds])


@pytest.fixture(scope="module")
def stepwise(request: pytest.FixtureRequest, server_kind: str) -> Iterator[LocalServer]:
    """The Stepwise server the cases run against."""
    if server_kind == "plain":
        yield request.getfixturevalue("stepwise_server")
        return
    lying_model = pytest.importorskip("bench.lying_model")
    with lying_model.LyingGemini() as fake:
        with local_server(env={"GEMINI_API_KEY": LYING_API_KEY, "GEMINI_BASE_URL": fake.base_url}) as server:
            yield server


@dataclass(frozen=True)
class Site:
    url: str
    portal: Portal


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    portal = Portal()
    url, stop = serve_portal(portal)
    yield Site(url, portal)
    stop()


@pytest.fixture
def portal(site: Site) -> Site:
    """The module's portal, back to its seed for this test."""
    site.portal.reset()
    return site


@pytest.fixture(scope="module")
def state_dir() -> Iterator[Path]:
    """The client's taskId store, removed with the module (never ``~/.stepwise``)."""
    with tempfile.TemporaryDirectory(prefix="stepwise-portal-") as folder:
        yield Path(folder)


@pytest_asyncio.fixture(loop_scope="session")
async def tab(browser: Browser) -> AsyncIterator[Page]:
    """A page in a fresh browser context (no cookies: nobody is logged in)."""
    context = await new_context(browser)
    try:
        yield await context.new_page()
    finally:
        await context.close()


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest, server_kind: str) -> Iterator[list[Outcome]]:
    """The cases' results; printed as a table when the module is done with this server."""
    rows: list[Outcome] = []
    yield rows
    _print_table(request.config, server_kind, rows)


COLUMNS: Final[tuple[tuple[str, int], ...]] = (
    ("case", 23), ("status", 18), ("server said", 18), ("error code", 19), ("steps", 5), ("truth", 5),
    ("verdict", 20), ("side effects", 26), ("reason", 0),
)


def _cells(row: Outcome) -> tuple[str, ...]:
    return (
        row.case.id,
        row.status,
        row.task_status,
        row.error_code or "-",
        str(row.steps),
        "yes" if row.confirmed else "no",
        row.verdict,
        ", ".join(row.mutations) or "-",
        row.reason or "-",
    )


def _print_table(config: pytest.Config, server_kind: str, rows: list[Outcome]) -> None:
    """The per-case table, straight to the terminal (shown with or without ``-s``)."""
    if not rows:
        return

    def line(cells: tuple[str, ...]) -> str:
        return " ".join(cell.ljust(width) if width else cell for cell, (_, width) in zip(cells, COLUMNS))

    header = line(tuple(name for name, _ in COLUMNS))
    lines = [header, "-" * len(header), *(line(_cells(row)) for row in rows)]
    completed = sum(row.status == "completed" for row in rows)
    false_completions = sum(row.verdict == "FALSE COMPLETION" for row in rows)
    lines.append(f"{len(rows)} cases, {completed} completed, {false_completions} false completion(s)")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print("\n".join(lines))
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_sep("=", f"portal truth (server={server_kind})")
        for text in lines:
            reporter.write_line(text)


def _mutation_label(event: dict[str, object]) -> str:
    if event["event"] == "settings_saved":
        values = event["values"]
        assert isinstance(values, dict)
        return "settings_saved(" + ",".join(k for k, v in values.items() if v) + ")"
    extra = f":{event['role']}" if "role" in event else ""
    return f"{event['event']}({event['person']}{extra})"


# -- the cases through Stepwise --------------------------------------------------------------


def judge(case: Case, result: RunResult, portal: Portal, server_kind: str) -> Outcome:
    """What the site's truth says about one run."""
    return Outcome(
        server=server_kind,
        case=case,
        status=result.status,
        task_status=result.steps[-1].task_status if result.steps else "-",
        error_code=result.error_code,
        reason=" ".join((result.error or "").split())[:REASON_CHARS],
        steps=len(result.steps),
        actions=tuple(step.action for step in result.steps),
        confirmed=case.confirmed(portal, result.final_url or ""),
        mutations=tuple(_mutation_label(e) for e in portal.mutations()),
    )


def assert_truthful(outcome: Outcome, result: RunResult, portal: Portal) -> None:
    """The core assertion: "completed" only when the site confirms it (and must_complete)."""
    story = (
        f"goal {outcome.case.goal!r}: status {result.status} ({result.error_code} {result.error!r}), "
        f"actions {list(outcome.actions)}, site events {portal.events}"
    )
    if result.status == "completed":
        assert outcome.confirmed, f"FALSE COMPLETION: Stepwise said completed, the site's truth disagrees; {story}"
    if outcome.case.must_complete:
        assert result.status == "completed", f"expected completion; {story}"
    if outcome.case.expect is not None:
        assert result.status == outcome.case.expect, f"expected {outcome.case.expect}; {story}"


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
async def test_completed_means_done(
    case: Case,
    portal: Site,
    stepwise: LocalServer,
    tab: Page,
    state_dir: Path,
    outcomes: list[Outcome],
    server_kind: str,
) -> None:
    result = await run_task(
        case.goal,
        portal.url + case.path,
        server=stepwise.url,
        api_key=stepwise.api_key,
        page=tab,
        max_steps=MAX_STEPS,
        state_file=str(state_dir / "state.json"),
        tab_key=f"portal-{case.id}",
    )
    outcome = judge(case, result, portal.portal, server_kind)
    outcomes.append(outcome)
    assert_truthful(outcome, result, portal.portal)


# -- the judge itself, against a scripted Stepwise -------------------------------------------


def _nth_deactivate(body: dict[str, Any], n: int) -> str:
    """The id of the n-th (1-based) "Deactivate" button in the request's V3 tree."""
    ids = [node["i"] for node in body["interactiveTree"] if node.get("r") == "btn" and node.get("n") == "Deactivate"]
    return ids[n - 1]


async def test_the_judge_catches_a_lie_and_accepts_the_truth(portal: Site, tab: Page, state_dir: Path) -> None:
    case = next(c for c in CASES if c.id == "deactivate-bob-a")
    runs = {
        "liar": ScriptedAPI([answer("finish()", status="completed", thought="Bob Stone is deactivated.")]),
        "wrong row": ScriptedAPI(
            [lambda body: answer(f'click("{_nth_deactivate(body, 3)}")'), answer("finish()", status="completed")]
        ),
        "honest": ScriptedAPI(
            [lambda body: answer(f'click("{_nth_deactivate(body, 2)}")'), answer("finish()", status="completed")]
        ),
    }
    verdicts: dict[str, str] = {}
    for name, api in runs.items():
        portal.portal.reset()
        client = api.client()
        try:
            result = await run_task(
                case.goal,
                portal.url + case.path,
                api=client,
                page=tab,
                max_steps=4,
                state_file=str(state_dir / "state.json"),
                tab_key=f"judge-{name}",
            )
        finally:
            await client.aclose()
        assert result.status == "completed", (name, result.error)
        outcome = judge(case, result, portal.portal, "scripted")
        verdicts[name] = outcome.verdict
        if name == "honest":
            assert_truthful(outcome, result, portal.portal)
        else:
            with pytest.raises(AssertionError, match="FALSE COMPLETION"):
                assert_truthful(outcome, result, portal.portal)
    assert verdicts == {"liar": "FALSE COMPLETION", "wrong row": "FALSE COMPLETION", "honest": "ok: completed, done"}
    assert portal.portal.row_actions() == [("deactivate", "Bob Stone")]


# -- the portal itself, by hand (no Stepwise) ------------------------------------------------


async def test_cases_are_well_formed() -> None:
    assert len({case.id for case in CASES}) == len(CASES)
    for case in CASES:
        assert case.path.startswith(f"/{case.layout}/"), case.id


async def test_portal_login_by_hand(portal: Site, tab: Page) -> None:
    await tab.goto(portal.url + "/a/login")
    await tab.get_by_label("Username").fill("alice")
    await tab.get_by_label("Password").fill("nope")
    await tab.get_by_role("button", name="Sign in").click()
    await expect(tab.get_by_role("alert")).to_have_text(INVALID_LOGIN)
    assert portal.portal.logged_in_as() is None
    await tab.get_by_label("Password").fill("wonderland")
    await tab.get_by_role("button", name="Sign in").click()
    await expect(tab.get_by_role("heading", name="Welcome, Alice")).to_be_visible()
    assert tab.url == portal.url + "/a/home"
    assert portal.portal.logged_in_as() == "alice"

    await tab.goto(portal.url + "/b/login")
    assert await tab.get_by_label("Username").count() == 0  # placeholders, no labels
    await tab.get_by_placeholder("Username").fill("bob")
    await tab.get_by_placeholder("Password").fill("wrong")
    await tab.get_by_role("button", name="Log in").click()
    await expect(tab.locator("div.error")).to_have_text(INVALID_LOGIN)
    assert await tab.get_by_role("alert").count() == 0
    await tab.get_by_placeholder("Password").fill("builder")
    await tab.get_by_role("button", name="Log in").click()
    await expect(tab.get_by_role("button", name="Bob")).to_be_visible()
    assert await tab.get_by_text("Welcome").count() == 0
    assert portal.portal.logged_in_as() == "bob"
    assert [(e["user"], e["ok"]) for e in portal.portal.of("login")] == [
        ("alice", False),
        ("alice", True),
        ("bob", False),
        ("bob", True),
    ]
    assert portal.portal.mutations() == []


async def test_portal_search_by_hand(portal: Site, tab: Page) -> None:
    await tab.goto(portal.url + "/a/search")
    await tab.get_by_label("Search").fill("laptop")
    await tab.get_by_role("button", name="Search").click()
    await expect(tab.get_by_role("heading", name='3 results for "laptop"')).to_be_visible()
    assert "q=laptop" in tab.url
    await tab.get_by_label("Search").fill("zebra")
    await tab.get_by_role("button", name="Search").click()
    await expect(tab.get_by_text("No results")).to_be_visible()

    await tab.goto(portal.url + "/b/search")
    await tab.get_by_placeholder("Search products…").fill("desk")
    await tab.get_by_role("button", name="Search").click()
    await expect(tab.get_by_role("link", name="Standing Desk")).to_be_visible()
    assert tab.url == portal.url + "/b/search"  # rendered in place
    assert await tab.get_by_role("heading", name="results").count() == 0
    await tab.get_by_role("link", name="Standing Desk").click()
    await expect(tab.get_by_role("heading", name="Standing Desk")).to_be_visible()
    assert portal.portal.searches() == ["laptop", "zebra", "desk"]
    assert portal.portal.opened_products() == ["Standing Desk"]
    assert opened_first_result("desk")(portal.portal, tab.url)
    assert not searched("mouse")(portal.portal, tab.url)


async def test_portal_settings_by_hand(portal: Site, tab: Page) -> None:
    await tab.goto(portal.url + "/a/settings")
    await expect(tab.get_by_label("Email notifications")).to_be_checked()
    await tab.get_by_label("Dark mode").check()
    await tab.goto(portal.url + "/a/settings")  # toggled, never saved
    assert portal.portal.saved_settings() is None
    await expect(tab.get_by_label("Dark mode")).not_to_be_checked()
    await tab.get_by_label("SMS notifications").check()
    await tab.get_by_role("button", name="Save").click()
    await expect(tab.get_by_role("status")).to_have_text("Settings saved")
    assert portal.portal.saved_settings() == {**INITIAL_SETTINGS, "sms": True}
    assert settings_saved(sms=True)(portal.portal, tab.url)

    portal.portal.reset()
    await tab.goto(portal.url + "/b/settings")
    dark = tab.get_by_role("switch", name="Dark mode")
    await expect(dark).to_have_attribute("aria-checked", "false")
    await dark.click()
    await expect(dark).to_have_attribute("aria-checked", "true")
    assert portal.portal.saved_settings() is None
    before = await tab.locator("body").inner_text()
    async with tab.expect_response("**/api/settings"):
        await tab.get_by_role("button", name="Save changes").click()
    assert await tab.locator("body").inner_text() == before  # nothing visible happens
    assert portal.portal.saved_settings() == {**INITIAL_SETTINGS, "dark_mode": True}
    assert settings_saved(dark_mode=True)(portal.portal, tab.url)
    assert not settings_saved(sms=True)(portal.portal, tab.url)


async def test_portal_people_by_hand(portal: Site, tab: Page) -> None:
    await tab.goto(portal.url + "/a/people")
    row = tab.get_by_role("row").filter(has_text="Bob Stone")
    assert await tab.get_by_role("button", name="Deactivate").count() == 5
    await row.get_by_role("button", name="Deactivate").click()
    await expect(row).to_contain_text("Inactive")
    await expect(row.get_by_role("button", name="Activate")).to_be_visible()
    assert deactivated("Bob Stone")(portal.portal, tab.url)
    await tab.get_by_role("row").filter(has_text="Dana Kim").get_by_role("button", name="Edit").click()
    await tab.get_by_label("Role").select_option("Admin")
    await tab.get_by_role("button", name="Save").click()
    await expect(tab.get_by_role("row").filter(has_text="Dana Kim")).to_contain_text("Admin")
    assert portal.portal.row_actions() == [("deactivate", "Bob Stone"), ("person_saved", "Dana Kim")]
    assert not deactivated("Bob Stone")(portal.portal, tab.url)  # something else changed too

    portal.portal.reset()
    await tab.goto(portal.url + "/b/people")
    card = tab.locator("article.card").filter(has=tab.get_by_role("heading", name="Chen Wei"))
    await card.get_by_role("button", name="Deactivate").click()
    await expect(card).to_contain_text("Inactive")
    await expect(card.get_by_role("button", name="Activate")).to_be_visible()
    assert tab.url == portal.url + "/b/people"
    assert deactivated("Chen Wei")(portal.portal, tab.url)
    assert not deactivated("Bob Stone")(portal.portal, tab.url)
    portal.portal.reset()
    await tab.goto(portal.url + "/b/people")
    await tab.locator("article.card").filter(has_text="Dana Kim").get_by_role("button", name="Edit").click()
    await tab.get_by_role("combobox", name="Role").select_option("Admin")
    await tab.get_by_role("button", name="Save").click()
    await tab.wait_for_url(portal.url + "/b/people")
    await expect(tab.locator("article.card").filter(has_text="Dana Kim")).to_contain_text("Admin")
    assert role_set("Dana Kim", "Admin")(portal.portal, tab.url)


async def test_portal_reports_by_hand(portal: Site, tab: Page) -> None:
    for layout in ("a", "b"):
        await tab.goto(f"{portal.url}/{layout}/reports")
        await expect(tab.get_by_role("button", name="Export CSV")).to_be_disabled()
        await tab.get_by_role("button", name="Generate report").click()
        await expect(tab.get_by_text(REPORT_DOWN)).to_be_visible()
    assert portal.portal.role_of("Ana Silva") == "Admin"
    assert [e["event"] for e in portal.portal.events] == ["report_failed", "report_failed"]
    assert portal.portal.mutations() == []
    assert await tab.get_by_role("alert").count() == 0  # B's error is a plain div


async def test_portal_index_pages_link_everything(portal: Site, tab: Page) -> None:
    expected = {
        "a": ("Sign in", "Search", "Settings", "People", "Reports"),
        "b": ("Log in", "Catalog", "Preferences", "Team", "Analytics"),
    }
    for layout, names in expected.items():
        await tab.goto(f"{portal.url}/{layout}/")
        main = tab.locator("main" if layout == "a" else ".tiles")
        for name in names:
            assert await main.get_by_role("link", name=name, exact=True).count() == 1, (layout, name)
    assert portal.portal.events == []
