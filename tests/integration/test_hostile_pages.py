"""A page built to hurt the parser, against a real ``stepwise serve``: a ``dom`` nested
180 000 levels deep (1.98 MB, under every size limit) is refused with a typed 422 before it is
parsed, and the worker keeps answering ``/healthz`` meanwhile."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.serving import running_server

DEPTH = 180_000  # 1.98 MB: under the 2 MB dom limit


HEAD_TIMEOUT_S = 1.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    with running_server(tmp_path / "stepwise.db", settings={"STEPWISE_HEADER_TIMEOUT_S": str(HEAD_TIMEOUT_S)}) as running:
        yield running


def test_a_page_nested_deeper_than_any_real_one_is_refused_and_never_stalls_the_worker(server: tuple[str, str]) -> None:
    base, key = server
    dom = "<html><body>" + "<div>" * DEPTH + "<button>Save</button>" + "</div>" * DEPTH + "</body></html>"
    answer: dict[str, httpx.Response] = {}

    def post() -> None:
        answer["interact"] = httpx.post(
            f"{base}/api/agent/interact",
            json={"url": "https://app.example/", "query": "Click Save", "dom": dom},
            headers={"Authorization": f"Bearer {key}"},
            timeout=60,
        )

    sender = threading.Thread(target=post)
    sender.start()
    health_ms = []
    while sender.is_alive():
        started = time.monotonic()
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        health_ms.append((time.monotonic() - started) * 1000)
        time.sleep(0.02)
    sender.join()
    response = answer["interact"]
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "INVALID_PAGE" and error["details"] == {"field": "dom"}
    assert "nested" in error["message"] and "1000" in error["message"]
    assert max(health_ms, default=0.0) < 5000  # answered throughout (a stalled loop would time out)


@pytest.mark.parametrize("megabytes", [5, 30])
def test_a_body_over_the_limit_sent_whole_without_waiting_gets_the_413_json(server: tuple[str, str], megabytes: int) -> None:
    # urllib, like a browser's fetch, sends the whole body without "Expect: 100-continue".
    base, key = server
    body = b'{"url": "https://app.example/", "query": "x", "dom": "' + b"a" * (megabytes * 1_000_000) + b'"}'
    request = urllib.request.Request(
        f"{base}/api/agent/interact",
        data=body,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        method="POST",
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 413
    error = json.loads(refused.value.read())["error"]
    assert error["code"] == "PAYLOAD_TOO_LARGE" and error["details"]["limit"] == "max_body_bytes"
    assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_silent_and_slowloris_connections_are_closed_and_others_still_served(server: tuple[str, str]) -> None:
    base, _key = server
    port = int(base.rsplit(":", 1)[1])
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(60)]
    slow = socket.create_connection(("127.0.0.1", port))
    try:
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):  # a header byte at a time, never the blank line that ends the head
            time.sleep(0.3)
            slow.sendall(b"X")
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        assert all(_closed_by_server(s, within=HEAD_TIMEOUT_S + 3) for s in silent)
        assert _closed_by_server(slow, within=HEAD_TIMEOUT_S + 3)
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
    finally:
        for s in [*silent, slow]:
            s.close()


def test_a_request_the_http_parser_refuses_is_answered_in_the_json_error_shape(server: tuple[str, str]) -> None:
    base, _key = server
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n")
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head
    assert json.loads(body)["error"]["code"] == "BAD_REQUEST"
