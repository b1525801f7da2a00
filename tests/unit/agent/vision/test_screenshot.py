"""Reading a client screenshot: formats, scaling, perceptual hash, refusals."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from agent.vision import ScreenshotInvalid, read_screenshot, same_screen
from tests.support.images import b64, other_layout, screenshot


@pytest.mark.parametrize(("fmt", "mime"), [("JPEG", "image/jpeg"), ("PNG", "image/png"), ("WEBP", "image/webp")])
def test_a_small_image_is_kept_as_it_came(fmt: str, mime: str) -> None:
    data = screenshot(800, 500, fmt=fmt)
    shot = read_screenshot(b64(data))
    assert (shot.data, shot.mime_type, shot.width, shot.height, shot.scaled) == (data, mime, 800, 500, False)
    assert len(shot.phash) == 16


def test_a_data_url_prefix_is_allowed() -> None:
    data = screenshot(fmt="PNG")
    assert read_screenshot("data:image/png;base64," + b64(data)).data == data


def test_a_wide_image_is_scaled_to_a_1024_pixel_jpeg_keeping_its_hash() -> None:
    wide = read_screenshot(b64(screenshot(2048, 1280, boxes=((80, 240, 480, 340), (1800, 40, 1960, 140)), fmt="PNG")))
    small = read_screenshot(b64(screenshot(1024, 640, boxes=((40, 120, 240, 170), (900, 20, 980, 70)))))
    assert wide.scaled and wide.mime_type == "image/jpeg" and (wide.width, wide.height) == (1024, 640)
    assert Image.open(io.BytesIO(wide.data)).size == (1024, 640)
    assert same_screen(wide.phash, small.phash), "the same layout at another size is the same screen"


def test_the_same_screen_captured_twice_matches_and_another_does_not() -> None:
    first = read_screenshot(b64(screenshot()))
    again = read_screenshot(b64(screenshot(fmt="PNG", noise=3)))
    other = read_screenshot(b64(other_layout()))
    assert same_screen(first.phash, again.phash)
    assert not same_screen(first.phash, other.phash)
    assert not same_screen(first.phash, None) and not same_screen(None, None)
    assert not same_screen(first.phash, "not-a-hash") and not same_screen(first.phash, "abc")


@pytest.mark.parametrize(
    "junk",
    ["***", b64(b"GIF89a\x01\x00\x01\x00"), b64(b"<svg xmlns='http://www.w3.org/2000/svg'/>"), b64(b"\x89PNG\r\n\x1a\n broken")],
)
def test_what_is_not_a_jpeg_png_or_webp_is_refused(junk: str) -> None:
    with pytest.raises(ScreenshotInvalid):
        read_screenshot(junk)


def test_a_gif_is_refused_by_its_format() -> None:
    out = io.BytesIO()
    Image.new("RGB", (10, 10)).save(out, format="GIF")
    with pytest.raises(ScreenshotInvalid, match="JPEG, PNG or WebP"):
        read_screenshot(b64(out.getvalue()))


def test_a_decompression_bomb_is_refused_before_it_is_decoded() -> None:
    out = io.BytesIO()
    Image.new("1", (10_000, 10_000)).save(out, format="PNG")  # 100 Mpx, a few KB
    with pytest.raises(ScreenshotInvalid):
        read_screenshot(b64(out.getvalue()))
