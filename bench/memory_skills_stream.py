"""The skills bench's task stream: who asks what, on which site, in which words (seeded).

A stream of N tasks over 3 tenants × 2 domains (:data:`bench.memory_decoy_site.DOMAINS`):
every (tenant, domain) cell gets its share, half of it each flow (create a record, sign in),
and the whole list is shuffled with the seed, so tenants and sites interleave. Each goal names
the **obvious** control in its exact words (the decoy: "Add patient", "Log in") and carries
fresh values: names, e-mails, user names, and for a sign-in a password generated per task
(distinct, seeded) — the secrets the bench later looks for in the database.

Phrasings: :data:`PHRASINGS` has three per flow. ``tune`` ones were run while the bench was
built (the first is the wording of tests/integration/api/test_memory_skills.py); the
``heldout`` one was written before any measurement and never changed. Each tenant has a
*habitual* phrasing per flow (seeded), used with probability ``habit`` (default 0.8; people and
integrations keep their wording), otherwise another phrasing of the set, uniformly.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import Final

from bench.memory_decoy_site import DOMAINS, FLOWS, WORDS, Flow, Task

TENANTS: Final = ("tenant-1", "tenant-2", "tenant-3")
PHRASINGS: Final[dict[Flow, dict[str, str]]] = {
    "record": {
        "p0": 'Click "{dead}", type {a} into {fa} and {b} into {fb}, then click {submit}',
        "p1": 'Click "{dead}", then enter {a} in {fa} and {b} in {fb} and press {submit}',
        "h0": 'Press "{dead}", fill in {fa} with {a} and {fb} with {b}, and click {submit}',
    },
    "signin": {
        "p0": 'Type {a} into Username and "{b}" into Password, then click "{dead}"',
        "p1": 'Enter {a} in Username, enter "{b}" in Password and press "{dead}"',
        "h0": 'Fill in Username with {a} and Password with "{b}", then click "{dead}"',
    },
}
PHRASING_SETS: Final = {"tune": ("p0", "p1"), "heldout": ("h0",), "all": ("p0", "p1", "h0")}
FIRST: Final = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Tim", "Margaret", "Niklaus")
LAST: Final = ("Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Perlman", "Lee", "Hamilton", "Wirth")
COMPANIES: Final = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Tyrell", "Cyberdyne", "Soylent", "Wonka")
_PASSWORD_CHARS: Final = string.ascii_letters + string.digits + "!#%&*+-=?@^_~"


@dataclass(frozen=True)
class StreamItem:
    """One task of the stream: its position (1-based), who asks, the site's task, the goal."""

    position: int
    tenant: str
    phrasing: str
    task: Task
    goal: str

    @property
    def secret(self) -> str | None:
        """The password the goal gives (sign-in tasks)."""
        return self.task.values[1] if self.task.flow == "signin" else None


def password(rng: random.Random) -> str:
    """A fresh password: 14 characters, at least one of each class, no quote or brace."""
    body = [rng.choice(string.ascii_uppercase), rng.choice(string.ascii_lowercase), rng.choice(string.digits), rng.choice("!#%&*+-=?@^_~")]
    body += [rng.choice(_PASSWORD_CHARS) for _ in range(10)]
    rng.shuffle(body)
    return "".join(body)


def values_for(domain: str, flow: Flow, rng: random.Random, n: int) -> tuple[str, str]:
    """Fresh values for task ``n``: (first, last), (company, email) or (user, password)."""
    first, last = rng.choice(FIRST), rng.choice(LAST)
    if flow == "signin":
        return f"{first.lower()}{n}", password(rng)
    if domain.startswith("clinic"):
        return first, last
    company = f"{rng.choice(COMPANIES)}{n}"
    return company, f"{first.lower()}.{last.lower()}{n}@{company.lower()}.example"


def goal_text(task: Task, phrasing: str) -> str:
    """The goal in ``phrasing``, naming the decoy with its exact words."""
    w = task.words
    return PHRASINGS[task.flow][phrasing].format(dead=w.dead, a=task.values[0], b=task.values[1], fa=w.fields[0], fb=w.fields[1], submit=w.submit)


def stream(
    n: int, seed: int, phrasings: tuple[str, ...], *, habit: float = 0.8, tenants: tuple[str, ...] = TENANTS,
    focusable_decoy: bool = False, broken_every: int = 0,
) -> list[StreamItem]:
    """``n`` tasks spread evenly over tenants × domains × flows, shuffled with ``seed``; with
    ``broken_every`` k > 0, every k-th task's site has its real control dead too."""
    rng = random.Random(seed)
    habits = {(t, f): rng.choice(phrasings) for t in tenants for f in FLOWS}
    cells = [(t, d, f) for t in tenants for d in DOMAINS for f in FLOWS]
    slots = [cells[i % len(cells)] for i in range(n)]
    rng.shuffle(slots)
    items = []
    for index, (tenant, domain, flow) in enumerate(slots):
        values = values_for(domain, flow, rng, index)
        usual = habits[(tenant, flow)]
        others = [p for p in phrasings if p != usual]
        phrasing = usual if not others or rng.random() < habit else rng.choice(others)
        broken = broken_every > 0 and (index + 1) % broken_every == 0
        task = Task(f"s{seed}-{index}", domain, flow, values, seed * 1000 + index, focusable_decoy, broken)
        items.append(StreamItem(index + 1, tenant, phrasing, task, goal_text(task, phrasing)))
    return items


assert set(WORDS) == {(d, f) for d in DOMAINS for f in FLOWS}
