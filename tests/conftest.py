"""Suite-wide guards.

No test may reach a real model, a real search API or the internet: every outbound
connection must go to loopback (fake servers on 127.0.0.1), and every provider key is
removed from the environment so nothing switches on by accident.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator

import pytest
from hypothesis import settings

# Property tests judge what the code does, never how fast it is on a loaded CI machine (speed
# belongs to bench/): no per-example deadline.
settings.register_profile("stepwise", deadline=None)
settings.load_profile("stepwise")

_PROVIDER_ENV = (
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "TAVILY_API_KEY",
    "LANGFUSE_PUBLIC_KEY",
    "LANGFUSE_SECRET_KEY",
    "LANGFUSE_HOST",
    "LANGFUSE_BASE_URL",
    "SENTRY_DSN",
)
for _name in _PROVIDER_ENV:
    os.environ.pop(_name, None)
if not os.environ.get("STEPWISE_TEST_KEEP_MONGODB_URI"):
    # A real MongoDB is used only by the tests marked mongo_real, which read
    # STEPWISE_TEST_MONGODB_URI themselves; the app under test never picks it up.
    _real_mongo = os.environ.pop("MONGODB_URI", None)
    if _real_mongo and "STEPWISE_TEST_MONGODB_URI" not in os.environ:
        os.environ["STEPWISE_TEST_MONGODB_URI"] = _real_mongo


class ExternalNetworkBlocked(RuntimeError):
    """A test tried to reach something other than this machine."""


_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def _is_local_host(host: object) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return False
    if host in _LOCAL_NAMES or host == "":
        return True
    try:
        addr = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


def _check_address(address: object) -> None:
    if isinstance(address, tuple) and address:
        if not _is_local_host(address[0]):
            raise ExternalNetworkBlocked(f"test tried to connect to {address!r}")
    # AF_UNIX paths (str/bytes) are local by definition.


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guarded_connect(self: socket.socket, address: object) -> None:
    _check_address(address)
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    _check_address(address)
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host: object, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
    if not _is_local_host(host):
        raise ExternalNetworkBlocked(f"test tried to resolve {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _guarded_getaddrinfo  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def _no_provider_keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in _PROVIDER_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("MONGODB_URI", raising=False)
    yield
