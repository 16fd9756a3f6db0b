"""Validation of what clients send: sizes, shapes and names, with messages a person can read.

Anything that fails here is answered with an error to that client alone and changes nothing.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from ..core.errors import LudusError

MAX_NAME = 24
MESSAGE_TYPES = {
    "act": {"action": True, "moves": True, "id": False},
    "resume": {"id": False},
    "ping": {"id": False},
}


class ProtocolError(LudusError):
    """A message the server refuses; ``code`` is stable for programs, the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_message(raw: str | bytes | None, limit: int) -> dict[str, Any]:
    """Decode one WebSocket frame into a checked message dict."""
    if raw is None:
        raise ProtocolError("bad_message", "messages must be JSON text frames")
    if isinstance(raw, bytes):
        raise ProtocolError("bad_message", "binary frames are not accepted; send JSON text")
    if len(raw.encode("utf-8")) > limit:
        raise ProtocolError("too_large", f"message is larger than {limit} bytes")
    try:
        msg = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad_message", f"message is not valid JSON ({exc.msg})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = msg.get("type")
    if kind not in MESSAGE_TYPES:
        known = ", ".join(sorted(MESSAGE_TYPES))
        raise ProtocolError("bad_message", f"unknown message type {kind!r}; known types: {known}")
    fields = MESSAGE_TYPES[kind]
    for key in msg:
        if key != "type" and key not in fields:
            raise ProtocolError("bad_message", f"unexpected field {key!r} in a {kind!r} message")
    for key, required in fields.items():
        if required and key not in msg:
            raise ProtocolError("bad_message", f"a {kind!r} message needs the field {key!r}")
    mid = msg.get("id")
    if mid is not None and not (isinstance(mid, (str, int)) and not isinstance(mid, bool) and len(str(mid)) <= 64):
        raise ProtocolError("bad_message", "field 'id' must be a short string or number")
    if kind == "act":
        moves = msg["moves"]
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise ProtocolError("bad_message", "field 'moves' must be the count of moves you have made (an integer)")
    return msg


def clean_name(name: Any) -> str:
    """A display name: trimmed, 1 to 24 printable characters, no control or formatting characters."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", "a name must be text")
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("bad_name", "please give a name")
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", f"a name may have at most {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ProtocolError("bad_name", "a name may not contain control or invisible characters")
    return name


class RateLimit:
    """A token bucket per connection, so one client cannot flood its table."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.last: float | None = None

    def allow(self, now: float) -> bool:
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
