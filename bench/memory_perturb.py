"""The replay bench's perturbation layer (``bench/memory_perturb.js``) as a Playwright init
script, seeded, and what it logged.

``init_script(Perturbation(...))`` is the text to give ``context.add_init_script``: a line
that sets ``window.__stepwisePerturb`` and the script itself. A seed names one layout: the
same seed, kinds and page give the same wrappers, order, names and swapped pair.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from playwright.async_api import Page

KINDS: Final[tuple[str, ...]] = ("wrap", "shuffle", "rename", "swap", "overlay")
SCRIPT: Final = Path(__file__).with_name("memory_perturb.js")


@dataclass(frozen=True)
class Perturbation:
    """What to change on every page of an episode. ``auto``: apply on load and on later
    mutations (a site that loads its content); else only on :func:`apply` (MiniWoB, whose
    task builds the page when the episode starts). ``overlay_after``: the trusted action
    after which the overlay appears."""

    seed: int
    kinds: tuple[str, ...] = ()
    auto: bool = False
    overlay_after: int = 1

    def config(self) -> dict[str, Any]:
        unknown = set(self.kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown perturbation kinds: {sorted(unknown)}")
        return {"seed": self.seed, "kinds": list(self.kinds), "auto": self.auto, "overlayAfter": self.overlay_after}


def perturb_seed(base: int, *parts: object) -> int:
    """A 31-bit seed from the run's base seed and what the episode is (task, kind, seed):
    stable across processes (no ``hash()``), different for each part."""
    raw = json.dumps([base, *[str(p) for p in parts]]).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=4).digest(), "big") & 0x7FFFFFFF


def init_script(perturbation: Perturbation) -> str:
    """The init script: the seeded configuration, then the perturbation layer."""
    head = f"window.__stepwisePerturb = {json.dumps(perturbation.config())};\n"
    return head + SCRIPT.read_text()


async def apply(page: Page) -> dict[str, Any]:
    """Key the page's elements and apply the configured kinds now; what was done."""
    info: dict[str, Any] = await page.evaluate("() => window.__stepwisePerturbApply ? window.__stepwisePerturbApply() : null") or {}
    return info


async def take_log(page: Page) -> list[dict[str, Any]]:
    """The trusted clicks / inputs / changes since the last call (each with the bench key of
    the real element hit), emptied; [] when the page has no layer (navigated away mid-call)."""
    try:
        entries = await page.evaluate("() => window.__benchTake ? window.__benchTake() : []")
    except Exception:  # noqa: BLE001 - a page that navigated while we read has no log to give
        return []
    return [e for e in entries if isinstance(e, dict)]


async def info(page: Page) -> dict[str, Any]:
    """What the layer did on the current page (keyed, wrapped, shuffled, renamed, swapped, overlays)."""
    try:
        data = await page.evaluate("() => window.__benchInfo || null")
    except Exception:  # noqa: BLE001
        return {}
    return data if isinstance(data, dict) else {}
