"""Hybrid vision bench: the mode router on labelled goals (tune and held-out), the cost of
reading a screenshot (decode, hash, scale) and the perceptual-hash de-duplication on a
simulated run of captures.

    python -m bench.vision [--out bench/results/vision] [--repeat 20]

Speed is measured here, never asserted in tests."""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from agent.vision import ModeFacts, VisionContext, VisionState, choose_mode, plan_call, read_screenshot
from agent.vision.mode import ModeDecision
from bench.vision_goals import HELD_OUT, TUNE
from tests.support.images import b64, other_layout, screenshot


def router(goals: Sequence[tuple[str, bool]]) -> dict[str, Any]:
    tp = fp = fn = tn = 0
    misses: list[str] = []
    for goal, visual in goals:
        hybrid = choose_mode(ModeFacts(goal=goal)).hybrid
        tp += hybrid and visual
        fp += hybrid and not visual
        fn += (not hybrid) and visual
        tn += (not hybrid) and not visual
        if hybrid != visual:
            misses.append(f"{'missed' if visual else 'false hybrid'}: {goal}")
    return {
        "goals": len(goals), "visual": tp + fn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        "accuracy": round((tp + tn) / len(goals), 3),
        "misses": misses,
    }  # fmt: skip


def busy_page(width: int, height: int, fmt: str) -> bytes:
    """A page-like capture with lines of text and many small boxes (fixed seed): compresses
    like a real screenshot, unlike the flat test images."""
    rng = random.Random(7)
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, height // 12), fill=(40, 60, 90))
    for y in range(height // 10, height - 20, 22):
        x = 30
        while x < width - 200:
            word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
            draw.text((x, y), word, fill=(rng.randint(0, 80),) * 3)
            x += 8 * len(word) + 10
        if rng.random() < 0.2:
            draw.rectangle((width - 180, y, width - 40, y + 18), fill=(rng.randint(0, 255), 120, 200))
    out = io.BytesIO()
    image.save(out, format=fmt, **({"quality": 85} if fmt == "JPEG" else {}))
    return out.getvalue()


def reading(repeat: int) -> list[dict[str, Any]]:
    rows = []
    for label, width, height, fmt in (("1024x640 JPEG", 1024, 640, "JPEG"), ("1920x1080 PNG", 1920, 1080, "PNG"), ("2560x1440 PNG", 2560, 1440, "PNG")):
        data = b64(busy_page(width, height, fmt))
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            shot = read_screenshot(data)
            times.append((time.perf_counter() - started) * 1000)
        rows.append({
            "image": label, "received_bytes": shot.received_bytes, "sent_bytes": len(shot.data), "sent_size": f"{shot.width}x{shot.height}",
            "median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2), "runs": repeat,
        })  # fmt: skip
    return rows


def dedup() -> dict[str, Any]:
    """A task of 12 captures: 3 distinct screens, each captured 4 times with small capture
    noise (re-encoding, brightness), in the order a task would see them."""
    screens = [
        lambda noise, fmt: screenshot(noise=noise, fmt=fmt),
        lambda noise, fmt: other_layout(noise=noise, fmt=fmt),
        lambda noise, fmt: screenshot(boxes=((40, 400, 600, 600),), noise=noise, fmt=fmt),
    ]
    state = VisionState()
    decision = ModeDecision("hybrid", ("visual_terms",))
    sent = skipped = 0
    wrong = 0  # a new screen not sent, or a repeat sent again
    step = 0
    for index, make in enumerate(screens):
        for capture in range(4):
            shot = read_screenshot(b64(make(capture * 2, "PNG" if capture % 2 else "JPEG")))
            call = plan_call(decision, VisionContext(allowed=True, screenshot=shot), state, step=step, max_asks=2)
            sent += len(call.images)
            skipped += call.note is not None
            wrong += (capture == 0) != bool(call.images)
            state = call.state
            step += 1
    return {"captures": step, "distinct_screens": len(screens), "sent": sent, "skipped": skipped, "wrong_decisions": wrong}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench/results/vision"))
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    report = {"router": {"tune": router(TUNE), "held_out": router(HELD_OUT)}, "reading": reading(args.repeat), "dedup": dedup()}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
