"""Browser tests: a real ``ludus serve`` process and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = os.environ.get("LUDUS_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, as .ci/run does)", allow_module_level=True)


class ServerProcess:
    """``ludus serve`` in a child process; ``kill`` is SIGKILL, ``start`` reuses the same port and file."""

    def __init__(self, db: Path, bot_delay: float = 0.05) -> None:
        self.db, self.bot_delay = db, bot_delay
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.output: list[str] = []
        self.start()

    def command(self) -> list[str]:
        """What starts the server (a subclass may start it through a launcher of its own)."""
        return [sys.executable, "-m", "ludus.cli.main", "serve", "--port", str(self.port), "--database", str(self.db),
                "--bot-delay", str(self.bot_delay)]

    cwd: str | None = None  # the server's working folder (None: the tests')

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=self.cwd)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line + self.proc.stdout.read()
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        proc = self.proc
        threading.Thread(target=lambda: self.output.extend(proc.stdout), daemon=True).start()
        for _ in range(200):
            try:
                httpx.get(self.url + "/api/games", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not answer")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def live(tmp_path):
    server = ServerProcess(tmp_path / "web.db")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
