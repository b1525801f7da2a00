"""The user turn of a call with images (hybrid vision mode): the rendered data blocks as
text, then each image as an inline part fenced by the call's nonce delimiters."""

from __future__ import annotations

from collections.abc import Sequence

from google.genai import types

from agent.llm.prompt import ImageBlock, image_fences


def user_contents(user: str, images: Sequence[ImageBlock], nonce: str) -> str | list[types.Content]:
    """``user`` alone (a plain text turn, as before images existed) when there is no image;
    else one user ``Content``: the text, then per image its opening fence, the image bytes
    as ``inline_data`` with their MIME type, and its closing fence."""
    if not images:
        return user
    parts = [types.Part.from_text(text=user)]
    for image in images:
        opening, closing = image_fences(image, nonce)
        parts += [
            types.Part.from_text(text=opening),
            types.Part.from_bytes(data=image.data, mime_type=image.mime_type),
            types.Part.from_text(text=closing),
        ]
    return [types.Content(role="user", parts=parts)]


def image_tokens(meta: types.GenerateContentResponseUsageMetadata | None) -> int:
    """The prompt tokens Gemini counted for images (``promptTokensDetails`` by modality)."""
    if meta is None or not meta.prompt_tokens_details:
        return 0
    return sum(d.token_count or 0 for d in meta.prompt_tokens_details if d.modality == types.MediaModality.IMAGE)
