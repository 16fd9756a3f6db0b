"""A command whose optional part (extra) is missing says what to install instead of failing later."""

from __future__ import annotations

import importlib.util

import pytest

from ludus.cli import main as cli_main


@pytest.mark.parametrize(("argv", "missing", "extra"), [
    (["serve"], "fastapi", "server"),
    (["tournament", "--game", "gorus-maximus", "--games", "2"], "matplotlib", "sim"),
    (["analyze", "--game", "gorus-maximus", "--list"], "openskill", "sim"),
])
def test_missing_extra_is_named(monkeypatch, capsys, argv, missing, extra):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a))
    assert cli_main.main(argv) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"pip install 'ludus[{extra}]'" in out
    assert missing in out


def test_missing_optional_module_met_late_is_named(monkeypatch, capsys):
    def run(args, console):
        raise ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")

    monkeypatch.setattr(cli_main, "missing_extra_message", lambda command: None)
    parser = cli_main.build_parser
    monkeypatch.setattr(cli_main, "build_parser", lambda: _with_run(parser(), run))
    assert cli_main.main(["serve"]) == 2
    assert "pip install 'ludus[parquet]'" in " ".join(capsys.readouterr().out.split())


def _with_run(parser, run):
    parse = parser.parse_args

    def parse_args(argv=None):
        args = parse(argv)
        args.run = run
        return args

    parser.parse_args = parse_args
    return parser


def test_every_command_is_listed():
    help_text = cli_main.build_parser().format_help()
    for command in ("games", "play", "replay", "tournament", "analyze", "serve"):
        assert command in help_text
