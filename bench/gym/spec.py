"""A gym site as data: ``site.toml`` read into typed records (bench/sites/README.md).

Nothing here knows a particular site: any folder in this format loads, also one outside the
repository. A malformed file is refused with :class:`SiteFormatError`, naming the site, the
goal and the field, before anything runs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, get_args

Split = Literal["tune", "heldout"]
Do = Literal["click", "fill", "type", "select", "check", "uncheck", "press", "upload", "hover"]
SPLITS: Final[tuple[Split, ...]] = get_args(Split)
DOS: Final[tuple[Do, ...]] = get_args(Do)


class SiteFormatError(ValueError):
    """A site folder that does not follow bench/sites/README.md."""


@dataclass(frozen=True)
class Within:
    role: str
    text: str


@dataclass(frozen=True)
class Step:
    """One action a careful person takes on one element, found as a screen reader finds it."""

    do: Do
    role: str | None = None
    name: str | None = None
    label: str | None = None
    value: str | None = None
    key: str | None = None
    file: str | None = None
    within: Within | None = None
    frame: str | None = None
    nth: int | None = None

    def describe(self) -> str:
        target = f"{self.role} {self.name!r}" if self.role else f"the field after {self.label!r}"
        if self.within is not None:
            target += f" in the {self.within.role} with {self.within.text!r}"
        extra = {"fill": self.value, "type": self.value, "select": self.value, "press": self.key, "upload": self.file}.get(self.do)
        return f"{self.do} {target}" + (f" = {extra!r}" if extra is not None else "")


Event = dict[str, Any]


@dataclass(frozen=True)
class Goal:
    id: str
    split: Split
    text: str
    doable: bool
    start: str
    steps: tuple[Step, ...] = ()
    expect: tuple[Event, ...] = ()
    forbid: tuple[Event, ...] = ()
    setup: tuple[Step, ...] = ()
    answers: dict[str, str] = field(default_factory=dict)
    why: str | None = None


@dataclass(frozen=True)
class Site:
    key: str  # the folder's name
    root: Path
    name: str
    domain: str
    style: str
    start: str
    goals: tuple[Goal, ...]

    @property
    def www(self) -> Path:
        return self.root / "www"


def load_site(folder: str | Path) -> Site:
    root = Path(folder).resolve()
    source = root / "site.toml"
    if not source.is_file():
        raise SiteFormatError(f"{root}: no site.toml")
    if not (root / "www").is_dir():
        raise SiteFormatError(f"{root}: no www/ folder")
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SiteFormatError(f"{source}: {exc}") from exc
    site = _table(data.get("site"), f"{root.name}: [site]")
    start = _text(site.get("start", "/"), f"{root.name}: site.start")
    goals = tuple(_goal(raw, root, start, i) for i, raw in enumerate(_list(data.get("goal"), f"{root.name}: [[goal]]")))
    ids = [g.id for g in goals]
    if duplicate := next((i for i in ids if ids.count(i) > 1), None):
        raise SiteFormatError(f"{root.name}: goal id {duplicate!r} is used twice")
    return Site(
        key=root.name,
        root=root,
        name=_text(site.get("name", root.name), f"{root.name}: site.name"),
        domain=_text(site.get("domain", ""), f"{root.name}: site.domain"),
        style=_text(site.get("style", ""), f"{root.name}: site.style"),
        start=start,
        goals=goals,
    )


def _goal(raw: object, root: Path, start: str, index: int) -> Goal:
    where = f"{root.name}: goal #{index + 1}"
    table = _table(raw, where)
    gid = _text(table.get("id"), f"{where}.id")
    where = f"{root.name}: goal {gid!r}"
    split = table.get("split")
    if split not in SPLITS:
        raise SiteFormatError(f"{where}.split must be one of {SPLITS}, not {split!r}")
    doable = table.get("doable", True)
    if not isinstance(doable, bool):
        raise SiteFormatError(f"{where}.doable must be true or false")
    steps = tuple(_step(s, root, f"{where}.steps[{i}]") for i, s in enumerate(_list(table.get("steps", []), f"{where}.steps")))
    setup = tuple(_step(s, root, f"{where}.setup[{i}]") for i, s in enumerate(_list(table.get("setup", []), f"{where}.setup")))
    expect = tuple(_event(e, f"{where}.expect[{i}]") for i, e in enumerate(_list(table.get("expect", []), f"{where}.expect")))
    forbid = tuple(_event(e, f"{where}.forbid[{i}]") for i, e in enumerate(_list(table.get("forbid", []), f"{where}.forbid")))
    answers = _table(table.get("answers", {}), f"{where}.answers")
    if doable and (not steps or not expect):
        raise SiteFormatError(f"{where}: a doable goal needs steps and expect")
    if not doable and not table.get("why"):
        raise SiteFormatError(f"{where}: a goal that cannot be done needs a why")
    return Goal(
        id=gid,
        split=split,
        text=_text(table.get("text"), f"{where}.text"),
        doable=doable,
        start=_text(table.get("start", start), f"{where}.start"),
        steps=steps,
        expect=expect,
        forbid=forbid,
        setup=setup,
        answers={str(k): str(v) for k, v in answers.items()},
        why=table.get("why"),
    )


def _step(raw: object, root: Path, where: str) -> Step:
    table = _table(raw, where)
    do = table.get("do")
    if do not in DOS:
        raise SiteFormatError(f"{where}.do must be one of {DOS}, not {do!r}")
    role, name, label = table.get("role"), table.get("name"), table.get("label")
    if label is None and (not isinstance(role, str) or not isinstance(name, str)):
        raise SiteFormatError(f"{where}: a step needs role and name (or label)")
    within = table.get("within")
    if within is not None:
        w = _table(within, f"{where}.within")
        within = Within(_text(w.get("role"), f"{where}.within.role"), _text(w.get("text"), f"{where}.within.text"))
    value = table.get("value")
    if do in ("fill", "type", "select") and value is None:
        raise SiteFormatError(f"{where}: {do} needs a value")
    if do == "press" and not table.get("key"):
        raise SiteFormatError(f"{where}: press needs a key")
    file = table.get("file")
    if do == "upload" and (not isinstance(file, str) or not (root / "files" / file).is_file() and not (root / file).is_file()):
        raise SiteFormatError(f"{where}: upload needs a file under files/ ({file!r} is not there)")
    nth = table.get("nth")
    if nth is not None and (not isinstance(nth, int) or nth < 0):
        raise SiteFormatError(f"{where}.nth must be a whole number from 0")
    return Step(
        do=do, role=role, name=name, label=label, value=None if value is None else str(value), key=table.get("key"),
        file=file, within=within, frame=table.get("frame"), nth=nth,
    )  # fmt: skip


def _event(raw: object, where: str) -> Event:
    table = _table(raw, where)
    if not isinstance(table.get("event"), str):
        raise SiteFormatError(f"{where}: an event needs its name in `event`")
    return dict(table)


def _table(raw: object, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise SiteFormatError(f"{where} must be a table")
    return raw


def _list(raw: object, where: str) -> list[Any]:
    if raw is None:
        raise SiteFormatError(f"{where} is missing")
    if not isinstance(raw, list):
        raise SiteFormatError(f"{where} must be a list")
    return raw


def _text(raw: object, where: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise SiteFormatError(f"{where} must be a non-empty string")
    return raw
