"""``stepwise`` command line: serve, database set-up, API keys."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from app.auth import issue_key
from app.settings import Settings, get_settings
from cost.cli import add_usage_arguments, usage_command
from storage import Store, hash_api_key, open_store

DEV_KEY_FILE = Path("data/dev-api-key")


def _store(settings: Settings) -> Store:
    return open_store(settings.database_url, settings.mongodb_uri, mongo_db_name=settings.mongodb_db)


async def _db_init(settings: Settings) -> str:
    store = _store(settings)
    try:
        await store.init()
        return store.backend
    finally:
        await store.close()


async def _keys_create(settings: Settings, tenant: str, user: str, name: str) -> str:
    store = _store(settings)
    try:
        await store.init()
        issued = await issue_key(store, tenant, user, name)
        return issued.secret
    finally:
        await store.close()


async def _keys_dev(settings: Settings) -> str:
    """A development key for tenant ``dev``, kept in data/dev-api-key and reused while it is valid."""
    store = _store(settings)
    try:
        await store.init()
        if DEV_KEY_FILE.exists():
            secret = DEV_KEY_FILE.read_text().strip()
            existing = await store.api_keys.get_by_hash(hash_api_key(secret))
            if existing is not None and existing.revoked_at is None:
                return secret
        issued = await issue_key(store, "dev", "dev", "development key")
        DEV_KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
        DEV_KEY_FILE.write_text(issued.secret + "\n")
        os.chmod(DEV_KEY_FILE, 0o600)
        return issued.secret
    finally:
        await store.close()


def _serve(host: str, port: int, reload: bool) -> None:
    import uvicorn

    uvicorn.run("app.main:create_app", factory=True, host=host, port=port, reload=reload, log_level="warning")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stepwise", description="Stepwise: backend for browser agents")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--reload", action="store_true", help="restart on code changes (development)")

    db = sub.add_parser("db", help="database set-up")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("init", help="create tables/collections and indexes")

    keys = sub.add_parser("keys", help="API keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    create = keys_sub.add_parser("create", help="create a key (printed once; only its hash is stored)")
    create.add_argument("--tenant", required=True)
    create.add_argument("--user", required=True)
    create.add_argument("--name", default="")
    keys_sub.add_parser("dev", help="print the development key (created on first use)")

    usage = sub.add_parser("usage", help="model usage and cost of a tenant, from the billing rows")
    add_usage_arguments(usage)

    args = parser.parse_args(argv)
    settings = get_settings()

    if args.command == "serve":
        print(f"Stepwise on http://{args.host}:{args.port}  (API docs: http://{args.host}:{args.port}/docs)", file=sys.stderr)
        _serve(args.host, args.port, args.reload)
        return 0
    if args.command == "db":
        backend = asyncio.run(_db_init(settings))
        print(f"database ready ({backend})")
        return 0
    if args.command == "keys" and args.keys_command == "create":
        if not args.tenant.strip() or not args.user.strip():
            parser.error("--tenant and --user must not be empty")
        secret = asyncio.run(_keys_create(settings, args.tenant, args.user, args.name))
        print(secret)
        print("Store this key now: it is not shown again.", file=sys.stderr)
        return 0
    if args.command == "keys" and args.keys_command == "dev":
        secret = asyncio.run(_keys_dev(settings))
        print(f"Development API key (tenant 'dev'): {secret}")
        print(f'Try: curl -H "Authorization: Bearer {secret}" http://127.0.0.1:8000/readyz')
        return 0
    if args.command == "usage":
        return usage_command(args, store=_store(settings))
    parser.error("unknown command")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
