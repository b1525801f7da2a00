"""The extension's loop: ask, act, settle, capture, ask again with the same taskId.

Contract implemented (``docs/api.md``, spec § "Client Contract"):

* the first request carries the goal and no ``taskId``; the V3 tree is sent, the full DOM
  only after an answer with ``needsFullDom: true``, a screenshot only after one with
  ``needsScreenshot: true``; a tree cut at the node cap says so (``treeTruncated``);
* after every answer the ``taskId``/``sessionId`` are persisted per tab, and the next request
  reads the ``taskId`` back from that store; when it is gone and a ``sessionId`` is known, the
  client asks ``GET /api/session/{id}/task/active`` (404: start a new task);
* the action (or chain) runs, then the stability wait, then the capture; the next request
  reports ``clientObservations``, ``lastActionStatus``/``lastActionError`` and, for a chain,
  ``lastExecutedActionIndex``/``chainPartialState``;
* the run ends when the task does (status completed / failed / needs_confirmation — the
  status, not the action's name, says which), on an API error, or at ``max_steps`` answers.
"""

from __future__ import annotations

import inspect
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from client.actions import TERMINAL, execute_action, to_action
from verification import Action
from client.api import InteractAnswer, StepwiseAPIError, StepwiseClient
from client.browser import launch_browser, new_context
from client.chain import ChainItem, run_chain
from client.dialogs import DialogWatch
from client.errors import ActionError
from client.records import RunResult, StepEvent, StepRecord
from client.snapshot import ExtractOptions, PageProbe, PageSnapshot
from client.stability import NetworkTracker, StabilityConfig, wait_for_stability
from client.state import TaskStateStore

log = logging.getLogger("stepwise.client")

OnStep = Callable[[StepEvent, StepRecord], Awaitable[None] | None]
StopCheck = Callable[[StepRecord], Awaitable[str | None] | str | None]


async def run_task(
    goal: str,
    url: str | None,
    *,
    server: str | None = None,
    api_key: str | None = None,
    api: StepwiseClient | None = None,
    browser: Browser | None = None,
    page: Page | None = None,
    headed: bool = False,
    max_steps: int = 30,
    stability: StabilityConfig | None = None,
    extract: ExtractOptions | None = None,
    on_step: OnStep | None = None,
    should_stop: StopCheck | None = None,
    state_file: str | None = None,
    tab_key: str | None = None,
    session_id: str | None = None,
    task_id: str | None = None,
    confirm: bool | None = None,
    reply: str | None = None,
) -> RunResult:
    """Run ``goal`` on ``url`` (None: the page as it is) until the task ends. Give ``server``
    (+ ``api_key``) or an ``api`` client; give a ``page``, a ``browser``, or neither (a
    headless Chromium is started). ``task_id`` (with its ``session_id``) continues a task that
    stopped at a question, the first request carrying the user's ``confirm`` answer, or
    their ``reply`` to a question for a value (sent as the request's ``query``)."""
    if api is None and server is None:
        raise ValueError("run_task needs `server` (and `api_key`) or an `api` client")
    if max_steps < 1:
        raise ValueError("max_steps must be >= 1")
    async with AsyncExitStack() as stack:
        if api is None:
            api = await stack.enter_async_context(StepwiseClient(server or "", api_key))
        if page is None:
            if browser is None:
                browser = await stack.enter_async_context(launch_browser(headed=headed))
            context = await new_context(browser)
            stack.push_async_callback(context.close)
            page = await context.new_page()
        runner = _Runner(
            goal=goal,
            api=api,
            page=page,
            stability=stability or StabilityConfig(),
            extract=extract or ExtractOptions(),
            store=TaskStateStore(state_file),
            tab_key=tab_key or f"tab-{uuid.uuid4().hex[:12]}",
            on_step=on_step,
            should_stop=should_stop,
        )
        runner.resume, runner.confirm, runner.reply = task_id, confirm, reply
        return await runner.run(url, max_steps=max_steps, session_id=session_id)


