"""A fake model for scenario tests: each purpose is answered by a small function of what
the model is shown (the rendered prompt), and every answer is validated against the real
output schema before the agent sees it. It records every call and its usage."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from agent.llm import CallContext, Generation, MemoryUsageSink, ModelUsage, Prompt, Purpose, UsageEvent, UsageSink, render_prompt

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class SeenPrompt:
    purpose: Purpose
    system: str
    user: str
    nonce: str

    def block(self, name: str) -> str:
        match = re.search(rf'<<data-{self.nonce} name="{re.escape(name)}">>\n(.*?)\n<</data-{self.nonce}>>', self.user, re.S)
        return match.group(1) if match else ""

    def outside_blocks(self) -> str:
        """Everything the model reads that is not quoted data: instructions."""
        return self.system + re.sub(rf"<<data-{self.nonce} [^>]*>>.*?<</data-{self.nonce}>>", "", self.user, flags=re.S)

    def element_id(self, name: str) -> str | None:
        for line in self.block("elements").splitlines():
            if m := re.match(r'- \[(\S+?)\] \S+ "([^"]*)"', line.strip()):
                if m.group(2).lower() == name.lower():
                    return m.group(1).strip('"')
        return None


Handler = Callable[[SeenPrompt], Mapping[str, Any]]


@dataclass
class ScenarioModel:
    handlers: Mapping[str, Handler]
    sink: UsageSink = field(default_factory=MemoryUsageSink)
    calls: list[SeenPrompt] = field(default_factory=list)
    model: str = "gemini-2.5-flash"

    async def generate(self, purpose: Purpose, output_type: type[T], prompt: Prompt, *, ctx: CallContext) -> Generation[T]:
        nonce = secrets.token_hex(8)
        system, user = render_prompt(prompt, nonce)
        seen = SeenPrompt(purpose, system, user, nonce)
        self.calls.append(seen)
        handler = self.handlers.get(purpose)
        if handler is None:
            raise AssertionError(f"the scenario does not expect a {purpose} call")
        output = output_type.model_validate(dict(handler(seen)))
        tokens_in, tokens_out = len(system + user) // 4, len(output.model_dump_json()) // 4
        usage = ModelUsage(self.model, tokens_in, tokens_out, 0, 0, tokens_in + tokens_out, 1, 1)
        await self.sink.record(
            UsageEvent(purpose, self.model, tokens_in, tokens_out, 0, 0, tokens_in + tokens_out, 1, True, None, ctx)
        )
        return Generation(output=output, usage=usage, purpose=purpose)

    async def aclose(self) -> None:
        return None

    def purposes(self) -> list[str]:
        return [c.purpose for c in self.calls]
