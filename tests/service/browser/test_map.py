"""The full-size map in a 1280x800 window (issue 35's check): a new SNC match's side link shows
the map and the actions without sideways scrolling, every action button inside the window,
the map opened on the side's own units, and the map zoomed and panned by the wheel, a drag,
the buttons and the keyboard (a drag never counts as a click on the map). Nomonhan's
declaration builder is not offered on an SNC page."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.service.browser.conftest import HEIGHT, WIDTH
from tests.service.browser.conftest import pytestmark as pytestmark
from tests.service.browser.kit import Match, Table

_BOX = """
const r = (e) => {
  const b = e.getBoundingClientRect();
  return [b.left, b.top, b.right, b.bottom];
};
const board = document.getElementById('board');
return {map: r(document.getElementById('map')), side: r(document.getElementById('side')),
  board: r(board), scale: Number(document.getElementById('map').dataset.scale),
  width: document.documentElement.scrollWidth, inner: window.innerWidth,
  buttons: Array.from(document.querySelectorAll('#side button, #zoom button'))
    .filter((e) => e.offsetParent !== null && e.closest('#choices, #path, #zoom')).map(r),
  own: Array.from(document.querySelectorAll('#board [data-piece^="CH-"]')).map(r),
  builder: getComputedStyle(document.getElementById('builder')).display};
"""


def _create(base: str) -> Match:
    req = urllib.request.Request(
        f"{base}/api/games/snc1937/matches",
        data=json.dumps({"seed": 2}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        body = json.loads(r.read())
    links = {role: f"{base}{link}" for role, link in body["links"].items()}
    return Match(base, "snc1937", body["id"], links)


def _inside(box: list[float], frame: list[float]) -> bool:
    return (
        box[0] >= frame[0] - 1
        and box[1] >= frame[1] - 1
        and box[2] <= frame[2] + 1
        and box[3] <= frame[3] + 1
    )


def test_the_snc_page_fits_a_1280x800_window_and_its_map_zooms_and_pans(
    server: tuple[str, Path], browser: WebDriver, shots: Path
) -> None:
    base, _db = server
    match = _create(base)
    table = Table(browser, match, rng=random.Random(0))
    page = table.sit("CH")
    table.check(page, hidden=True)
    box: dict[str, Any] = browser.execute_script(_BOX)
    window = [0.0, 0.0, float(WIDTH), float(HEIGHT)]
    assert box["width"] <= box["inner"] == WIDTH, box
    assert _inside(box["map"], window) and _inside(box["side"], window), box
    assert box["buttons"] and all(_inside(b, window) for b in box["buttons"]), box["buttons"]
    assert box["builder"] == "none", "Nomonhan's builder offered on an SNC page"
    # opened on the side's own units (SNC-5.3.1: the phase order is declared first)
    assert any(_inside(b, box["map"]) for b in box["own"]), "no CH unit in sight on load"
    table.shot(shots, "snc1937-opened")

    frame = browser.find_element(By.ID, "map")
    scale = box["scale"]
    ActionChains(browser).scroll_from_origin(ScrollOrigin.from_element(frame), 0, -300).perform()
    zoomed = browser.execute_script(_BOX)
    assert zoomed["scale"] > scale, (scale, zoomed["scale"])

    left = zoomed["board"][0]
    ActionChains(browser).move_to_element(frame).click_and_hold().move_by_offset(
        -120, 0
    ).move_by_offset(-40, 0).release().perform()
    dragged = browser.execute_script(_BOX)
    assert dragged["board"][0] < left - 100, (left, dragged["board"])
    after = table.page()
    assert (after["ply"], after["prefix"]) == (page["ply"], page["prefix"]), "a drag clicked"
    assert not browser.find_element(By.ID, "error").text, "a drag counted as a click"

    frame.send_keys(Keys.ARROW_LEFT)
    assert browser.execute_script(_BOX)["board"][0] > dragged["board"][0]
    frame.send_keys("0")  # the whole map
    fitted = browser.execute_script(_BOX)
    assert _inside(fitted["board"], fitted["map"]), fitted
    frame.send_keys("+")
    assert browser.execute_script(_BOX)["scale"] > fitted["scale"]
    table.click_button("#zoom-out")
    table.click_button("#zoom-out")
    assert browser.execute_script(_BOX)["scale"] < fitted["scale"]
    table.click_button("#zoom-focus")
    assert browser.execute_script(_BOX)["scale"] >= fitted["scale"]
    final = table.page()
    table.check(final)
    assert final["scroll"][0] == 0 and final["scroll"][2] <= WIDTH


def test_the_referee_page_finds_its_role_without_a_failing_call(
    server: tuple[str, Path], browser: WebDriver
) -> None:
    """The referee's link asks `/role` first, so its page never calls a side's `/view` (a 400
    and a console error on every load before) and reads the whole state instead."""
    base, _db = server
    match = _create(base)
    chrome: Any = browser  # the Chromium driver's own call
    chrome.get_log("browser")  # what earlier pages logged is theirs
    browser.get(match.links["referee"])
    table = Table(browser, match, rng=random.Random(0))
    page = table.settled()
    asked = page["asked"]
    assert any(p.endswith("/role") for p in asked), asked
    assert not any(p.endswith("/view") for p in asked), asked
    assert any(p.endswith("/state") for p in asked), asked
    severe = [e for e in chrome.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, severe
