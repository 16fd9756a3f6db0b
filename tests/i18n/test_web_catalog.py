"""The browser's catalogs (the ``web`` domain: ludus/locale/<lang>/LC_MESSAGES/web.po) keep up with
the page scripts and HTML pages; the JSON the scripts read is made from them; a request's language
comes from the switcher's cookie, then Accept-Language, then English (docs/i18n.md)."""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path

import httpx
import pytest
from babel.messages.plurals import get_plural

from ludus.i18n import LANGUAGES, _, catalogs, use_language
from ludus.i18n.html import messages, translate_html
from ludus.i18n.web import accept_language, choose_language, web_catalog, web_translator
from ludus.server.config import ServerConfig
from ludus.server.refusals import refusal_text
from ludus.web.app import create_web_app
from ludus.web.translated import page_html

from ..server.helpers import LiveServer, Player, gm_table, is_view
from .test_glossary import GAMES, misses

WEB = catalogs.WEB_DOMAIN
OTHERS = [lang for lang in LANGUAGES if lang != "en"]
STATIC = Path(catalogs.PACKAGE) / "web" / "static"
BRACES = re.compile(r"\{(\w*)\}")
TAGS = re.compile(r"</?[a-z][^>]*>")
SCRIPTS = [*sorted(STATIC.glob("*.js")), *sorted(STATIC.glob("games/*.js")),
           *sorted(Path(catalogs.PACKAGE).glob("games/*/page.js"))]
CALL = re.compile(r'(?<![\w.$])(t|tf|tn|tnf|N_)\(\s*"((?:[^"\\]|\\.)*)"')


@pytest.fixture(scope="module")
def template():
    return catalogs.extract(WEB)


def entries(lang: str):
    """(msgids, translations, locations) of every message of a web catalog."""
    for m in catalogs.load(lang, WEB):
        if m.id:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            yield ids, strings, [loc for loc, _line in m.locations]


def test_the_web_catalogs_match_the_pages(template):
    """Fails when a new t() string or page text has no translation (python -m ludus.i18n.catalogs
    update, then translate), when a catalog keeps one the pages lost, or one is empty or fuzzy."""
    assert catalogs.problems(template, domain=WEB) == []


