"""``stepwise`` command line: serve, database set-up, API keys, knowledge base."""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# Everything else is imported where a command needs it: `stepwise --help` starts in a
# fraction of a second instead of loading the web stack, the SDKs and the store.
if TYPE_CHECKING:
    from app.settings import Settings
    from storage import ApiKey, Store

DEV_KEY_FILE = Path("data/dev-api-key")


def _version() -> str:
    try:
        return importlib.metadata.version("stepwise")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _store(settings: Settings) -> Store:
    from storage import open_store

    return open_store(settings.database_url, settings.mongodb_uri, mongo_db_name=settings.mongodb_db)


async def _db_init(settings: Settings) -> str:
    store = _store(settings)
    try:
        await store.init()
        return store.backend
    finally:
        await store.close()


async def _keys_create(settings: Settings, tenant: str, user: str, name: str) -> str:
    from app.auth import issue_key

    store = _store(settings)
    try:
        await store.init()
        issued = await issue_key(store, tenant, user, name)
        return issued.secret
    finally:
        await store.close()


async def _keys_list(settings: Settings, tenant: str) -> list[ApiKey]:
    store = _store(settings)
    try:
        await store.init()
        return await store.api_keys.list(tenant)
    finally:
        await store.close()


async def _keys_revoke(settings: Settings, tenant: str, key_id: str) -> bool:
    from storage import utcnow

    store = _store(settings)
    try:
        await store.init()
        return await store.api_keys.revoke(tenant, key_id, utcnow())
    finally:
        await store.close()


def _print_keys(keys: list[ApiKey]) -> None:
    if not keys:
        print("no keys")
        return
    print(f"{'id':<34} {'prefix':<14} {'user':<16} {'created':<20} {'revoked':<20} name")
    for key in keys:
        revoked = key.revoked_at.strftime("%Y-%m-%d %H:%M") if key.revoked_at else "-"
        created = key.created_at.strftime("%Y-%m-%d %H:%M")
        print(f"{key.id:<34} {key.prefix + '…':<14} {key.user_id:<16} {created:<20} {revoked:<20} {key.name}")


async def _keys_dev(settings: Settings) -> str:
    """A development key for tenant ``dev``, kept in data/dev-api-key and reused while it is valid."""
    from app.auth import issue_key
    from storage import hash_api_key

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


