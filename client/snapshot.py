"""The page as the extension sees it: the in-page script, frames, the V3 snapshot, the witness.

:class:`PageProbe` owns one tab. It installs the in-page script (``page_script/``) in every
document (an init script for future documents, an evaluation for the ones already loaded),
extracts the V3 ``interactiveTree`` from the main frame and its same-origin frames, arms
and reads the mutation/network witness around an action, and finds an element by its
``data-llm-id``.

Element ids are unique across frames: the main frame's are plain numbers (``"12"``); a child
frame's carry a prefix the probe gives it once and never reuses (``"f1-12"``).
"""

from __future__ import annotations

import asyncio
import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page

from client.errors import ActionError

# The in-page script: one implementation for this client and the extension. Its source is the
# fragments in client/page_script/ (their order: parts.json); the extension build joins them into
# extension/dist/page_script.js, and this client loads that built file (`make extension` rebuilds it;
# tests/unit/test_page_script_build.py fails when it is stale). An installed wheel has no
# extension/ folder beside the package: there the same join is made from the packaged fragments.
PAGE_SCRIPT_FILE: Final[Path] = Path(__file__).resolve().parent.parent / "extension" / "dist" / "page_script.js"
PAGE_SCRIPT_FRAGMENTS: Final[Path] = Path(__file__).resolve().parent / "page_script"


def join_fragments(folder: Path = PAGE_SCRIPT_FRAGMENTS) -> str:
    """The fragments in parts.json order inside one function scope, as extension/build.mjs joins them."""
    parts = json.loads((folder / "parts.json").read_text(encoding="utf-8"))
    body = "\n".join((folder / name).read_text(encoding="utf-8") for name in parts)
    return f"(() => {{\n{body}}})();\n"


def _page_script() -> str:
    if PAGE_SCRIPT_FILE.is_file():
        return PAGE_SCRIPT_FILE.read_text(encoding="utf-8")
    if (PAGE_SCRIPT_FRAGMENTS / "parts.json").is_file() and not (PAGE_SCRIPT_FILE.parent.parent / "package.json").is_file():
        return join_fragments()  # an installed package: no extension/ checkout beside it
    raise RuntimeError(f"the built page script {PAGE_SCRIPT_FILE} is missing: run `make extension`")


PAGE_SCRIPT: Final[str] = _page_script()
EVAL_TIMEOUT_S: Final[float] = 5.0
SCREENSHOT_QUALITY: Final[int] = 70  # spec: JPEG at 0.7 quality
SCREENSHOT_TIMEOUT_S: Final[float] = 10.0
# What may be acted on but is not always in the V3 tree (a <span> with a click handler, a
# role or a tabindex): stamped before the full DOM is sent, continuing the tab's numbering.
_STAMPABLE: Final[str] = (
    "a[href], button, input, select, textarea, summary, label, [onclick], [role], [tabindex], [contenteditable='true']"
)
_STAMP_ALL: Final[str] = """(selector) => {
  const prefix = window.__stepwiseIdPrefix || '';
  let stamped = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (el.hasAttribute('data-llm-id')) continue;
    window.__stepwiseNextId = (window.__stepwiseNextId || 0) + 1;
    el.setAttribute('data-llm-id', prefix + window.__stepwiseNextId);
    stamped += 1;
  }
  return stamped;
}"""
_ENSURE = "() => window.__stepwise !== undefined"


@dataclass(frozen=True)
class ExtractOptions:
    """What the V3 snapshot contains. Viewport pruning is off by default: an element below the
    fold stays targetable (Playwright scrolls it into view on click)."""

    prune_to_viewport: bool = False
    max_nodes: int = 2500
    include_frames: bool = True


@dataclass
class PageSnapshot:
    url: str
    title: str
    viewport: dict[str, int]
    tree: list[dict[str, Any]]
    scroll_position: str
    has_errors: bool
    has_success: bool
    messages: list[dict[str, str]] = field(default_factory=list)
    dom: str | None = None
    doc_id: str = ""
    text: str = ""  # visible text of the main frame, one block per line (the request's pageText)
    screenshot: str | None = None  # base64 JPEG of the viewport, when the server asked for one (needsScreenshot)
    truncated: bool = False  # the tree hit ``max_nodes``: elements of the page are missing from it

    @property
    def errors(self) -> list[str]:
        return [m["text"] for m in self.messages if m["kind"] == "error"]

    @property
    def successes(self) -> list[str]:
        return [m["text"] for m in self.messages if m["kind"] == "success"]

    @property
    def notes(self) -> list[str]:
        """Status lines that say neither error nor success ("Options saved" in a role=status region)."""
        return [m["text"] for m in self.messages if m["kind"] == "info"]


