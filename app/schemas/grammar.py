"""Text the OpenAPI document shares between fields and its description."""

from __future__ import annotations

#: The action grammar, as the `action` field and the API description document it.
ACTION_GRAMMAR = (
    "One call of the action grammar (verification/actions.py): `name(arg, …)`, each argument a quoted string "
    '(double or single quotes, JSON escapes) or a bare token; Stepwise always writes double quotes. `<id>` is the '
    "element's `i` in the V3 tree (`data-llm-id` in HTML). "
    '`click("<id>")` · `setValue("<id>", "<text>")` (replace the field\'s value) · `select("<id>", "<option>")` · '
    '`press("<id>", "<key>")` or `press("<key>")` on the focused element · `scroll("down")` (up, down, left, right, '
    'top, bottom), `scroll("<id>")` or `scroll("<id>", "bottom")` inside a container · `hover("<id>")` · '
    '`navigate("<url>")` · `goBack()` · `wait(<seconds>)` · `googleSearch("<query>")` · `finish()` (the goal is met, '
    'as `status: completed` says) · `fail("<reason>")` (the task ended failed; `failureCode` says why)'
)
URL_PATTERN = "^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+"
