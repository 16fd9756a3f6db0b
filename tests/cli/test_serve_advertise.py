"""``ludus serve --advertise URL`` is checked at start: one line saying what is wrong, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ludus.cli import main as cli_main
from ludus.cli.serve import check_advertise

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("url", "expected"), [
    ("http://10.0.0.5:8000", "http://10.0.0.5:8000"),
    ("https://games.example.org:443/", "https://games.example.org:443"),
    ("http://[::1]:9000", "http://[::1]:9000"),
    ("  http://host:1  ", "http://host:1"),
])
def test_a_base_url_with_host_and_port_is_accepted(url, expected):
    assert check_advertise(url) == expected


@pytest.mark.parametrize(("url", "words"), [
    ("10.0.0.5:8000", "http://"),
    ("ftp://host:21", "http://"),
    ("http://:8000", "no host"),
    ("http://host", "no port"),
    ("http://host:0", "no port"),
    ("http://host:99999", "port"),
    ("http://host:port", "port"),
    ("http://host:8000/ludus", "path"),
    ("http://host:8000?x=1", "query"),
    ("http://host:8000#top", "fragment"),
    ("http://user:pw@host:8000", "password"),
    ("", "http://"),
])
def test_anything_else_is_refused_with_a_reason(url, words):
    with pytest.raises(ValueError, match=words):
        check_advertise(url)


def test_serve_refuses_a_bad_advertise_in_one_line_with_status_2(tmp_path, capsys):
    db = tmp_path / "never.db"
    assert cli_main.main(["serve", "--database", str(db), "--advertise", "http://host:8000/path"]) == 2
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.strip()] == [" ".join(out.split())]  # one line
    assert "--advertise" in out and "path" in out and not db.exists()  # before the database is touched


def test_the_real_command_prints_no_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="80")
    proc = subprocess.run([sys.executable, "-m", "ludus.cli.main", "serve", "--port", "0", "--database",
                           str(tmp_path / "x.db"), "--advertise", "games.example.org"],
                          capture_output=True, text=True, timeout=120, cwd=REPO, env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: --advertise"), lines
    assert "Traceback" not in proc.stderr
