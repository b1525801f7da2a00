"""Both stores have exactly the shape of the protocols in ``storage.base``."""

from __future__ import annotations

import inspect
import typing

import pytest

from storage import MongoStore, SqliteStore, Store
from storage.testing import FakeAsyncMongoClient


def _public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    }


def _shape(signature: inspect.Signature) -> list[tuple[str, object, object, object]]:
    """Names, kinds, defaults and annotations (text: every module uses future annotations)."""
    params = [(p.name, p.kind, p.default, p.annotation) for p in signature.parameters.values()]
    return [*params, ("return", None, None, signature.return_annotation)]


@pytest.fixture(params=["sqlite", "mongodb"])
def store(request: pytest.FixtureRequest) -> Store:
    if request.param == "sqlite":
        return SqliteStore.from_url("sqlite://")
    return MongoStore(FakeAsyncMongoClient(), "x")


def test_store_matches_the_protocol(store: Store) -> None:
    hints = typing.get_type_hints(Store)
    assert store.backend in ("sqlite", "mongodb")
    for name, protocol in hints.items():
        if name == "backend":
            continue
        repository = getattr(store, name)
        expected = _public_methods(protocol)
        actual = _public_methods(type(repository))
        assert set(actual) >= set(expected), (name, set(expected) - set(actual))
        for method, signature in expected.items():
            # inspect.signature follows functools.wraps to the undecorated method
            assert _shape(actual[method]) == _shape(signature), (name, method)
            assert inspect.iscoroutinefunction(getattr(type(repository), method)), (name, method)
    for method, signature in _public_methods(Store).items():
        assert _shape(inspect.signature(getattr(type(store), method))) == _shape(signature), method
