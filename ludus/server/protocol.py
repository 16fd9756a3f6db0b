"""Validation of what clients send: sizes, shapes and names, with messages a person can read.

Anything that fails here is answered with an error to that client alone and changes nothing.
What the server sends back is encoded by :func:`dumps`.
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Any

from pydantic import BaseModel, model_validator
from starlette.requests import Request  # at run time: FastAPI reads json_body's annotation

from ..core.errors import LudusError, Message
from ..i18n import DEFAULT_LANGUAGE, N_, gettext, use_language

__all__ = [
    "BODY_DEPTH",
    "MAX_DEPTH",
    "MAX_ID",
    "MAX_NAME",
    "MESSAGE_TYPES",
    "Checked",
    "KeyedRateLimit",
    "ProtocolError",
    "RateLimit",
    "RateLimited",
    "check_id",
    "check_json_value",
    "clean_name",
    "dumps",
    "error_body",
    "parse_message",
    "whole_seconds",
]

MAX_NAME = 24
MESSAGE_TYPES = {
    "act": {"action": True, "moves": True, "id": False, "auto": False},
    "resume": {"id": False},
    "ping": {"id": False},
    "hint": {"id": False},  # "What would the bot play?" (ludus.server.hinting)
}


RATED_NEEDS_ACCOUNT = N_("rated games are for players with an account: log in or create one on Your games (/me)")
SEAT_RANGE = N_("seat must be 0 to {high}")
"""Refusals said in several places (each a catalog message, :class:`~ludus.core.errors.Message`)."""


class ProtocolError(LudusError):
    """A message the server refuses; ``code`` is stable for programs, the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason: dict[str, Any] | None = None
        """For a rule's refusal (``illegal``): its language-neutral ``{"code", "params"}``, which
        a client renders in its reader's language (docs/i18n.md); None where the rules give none."""

    @classmethod
    def carrying(cls, code: str, error: LudusError) -> ProtocolError:
        """``error``'s English text under ``code``, keeping the template and params it was raised with
        (an option check's :class:`~ludus.core.errors.Message`), so the server can say it in the
        reader's language (:meth:`said_in`)."""
        exc = cls(code, str(error))
        exc.message_template, exc.message_params = error.message_template, dict(error.message_params)
        return exc

    def said_in(self, lang: str) -> str:
        """The message in ``lang`` where it has a template the catalog translates; else the English."""
        if not self.message_template or lang == DEFAULT_LANGUAGE:
            return self.message
        try:
            with use_language(lang):
                return gettext(self.message_template, **self.message_params)
        except (KeyError, IndexError, ValueError):  # a translation that does not fit its params: English
            return self.message

    @classmethod
    def refused(cls, reason: str, code: str = "illegal") -> ProtocolError:
        """A rule's refusal: the English text, and the reason's code and params where it has them."""
        exc = cls(code, str(reason))
        reason_code = getattr(reason, "code", None)
        if reason_code is not None:
            exc.reason = {"code": reason_code, "params": dict(getattr(reason, "params", None) or {})}
        return exc

    def message_json(self, mid: Any) -> dict[str, Any]:
        """The ``error`` message of the protocol for this refusal."""
        out: dict[str, Any] = {"type": "error", "id": mid, "code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a message may have (real actions need a handful)."""
MAX_ID = 64


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _describe(value: Any) -> str:
    """A short, safe description of a client's value for an error message (never its full repr)."""
    if isinstance(value, str):
        return repr(value[:40] + ("…" if len(value) > 40 else ""))
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return "a number"
    return "an array" if isinstance(value, list) else "an object"


def check_json_value(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than ``max_depth`` and text that is not valid Unicode (lone surrogates).

    Iterative, so a hostile value cannot exhaust the stack here; everything that passes can be
    sent back as UTF-8 and handled by recursive code without trouble.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise ProtocolError("bad_message", "the message holds text that is not valid Unicode "
                                                       "(a lone surrogate escape such as \\ud800)") from None
        elif isinstance(item, (list, dict)):
            if depth >= max_depth:
                raise ProtocolError("bad_message", f"the message is nested more than {max_depth} levels deep")
            if isinstance(item, dict):
                stack.extend((k, depth + 1) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def check_id(mid: Any) -> None:
    """A message id is echoed back: a short string (valid Unicode) or an integer, never a bool."""
    if mid is None:
        return
    if isinstance(mid, bool) or not isinstance(mid, (str, int)) or len(str(mid)) > MAX_ID:
        raise ProtocolError("bad_message", f"field 'id' must be a string of at most {MAX_ID} characters "
                                           "or an integer of at most 64 digits")
    if isinstance(mid, str):
        check_json_value(mid)  # it is sent back, so it must be valid Unicode


def parse_message(raw: str | bytes | None, limit: int) -> dict[str, Any]:
    """Decode one WebSocket frame into a checked message dict.

    Anything a client can send ends here as a dict of the right shape or a ``bad_message`` /
    ``too_large`` :class:`ProtocolError`; no other exception leaves this function.
    """
    if raw is None:
        raise ProtocolError("bad_message", "messages must be JSON text frames")
    if isinstance(raw, (bytes, bytearray)):
        raise ProtocolError("bad_message", "binary frames are not accepted; send JSON text")
    if not isinstance(raw, str):
        raise ProtocolError("bad_message", "messages must be JSON text frames")
    try:
        size = len(raw.encode("utf-8"))
    except UnicodeEncodeError:
        raise ProtocolError("bad_message", "the message is not valid UTF-8 text") from None
    if size > limit:
        raise ProtocolError("too_large", f"message is larger than {limit} bytes")
    try:
        msg = json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad_message", f"message is not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise ProtocolError("bad_message", f"the message is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # NaN/Infinity, or an integer too long to convert
        raise ProtocolError("bad_message", f"message is not valid JSON ({str(exc)[:80]})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    check_json_value(msg)
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in MESSAGE_TYPES:
        known = ", ".join(sorted(MESSAGE_TYPES))
        what = "is missing" if "type" not in msg else f"is {_describe(kind)}"
        raise ProtocolError("bad_message", f"unknown message type: field 'type' {what}; known types: {known}")
    fields = MESSAGE_TYPES[kind]
    for key in msg:
        if key != "type" and key not in fields:
            raise ProtocolError("bad_message", f"unexpected field {_describe(key)} in a {kind!r} message")
    for key, required in fields.items():
        if required and key not in msg:
            raise ProtocolError("bad_message", f"a {kind!r} message needs the field {key!r}")
    check_id(msg.get("id"))
    if kind == "act":
        moves = msg["moves"]
        if not isinstance(moves, int) or isinstance(moves, bool) or not 0 <= moves < 2**31:
            raise ProtocolError("bad_message", "field 'moves' must be the count of moves you have made (an integer)")
        if "auto" in msg and not isinstance(msg["auto"], bool):
            raise ProtocolError("bad_message", f"field 'auto' must be true or false (true: your page played your only "
                                               f"legal move for you), not {_describe(msg['auto'])}")
    return msg


def dumps(msg: dict[str, Any]) -> str:
    text = json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # text UTF-8 cannot carry (a lone surrogate): send it escaped instead
            return json.dumps(msg, separators=(",", ":"))
    return text


def clean_name(name: Any) -> str:
    """A display name: trimmed, 1 to 24 printable characters, no control or formatting characters."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", Message(N_("a name must be text")))
    name = " ".join(name.split())
    if not name:
        raise ProtocolError("bad_name", Message(N_("please give a name")))
    if len(name) > MAX_NAME:
        raise ProtocolError("bad_name", Message(N_("a name may have at most {count} characters"), count=MAX_NAME))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ProtocolError("bad_name", Message(N_("a name may not contain control or invisible characters")))
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


class RateLimited(ProtocolError):
    """A ``rate_limited`` refusal that says when to try again (HTTP 429 with Retry-After)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = whole_seconds(retry_after)


def whole_seconds(wait: float) -> int:
    """A wait as people are told it: whole seconds, rounded up, at least one."""
    return max(1, math.ceil(wait))


class KeyedRateLimit:
    """Token buckets by key (a client's token, an address): ``per_minute`` on average, ``burst`` at once.

    Buckets that have refilled are dropped now and then, so memory stays bounded by the
    clients seen within the last refill time. ``per_minute <= 0`` turns the limit off.
    """

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)
        self.next_prune = 4096

    def _tokens(self, key: str, now: float) -> float:
        tokens, at = self.buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - at) * self.rate)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may act once more (0 if it may now)."""
        if self.rate <= 0:
            return 0.0
        tokens = self._tokens(key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, key: str, now: float) -> None:
        if self.rate <= 0:
            return
        self.buckets[key] = (self._tokens(key, now) - 1, now)
        if len(self.buckets) > self.next_prune:
            self.buckets = {k: v for k, v in self.buckets.items() if self._tokens(k, now) < self.burst}
            self.next_prune = max(4096, 2 * len(self.buckets))

    def give(self, key: str, now: float) -> None:
        """Hand back one token taken before (the action turned out not to count)."""
        if self.rate <= 0 or key not in self.buckets:
            return
        self.buckets[key] = (min(self.burst, self._tokens(key, now) + 1), now)


# ------------------------------------------------------------------ HTTP bodies and errors
BODY_DEPTH = 12  # the deepest a request body may nest (options are flat)


def _printable(text: str) -> str:
    """Text that can be sent as UTF-8 whatever it holds (a client's lone surrogates are escaped)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_body(message: str, code: str) -> bytes:
    """An HTTP error in the documented shape ``{"error", "code"}``."""
    return json.dumps({"error": _printable(message), "code": code}, ensure_ascii=False).encode("utf-8")


class Checked(BaseModel):
    """Request bodies: nothing nested deeper than ``BODY_DEPTH``, no text that is not valid Unicode."""

    @model_validator(mode="before")
    @classmethod
    def _sane(cls, data: Any) -> Any:
        try:
            check_json_value(data, BODY_DEPTH)
        except ProtocolError as exc:
            raise ValueError(exc.message.replace("message", "body")) from None
        return data


async def json_body(request: Request) -> None:
    """JSON endpoints take JSON only: a form post (which any site can make a browser send) is refused."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        raise ProtocolError("bad_content_type", "send the body as JSON, with the header "
                                                "Content-Type: application/json")
