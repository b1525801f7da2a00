"""Opening several stores on one database, as several app instances would."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from storage import Store


class Backend:
    """Opens initialised stores that share one database; closes them all at the end."""

    def __init__(
        self, name: str, factory: Callable[[], Store], cleanup: Callable[[], Awaitable[None]]
    ) -> None:
        self.name = name
        self._factory = factory
        self._cleanup = cleanup
        self._stores: list[Store] = []

    async def open(self, *, init: bool = True) -> Store:
        store = self._factory()
        self._stores.append(store)
        if init:
            await store.init()
        return store

    async def close(self) -> None:
        for store in self._stores:
            await store.close()
        await self._cleanup()
