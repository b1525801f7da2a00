"""Collections and cursors of the fake MongoDB (see :mod:`storage.testing.fake_mongo`)."""

from __future__ import annotations

import asyncio
import copy
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import mongomock
from pymongo import IndexModel
from pymongo.errors import OperationFailure

from storage.testing.text_search import aggregate_with_text, text_index_from

if TYPE_CHECKING:
    from storage.testing.fake_mongo import FakeAsyncDatabase, FakeClientSession

T = TypeVar("T")
Doc = dict[str, Any]


async def io_point() -> None:
    """Where a real driver would wait for the server: let other tasks run."""
    await asyncio.sleep(0)


class FakeAsyncCommandCursor:
    """Results already computed (what ``aggregate`` returns)."""

    def __init__(self, documents: Sequence[Doc] = ()) -> None:
        self._buffer: deque[Doc] = deque(documents)

    async def _load(self) -> deque[Doc]:
        return self._buffer

    def __aiter__(self) -> FakeAsyncCommandCursor:
        return self

    async def __anext__(self) -> Doc:
        buffer = await self._load()
        if not buffer:
            raise StopAsyncIteration
        return buffer.popleft()

    async def next(self) -> Doc:
        return await self.__anext__()

    async def to_list(self, length: int | None = None) -> list[Doc]:
        buffer = await self._load()
        count = len(buffer) if length is None else min(length, len(buffer))
        return [buffer.popleft() for _ in range(count)]

    async def close(self) -> None:
        self._buffer = deque()


class FakeAsyncCursor(FakeAsyncCommandCursor):
    """A ``find`` cursor: ``sort``/``skip``/``limit`` chain; the query runs on first read."""

    def __init__(self, collection: mongomock.Collection, filter: Any, projection: Any) -> None:
        super().__init__()
        self._loaded = False
        self._collection = collection
        self._filter = filter
        self._projection = projection
        self._sort: Any = None
        self._limit = 0
        self._skip = 0

    def sort(self, key_or_list: Any, direction: int | None = None) -> FakeAsyncCursor:
        self._sort = key_or_list if direction is None else [(key_or_list, direction)]
        return self

    def limit(self, limit: int) -> FakeAsyncCursor:
        self._limit = limit
        return self

    def skip(self, skip: int) -> FakeAsyncCursor:
        self._skip = skip
        return self

    async def _load(self) -> deque[Doc]:
        if not self._loaded:
            self._loaded = True
            await io_point()
            cursor = self._collection.find(self._filter, self._projection)
            if self._sort is not None:
                cursor = cursor.sort(self._sort)
            if self._skip:
                cursor = cursor.skip(self._skip)
            if self._limit:
                cursor = cursor.limit(self._limit)
            self._buffer = deque(cursor)
        return self._buffer