def test_extraction_finds_the_scripts_and_the_pages(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for expected in ("Play now", "Language", "Your turn.", "{count} player", "Round {number}", "Ludus — lobby",
                     'Log in to play rated games: <a href="/me">log in or create an account</a>.'):
        assert expected in ids
    assert "Ludus" not in ids  # translate="no"


def test_every_call_in_the_scripts_is_extracted(template):
    """Babel's JavaScript extractor does not see a t() call nested inside another one's arguments:
    each message must reach the catalog (write the inner one into a variable first)."""
    ids = set()
    for m in template:
        if m.id:
            ids.update(m.id if isinstance(m.id, tuple) else (m.id,))
    missed = []
    for script in SCRIPTS:
        code = "\n".join(line for line in script.read_text("utf-8").splitlines() if not line.lstrip().startswith("//"))
        for match in CALL.finditer(code):
            text = ast.literal_eval(f'"{match.group(2)}"')
            if text not in ids:
                missed.append(f"{script.name}: {text!r}")
    assert not missed


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_placeholders_and_tags(lang):
    wrong = []
    for ids, strings, _where in entries(lang):
        want = (Counter(BRACES.findall(ids[-1])), Counter(TAGS.findall(ids[-1])))
        for text in strings:
            got = (Counter(BRACES.findall(text)), Counter(TAGS.findall(text)))
            if set(got[0]) != set(want[0]) or got[1] != want[1]:
                wrong.append(f"{ids[0]!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_forms_are_the_languages_own(lang):
    catalog = catalogs.load(lang, WEB)
    plural = get_plural(lang)
    assert (catalog.num_plurals, catalog.plural_expr) == (plural.num_plurals, plural.plural_expr)
    assert not catalog.fuzzy
    plurals = [m for m in catalog if m.id and m.pluralizable]
    assert plurals and all(len(m.string) == plural.num_plurals and all(m.string) for m in plurals)


def _words(text: str) -> str:
    return re.sub(r"\b(cf-table|Ludus)\b", "", TAGS.sub("", BRACES.sub("", text)))


def test_persian_is_in_persian_script_with_persian_digits():
    """Every Persian translation of English words is in Persian script; a number written in the
    English text ("30 s per move") is written with Persian digits, and no Latin digit is left."""
    for ids, strings, _where in entries("fa"):
        for text in strings:
            if re.search("[A-Za-z]{2,}", _words(ids[0])):
                assert re.search("[\u0600-\u06ff]", text), (ids[0], text)
            assert not re.search("[0-9]", _words(text)), (ids[0], text)
            if re.search("[0-9]", _words(ids[0])):
                assert re.search("[۰-۹]", text), (ids[0], text)


SAME_IN_SPANISH = {"Bot", "Bots", "bot", "bot: {level}", "provisional", "provisional: {why}", "Provisional: {why}.",
                   "Total", "{minutes} min {seconds} s"}


def test_spanish_is_translated_not_copied():
    copied = [ids[0] for ids, strings, _where in entries("es") for text in strings
              if text == ids[0] and re.search("[a-zA-Z]{3,}", _words(ids[0])) and ids[0] not in SAME_IN_SPANISH]
    assert not copied


def _game_of(locations: list[str]) -> str | None:
    """The game whose page script alone says a message, or None for the shared pages."""
    games = {m.group(1) for loc in locations if (m := re.match(r"ludus/games/(\w+)/page\.js$", loc))}
    return games.pop() if len(games) == 1 and len(games) == len(locations) else None


NOT_GAME_TERMS = {"Rank", "no rank yet", "no rank yet (provisional)"}
"""The leaderboard's words for a player's place: not a card's rank (Gorus Maximus's "rank")."""


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", GAMES)
def test_web_catalog_uses_the_glossary_terms(lang, game):
    """The glossary check of tests/i18n/test_glossary.py over the browser's catalog: a game's page
    script says its game's terms with the glossary's words, and the shared pages (lobby, table)
    those of every game (a move, a seat, a hint read the same in each)."""
    pairs = [(ids[-1], text) for ids, strings, where in entries(lang)
             if _game_of(where) in (None, game) and ids[0] not in NOT_GAME_TERMS for text in strings]
    assert misses(lang, pairs, game) == []


@pytest.mark.parametrize("lang", OTHERS)
def test_the_scripts_json_is_made_from_the_po(lang):
    data = web_catalog(lang)
    assert data["lang"] == lang and data["dir"] == ("rtl" if lang == "fa" else "ltr")
    assert data["plurals"][-1] == "other" and len(data["plurals"]) == get_plural(lang).num_plurals
    for ids, strings, _where in entries(lang):
        want = list(strings) if len(ids) > 1 else strings[0]
        assert data["messages"][ids[0]] == want
    assert web_catalog("en")["messages"] == {}


# ----------------------------------------------------------------- the pages, translated on the server

PAGES = sorted(p.name for p in STATIC.glob("*.html") if p.name != "lang-switch.html")


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", PAGES)
def test_each_page_comes_out_in_the_language(lang, name):
    html = page_html(name, lang)
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "fa" else "ltr"}">' in html
    assert 'class="lang-switch"' in html and f'href="/lang/{lang}" aria-current="true"' in html
    assert '<script type="application/json" id="ludus-i18n">' in html
    block = html.split('id="ludus-i18n">', 1)[1].split("</script>", 1)[0]
    assert json.loads(block)["lang"] == lang
    english = {m for _line, m in messages(STATIC.joinpath(name).read_text("utf-8"))}
    translated = web_translator(lang).gettext
    left = [m for _line, m in messages(html.replace(block, "")) if m in english and translated(m) != m]
    assert not left


def test_the_english_page_is_the_source_with_the_switcher():
    html = page_html("index.html", "en")
    assert '<html lang="en" dir="ltr">' in html and "ludus-i18n" not in html
    assert ">Play now<" in html and 'href="/lang/en" aria-current="true"' in html


def test_html_messages_and_their_markers():
    page = ('<p title="A tip">Hello <b>there</b></p><p data-i18n>Go <a href="/x">here</a>.</p>'
            '<h1 translate="no">Ludus</h1><script>var s = "No";</script><input placeholder="Your name">')
    assert [m for _l, m in messages(page)] == ["A tip", "Hello", "there", 'Go <a href="/x">here</a>.', "Your name"]
    upper = translate_html(page, str.upper)
    assert 'title="A TIP"' in upper and ">HELLO <b>THERE</b>" in upper and 'GO <A HREF="/X">HERE</A>.' in upper
    assert ">Ludus<" in upper and 'var s = "No";' in upper and 'placeholder="YOUR NAME"' in upper
    assert translate_html("<p>a &amp; b</p>", lambda m: m + " <x>") == "<p>a &amp; b &lt;x&gt;</p>"


# ----------------------------------------------------------------- which language

@pytest.mark.parametrize("header, lang", [
    ("es-MX,es;q=0.9,en;q=0.8", "es"), ("fa-IR", "fa"), ("de-DE,fa;q=0.5,es;q=0.7", "es"),
    ("en-US,en;q=0.9", "en"), ("de", None), ("", None), (None, None), ("es;q=0, fa;q=0.1", "fa"),
    ("*", None), ("es;q=abc", None), ("<script>", None), ("fa;q=2", None), ("x" * 2000, None),
    ("ES", "es"), ("es-419;q=0.3, en;q=0.2", "es"),
])
def test_accept_language_with_q_values(header, lang):
    assert accept_language(header) == lang


@pytest.mark.parametrize("cookie, header, lang", [
    ("fa", "es", "fa"), ("es", None, "es"), ("en", "fa", "en"),
    ("xx", "fa-IR", "fa"), ("../../etc", "es", "es"), ("", None, "en"), ("FA", None, "en"), (None, "de", "en"),
])
def test_the_cookie_first_then_the_header_then_english(cookie, header, lang):
    assert choose_language(cookie, header) == lang


def test_a_refusal_is_said_in_the_readers_language():
    reason = {"code": "gorus-maximus.must-follow", "params": {"school": "GA", "rank": 4}}
    english = "you hold a Green Arrows gladiator: follow Green, or Challenge with a 4"
    assert refusal_text("gorus-maximus", english, reason, "en") == english
    assert "Desafía" in refusal_text("gorus-maximus", english, reason, "es")
    persian = refusal_text("gorus-maximus", english, reason, "fa")
    assert "چالش" in persian and "۴" in persian
    # parameters the adapter does not expect, or no code: the English reason, never a traceback
    assert refusal_text("gorus-maximus", english, {"code": "gorus-maximus.must-follow", "params": {}}, "es") == english
    assert refusal_text("no-such-game", english, {"code": "x", "params": {}}, "es") == english


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    db = tmp_path_factory.mktemp("web-i18n") / "ludus.db"
    server = LiveServer(ServerConfig(database=f"sqlite:///{db}"), make_app=create_web_app)
    yield server
    server.stop()


def test_the_server_chooses_and_the_switcher_remembers(web):
    with httpx.Client(base_url=web.url, timeout=10) as http:
        assert 'lang="es"' in http.get("/", headers={"accept-language": "es-MX,en;q=0.5"}).text
        page = http.get("/t/ABCD", headers={"accept-language": "fa"})
        assert page.headers["vary"] == "cookie, accept-language" and 'dir="rtl"' in page.text
        assert 'lang="en"' in http.get("/", headers={"cookie": "ludus_lang=klingon", "accept-language": "de"}).text
        host = web.url.split("//", 1)[1]
        answer = http.get("/lang/fa", headers={"referer": f"http://{host}/ratings?game=gladius"})
        assert answer.status_code == 303 and answer.headers["location"] == "/ratings?game=gladius"
        assert "ludus_lang=fa" in answer.headers["set-cookie"]
        assert http.get("/lang/fa", headers={"referer": "http://elsewhere.example/x"}).headers["location"] == "/"
        refused = http.get("/lang/xx")
        assert refused.status_code == 303 and "set-cookie" not in refused.headers
        assert 'lang="fa"' in http.get("/me").text  # the cookie the switcher set
        catalog = http.get("/i18n/es.json")
        assert catalog.status_code == 200 and catalog.json()["messages"]["Play now"] == "Jugar ya"
        assert http.get("/i18n/xx.json").status_code == 404
        games = http.get("/api/games", headers={"cookie": "ludus_lang=fa"}).json()
        assert any(g["title"] == "گوروس ماکسیموس" for g in games)
        assert all(g["title"].isascii() for g in http.get("/api/games", headers={"cookie": "ludus_lang=en"}).json())


def suggestions(games: list[dict], game: str, option: str) -> dict[str, str]:
    info = next(o for o in next(g for g in games if g["name"] == game)["options"] if o["name"] == option)
    assert all(set(s) <= {"value", "label", "players"} for s in info["suggestions"]), info  # no message, no words
    return {s["value"]: s["label"] for s in info["suggestions"]}


def test_the_options_suggestions_are_labelled_in_the_language(web):
    """The lobby's lists (Gladius's fighter types, Gorus Maximus's team splits) in the reader's
    language; in English exactly the labels the games declare."""
    with httpx.Client(base_url=web.url, timeout=10) as http:
        said = {lang: http.get("/api/games", headers={"accept-language": lang}).json() for lang in ("en", "es", "fa")}
    assert suggestions(said["en"], "gladius", "fighter1")["lion"].startswith("Lion (an animal;")
    english = suggestions(said["en"], "gorus-maximus", "teams")
    assert english["2v2v1"] == "2 v 2 v 1: two teams of two and one player alone"
    assert suggestions(said["es"], "gladius", "fighter1")["lion"].startswith("León (un animal;")
    assert suggestions(said["es"], "gorus-maximus", "teams")["3v2"] == "3 v 2: un equipo de tres y un equipo de dos"
    fighters, teams = suggestions(said["fa"], "gladius", "fighter1"), suggestions(said["fa"], "gorus-maximus", "teams")
    labels = [*fighters.values(), *teams.values()]
    assert all(re.search("[\u0600-\u06ff]", label) for label in labels), labels


def test_a_refused_move_is_said_in_the_sockets_language(web):
    """The WebSocket's handshake carries the cookie or Accept-Language: a rule's refusal comes
    in that language, with the same language-neutral reason beside it, and so do the server's own refusals."""
    ann, bob = Player(web), Player(web)
    try:
        code = gm_table(ann, ["human", "human"], options={"schools": "BF,GA,PA"})["code"]
        bob.post(f"/api/tables/{code}/join", {"name": "Bob"})
        sockets = [ann.ws(code, **{"Accept-Language": "es-ES,es;q=0.9"}), bob.ws(code, **{"Accept-Language": "fa"})]
        for ws in sockets:
            ws.until(lambda m: is_view(m) and m["table"]["status"] == "playing")
        mover = sockets[sockets[0].view["to_move"][0]]
        hand = mover.view["observation"]["hand"]
        missing = next(c for c in ("BF4", "GA4", "PA4", "BF5", "GA5", "PA5", "BF6") if c not in hand)
        mover.send({"type": "act", "action": {"play": missing}, "moves": mover.view["moves"]})
        err = mover.error()
        assert err["code"] == "illegal" and err["reason"]["code"] == "gorus-maximus.not-held"
        if mover is sockets[0]:
            assert err["message"].startswith("no tienes"), err
        else:
            assert "در دست ندارید" in err["message"] and re.search("[۴-۶]", err["message"]), err
        other = sockets[1] if mover is sockets[0] else sockets[0]
        other.send({"type": "act", "action": {"play": other.view["observation"]["hand"][0]}, "moves": 0})
        # the server's own refusals are said in the socket's language too
        assert other.error()["message"] == ("no es tu turno" if other is sockets[0] else "نوبت شما نیست")
        for ws in sockets:
            ws.close()
    finally:
        ann.close()
        bob.close()


def test_an_option_check_is_refused_in_the_readers_language(web):
    """The engine's option checks carry their message's template: the server's ``bad_options``
    error says it in the request's language; an English reader gets the engine's own sentence."""
    with httpx.Client(base_url=web.url, timeout=10) as http:
        said = {lang: http.post("/api/games/gorus-maximus/options", json={"options": {"players": 12}},
                                headers={"accept-language": lang}) for lang in ("en", "es", "fa")}
    assert all(r.status_code == 400 and r.json()["code"] == "bad_options" for r in said.values())
    assert said["en"].json()["error"].startswith("Gorus Maximus is for 1 to 8 players, not 12")
    assert said["es"].json()["error"].startswith("Gorus Maximus es para 1 a 8 jugadores, no 12")
    assert re.search("[\u0600-\u06ff]", said["fa"].json()["error"]) and "۱۲" in said["fa"].json()["error"]


def test_the_servers_own_refusals_are_said_in_the_readers_language(web):
    """A refusal of the server itself (no such table, a wrong number of seats, quick play's player
    counts) is a catalog message: said in the request's language, numbers in its digits, a game's
    title inside it translated too; an English reader gets the English sentence."""
    def said(lang: str) -> list[dict]:
        headers = {"accept-language": lang}
        with httpx.Client(base_url=web.url, timeout=10) as http:
            answers = [http.get("/api/tables/ZZZZZZ", headers=headers),
                       http.post("/api/tables", headers=headers,
                                 json={"game": "gorus-maximus", "options": {"players": 4}, "name": "Ann",
                                       "seats": [{"kind": "human"}]}),
                       http.post("/api/quick", headers=headers, json={"game": "gladius", "players": 5, "name": "Ann"})]
        assert [(r.status_code, r.json()["code"]) for r in answers] == [(404, "no_table"), (400, "bad_seats"),
                                                                         (400, "bad_players")]
        return [r.json()["error"] for r in answers]

    assert said("en") == ["there is no table 'ZZZZZZ'", "these options make a game of 4 seats, but 1 were given",
                          "quick play for Gladius is for 2 players"]
    assert said("es-ES") == ["no hay ninguna mesa 'ZZZZZZ'",
                             "estas opciones dan una partida de 4 asientos, pero se dieron 1",
                             "«Jugar ya» de Gladius es para 2 jugadores"]
    persian = said("fa")
    assert all(re.search("[\u0600-\u06ff]", text) for text in persian), persian
    assert "ZZZZZZ" in persian[0] and "۴" in persian[1] and "۱" in persian[1] and not re.search("[0-9]", persian[1])
    with use_language("fa"):
        assert _("Gladius") in persian[2] and _("Gladius") != "Gladius"
