"""The gym's tables (one per site, then the totals; tune and held-out halves apart) and a
chart of the totals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.gym.run import Outcome

HEADER = ("| model | half | success (doable) | false completions | did more than asked | missed completions "
          "| honest declines (undoable) | harm | median round trips | model calls / goal | median s |")


def _row(model: str, half: str, part: Sequence[Outcome]) -> str:
    doable = [o for o in part if o.doable]
    undoable = [o for o in part if not o.doable]
    count = lambda verdict: sum(o.verdict == verdict for o in part)  # noqa: E731
    calls = sum(o.model_calls for o in part) / len(part) if part else 0.0
    success = f"{count('success')}/{len(doable)}" + (f" ({100 * count('success') / len(doable):.0f} %)" if doable else "")
    return (f"| {model} | {half} | {success} | {count('false_completion')} | {count('overdone')} | {count('missed_completion')} "
            f"| {count('honest_decline')}/{len(undoable)} | {count('harm')} "
            f"| {median([o.round_trips for o in part]) if part else 0:g} | {calls:.1f} "
            f"| {median([o.seconds for o in part]) if part else 0:.1f} |")


def _table(outcomes: Sequence[Outcome]) -> list[str]:
    lines = [HEADER, "|" + "---|" * 11]
    for model in dict.fromkeys(o.model for o in outcomes):
        mine = [o for o in outcomes if o.model == model]
        for half in ("tune", "heldout"):
            part = [o for o in mine if o.split == half]
            if part:
                lines.append(_row(model, half, part))
    return lines


def tables(outcomes: Sequence[Outcome]) -> str:
    lines: list[str] = []
    for site in dict.fromkeys(o.site for o in outcomes):
        lines += [f"### {site}", "", *_table([o for o in outcomes if o.site == site]), ""]
    lines += ["### all sites", "", *_table(outcomes), ""]
    bad = [o for o in outcomes if o.verdict in ("false_completion", "overdone", "harm", "broken")]
    if bad:
        lines += ["### false completions, runs that did more than asked, harm and broken runs", ""]
        lines += [f"- {o.model} {o.site}/{o.goal} [{o.split}]: {o.verdict} ({o.status}); logged {o.logged!r}" for o in bad]
    return "\n".join(lines)


def chart(outcomes: Iterable[Outcome], path: Path) -> None:
    """Bars of success (doable goals) and false completions per model, tune and held-out apart."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(outcomes)
    models = list(dict.fromkeys(o.model for o in rows))
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.2
    for offset, (half, label) in enumerate((("tune", "tune"), ("heldout", "held-out"))):
        rates, falses = [], []
        for model in models:
            part = [o for o in rows if o.model == model and o.split == half]
            doable = [o for o in part if o.doable]
            rates.append(100 * sum(o.verdict == "success" for o in doable) / len(doable) if doable else 0)
            falses.append(sum(o.verdict == "false_completion" for o in part))
        xs = [i + (offset - 0.5) * width * 2 for i in range(len(models))]
        bars = ax.bar(xs, rates, width * 2, label=f"success, {label}")
        for bar, false in zip(bars, falses, strict=True):
            if false:
                ax.annotate(f"{false} false", (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom", color="red", fontsize=8)
    ax.set_xticks(range(len(models)), models)
    ax.set_ylabel("doable goals completed and proven (%)")
    ax.set_ylim(0, 105)
    ax.set_title("The gym: every site, by model (red: false completions)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
