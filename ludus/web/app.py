"""The full application: the game server's API plus the pages and their static files."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..server.app import create_app
from ..server.config import ServerConfig
from .pages import page_file, pages

__all__ = ["CSP", "HEADERS", "STATIC", "SecurityHeaders", "create_web_app"]

STATIC = resources.files("ludus.web.static")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"same-origin"), (b"x-frame-options", b"DENY")]


class SecurityHeaders:
    """Pages may load only this server's own scripts, and may not be framed by another site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


@cache
def _page(name: str) -> str:
    return STATIC.joinpath(name).read_text(encoding="utf-8")


def _game_file(text: str | None, media: str) -> Response:
    if text is None:
        return JSONResponse({"error": "not found", "code": "not_found"}, status_code=404)
    return Response(text, media_type=f"{media}; charset=utf-8", headers={"cache-control": "no-cache"})


def create_web_app(config: ServerConfig | None = None) -> FastAPI:
    app = create_app(config)
    app.add_middleware(SecurityHeaders)

    @app.get("/api/pages")
    async def page_list() -> dict[str, Any]:
        return pages()

    @app.api_route("/games/{name}/page.js", methods=["GET", "HEAD"])
    async def game_page(name: str) -> Response:
        """A game's page module, from its own package (the plugin names the file)."""
        return _game_file(page_file(name, "script"), "text/javascript")

    @app.api_route("/games/{name}/page.css", methods=["GET", "HEAD"])
    async def game_style(name: str) -> Response:
        return _game_file(page_file(name, "style"), "text/css")

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> HTMLResponse:
        return HTMLResponse(_page("index.html"))

    @app.get("/me", response_class=HTMLResponse)
    async def account() -> HTMLResponse:
        """The player's account and games (the page asks /api/me)."""
        return HTMLResponse(_page("account.html"))

    @app.get("/ratings", response_class=HTMLResponse)
    async def ratings() -> HTMLResponse:
        """The leaderboards of the rated games (the page asks /api/ratings/{game})."""
        return HTMLResponse(_page("ratings.html"))

    @app.get("/players/{name}", response_class=HTMLResponse)
    async def player(name: str) -> HTMLResponse:
        """An account's public ratings (the page asks /api/players/{name})."""
        return HTMLResponse(_page("player.html"))

    @app.get("/bots/{kind}", response_class=HTMLResponse)
    async def bot(kind: str) -> HTMLResponse:
        """A bot's public ratings (the page asks /api/bots/{kind})."""
        return HTMLResponse(_page("player.html"))

    @app.get("/t/{code}", response_class=HTMLResponse)
    async def table(code: str) -> HTMLResponse:
        return HTMLResponse(_page("table.html"))

    @app.get("/t/{code}/replay", response_class=HTMLResponse)
    async def replay(code: str) -> HTMLResponse:
        return HTMLResponse(_page("replay.html"))

    @app.get("/learn/{game}", response_class=HTMLResponse)
    async def learn(game: str) -> HTMLResponse:
        """A game's guided first game (the page asks /api/learn/{game} for each step)."""
        return HTMLResponse(_page("learn.html"))

    @app.api_route("/static/{path:path}", methods=["GET", "HEAD"])
    async def static(path: str, request: Request) -> Any:
        parts = path.split("/")
        if not path or any(p in ("", ".", "..") or p.startswith(".") for p in parts) or not parts[-1].endswith(
                (".js", ".css", ".svg", ".html")):
            return JSONResponse({"error": "not found", "code": "not_found"}, status_code=404)
        ref = STATIC.joinpath(*parts)
        if not ref.is_file():
            return JSONResponse({"error": "not found", "code": "not_found"}, status_code=404)
        with resources.as_file(ref) as file:
            media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml",
                     "html": "text/html"}[parts[-1].rsplit(".", 1)[1]]
            return FileResponse(file, media_type=media + ("; charset=utf-8" if media != "image/svg+xml" else ""),
                                headers={"cache-control": "no-cache"})

    return app
