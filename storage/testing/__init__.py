"""Test helpers that other packages' tests may import (needs the ``test`` extra: mongomock)."""

from storage.testing.fake_mongo import FakeAsyncMongoClient

__all__ = ["FakeAsyncMongoClient"]
