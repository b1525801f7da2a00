"""Untrusted data blocks shared by the engines: the page as lines of text.

Everything here comes from the page or the user and goes to a model only inside a
``DataBlock``; no engine puts any of it into its instructions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from agent.llm import DataBlock
from verification import PageElement, PageState

ELEMENT_LIMIT: Final = 150
NAME_LIMIT: Final = 80
TEXT_LIMIT: Final = 2_000
HISTORY_LIMIT: Final = 10
CHUNK_LIMIT: Final = 5


class ChatMessage(Protocol):
    """Anything with a role and a content (``storage.Message`` fits)."""

    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def element_line(element: PageElement) -> str:
    """``14: button "Save" [disabled]`` — one element as a model reads it."""
    parts = [f'{element.id}: {element.role} "{_cut(element.name, NAME_LIMIT)}"']
    if element.value:
        parts.append(f'value="{_cut(element.value, NAME_LIMIT)}"')
    if element.placeholder:
        parts.append(f'placeholder="{_cut(element.placeholder, NAME_LIMIT)}"')
    if element.input_type:
        parts.append(f"type={element.input_type}")
    if element.href:
        parts.append(f"href={_cut(element.href, NAME_LIMIT)}")
    if element.options:
        parts.append("options=" + " | ".join(_cut(o, 40) for o in element.options[:15]))
    flags = sorted(element.states - {"focused"}) + (["occluded"] if element.occluded else [])
    if flags:
        parts.append(f"[{', '.join(flags)}]")
    return " ".join(parts)


def element_lines(page: PageState, limit: int = ELEMENT_LIMIT) -> list[str]:
    lines = [element_line(e) for e in page.elements if not e.hidden]
    if len(lines) > limit:
        lines = [*lines[:limit], f"… {len(lines) - limit} more elements not shown"]
    return lines or ["(no interactive elements)"]


def page_blocks(page: PageState, *, with_text: bool = False) -> list[DataBlock]:
    """``page`` (url, title), ``elements``, ``messages`` and optionally ``page_text``."""
    header = f"url: {page.url}\ntitle: {page.title or ''}"
    blocks = [DataBlock("page", header), DataBlock("elements", element_lines(page))]
    if page.messages:
        blocks.append(
            DataBlock("messages", [f"{m.kind}: {_cut(m.text, 200)}" for m in page.messages])
        )
    if with_text and page.text_summary:
        blocks.append(DataBlock("page_text", _cut(page.text_summary, TEXT_LIMIT)))
    return blocks


def history_block(history: Sequence[ChatMessage]) -> DataBlock | None:
    recent = list(history)[-HISTORY_LIMIT:]
    if not recent:
        return None
    return DataBlock("chat_history", [f"{m.role}: {_cut(m.content, 500)}" for m in recent])


def knowledge_block(chunks: Sequence[str]) -> DataBlock | None:
    kept = [_cut(c, 800) for c in chunks[:CHUNK_LIMIT] if c.strip()]
    return DataBlock("knowledge", kept) if kept else None
