"""No option that makes a game read a file on the host can be set from the web.

Which options read files is found out, not taken on trust: every free-text option of every
game is set to the path of a real file while an audit hook watches every ``open``. An option
that opens it must be declared ``host_path``; the server must neither offer nor accept such
an option, and nothing a remote player can send may open the file.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest

from ludus.core.errors import LudusError
from ludus.games import game_names, get_game
from ludus.server.hub import server_options

_watched: set[str] = set()
_opened: list[str] = []


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _watched and args and isinstance(args[0], (str, bytes, Path)):
        path = str(Path(args[0].decode() if isinstance(args[0], bytes) else args[0]).resolve())
        if path in _watched:
            _opened.append(path)


sys.addaudithook(_audit)  # hooks cannot be removed; this one only looks while _watched is set


@pytest.fixture
def bait(tmp_path):
    """A real TOML file; its path is what the options get, and any open of it is recorded."""
    path = tmp_path / "bait.toml"
    path.write_text("# nothing here\n", encoding="utf-8")
    _watched.add(str(path.resolve()))
    _opened.clear()
    yield path
    _watched.clear()
    _opened.clear()


def _free_text_options(name: str):
    return [info for info in get_game(name).describe_options() if info.kind == "str" and not info.choices]


def _opens_file(name: str, option: str, path: Path) -> bool:
    game = get_game(name)
    _opened.clear()
    # refused after reading it (the bait is no card data) still counts as reading
    with contextlib.suppress(LudusError):
        game.new_initial_state(game.parse_options({option: str(path)}), seed=1)
    return bool(_opened)


@pytest.mark.parametrize("name", game_names())
def test_every_option_that_reads_a_file_is_declared(name, bait):
    for info in _free_text_options(name):
        opened = _opens_file(name, info.name, bait)
        assert opened == info.host_path, (
            f"{name} option {info.name!r}: opens the file: {opened}, declared host_path: {info.host_path}")


def test_the_audit_hook_sees_a_file_option_read(bait):
    # the check above means something only if a declared option really is seen reading its file
    declared = [(n, i.name) for n in game_names() for i in _free_text_options(n) if i.host_path]
    assert declared, "no game declares a file option any more; this test needs another witness"
    assert all(_opens_file(n, o, bait) for n, o in declared)


@pytest.mark.parametrize("name", game_names())
def test_the_server_offers_no_file_option(name):
    offered = {o["name"] for o in server_options(get_game(name))}
    declared = {i.name for i in get_game(name).describe_options() if i.host_path}
    assert not offered & declared


@pytest.mark.parametrize("name", game_names())
def test_no_option_sent_from_the_web_opens_a_host_file(name, bait, player):
    game = get_game(name)
    for info in _free_text_options(name):
        for key in (info.name, info.name.replace("_", "-")):
            _opened.clear()
            options = {key: str(bait)}
            checked = player.post(f"/api/games/{name}/options", {"options": options})
            seats = [{"kind": "bot"}] * game.num_seats(game.parse_options({}))
            created = player.post("/api/tables", {"game": name, "options": options, "seats": seats})
            assert not _opened, f"{name} option {key!r} made the server open {bait}"
            if info.host_path:
                assert checked.status_code == 400 and checked.json()["code"] == "bad_options", checked.text
                assert created.status_code == 400 and created.json()["code"] == "bad_options", created.text
