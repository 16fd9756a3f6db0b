"""The guided first games (``ludus.core.tutorial``) over HTTP, for the ``/learn/<game>`` page.

The server keeps nothing per learner: the page says which step it is at, and every answer is
computed from the checked script (each step's state is ready in memory once it has loaded).
What a step shows is the learner's own view, built by the same functions as a live table's
(:func:`~ludus.server.views.seat_payload`, :func:`~ludus.server.views.history_entries`), so a
tutorial can show no more of the other seats' cards than a real game would.

Every text is in the reader's language (cookie or Accept-Language) where the catalog has it: the
script's texts through :func:`ludus.i18n.data.translate_text`, as ``ludus learn`` shows them, the
titles and the seats' names through the catalog; the rules' refusals as the terminal says them.

Refusals keep the API's shape ``{"error", "code"}``: an unknown game or one without a tutorial,
or a step outside the script, is 404; a malformed move is 400 (``bad_action``).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response
from pydantic import ConfigDict

from .. import games
from ..core.errors import LudusError
from ..core.game import State
from ..core.tutorial import Tutorial, tutorial_json
from ..i18n import DEFAULT_LANGUAGE, gettext, use_language
from ..i18n.data import translate_text
from ..i18n.web import COOKIE as LANGUAGE_COOKIE
from ..i18n.web import choose_language
from .protocol import Checked, ProtocolError, error_body, json_body
from .refusals import refusal_text
from .views import history_entries, seat_payload

__all__ = ["LearnMissing", "TryMove", "add_learn_routes", "learner_view", "load", "step_json", "tutorial_games"]

log = logging.getLogger("ludus.server")


class LearnMissing(LudusError):
    """Nothing to learn at this address (answered 404 in the API's error shape)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def tutorial_games() -> list[str]:
    """The games whose plugin names a tutorial, in list order (the scripts are not loaded here)."""
    return [name for name, plugin in games.plugins().items() if plugin.tutorial]


def load(name: str) -> Tutorial:
    """The checked tutorial of ``name``; LearnMissing if the game is unknown or has none that works."""
    if name not in tutorial_games():
        raise LearnMissing("no_tutorial", f"there is no tutorial for {name!r}" + (
            "" if name in games.game_names() else " (no such game)"))
    try:
        return games.tutorial(name)
    except LudusError:  # a script that no longer fits the rules: logged for its authors, not shown half-working
        log.exception("the tutorial of %s cannot be loaded", name)
        raise LearnMissing("no_tutorial", f"the tutorial for {name!r} is not available on this server") from None


def _moves_by(state: State, seat: int) -> int:
    return sum(1 for actor, _ in state.visible_history(seat) if actor == seat)


def learner_view(tutorial: Tutorial, state: State) -> dict[str, Any]:
    """The learner's view of ``state`` in the live table's view shape (only their own seat's view)."""
    seat = tutorial.seat
    game = tutorial.game
    names = tutorial.names()
    out = seat_payload(state, seat)
    out.update({
        "type": "view",
        "table": {"code": None, "game": game.name, "title": game.title, "status": "playing",
                  "options": dict(tutorial.script.options), "clock": None, "listed": False,
                  "seats": [{"seat": i, "name": names[i], "kind": "human" if i == seat else "bot", "bot": None,
                             "taken": True, "away": None, "connected": True} for i in range(len(names))]},
        "you": seat,
        "names": names,
        "ply": len(state.visible_history(seat)),
        "moves": _moves_by(state, seat),
        "clock": {},
        "history": {"from": 0, "entries": history_entries(state, seat)},
    })
    return out


def step_json(tutorial: Tutorial, k: int) -> dict[str, Any]:
    """Step ``k``'s texts and the learner's view; ``k == len(tutorial)`` is the end (final state, outro)."""
    n = len(tutorial)
    if not 0 <= k <= n:
        raise LearnMissing("no_step", f"this tutorial's steps are numbered 0 to {n - 1} ({n} is its end), not {k}")
    if k == n:
        return {"step": k, "steps": n, "end": True, "outro": tutorial.script.outro, "say": None, "expect": False,
                "wrong": None, "wrong_say": "", "view": learner_view(tutorial, tutorial.final_state())}
    lesson = tutorial.steps[k]
    state = tutorial.state_at(k)
    wrong = None
    if lesson.wrong is not None:
        action = tutorial.game.action_from_json(lesson.wrong)
        wrong = {"action": action.to_json(), "label": action.label}
    return {"step": k, "steps": n, "end": False, "outro": None, "say": lesson.say, "expect": lesson.expect is not None,
            "wrong": wrong, "wrong_say": lesson.wrong_say, "view": learner_view(tutorial, state)}


def _language(request: Request) -> str:
    return choose_language(request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language"))


def _texts(out: dict[str, Any], *keys: str) -> dict[str, Any]:
    """``out`` with the script texts under ``keys`` in the language in use (call under use_language)."""
    for key in keys:
        if isinstance(out.get(key), str) and out[key]:
            out[key] = translate_text(out[key])
    return out


def _names(names: list[str]) -> list[str]:
    """The seats' names as the catalog writes them ("You" stays: the page says it in its own words)."""
    return [name if name == "You" else gettext(name) for name in names]


def _view_words(view: dict[str, Any]) -> dict[str, Any]:
    view["names"] = _names(view["names"])
    view["table"] = {**view["table"], "title": gettext(view["table"]["title"]),
                     "seats": [{**seat, "name": gettext(seat["name"]) if seat["name"] != "You" else seat["name"]}
                               for seat in view["table"]["seats"]]}
    return view


class TryMove(Checked):
    """The body of a try: the move, as the game writes it in records (checked like every API body)."""

    model_config = ConfigDict(extra="forbid")
    action: Any


def add_learn_routes(app: FastAPI) -> None:
    """The ``/api/learn`` routes (see docs/server.md, "Learning a game").

    They are plain functions, so FastAPI runs them in its thread pool: the first request for a
    game loads and checks its script (a few hundred milliseconds), which must not hold up the
    live tables on the event loop.
    """

    @app.exception_handler(LearnMissing)
    async def _missing(request: Request, exc: LearnMissing) -> Response:
        return Response(error_body(exc.message, exc.code), status_code=404, media_type="application/json")

    @app.get("/api/learn")
    def learn_list(request: Request) -> list[dict[str, Any]]:
        out = []
        with use_language(_language(request)):
            for name in tutorial_games():
                try:
                    tutorial = load(name)
                except LearnMissing:
                    continue
                out.append({"name": name, "title": gettext(tutorial.game.title),
                            "tutorial": translate_text(tutorial.script.title), "steps": len(tutorial)})
        return out

    @app.get("/api/learn/{game}")
    def learn_game(game: str, request: Request) -> dict[str, Any]:
        tutorial = load(game)
        with use_language(_language(request)):
            out = _texts({"game": game, "game_title": gettext(tutorial.game.title), **tutorial_json(tutorial)},
                         "title", "intro", "outro")
            out["names"] = _names(out["names"])
        return out

    @app.get("/api/learn/{game}/steps/{k}")
    def learn_step(game: str, k: int, request: Request) -> dict[str, Any]:
        out = step_json(load(game), k)
        with use_language(_language(request)):
            _view_words(out["view"])
            return _texts(out, "say", "wrong_say", "outro")

    @app.post("/api/learn/{game}/steps/{k}/try", dependencies=[Depends(json_body)])
    def learn_try(game: str, k: int, body: TryMove, request: Request) -> dict[str, Any]:
        tutorial = load(game)
        if not 0 <= k < len(tutorial):
            raise LearnMissing("no_step", f"this tutorial has steps 0 to {len(tutorial) - 1} to try moves in, not {k}")
        try:
            answer = tutorial.attempt(k, body.action)
        except LudusError as exc:  # a malformed action (RecordError), said in the game's own words
            raise ProtocolError("bad_action", str(exc)) from None
        message = str(answer.message)
        code = getattr(answer.message, "code", None)
        lang = _language(request)
        if answer.kind == "refused" and code:  # the rules' reason in the reader's language (docs/i18n.md)
            message = refusal_text(game, message, {"code": code, "params": getattr(answer.message, "params", {})}, lang)
        elif answer.kind != "refused" and message and lang != DEFAULT_LANGUAGE:  # the script's own words
            with use_language(lang):
                message = translate_text(message)
        out: dict[str, Any] = {"kind": answer.kind, "message": message}
        expected = tutorial.expected(k)
        if answer.kind == "done" and expected is not None:  # the board with the move made, before the others answer
            state = tutorial.state_at(k)
            state.apply(expected, tutorial.seat)
            with use_language(lang):
                out["view"] = _view_words(learner_view(tutorial, state))
        return out