class _Runner:
    def __init__(self, *, goal: str, api: StepwiseClient, page: Page, stability: StabilityConfig, extract: ExtractOptions,
                 store: TaskStateStore, tab_key: str, on_step: OnStep | None, should_stop: StopCheck | None) -> None:
        self.goal = goal
        self.api = api
        self.page = page
        self.stability = stability
        self.extract = extract
        self.store = store
        self.tab_key = tab_key
        self.on_step = on_step
        self.should_stop = should_stop
        self.probe = PageProbe(page)
        self.network = NetworkTracker(page)
        self.acted_at: float | None = None  # monotonic time the last single action finished
        self.dialogs = DialogWatch(page)  # native dialogs answered the safe way, reported (client.dialogs)
        self.resume: str | None = None  # a task to continue (it stopped at a question)
        self.confirm: bool | None = None  # the user's answer, sent once with the first request
        self.reply: str | None = None  # the user's reply to a question for a value, likewise

    async def run(self, url: str | None, *, max_steps: int, session_id: str | None) -> RunResult:
        result = RunResult(status="max_steps", session_id=session_id)
        try:
            await self.probe.install()
            if url and self.page.url != url:
                await self.page.goto(url, wait_until="domcontentloaded", timeout=30_000)
                await wait_for_stability(self.probe, self.network, self.stability)
            self.store.clear(self.tab_key)  # a new goal is a new task: no taskId on the first request
            if self.resume is not None:  # …unless it continues one
                self.store.put(self.tab_key, task_id=self.resume, session_id=session_id, url=self.page.url)
            await self._loop(result, max_steps)
        except StepwiseAPIError as exc:
            result.status, result.error, result.error_code = "error", exc.message, exc.code
        except (PlaywrightError, TimeoutError) as exc:
            first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            result.status, result.error, result.error_code = "error", f"browser: {first_line}", "BROWSER_ERROR"
        finally:
            self.network.close()
            self.dialogs.close()
            if result.status != "max_steps" or result.error is not None:
                self.store.clear(self.tab_key)
        result.final_url = self.page.url if not self.page.is_closed() else None
        return result

    async def _loop(self, result: RunResult, max_steps: int) -> None:
        report: dict[str, Any] | None = None  # what the next request says about the last action
        full_dom = screenshot = False
        last_url: str | None = None  # the URL the last request carried
        for index in range(max_steps):
            started = time.monotonic()
            snapshot = await self.probe.capture(self.extract, full_dom=full_dom, screenshot=screenshot)
            capture_ms = _ms(started)
            task_id, recovered = await self._task_id(result, snapshot.url, last_url)
            if task_id is None and result.steps:
                log.warning("client.task_lost tab=%s: starting a new task", self.tab_key)
            body = self._body(snapshot, task_id, result.session_id, report if task_id else None)
            executed = result.steps[-1].server_step_index if result.steps and task_id and not recovered else None
            if isinstance(executed, int):
                body["stepIndex"] = executed  # which answer this reports on: a re-send is answered again, not re-run
            sent = time.monotonic()
            answer = await self.api.interact(body)
            last_url = snapshot.url
            step = self._record(index, answer, _ms(sent), capture_ms, recovered)
            if result.steps and answer.verification is not None:
                result.steps[-1].verification = answer.verification
                await self._emit("verified", result.steps[-1])
            result.steps.append(step)
            result.add_usage(answer.usage)
            result.session_id = answer.session_id or result.session_id
            result.task_id = answer.task_id or task_id
            if answer.get("contract") is not None:
                result.contract = answer.get("contract")
            if answer.task_id:
                self.store.put(self.tab_key, task_id=answer.task_id, session_id=result.session_id, url=snapshot.url)
            await self._emit("decided", step)
            if self._finished(result, answer, step):
                await self._emit("executed", step)
                return
            if self.should_stop is not None:
                reason = await _maybe_await(self.should_stop(step))
                if reason:
                    result.status, result.error = "stopped", reason
                    return
            report = await self._execute(answer, step, result)
            await self._emit("executed", step)
            if step.action_status == "terminal":
                return
            full_dom, screenshot = answer.needs_full_dom, answer.needs_screenshot
        result.status = "max_steps"

    async def _task_id(self, result: RunResult, url: str, last_url: str | None) -> tuple[str | None, bool]:
        """The tab's stored taskId; else the session's active task from the server (asked with
        the current tab URL, then with the URL the last request carried, which is the one the
        server recorded for the task); else None."""
        stored = self.store.get(self.tab_key)
        if stored is not None:
            return stored.task_id, False
        if result.session_id is None or not result.steps:
            return None, False
        active = await self.api.active_task(result.session_id, url)
        if active is None and last_url is not None and last_url != url:
            active = await self.api.active_task(result.session_id, last_url)
        task_id = active.get("taskId") if active else None
        if not isinstance(task_id, str):
            return None, False
        log.info("client.task_recovered task_id=%s tab=%s", task_id, self.tab_key)
        result.recoveries += 1
        self.store.put(self.tab_key, task_id=task_id, session_id=result.session_id, url=url)
        return task_id, True

    def _body(self, snap: PageSnapshot, task_id: str | None, session_id: str | None, report: dict[str, Any] | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "url": snap.url,
            "domMode": "semantic_v3",
            # A status line is the page's answer to an action too: it travels as a V3 status node.
            "interactiveTree": [*snap.tree, *({"i": f"msg{n}", "r": "status", "n": text} for n, text in enumerate(snap.notes[:10], 1))],
            "pageTitle": snap.title,
            "viewport": snap.viewport,
            "scrollPosition": snap.scroll_position,
            "hasErrors": snap.has_errors,
            "hasSuccess": snap.has_success,
        }
        if snap.text:
            body["pageText"] = snap.text
        if snap.errors:
            body["errors_detected"] = snap.errors[:10]
        if snap.successes:
            body["success_messages"] = snap.successes[:10]
        if snap.truncated:
            body["treeTruncated"] = True
        if snap.screenshot is not None:
            body["screenshot"], body["domMode"] = snap.screenshot, "hybrid"
        if snap.dom is not None:
            body["dom"], body["domMode"] = snap.dom, "full"
        if task_id is not None:
            body["taskId"] = task_id
        else:
            body["query"] = self.goal
        if session_id is not None:
            body["sessionId"] = session_id
        if report:
            body.update(report)
        if self.confirm is not None and task_id is not None:
            body["confirm"], self.confirm = self.confirm, None
        if self.reply is not None and task_id is not None:
            body["query"], self.reply = self.reply, None
        return body

    def _record(self, index: int, answer: InteractAnswer, round_trip_ms: float, capture_ms: float, recovered: bool) -> StepRecord:
        return StepRecord(
            index=index,
            thought=answer.thought,
            action=answer.action,
            actions=[str(a.get("action")) for a in answer.actions],
            task_status=answer.status,
            decided_by=answer.get("decidedBy"),
            server_step_index=answer.get("stepIndex"),
            server_ms=answer.server_ms,
            round_trip_ms=round_trip_ms,
            capture_ms=capture_ms,
            usage=answer.usage,
            recovered_task=recovered,
            memory=answer.get("memory") if isinstance(answer.get("memory"), dict) else None,
        )

    def _finished(self, result: RunResult, answer: InteractAnswer, step: StepRecord) -> bool:
        """The run ends on the task's status — never on an action's name alone: only the
        server's ``completed`` (its goal contract holds) is a completed run."""
        name = _action_name(answer.action)
        if answer.status in ("completed", "failed", "needs_confirmation") or (name in TERMINAL and not answer.actions):
            step.action_status = "terminal"
            if answer.status in ("completed", "needs_confirmation"):
                result.status = answer.status
            else:
                result.status = "failed"
            if result.status != "completed":
                result.error = answer.thought or answer.action
                result.error_code = answer.get("failureCode")
            return True
        if answer.status == "needs_user_input":
            result.status, result.error = "needs_user_input", str(answer.get("needsUserInput") or answer.thought)
            asked = answer.get("needsUserInput")
            confirm = asked.get("confirm") if isinstance(asked, dict) else None
            result.confirm = confirm if isinstance(confirm, dict) else None
            return True
        return False

    async def _execute(self, answer: InteractAnswer, step: StepRecord, result: RunResult) -> dict[str, Any]:
        armed = await self.probe.arm()
        requests_before = self.network.seen
        started = time.monotonic()
        report: dict[str, Any]
        if answer.actions:
            items = [ChainItem.from_wire(raw, i) for i, raw in enumerate(answer.actions)]
            chain = await run_chain(self.probe, self.network, items)
            report = chain.report()
            if chain.terminal is not None:
                step.action_status = "terminal"
                result.status = "completed" if chain.terminal == "finish" and answer.status == "completed" else "failed"
        else:
            details = answer.get("actionDetails")
            self.dialogs.arm(accept=isinstance(details, dict) and details.get("dialog") == "accept")
            try:
                await execute_action(self.probe, self._paced(answer.action))
                report = {"lastActionStatus": "success"}
            except ActionError as exc:
                report = {"lastActionStatus": "failure", "lastActionError": f"{answer.action}: {exc.message}"}
            self.acted_at = time.monotonic()
        step.execute_ms = _ms(started)
        if step.action_status != "terminal":
            step.action_status = "success" if report["lastActionStatus"] == "success" else "failure"
        step.action_error = report.get("lastActionError")
        settled = await wait_for_stability(self.probe, self.network, self.stability)
        step.settle_ms, step.stable = settled.waited_ms, settled.stable
        witness = await self.probe.witness(armed, network_seen=self.network.seen > requests_before)
        step.observations = {
            "didNetworkOccur": witness.did_network_occur,
            "didDomMutate": witness.did_dom_mutate,
            "didUrlChange": witness.did_url_change,
        }
        if dialogs := self.dialogs.take():
            step.observations["nativeDialogs"] = dialogs
        report["clientObservations"] = step.observations
        report["previousUrl"] = armed.url
        if witness.events:
            report["recentEvents"] = list(witness.events)
        return report

    def _paced(self, text: str) -> Action | str:
        """``wait(s)`` counts from when the previous action finished: the settle, capture and
        round trip that brought the wait have already taken part of it ("click ONE, wait 2
        seconds, click TWO" means 2 s between the clicks, not 2 s plus a round trip)."""
        try:
            action = to_action(text)
        except ActionError:
            return text  # execute_action reports it
        if action.name != "wait" or self.acted_at is None:
            return action
        elapsed = time.monotonic() - self.acted_at
        return Action(name="wait", seconds=max(0.0, (action.seconds if action.seconds is not None else 1.0) - elapsed))

    async def _emit(self, event: StepEvent, step: StepRecord) -> None:
        if self.on_step is not None:
            await _maybe_await(self.on_step(event, step))


def _action_name(text: str) -> str | None:
    try:
        return to_action(text).name
    except ActionError:
        return None


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _ms(since: float) -> float:
    return (time.monotonic() - since) * 1000
