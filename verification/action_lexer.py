"""Tokens of the action grammar: names, quoted strings with escapes, bare ids."""

from __future__ import annotations

from typing import Final

_BARE_CHARS: Final[frozenset[str]] = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/#@+~?=&%"
)
_ESCAPES: Final[dict[str, str]] = {
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
}


class ActionSyntaxError(ValueError):
    """The text is not an action of the Stepwise grammar."""


class Reader:
    """A cursor over one action's text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str) -> ActionSyntaxError:
        return ActionSyntaxError(f"{message} at position {self.pos} in {self.text!r}")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and (
            self.text[self.pos].isalnum() or self.text[self.pos] == "_"
        ):
            self.pos += 1
        return self.text[start : self.pos]

    def string(self) -> str:
        quote = self.text[self.pos]
        self.pos += 1
        out: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == quote:
                self.pos += 1
                return "".join(out)
            if char == "\\" and self.pos + 1 < len(self.text):
                nxt = self.text[self.pos + 1]
                if nxt == "u":
                    out.append(self._unicode_escape())
                    continue
                if nxt in _ESCAPES:
                    out.append(_ESCAPES[nxt])
                else:
                    out.append("\\" + nxt)
                self.pos += 2
                continue
            out.append(char)
            self.pos += 1
        raise self.error(f"unterminated string (missing closing {quote})")

    def _unicode_escape(self) -> str:
        digits = self.text[self.pos + 2 : self.pos + 6]
        if len(digits) != 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise self.error("bad \\u escape (expected 4 hex digits)")
        code = int(digits, 16)
        self.pos += 6
        if 0xD800 <= code < 0xDC00 and self.text[self.pos : self.pos + 2] == "\\u":
            low_digits = self.text[self.pos + 2 : self.pos + 6]
            if len(low_digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in low_digits):
                low = int(low_digits, 16)
                if 0xDC00 <= low < 0xE000:
                    self.pos += 6
                    return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        return chr(code)

    def bare(self) -> str:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _BARE_CHARS:
            self.pos += 1
        if start == self.pos:
            found = self.peek() or "end of text"
            raise self.error(f"expected a quoted string or a bare id, found {found!r}")
        return self.text[start : self.pos]

    def arguments(self) -> list[tuple[str, bool]]:
        """Arguments as (text, was_quoted) up to and including the closing parenthesis."""
        args: list[tuple[str, bool]] = []
        self.skip_space()
        if self.peek() == ")":
            self.pos += 1
            return args
        while True:
            self.skip_space()
            if self.peek() in ('"', "'"):
                args.append((self.string(), True))
            else:
                args.append((self.bare(), False))
            self.skip_space()
            char = self.peek()
            self.pos += 1
            if char == ")":
                return args
            if char != ",":
                self.pos -= 1
                raise self.error("expected ',' or ')'" if char else "missing closing ')'")
