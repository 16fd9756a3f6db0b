"""Files named by users are read only when they are regular files of a sensible size."""

from __future__ import annotations

import os

import pytest

from ludus.core import datafile
from ludus.core.errors import DataError, InvalidOptions, RecordError
from ludus.games import get_game


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


def test_regular_files_are_read_up_to_the_limit(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text("é" * 10, encoding="utf-8")
    assert datafile.read_text(path, 20, "card data") == "é" * 10
    with pytest.raises(DataError, match=r"card data .*a.toml is too large \(over 19 bytes\)"):
        datafile.read_text(path, 19, "card data")
    path.write_bytes(b"ok\n\xff")
    with pytest.raises(DataError, match=r"a.toml, line 2: not UTF-8 text"):
        datafile.read_text(path, 100, "card data")


@pytest.mark.parametrize("target, reason", [
    ("/dev/zero", "it is a device"), ("/", "it is a directory"), ("/nonexistent/x.toml", "No such file"),
    ("bad\x00name", "null byte"),
])
def test_other_files_are_refused_without_reading(target, reason):
    with pytest.raises(RecordError, match=f"cannot read record .*{reason}"):
        datafile.read_text(target, datafile.MiB, "record", RecordError)


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(fifo):
    with pytest.raises(DataError, match="it is a pipe"):
        datafile.read_bytes(fifo, 100, "card-set file")


def test_gladius_card_set_errors_stay_option_errors():
    with pytest.raises(InvalidOptions, match="cannot read card-set file /dev/zero"):
        get_game("gladius").new_initial_state({"card_sets": "/dev/zero"}, seed=1)