@dataclass(frozen=True)
class Armed:
    doc_id: str
    url: str


@dataclass(frozen=True)
class Witness:
    did_dom_mutate: bool
    did_network_occur: bool
    did_url_change: bool
    navigated: bool
    events: tuple[str, ...] = ()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class PageProbe:
    """The in-page script's handle on one tab (and its frames)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._prefixes: dict[Frame, str] = {}
        self._floors: dict[str, int] = {}  # highest id number issued per prefix
        self._next_prefix = 1
        self._installed = False

    async def install(self) -> None:
        """Make the script present in every current and future document of the tab."""
        if not self._installed:
            await self.page.add_init_script(script=PAGE_SCRIPT)
            self._installed = True
        for frame in self.page.frames:
            await self._ensure(frame)

    async def _ensure(self, frame: Frame) -> bool:
        try:
            present = await _bounded(frame.evaluate(_ENSURE))
            if not present:
                await _bounded(frame.evaluate(PAGE_SCRIPT))
            return True
        except (PlaywrightError, TimeoutError):
            return False  # detached, navigating or cross-origin: not part of the snapshot

    def _prefix(self, frame: Frame) -> str:
        if frame == self.page.main_frame:
            return ""
        if frame not in self._prefixes:
            self._prefixes[frame] = f"f{self._next_prefix}-"
            self._next_prefix += 1
        return self._prefixes[frame]

    def _frames(self, options: ExtractOptions) -> list[tuple[int, Frame]]:
        main = self.page.main_frame
        frames = [(0, main)]
        if not options.include_frames:
            return frames
        origin = _origin(main.url)
        for index, frame in enumerate(self.page.frames):
            if frame == main or frame.is_detached():
                continue
            if frame.url.startswith("about:") or _origin(frame.url) == origin:
                frames.append((index, frame))
        return frames

    async def capture(self, options: ExtractOptions | None = None, *, full_dom: bool = False, screenshot: bool = False) -> PageSnapshot:
        """The V3 snapshot of the tab, and the HTML when the server asked for the full DOM
        (``needsFullDom``: every element one could act on stamped with ``data-llm-id`` first,
        so the server can name one the tree left out), and a JPEG of the viewport when it
        asked for a screenshot (``needsScreenshot``)."""
        options = options or ExtractOptions()
        page = self.page
        main: dict[str, Any] | None = None
        tree: list[dict[str, Any]] = []
        messages: list[dict[str, str]] = []
        for index, frame in self._frames(options):
            if not await self._ensure(frame):
                continue
            offset: list[float] = [0.0, 0.0]
            if index:
                box = await _frame_box(frame)
                if box is None:
                    continue
                offset = [box["x"], box["y"]]
            prefix = self._prefix(frame)
            args = {
                "prefix": prefix,
                "floor": self._floors.get(prefix, 0),
                "frame": _frame_number(prefix),
                "offset": offset,
                "pruneToViewport": options.prune_to_viewport,
                "maxNodes": max(options.max_nodes - len(tree), 1),
                "withText": index == 0,  # the page's visible text: main frame only
            }
            try:
                result = await _bounded(frame.evaluate("(o) => window.__stepwise.extract(o)", args))
            except (PlaywrightError, TimeoutError):
                if index == 0:
                    raise
                continue
            if index == 0:
                main = result
            self._remember_ids(prefix, result["tree"])
            if len(tree) < options.max_nodes:
                tree.extend(result["tree"][: options.max_nodes - len(tree)])
            messages.extend(result["messages"])
        assert main is not None
        if full_dom:
            await _bounded(page.evaluate(_STAMP_ALL, _STAMPABLE))
        dom = await _bounded(page.content()) if full_dom else None
        shot = await _bounded(page.screenshot(type="jpeg", quality=SCREENSHOT_QUALITY), SCREENSHOT_TIMEOUT_S) if screenshot else None
        return PageSnapshot(
            url=page.url,
            title=main["title"],
            viewport=main["viewport"],
            tree=tree,
            scroll_position=main["scrollPosition"],
            has_errors=any(m["kind"] == "error" for m in messages),
            has_success=any(m["kind"] == "success" for m in messages),
            messages=messages,
            dom=dom,
            doc_id=main["docId"],
            text=main.get("text") or "",
            screenshot=base64.b64encode(shot).decode() if shot is not None else None,
            truncated=len(tree) >= options.max_nodes,
        )

    def _remember_ids(self, prefix: str, tree: list[dict[str, Any]]) -> None:
        numbers = [int(node["i"][len(prefix):]) for node in tree if node["i"][len(prefix):].isdigit()]
        if numbers:
            self._floors[prefix] = max(self._floors.get(prefix, 0), *numbers)

    async def arm(self) -> Armed:
        """Set the witness baseline just before an action."""
        await self._ensure(self.page.main_frame)
        try:
            doc_id = await _bounded(self.page.evaluate("() => window.__stepwise.arm()"))
        except (PlaywrightError, TimeoutError):
            doc_id = ""
        return Armed(doc_id=doc_id, url=self.page.url)

    async def witness(self, armed: Armed, *, network_seen: bool) -> Witness:
        """What the action did since :meth:`arm`. ``network_seen`` comes from Playwright's
        request events, which also see requests still in flight."""
        url_changed = self.page.url != armed.url
        try:
            await self._ensure(self.page.main_frame)
            seen = await _bounded(self.page.evaluate("() => window.__stepwise.witness()"))
        except (PlaywrightError, TimeoutError):
            seen = None
        if seen is None or seen["docId"] != armed.doc_id:  # a new document: everything changed
            return Witness(True, True, url_changed, navigated=True)
        return Witness(
            did_dom_mutate=bool(seen["didDomMutate"]),
            did_network_occur=bool(seen["didNetworkOccur"]) or network_seen,
            did_url_change=url_changed,
            navigated=False,
            events=tuple(seen["events"]),
        )

    async def dom_quiet_ms(self) -> float | None:
        """Milliseconds since the last DOM mutation in any captured frame (None: unreadable)."""
        quiet: float | None = None
        for _index, frame in self._frames(ExtractOptions()):
            try:
                value = await _bounded(frame.evaluate("() => window.__stepwise ? window.__stepwise.quietMs() : -1"), 1.0)
            except (PlaywrightError, TimeoutError):
                if frame == self.page.main_frame:
                    return None
                continue
            if value < 0:
                if frame == self.page.main_frame:
                    return None
                continue
            quiet = value if quiet is None else min(quiet, value)
        return quiet

    def frame_of(self, element_id: str) -> Frame:
        if not element_id.startswith("f") or "-" not in element_id:
            return self.page.main_frame
        prefix = element_id.split("-", 1)[0] + "-"
        for frame, known in self._prefixes.items():
            if known == prefix and not frame.is_detached():
                return frame
        raise ActionError(f"element {element_id!r} is in a frame that is no longer on the page", code="ELEMENT_NOT_FOUND")

    async def locate(self, element_id: str) -> Locator:
        """The element stamped ``data-llm-id=element_id``; :class:`ActionError` at once when absent."""
        frame = self.frame_of(element_id)
        locator = frame.locator(f'[data-llm-id="{_css_string(element_id)}"]')
        try:
            count = await _bounded(locator.count())
        except (PlaywrightError, TimeoutError) as exc:
            raise ActionError(f"cannot look up element {element_id!r}: {_short(exc)}", code="ELEMENT_NOT_FOUND") from exc
        if count == 0:
            raise ActionError(f"no element with id {element_id!r} on the page", code="ELEMENT_NOT_FOUND")
        return locator.first


def _frame_number(prefix: str) -> int:
    """A node's ``f``: 0 in the main frame, else the number of its frame's id prefix ("f2-" → 2),
    given once per frame — the same number whatever other (cross-origin) frames the page holds,
    as the extension numbers them."""
    return int(prefix[1:-1]) if prefix else 0


async def _frame_box(frame: Frame) -> dict[str, float] | None:
    try:
        handle = await _bounded(frame.frame_element())
        box: dict[str, float] | None = await _bounded(handle.bounding_box())
        return box
    except (PlaywrightError, TimeoutError):
        return None


async def _bounded(awaitable: Any, seconds: float = EVAL_TIMEOUT_S) -> Any:
    """Await with a deadline: a navigating or frozen page never hangs the client."""
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError as exc:
        raise TimeoutError(f"page did not answer within {seconds:.1f} s") from exc


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
