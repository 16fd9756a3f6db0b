"""The full application: the game server's API plus the pages and their static files."""

from __future__ import annotations

from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import LANGUAGES, use_language
from ..i18n.web import COOKIE
from ..server.app import create_app
from ..server.config import ServerConfig
from .pages import page_file, pages
from .translated import catalog_json, page_html, request_language

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


LANGUAGE_COOKIE_AGE = 400 * 24 * 3600
"""How long the switcher's choice is remembered (the longest a browser keeps a cookie)."""


def _page(name: str, request: Request) -> HTMLResponse:
    """A page in the request's language (docs/i18n.md); it differs by cookie and Accept-Language."""
    return HTMLResponse(page_html(name, request_language(request)),
                        headers={"vary": "cookie, accept-language", "cache-control": "no-cache"})


def _back(request: Request) -> str:
    """Where the language switcher's link came from, when it was a page of this server; else the lobby."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc != request.headers.get("host") or not referer.path.startswith("/") or \
            referer.path.startswith("//") or referer.path.startswith("/lang/"):
        return "/"
    return referer.path + (f"?{referer.query}" if referer.query else "")


def _game_file(text: str | None, media: str) -> Response:
    if text is None:
        return JSONResponse({"error": "not found", "code": "not_found"}, status_code=404)
    return Response(text, media_type=f"{media}; charset=utf-8", headers={"cache-control": "no-cache"})


def create_web_app(config: ServerConfig | None = None) -> FastAPI:
    app = create_app(config)
    app.add_middleware(SecurityHeaders)

    @app.get("/api/pages")
    async def page_list(request: Request) -> dict[str, Any]:
        """Each game's page data, its names in the reader's language where the game translates them."""
        with use_language(request_language(request)):
            return pages()

    @app.api_route("/games/{name}/page.js", methods=["GET", "HEAD"])
    async def game_page(name: str) -> Response:
        """A game's page module, from its own package (the plugin names the file)."""
        return _game_file(page_file(name, "script"), "text/javascript")

    @app.api_route("/games/{name}/page.css", methods=["GET", "HEAD"])
    async def game_style(name: str) -> Response:
        return _game_file(page_file(name, "style"), "text/css")

    @app.get("/i18n/{lang}.json")
    async def scripts_catalog(lang: str) -> Response:
        """The page scripts' catalog of a language, made from its web.po (the pages carry it too)."""
        if lang not in LANGUAGES:
            return JSONResponse({"error": "not found", "code": "not_found"}, status_code=404)
        return Response(catalog_json(lang), media_type="application/json", headers={"cache-control": "no-cache"})

    @app.get("/lang/{lang}")
    async def choose_language(lang: str, request: Request) -> Response:
        """The language switcher: remember the choice in a cookie and go back to the page it was on.
        A language Ludus does not speak changes nothing."""
        response = RedirectResponse(_back(request), status_code=303)
        if lang in LANGUAGES:
            response.set_cookie(COOKIE, lang, max_age=LANGUAGE_COOKIE_AGE, path="/", samesite="lax",
                                secure=request.url.scheme == "https")
        return response

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        return _page("index.html", request)

    @app.get("/me", response_class=HTMLResponse)
    async def account(request: Request) -> HTMLResponse:
        """The player's account and games (the page asks /api/me)."""
        return _page("account.html", request)

    @app.get("/ratings", response_class=HTMLResponse)
    async def ratings(request: Request) -> HTMLResponse:
        """The leaderboards of the rated games (the page asks /api/ratings/{game})."""
        return _page("ratings.html", request)

    @app.get("/players/{name}", response_class=HTMLResponse)
    async def player(name: str, request: Request) -> HTMLResponse:
        """An account's public ratings (the page asks /api/players/{name})."""
        return _page("player.html", request)

    @app.get("/bots/{kind}", response_class=HTMLResponse)
    async def bot(kind: str, request: Request) -> HTMLResponse:
        """A bot's public ratings (the page asks /api/bots/{kind})."""
        return _page("player.html", request)

    @app.get("/t/{code}", response_class=HTMLResponse)
    async def table(code: str, request: Request) -> HTMLResponse:
        return _page("table.html", request)

    @app.get("/t/{code}/replay", response_class=HTMLResponse)
    async def replay(code: str, request: Request) -> HTMLResponse:
        return _page("replay.html", request)

    @app.get("/learn/{game}", response_class=HTMLResponse)
    async def learn(game: str, request: Request) -> HTMLResponse:
        """A game's guided first game (the page asks /api/learn/{game} for each step)."""
        return _page("learn.html", request)

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
