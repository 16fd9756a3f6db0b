"""``ludus tournament`` and ``ludus analyze`` in Spanish and Persian: their progress lines, tables
and reports' summaries through the catalogs (the files they write stay language-neutral)."""

from __future__ import annotations

import csv
import re

from ludus.cli.main import main

PERSIAN = re.compile("[\u0600-\u06ff]")


def run(monkeypatch, capsys, lang: str, *argv: str) -> str:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--lang", lang, *argv]) == 0
    out = capsys.readouterr()
    return out.out + out.err


def test_a_tournament_in_persian_and_spanish(tmp_path, monkeypatch, capsys):
    common = ["tournament", "--game", "gorus-maximus", "--option", "players=3", "--games", "4", "--seed", "7",
              "--workers", "1", "--no-plots"]
    text = run(monkeypatch, capsys, "fa", *common, "--out", str(tmp_path / "fa"))
    assert "مسابقهٔ" in text and "بذر ۷" in text and "مضربی از ۳ نیست" in text and "بر پایهٔ جایگاه" in text
    for english in ("tournament:", "Lineup", "not a multiple", "By seat", "95% CI", "Played in", "agent"):
        assert english not in text, english
    spanish = run(monkeypatch, capsys, "es", *common, "--out", str(tmp_path / "es"))
    assert "Torneo de" in spanish and "semilla 7" in spanish and "Por asiento" in spanish and "IC del 95" in spanish
    # the files are the same in any language
    for name in ("summary.csv", "results.csv"):
        assert (tmp_path / "fa" / name).read_text() == (tmp_path / "es" / name).read_text()
    with (tmp_path / "fa" / "summary.csv").open() as fh:
        assert [r["agent"] for r in csv.DictReader(fh)] == ["heuristic", "random#1", "random#2"]


def test_the_scenarios_list_and_a_balance_analysis_in_persian(tmp_path, monkeypatch, capsys):
    listed = run(monkeypatch, capsys, "fa", "analyze", "--game", "gladius", "--list")
    assert "سناریوهای" in listed and "کلید" in listed and "scenarios" not in listed
    text = run(monkeypatch, capsys, "fa", "analyze", "--game", "gladius", "--games", "2", "--seed", "3",
               "--agent", "random", "--workers", "1", "--no-plots", "--out", str(tmp_path / "a"))
    assert "تحلیل توازن" in text and "خلاصهٔ توازن" in text and PERSIAN.search(text)
    for english in ("balance analysis", "Balance summary", "Played", "win rates by seat"):
        assert english not in text, english
