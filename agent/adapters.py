"""Adapters from the LLM gateway to the narrow callables pure packages take."""

from __future__ import annotations

from agent.llm import CallContext, DataBlock, LLMError, LLMGateway, Prompt
from verification import VerdictModel, VerdictModelError, VerdictRequest, VerificationVerdict


def verdict_model(gateway: LLMGateway, ctx: CallContext) -> VerdictModel:
    """The verifier's model: goal, action and observations travel as untrusted data blocks."""

    async def call(request: VerdictRequest) -> VerificationVerdict:
        prompt = Prompt(
            instructions=request.instructions,
            blocks=(
                DataBlock("goal", request.goal),
                DataBlock("action", request.action),
                DataBlock("observations", list(request.observations)),
            ),
        )
        try:
            generation = await gateway.generate(request.purpose, VerificationVerdict, prompt, ctx=ctx)
        except LLMError as exc:
            raise VerdictModelError(f"verdict model failed: {exc.kind}") from exc
        return generation.output

    return call
