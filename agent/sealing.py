"""A task's secret values at rest: sealed with the server key (Fernet: AES-128-CBC +
HMAC-SHA256), never stored in plain text.

The key is ``STEPWISE_SECRET_KEY`` (a Fernet key: 32 url-safe base64-encoded bytes; to
rotate, give ``new,old``: values are sealed with the first and opened with any). Unset
on the embedded store, one is generated at first start and kept in a file beside the SQLite
database (mode 0600); on MongoDB without a key the server refuses to start
(docs/decisions.md, "Where the secret key lives"). A sealed value that the key cannot open
(the key was lost or rotated) fails the task with ``SECRETS_UNREADABLE``, never a crash.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

KEY_FILE_SUFFIX = ".secret-key"


class SecretKeyError(ValueError):
    """The configured key cannot be used (not a Fernet key, unreadable key file)."""


class SecretsUnreadable(Exception):
    """A sealed value this server's key cannot open."""


class Sealer:
    """Seals and opens a task's secret values with one server key."""

    def __init__(self, key: str | bytes) -> None:
        keys = key.split(",") if isinstance(key, str) else [key]
        try:
            self._fernet = MultiFernet([Fernet(k.strip()) for k in keys])
        except (ValueError, TypeError) as exc:
            raise SecretKeyError(
                "STEPWISE_SECRET_KEY is not a Fernet key (32 url-safe base64-encoded bytes); make one with "
                "`python -c 'from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())'`"
            ) from exc

    @classmethod
    def ephemeral(cls) -> Sealer:
        """A key that lives as long as the process (an in-memory database, tests)."""
        return cls(Fernet.generate_key())

    def seal(self, values: list[str]) -> str:
        return self._fernet.encrypt(json.dumps({"values": values}).encode()).decode()

    def open(self, token: str) -> list[str]:
        try:
            data = json.loads(self._fernet.decrypt(token.encode()))
        except (InvalidToken, ValueError) as exc:
            raise SecretsUnreadable("the task's secrets were sealed with another key") from exc
        values = data.get("values") if isinstance(data, dict) else None
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise SecretsUnreadable("the task's sealed secrets are malformed")
        return values


def key_file_for(database_path: str) -> Path:
    """Where the generated key of an SQLite database lives: beside it."""
    return Path(database_path).with_name(Path(database_path).name + KEY_FILE_SUFFIX)


def load_or_create_key(path: Path) -> str:
    """The key kept in ``path``; made (mode 0600, never overwritten) when the file is absent.
    Workers starting together agree: the file appears whole (written aside, then linked),
    and whoever links second reads the winner's key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        aside = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(Fernet.generate_key() + b"\n")
        try:
            os.link(aside, path)
        except FileExistsError:
            pass
        finally:
            aside.unlink(missing_ok=True)
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretKeyError(f"cannot read the secret key file {str(path)!r}: {exc}") from exc
