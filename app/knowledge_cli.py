"""``stepwise ingest`` and ``stepwise crawl``: fill a tenant's knowledge base from the command
line, on the configured database, with the same pipeline as the API."""

from __future__ import annotations

import argparse
import asyncio
import mimetypes
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from app.main import build_knowledge, build_store
from app.settings import Settings
from knowledge import ExtractionFailed, KnowledgeBase, UnsupportedMediaType, canonical_url, registrable_domain
from storage import CrawlJob

_STRATEGIES = ("single", "sitemap", "spider")


def add_ingest_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="+", help="files or folders to ingest, or one http(s) URL (a single page)")
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--domain", action="append", default=[], help="a site the documents belong to (repeat); none: tenant-wide")


def add_crawl_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="where the crawl starts")
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--strategy", choices=_STRATEGIES, default="spider")
    parser.add_argument("--max-pages", type=int, default=50)
    parser.add_argument("--max-depth", type=int, default=2)
    parser.add_argument("--allowed-domain", action="append", default=[], help="a site the crawl may enter (repeat)")


async def _with_kb(settings: Settings, work: Callable[[KnowledgeBase], Awaitable[int]]) -> int:
    store = build_store(settings)
    await store.init()
    kb = build_knowledge(settings, store, gateway=None)
    try:
        return await work(kb)
    finally:
        await kb.stop()
        await store.close()


def ingest_command(args: argparse.Namespace, settings: Settings) -> int:
    if len(args.source) == 1 and canonical_url(args.source[0]) is not None:
        args.strategy, args.max_pages, args.max_depth, args.allowed_domain, args.url = "single", 1, 0, [], args.source[0]
        return crawl_command(args, settings)
    files = _files(args.source)
    if not files:
        print("stepwise ingest: no files found", file=sys.stderr)
        return 1
    domains = [registrable_domain(d) or d for d in args.domain]

    async def work(kb: KnowledgeBase) -> int:
        failed = 0
        for path in files:
            data = path.read_bytes()
            if len(data) > settings.knowledge_max_upload_bytes:
                print(f"skipped {path}: larger than {settings.knowledge_max_upload_bytes} bytes", file=sys.stderr)
                failed += 1
                continue
            try:
                outcome = await kb.ingest(
                    args.tenant,
                    data,
                    source=f"file:{path.name}",
                    source_kind="file",
                    media_type=mimetypes.guess_type(path.name)[0],
                    filename=path.name,
                    domains=domains,
                )
            except (UnsupportedMediaType, ExtractionFailed) as exc:
                print(f"skipped {path}: {exc}", file=sys.stderr)
                failed += 1
                continue
            print(f"{outcome.status:9} {path}  ({outcome.chunks} chunks, document {outcome.document_id})")
        return 1 if failed else 0

    return asyncio.run(_with_kb(settings, work))


def _files(sources: list[str]) -> list[Path]:
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
        elif path.is_file():
            found.append(path)
        else:
            print(f"stepwise ingest: {source}: no such file or folder", file=sys.stderr)
    return found


def crawl_command(args: argparse.Namespace, settings: Settings) -> int:
    if canonical_url(args.url) is None:
        print(f"stepwise crawl: {args.url!r} is not an http(s) URL", file=sys.stderr)
        return 2
    job = CrawlJob(
        tenant_id=args.tenant,
        user_id="cli",
        url=args.url,
        strategy=args.strategy,
        max_pages=max(1, min(args.max_pages, settings.knowledge_crawl_max_pages)),
        max_depth=max(0, args.max_depth),
        domains=[registrable_domain(d) or d for d in args.allowed_domain],
    )

    async def work(kb: KnowledgeBase) -> int:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, transient=False) as bar:
            shown = bar.add_task(f"crawl {job.url}", total=job.max_pages)

            def on_progress(current: CrawlJob) -> None:
                bar.update(shown, completed=current.pages_done, total=max(current.pages_total, 1))

            done = await kb.jobs.run(job, on_progress)
        print(
            f"{done.status}: {done.pages_done} pages ({done.pages_unchanged} unchanged, {done.pages_failed} failed), "
            f"{done.documents} documents written"
        )
        for error in done.errors[:10]:
            print(f"  {error.get('url', '')}: {error.get('error', '')}", file=sys.stderr)
        if done.error:
            print(f"  {done.error}", file=sys.stderr)
        return 0 if done.status == "done" else 1

    return asyncio.run(_with_kb(settings, work))
