"""The task groups of ``--suites``: development tasks, the tuning half and the held-out half
of the wide list (split fixed in ``suites.toml``), and the tasks out of scope for a policy
with no model, with why. Pure: reading the file and the task lists, no browser."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bench.miniwob.harness import EpisodeResult

SUITES_FILE: Final = Path(__file__).with_name("suites.toml")
SHARED_BENCH: Final = Path(__file__).resolve().parents[3] / "shared" / "bench"
DECLINED: Final = frozenset({"NEEDS_MODEL", "GOAL_NOT_UNDERSTOOD"})


@dataclass(frozen=True)
class Group:
    name: str
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class Suites:
    groups: tuple[Group, ...]
    out_of_scope: dict[str, str]  # task → why a no-model policy declines it


def read_task_list(path: Path) -> list[str]:
    names = []
    for line in path.read_text().splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            names.append(name)
    return names


def load_suites(path: Path = SUITES_FILE, shared: Path = SHARED_BENCH) -> Suites:
    data = tomllib.loads(path.read_text())
    groups = []
    for name, spec in data["groups"].items():
        tasks = list(spec["tasks"]) if "tasks" in spec else read_task_list(shared / spec["file"])
        skip = int(spec.get("skip", 0))
        first = spec.get("first")
        chosen = tasks[skip : skip + int(first)] if first is not None else tasks[skip:]
        groups.append(Group(name, tuple(chosen)))
    return Suites(tuple(groups), dict(data.get("out_of_scope", {})))


def declined(episode: EpisodeResult) -> bool:
    """Ended at once and honestly: failed, saying the goal needs a model or was not understood."""
    return episode.stepwise_status == "failed" and episode.error_code in DECLINED