class FakeAsyncCollection:
    """Async wrappers over a mongomock collection; writes in a transaction keep an undo log."""

    def __init__(self, database: FakeAsyncDatabase, sync: mongomock.Collection) -> None:
        self.database = database
        self.sync = sync
        self.name: str = sync.name

    # -- transaction bookkeeping -------------------------------------------------------
    def _before(self, filter: Mapping[str, Any], *, many: bool, sort: Any) -> list[tuple[Any, Doc]]:
        docs = list(self.sync.find(filter)) if many else [self.sync.find_one(filter, sort=sort)]
        return [(d["_id"], copy.deepcopy(d)) for d in docs if d is not None]

    def _ids(self) -> set[Any]:
        return {d["_id"] for d in self.sync.find({}, {"_id": 1})}

    async def _write(
        self,
        session: FakeClientSession | None,
        op: Callable[[], T],
        filter: Mapping[str, Any] | None = None,
        *,
        many: bool = False,
        sort: Any = None,
        inserts: bool = False,
        upsert: bool = False,
    ) -> T:
        await io_point()
        undo = session.undo_log() if session is not None else None
        if undo is None:
            return op()
        before = self._before(filter, many=many, sort=sort) if filter is not None else []
        may_insert = inserts or (upsert and not before)
        ids_before = self._ids() if may_insert else set()
        try:
            return op()
        finally:  # also after a failed op: a partial update_many is undone too
            undo.extend((self.sync, _id, doc) for _id, doc in before)
            if may_insert:
                undo.extend((self.sync, _id, None) for _id in self._ids() - ids_before)

    # -- writes ------------------------------------------------------------------------
    async def insert_one(
        self, document: Doc, *, session: FakeClientSession | None = None, **kw: Any
    ) -> Any:
        op = partial(self.sync.insert_one, document, **kw)
        return await self._write(session, op, inserts=True)

    async def insert_many(
        self,
        documents: Sequence[Doc],
        ordered: bool = True,
        *,
        session: FakeClientSession | None = None,
        **kw: Any,
    ) -> Any:
        docs = list(documents)
        op = partial(self.sync.insert_many, docs, ordered=ordered, **kw)
        return await self._write(session, op, inserts=True)

    async def update_one(
        self,
        filter: Mapping[str, Any],
        update: Any,
        upsert: bool = False,
        *,
        session: FakeClientSession | None = None,
        **kw: Any,
    ) -> Any:
        op = partial(self.sync.update_one, filter, update, upsert=upsert, **kw)
        return await self._write(session, op, filter, upsert=upsert)

    async def update_many(
        self,
        filter: Mapping[str, Any],
        update: Any,
        upsert: bool = False,
        *,
        session: FakeClientSession | None = None,
        **kw: Any,
    ) -> Any:
        op = partial(self.sync.update_many, filter, update, upsert=upsert, **kw)
        return await self._write(session, op, filter, many=True, upsert=upsert)

    async def replace_one(
        self,
        filter: Mapping[str, Any],
        replacement: Doc,
        upsert: bool = False,
        *,
        session: FakeClientSession | None = None,
        **kw: Any,
    ) -> Any:
        op = partial(self.sync.replace_one, filter, replacement, upsert=upsert, **kw)
        return await self._write(session, op, filter, upsert=upsert)

    async def delete_one(
        self, filter: Mapping[str, Any], *, session: FakeClientSession | None = None, **kw: Any
    ) -> Any:
        return await self._write(session, partial(self.sync.delete_one, filter, **kw), filter)

    async def delete_many(
        self, filter: Mapping[str, Any], *, session: FakeClientSession | None = None, **kw: Any
    ) -> Any:
        op = partial(self.sync.delete_many, filter, **kw)
        return await self._write(session, op, filter, many=True)

    async def find_one_and_update(
        self,
        filter: Mapping[str, Any],
        update: Any,
        projection: Any = None,
        sort: Any = None,
        upsert: bool = False,
        *,
        session: FakeClientSession | None = None,
        **kw: Any,
    ) -> Doc | None:
        options = {**kw, "sort": sort, "upsert": upsert}
        op = partial(self.sync.find_one_and_update, filter, update, projection, **options)
        return await self._write(session, op, filter, sort=sort, upsert=upsert)

    # -- reads -------------------------------------------------------------------------
    def find(
        self,
        filter: Any = None,
        projection: Any = None,
        *,
        session: FakeClientSession | None = None,
    ) -> FakeAsyncCursor:
        return FakeAsyncCursor(self.sync, filter, projection)

    async def find_one(
        self,
        filter: Any = None,
        projection: Any = None,
        *,
        sort: Any = None,
        session: FakeClientSession | None = None,
    ) -> Doc | None:
        await io_point()
        return self.sync.find_one(filter, projection, sort=sort)

    async def count_documents(
        self, filter: Mapping[str, Any], *, session: FakeClientSession | None = None, **kw: Any
    ) -> int:
        await io_point()
        return int(self.sync.count_documents(filter, **kw))

    async def aggregate(
        self, pipeline: list[Doc], *, session: FakeClientSession | None = None, **kw: Any
    ) -> FakeAsyncCommandCursor:
        await io_point()
        if pipeline and "$text" in pipeline[0].get("$match", {}):
            index = self.database.client.text_index(self.database.name, self.name)
            return FakeAsyncCommandCursor(aggregate_with_text(self.sync, index, pipeline))
        return FakeAsyncCommandCursor(list(self.sync.aggregate(pipeline)))

    # -- indexes -----------------------------------------------------------------------
    async def create_index(
        self, keys: Any, *, session: FakeClientSession | None = None, **kw: Any
    ) -> str:
        await io_point()
        return self._create(IndexModel(keys, **kw))

    async def create_indexes(
        self, indexes: Sequence[IndexModel], *, session: FakeClientSession | None = None, **kw: Any
    ) -> list[str]:
        await io_point()
        return [self._create(model) for model in indexes]

    def _create(self, model: IndexModel) -> str:
        spec = dict(model.document)
        keys = list(spec.pop("key").items())
        name = spec.pop("name")
        if not any(kind == "text" for _, kind in keys):
            return str(self.sync.create_index(keys, name=name, **spec))
        # mongomock has no text indexes: the client remembers it for $text queries.
        index = text_index_from(name, keys, spec.get("weights"))
        known = self.database.client.text_index(self.database.name, self.name)
        if known is not None and known != index:
            raise OperationFailure(f"a different text index already exists: {name}", code=85)
        self.database.client.set_text_index(self.database.name, self.name, index)
        return name

    async def drop_index(self, name: str, *, session: FakeClientSession | None = None, **kw: Any) -> None:
        await io_point()
        text = self.database.client.text_index(self.database.name, self.name)
        if text is not None and text.name == name:
            self.database.client.set_text_index(self.database.name, self.name, None)
            return
        if name not in self.sync.index_information():
            raise OperationFailure(f"index not found with name [{name}]", code=27)
        self.sync.drop_index(name)

    async def index_information(self, *, session: FakeClientSession | None = None) -> Doc:
        await io_point()
        info = {name: {**spec, "key": list(spec["key"])} for name, spec in self._sync_indexes()}
        text = self.database.client.text_index(self.database.name, self.name)
        if text is not None:  # shaped like the server's answer
            keys = [(f, 1) for f in text.prefix] + [("_fts", "text"), ("_ftsx", 1)]
            info[text.name] = {"key": keys, "weights": dict(text.weights)}
        return info

    def _sync_indexes(self) -> list[tuple[str, Doc]]:
        return list(self.sync.index_information().items())

    async def drop(self, *, session: FakeClientSession | None = None) -> None:
        await io_point()
        self.database.client.set_text_index(self.database.name, self.name, None)
        self.sync.drop()
