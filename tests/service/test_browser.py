"""The play pages in a real headless browser: a Nomonhan match is created on `/` by clicking,
then played on its play page to the end by clicking only: a unit then a hex for the moves, the
action buttons otherwise, and the declaration builder (an incomplete declaration first, which
is explained with its clause, then the legal one). The server plays the Soviet side and the
dice. Skipped where Debian's chromium or chromedriver is missing
(`apt-get install -y chromium chromium-driver`, which `make browser` does in CI).

The loop is bounded by a number of clicks, never by the clock; the waits are for the page to
load after a click."""

from __future__ import annotations

import json
import random
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from tools.service.api import create_app
from tools.service.store import Store

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
MAX_CLICKS = 3000
LOAD_TIMEOUT = 60.0  # seconds a page may take to load after a click (generous: slow CI)
MOVE_SHARE = 0.5  # how often a step moves a unit by clicking when it may (else: a button)

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
    reason=(
        "no headless browser: /usr/bin/chromium or /usr/bin/chromedriver is missing "
        "(apt-get install -y chromium chromium-driver)"
    ),
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
            started.set()
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
        "--window-size=1700,1300",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=ChromeService(str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def _page(driver: WebDriver) -> dict[str, Any]:
    """The play page's state as its body says it, and its action buttons' actions."""
    page: dict[str, Any] = driver.execute_script(
        "const b = document.body.dataset;"
        "const all = (css, f) => Array.from(document.querySelectorAll(css), f);"
        "return {busy: b.busy, ply: b.ply, turn: b.turn,"
        " actions: all('#actions button.action', e => e.dataset.action),"
        " pieces: all('#board [data-piece]', e => e.getAttribute('data-piece'))};"
    )
    page["actions"] = [json.loads(a) for a in page["actions"]]
    return page


def _loaded(driver: WebDriver, after: str | None = None) -> dict[str, Any]:
    """Wait until the play page has loaded a position (a new one, when `after` is a ply) in
    which this side is to move or the game is over."""

    def ready(d: WebDriver) -> dict[str, Any] | Literal[False]:
        page = _page(d)
        if page["busy"] != "0" or page["turn"] not in ("mine", "over") or page["ply"] == after:
            return False
        return page

    page: dict[str, Any] = WebDriverWait(driver, LOAD_TIMEOUT, poll_frequency=0.02).until(ready)
    return page


def _click_at(driver: WebDriver, element: WebElement, dx: int = 0, dy: int = 0) -> None:
    """A real pointer click, `dx`/`dy` pixels from the element's centre."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    ActionChains(driver, duration=0).move_to_element_with_offset(element, dx, dy).click().perform()


def _click_unit(driver: WebDriver, unit: str) -> None:
    piece = driver.find_element(By.CSS_SELECTOR, f'#board [data-piece="{unit}"]')
    # a counter's top-left corner: a stack draws the next counter 4 px lower and to the right
    offset = -14 if piece.tag_name == "g" else 0
    _click_at(driver, piece, offset, offset)


def _click_cell(driver: WebDriver, cell: str) -> None:
    # left of the hex's centre, clear of the counters stacked on it
    _click_at(driver, driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]'), -22)


def _click_button(driver: WebDriver, index: int) -> None:
    xpath = f"(//*[@id='actions']//button[contains(@class, 'action')])[{index + 1}]"
    driver.find_element(By.XPATH, xpath).click()


def _build(driver: WebDriver, combats: list[dict[str, Any]]) -> None:
    """Add `combats` to the page's declaration builder by clicking units."""
    start = len(driver.find_elements(By.CSS_SELECTOR, "#combats li"))
    for i, combat in enumerate(combats, start):
        driver.find_element(By.ID, "add-combat").click()  # picks its attackers at once
        for unit in combat["attackers"]:
            _click_unit(driver, unit)
        row = f'#combats li[data-index="{i}"]'
        driver.find_element(By.CSS_SELECTOR, f"{row} .pick-defenders").click()
        for unit in combat["defenders"]:
            _click_unit(driver, unit)
        if combat["support"]:
            driver.find_element(By.CSS_SELECTOR, f"{row} .support").click()
        shown = driver.find_element(By.CSS_SELECTOR, row).text
        assert all(u in shown for u in combat["attackers"] + combat["defenders"]), shown


def _declare_with_the_builder(driver: WebDriver, legal: dict[str, Any], ply: str) -> None:
    """The legal declaration without its last combat first, which leaves units that must
    fight out (illegal, explained with its clauses); then the last combat added, proposed and
    so submitted."""
    combats = legal["combats"]
    _build(driver, combats[:-1])
    driver.find_element(By.ID, "propose").click()
    WebDriverWait(driver, LOAD_TIMEOUT).until(_has_clause)
    explanation = driver.find_element(By.ID, "explanation")
    assert "Illegal" in explanation.text, explanation.text
    clauses = [e.text for e in explanation.find_elements(By.CSS_SELECTOR, ".clause")]
    assert any(re.fullmatch(r"NOM-9\.\d+", c) for c in clauses), (explanation.text, clauses)
    assert _page(driver)["ply"] == ply, "an illegal declaration was submitted"
    _build(driver, combats[-1:])
    driver.find_element(By.ID, "propose").click()


def _has_clause(driver: WebDriver) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, "#explanation .clause"))


