"""The browser tests' fixtures: the service on a free loopback port and Debian's headless
Chromium in a fixed 1280x800 window (skipped where chromium or chromedriver is missing:
`apt-get install -y chromium chromium-driver`, which `make browser` does in CI)."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.remote.webdriver import WebDriver

from tools.service.api import create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WIDTH, HEIGHT = 1280, 800

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason="no headless browser: /usr/bin/chromium or /usr/bin/chromedriver is missing",
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The service on a free loopback port (a fresh database), run by uvicorn in a thread."""
    db = tmp_path / "games.db"
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(db, run_jobs=False), log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(600):  # until it listens (a bounded number of short waits)
        if srv.started:
            break
        started.wait(0.05)
    assert srv.started, "the service did not start"
    try:
        yield f"http://127.0.0.1:{port}", db
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    """Chromium, headless, its viewport exactly 1280x800; the console logged at every level."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=ChromeService(str(CHROMEDRIVER)))
    try:
        size = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        if size != [WIDTH, HEIGHT]:  # the window's frame: make the viewport itself 1280x800
            outer = driver.get_window_size()
            driver.set_window_size(
                outer["width"] + WIDTH - size[0], outer["height"] + HEIGHT - size[1]
            )
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where the screenshots go: $WARGAME_SCREENSHOTS when set, else the test's own folder."""
    folder = Path(os.environ.get("WARGAME_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
