"""taskId persistence per tab (spec § "taskId Persistence"): the client's chrome.storage.local.

One JSON file maps a tab key to ``{taskId, sessionId, url, timestamp}`` (timestamp in epoch
milliseconds, like ``Date.now()``). An entry older than 30 minutes is not returned. Writes are
atomic (temporary file + rename) under an advisory lock, so a crash never leaves half a file
and two processes sharing the file do not lose each other's tabs.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

DEFAULT_STATE_FILE: Final[Path] = Path("~/.stepwise/client-state.json")
EXPIRY_MS: Final[int] = 30 * 60 * 1000


@dataclass(frozen=True)
class StoredTask:
    task_id: str
    session_id: str | None
    url: str
    timestamp: int

    def to_json(self) -> dict[str, Any]:
        return {"taskId": self.task_id, "sessionId": self.session_id, "url": self.url, "timestamp": self.timestamp}


def _now_ms() -> int:
    return int(time.time() * 1000)


class TaskStateStore:
    """The state file. ``path=None`` means ``~/.stepwise/client-state.json``."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, expiry_ms: int = EXPIRY_MS) -> None:
        self.path = Path(path).expanduser() if path is not None else DEFAULT_STATE_FILE.expanduser()
        self.expiry_ms = expiry_ms

    def get(self, tab_key: str) -> StoredTask | None:
        """The tab's task, or None when there is none, it expired, or the file is unreadable."""
        entry = self._read().get(_key(tab_key))
        if not isinstance(entry, dict) or not isinstance(entry.get("taskId"), str):
            return None
        timestamp = entry.get("timestamp")
        if not isinstance(timestamp, (int, float)) or _now_ms() - timestamp >= self.expiry_ms:
            return None
        session = entry.get("sessionId")
        return StoredTask(entry["taskId"], session if isinstance(session, str) else None, str(entry.get("url") or ""), int(timestamp))

    def put(self, tab_key: str, *, task_id: str, session_id: str | None, url: str) -> StoredTask:
        stored = StoredTask(task_id, session_id, url, _now_ms())
        with self._locked():
            data = self._read()
            data[_key(tab_key)] = stored.to_json()
            self._write(data)
        return stored

    def clear(self, tab_key: str) -> None:
        with self._locked():
            data = self._read()
            if data.pop(_key(tab_key), None) is not None:
                self._write(data)

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            return {}  # a damaged file is treated as empty: recovery goes through the server
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = self.path.with_name(self.path.name + ".lock")
        with open(lock_path, "a+") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _key(tab_key: str) -> str:
    return f"task_{tab_key}"