def _create_match(driver: WebDriver, base: str) -> str:
    """Create a Nomonhan match (preset ja) against the random agent on `/`, by clicking; open
    its play page; return the match id."""
    driver.get(base + "/?seed=5")  # the same dice and agent moves on every run
    WebDriverWait(driver, LOAD_TIMEOUT).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1"
    )
    Select(driver.find_element(By.ID, "game")).select_by_value("nomonhan")
    Select(driver.find_element(By.ID, "preset")).select_by_value("ja")
    driver.find_element(By.ID, "mode-random").click()
    Select(driver.find_element(By.ID, "side")).select_by_value("JP")
    driver.find_element(By.ID, "create").click()
    links = WebDriverWait(driver, LOAD_TIMEOUT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#links a")
    )
    roles = {a.get_attribute("data-role") for a in links}
    assert roles == {"JP", "SU", "referee"}, roles
    match_id = driver.find_element(By.ID, "match-id").text
    driver.find_element(By.ID, "open").click()
    WebDriverWait(driver, LOAD_TIMEOUT).until(lambda d: "/play/nomonhan/" in d.current_url)
    assert match_id in driver.current_url and "#token=" in driver.current_url
    return match_id


def test_a_nomonhan_game_is_played_to_its_end_by_clicking(
    server: tuple[str, Path], browser: WebDriver
) -> None:
    base, db = server
    match_id = _create_match(browser, base)
    rng = random.Random(20240)
    page = _loaded(browser)
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg [data-cell]"), "no board drawn"
    clicks = moves = 0
    built = False
    while page["turn"] != "over" and clicks < MAX_CLICKS:
        actions, ply = page["actions"], page["ply"]
        assert actions, "this side is to move but the page offers no action"
        declares = [a for a in actions if a["type"] == "declare" and a["combats"]]
        movable = [
            a
            for a in actions
            if "unit" in a and ("to" in a or "retreat_to" in a) and a["unit"] in page["pieces"]
        ]
        if declares and not built:
            combats = declares[0]["combats"]
            _declare_with_the_builder(browser, declares[0], ply)
            built = True
            clicks += sum(len(c["attackers"]) + len(c["defenders"]) + 3 for c in combats) + 2
        elif movable and rng.random() < MOVE_SHARE:
            action = rng.choice(movable)
            _click_unit(browser, action["unit"])
            narrowed = _page(browser)["actions"]
            assert narrowed and all(action["unit"] in json.dumps(a) for a in narrowed), narrowed
            _click_cell(browser, action.get("to") or action["retreat_to"])
            clicks += 2
            after = _page(browser)
            if after["busy"] == "0" and after["ply"] == ply:  # several name both: pick one
                _click_button(browser, after["actions"].index(action))
                clicks += 1
            moves += 1
        else:  # an action of a random type: ending a phase as likely as one more move
            kind = rng.choice(sorted({a["type"] for a in actions}))
            _click_button(
                browser, rng.choice([i for i, a in enumerate(actions) if a["type"] == kind])
            )
            clicks += 1
        page = _loaded(browser, after=ply)

    assert page["turn"] == "over", f"the game did not end within {MAX_CLICKS} clicks"
    assert built, "the game had no declaration to build"
    assert moves > 0, "no unit was moved by clicking"
    result = browser.find_element(By.ID, "result").text
    assert re.search(r"(Winner: (JP|SU)|A draw).* by NOM-\d+(\.\d+)*", result), result
    log = browser.find_elements(By.CSS_SELECTOR, "#log > li")
    assert len(log) >= int(page["ply"]) > 0
    chance = browser.find_elements(By.CSS_SELECTOR, "#log > li.chance .probability")
    assert chance and all(re.fullmatch(r"p = \d+/\d+", e.text) for e in chance)
    store = Store(db)
    try:
        assert store.replay(match_id) is True
    finally:
        store.close()
