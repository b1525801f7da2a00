"""An in-process fake of the part of ``pymongo.AsyncMongoClient`` that ``MongoStore`` uses.

Built on mongomock (synchronous, in memory). Every operation is a coroutine that first
yields to the event loop, as a network round trip would, so concurrent requests interleave
the way they do against a server. What it covers:

- ``client[db]`` / ``get_database``, ``db[coll]`` / ``get_collection``, ``admin.command("ping")``;
- CRUD, ``find_one_and_update`` (``sort``, ``upsert``, ``return_document``),
  ``count_documents``, ``aggregate`` (plus ``$text``: :mod:`storage.testing.text_search`);
- cursors with ``sort``/``skip``/``limit``, ``async for`` and ``to_list``;
- ``create_index``/``create_indexes``; unique and TTL options are honoured by mongomock
  (TTL deletes on read, where the server's monitor deletes within a minute);
- sessions with real atomicity: a transaction holds the client's transaction lock, so
  transactions run one at a time, and keeps an undo log of before-images that abort (or an
  exception inside ``with_transaction``) restores.

Not covered: isolation (a transaction's writes are visible to other readers before it
commits), transient-error retries, change streams. ``MongoStore`` runs unchanged on it::

    store = MongoStore(FakeAsyncMongoClient(), "stepwise")
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar

import mongomock
from pymongo.errors import InvalidOperation

from storage.testing.fake_collection import FakeAsyncCollection, io_point
from storage.testing.text_search import TextIndex

T = TypeVar("T")
#: (collection, _id, document before the write or None when the write created it)
UndoLog = list[tuple[mongomock.Collection, Any, "dict[str, Any] | None"]]


class FakeAsyncDatabase:
    def __init__(self, client: FakeAsyncMongoClient, sync: mongomock.Database) -> None:
        self.client = client
        self.sync = sync
        self.name: str = sync.name

    def get_collection(self, name: str, **options: Any) -> FakeAsyncCollection:
        return FakeAsyncCollection(self, self.sync[name])

    def __getitem__(self, name: str) -> FakeAsyncCollection:
        return self.get_collection(name)

    async def command(self, command: str | Mapping[str, Any], **kw: Any) -> dict[str, Any]:
        await io_point()
        name = command if isinstance(command, str) else next(iter(command))
        if name == "ping":
            return {"ok": 1.0}
        if name == "hello":  # a one-member replica set
            return {"ok": 1.0, "isWritablePrimary": True, "setName": "fake"}
        raise NotImplementedError(f"fake MongoDB has no command {name!r}")

    async def list_collection_names(self, **kw: Any) -> list[str]:
        await io_point()
        return list(self.sync.list_collection_names())

    async def drop_collection(self, name: str, **kw: Any) -> None:
        await self[name].drop()


class _TransactionContext:
    def __init__(self, session: FakeClientSession) -> None:
        self._session = session

    async def __aenter__(self) -> _TransactionContext:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._session.in_transaction:
            if exc is None:
                await self._session.commit_transaction()
            else:
                await self._session.abort_transaction()


class FakeClientSession:
    def __init__(self, client: FakeAsyncMongoClient) -> None:
        self.client = client
        self._undo: UndoLog | None = None
        self._lock: asyncio.Lock | None = None
        self.has_ended = False

    async def __aenter__(self) -> FakeClientSession:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.end_session()

    @property
    def in_transaction(self) -> bool:
        return self._undo is not None

    def undo_log(self) -> UndoLog | None:
        """Where writes made in this session's transaction record what they replaced."""
        return self._undo

    async def start_transaction(self, *args: Any, **kwargs: Any) -> _TransactionContext:
        if self.has_ended:
            raise InvalidOperation("Cannot use ended session")
        if self.in_transaction:
            raise InvalidOperation("Transaction already in progress")
        lock = self.client.transaction_lock()
        await lock.acquire()
        self._lock, self._undo = lock, []
        return _TransactionContext(self)

    async def commit_transaction(self) -> None:
        if not self.in_transaction:
            raise InvalidOperation("No transaction started")
        self._finish()

    async def abort_transaction(self) -> None:
        if not self.in_transaction:
            raise InvalidOperation("No transaction started")
        for collection, _id, before in reversed(self._undo or []):
            if before is None:
                collection.delete_one({"_id": _id})
            else:
                collection.replace_one({"_id": _id}, before, upsert=True)
        self._finish()

    def _finish(self) -> None:
        self._undo = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    async def with_transaction(
        self, callback: Callable[[FakeClientSession], Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T:
        await self.start_transaction()
        try:
            result = await callback(self)
        except BaseException:
            if self.in_transaction:
                await self.abort_transaction()
            raise
        if self.in_transaction:
            await self.commit_transaction()
        return result

    async def end_session(self) -> None:
        if self.in_transaction:
            await self.abort_transaction()
        self.has_ended = True


class FakeAsyncMongoClient:
    """Stands in for ``pymongo.AsyncMongoClient``; the data lives as long as the object."""

    def __init__(self, sync: mongomock.MongoClient | None = None) -> None:
        self.sync = sync if sync is not None else mongomock.MongoClient()
        self._text_indexes: dict[tuple[str, str], TextIndex] = {}
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    def get_database(self, name: str, **options: Any) -> FakeAsyncDatabase:
        return FakeAsyncDatabase(self, self.sync[name])

    def __getitem__(self, name: str) -> FakeAsyncDatabase:
        return self.get_database(name)

    @property
    def admin(self) -> FakeAsyncDatabase:
        return self.get_database("admin")

    def start_session(self, **options: Any) -> FakeClientSession:
        return FakeClientSession(self)

    async def drop_database(self, name: str) -> None:
        await io_point()
        self._text_indexes = {k: v for k, v in self._text_indexes.items() if k[0] != name}
        self.sync.drop_database(name)

    async def close(self) -> None:
        return None

    # -- used by the fake's collections and sessions -----------------------------------
    def transaction_lock(self) -> asyncio.Lock:
        """One lock per event loop (tests may run each in a fresh loop)."""
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    def text_index(self, db: str, collection: str) -> TextIndex | None:
        return self._text_indexes.get((db, collection))

    def set_text_index(self, db: str, collection: str, index: TextIndex | None) -> None:
        if index is None:
            self._text_indexes.pop((db, collection), None)
        else:
            self._text_indexes[(db, collection)] = index