def _serve(settings: Settings, host: str, port: int, reload: bool, workers: int) -> int:
    from app.serving import ServeError, ServeOptions, serve

    options = ServeOptions(
        host=host,
        port=port,
        header_timeout_s=settings.header_timeout_s,
        keep_alive_s=settings.keep_alive_s,
        max_connections=settings.max_connections,
    )
    try:
        return serve(options, workers=workers, reload=reload)
    except ServeError as exc:
        print(f"stepwise serve: {exc}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stepwise", description="Stepwise: backend for browser agents")
    parser.add_argument("--version", action="version", version=f"stepwise {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="start the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--reload", action="store_true", help="restart on code changes (development)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes (they share the database)")

    db = sub.add_parser("db", help="database set-up")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("init", help="create tables/collections and indexes")

    keys = sub.add_parser("keys", help="API keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    create = keys_sub.add_parser("create", help="create a key (printed once; only its hash is stored)")
    create.add_argument("--tenant", required=True)
    create.add_argument("--user", required=True)
    create.add_argument("--name", default="")
    dev = keys_sub.add_parser("dev", help="print the development key (created on first use)")
    dev.add_argument("--server", default="http://127.0.0.1:8000", help="the server's address, for the hint printed")
    listing = keys_sub.add_parser("list", help="a tenant's keys: id, prefix, user, created, revoked (never the secret)")
    listing.add_argument("--tenant", required=True)
    revoke = keys_sub.add_parser("revoke", help="revoke a key by its id (from `keys list`); it stops working at once")
    revoke.add_argument("--tenant", required=True)
    revoke.add_argument("key_id")

    usage = sub.add_parser("usage", help="model usage and cost of a tenant, from the billing rows")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["usage"]:
        from cost.cli import add_usage_arguments

        add_usage_arguments(usage)

    run = sub.add_parser("run", help="run a goal in a real headless Chromium through Stepwise")
    run.add_argument("goal", help='the goal, e.g. "Add a new patient named Jas"')
    run.add_argument("--url", required=True, help="page to start on")
    run.add_argument("--server", help="Stepwise base URL (default: start a local one on the embedded defaults)")
    run.add_argument("--api-key", help="API key for --server (default: $STEPWISE_API_KEY)")
    run.add_argument("--headed", action="store_true", help="show the browser window (needs a display)")
    run.add_argument("--max-steps", type=int, default=30)

    sub.add_parser("demo", help="run the bundled clinic demo end to end")

    ingest = sub.add_parser("ingest", help="add files (HTML, PDF, DOCX, MD, TXT, JSON, CSV) or a URL to a tenant's knowledge base")
    crawl = sub.add_parser("crawl", help="crawl a site into a tenant's knowledge base (robots.txt obeyed), with a progress bar")
    if argv[:1] in (["ingest"], ["crawl"]):
        from app.knowledge_cli import add_crawl_arguments, add_ingest_arguments

        add_ingest_arguments(ingest)
        add_crawl_arguments(crawl)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document as stable JSON (the extension's types come from it)")
    openapi.add_argument("--out", help="write it to this file instead (e.g. extension/openapi.json)")

    bench = sub.add_parser("bench", help="benchmarks")
    bench_sub = bench.add_subparsers(dest="bench_command", required=True)
    bench_sub.add_parser("miniwob", help="MiniWoB++ task success (options: see --help)", add_help=False)

    if argv[:2] == ["bench", "miniwob"]:
        from bench.miniwob.run import main as miniwob_main

        return miniwob_main(argv[2:])
    args = parser.parse_args(argv)
    if args.command == "openapi":
        from app.openapi_export import write_openapi

        text = write_openapi(Path(args.out) if args.out else None)
        if not args.out:
            sys.stdout.write(text)
        return 0
    from app.settings import get_settings

    settings = get_settings()

    if args.command == "serve":
        print(f"Stepwise on http://{args.host}:{args.port}  (API docs: http://{args.host}:{args.port}/docs)", file=sys.stderr)
        if args.workers < 1:
            parser.error("--workers must be at least 1")
        return _serve(settings, args.host, args.port, args.reload, args.workers)
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
    if args.command == "keys" and args.keys_command == "list":
        _print_keys(asyncio.run(_keys_list(settings, args.tenant)))
        return 0
    if args.command == "keys" and args.keys_command == "revoke":
        if asyncio.run(_keys_revoke(settings, args.tenant, args.key_id)):
            print(f"revoked {args.key_id}")
            return 0
        print(f"stepwise keys revoke: no key {args.key_id!r} for tenant {args.tenant!r}", file=sys.stderr)
        return 1
    if args.command == "keys" and args.keys_command == "dev":
        secret = asyncio.run(_keys_dev(settings))
        print(f"Development API key (tenant 'dev'): {secret}")
        print(f'Try: curl -H "Authorization: Bearer {secret}" {args.server.rstrip("/")}/readyz')
        return 0
    if args.command == "run":
        from agent.secrets import goal_masker
        from client.run_cli import run_command

        if args.max_steps < 1:
            parser.error("--max-steps must be at least 1")
        return asyncio.run(
            run_command(
                args.goal,
                args.url,
                server=args.server,
                api_key=args.api_key,
                headed=args.headed,
                max_steps=args.max_steps,
                mask=goal_masker(args.goal),  # the goal's secrets never reach the terminal
            )
        )
    if args.command == "demo":
        from client.demo import main as demo_main

        return demo_main([])
    if args.command in ("ingest", "crawl"):
        from app.knowledge_cli import crawl_command, ingest_command

        return ingest_command(args, settings) if args.command == "ingest" else crawl_command(args, settings)
    if args.command == "usage":
        from cost.cli import usage_command

        return usage_command(args, store=_store(settings))
    parser.error("unknown command")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
