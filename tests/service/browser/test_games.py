"""Every game played in a real headless browser (1280x800), hot-seat, by clicking only: each
side through its own link, each action built from the kernel's sub-decisions on the page (the
choices panel, or the units and hexes the choices name on the map). Nomonhan, Rattenkrieg and
Shumshu are played to their end; the SNC through two whole game turns (SNC-5.0.1). Every step
asserts the checks of `kit.Table` (buttons inside the window, no sideways scroll, no console
error, no referee resource asked with a side's token, no hidden id in a side's page). A
screenshot of each game's page goes to the test's folder (or $WARGAME_SCREENSHOTS)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.service.browser.conftest import pytestmark as pytestmark
from tests.service.browser.kit import LOAD_TIMEOUT, Table, create_match
from tools.service.store import Store


def _over(table: Table, page: dict[str, Any], clause: str) -> None:
    print(f"{table.match.game}: ply {page['ply']}, {table.clicks} clicks", end=" ")
    print(f"({table.map_clicks} on the map), {table.seats} seat changes", table.explained)
    assert page["turn"] == "over", f"the game did not end within {table.clicks} clicks"
    result = table.driver.find_element(By.ID, "result").text
    assert re.search(rf"(Winner: \w+|A draw).* by {clause}", result), result


def _explained(table: Table, prefix: str) -> None:
    """A unit, then a hex no choice names: explained with the game's clauses, not sent."""
    assert any(c.startswith(prefix) for c in table.explained), table.explained


def _replays(db: Path, match_id: str) -> None:
    store = Store(db)
    try:
        assert store.replay(match_id) is True
    finally:
        store.close()


def test_shumshu_is_played_to_its_end_by_clicking(
    server: tuple[str, Path], browser: WebDriver, shots: Path
) -> None:
    base, db = server
    match = create_match(browser, base, "shumshu", seed=3, preset="draft")
    table = Table(browser, match, random.Random(3))
    page = table.play(max_clicks=600)
    table.shot(shots, "shumshu")
    _over(table, page, r"SHU-[A-Z]+(\.\d+)*")
    _explained(table, "SHU-")
    assert any(label.startswith("place ") for label in table.labels), "no set-up placed"
    assert table.map_clicks > 0 and table.buttons > 0, (table.map_clicks, table.buttons)
    _replays(db, match.id)


def test_rattenkrieg_is_played_to_its_end_by_clicking(
    server: tuple[str, Path], browser: WebDriver, shots: Path
) -> None:
    base, db = server
    match = create_match(browser, base, "rattenkrieg", seed=4, preset="standard")
    table = Table(browser, match, random.Random(4))
    page = table.play(max_clicks=600)
    table.shot(shots, "rattenkrieg")
    _over(table, page, r"RKS-\d+(\.\d+)*")
    _explained(table, "RKS-")
    # RKS-10.1.1: a discard chosen card by card, then committed (RKS-10.1.2)
    cards = [i for i, label in enumerate(table.labels) if re.fullmatch(r"discard \w+", label)]
    assert cards, "no card discarded"
    assert table.labels[cards[0] + 1].startswith(("discard ", "discard: commit")), table.labels
    _replays(db, match.id)


def test_snc_is_played_through_two_game_turns_by_clicking(
    server: tuple[str, Path], browser: WebDriver, shots: Path
) -> None:
    base, db = server
    match = create_match(browser, base, "snc1937", seed=1, preset="standard")
    table = Table(browser, match, random.Random(1))

    def third_turn(t: Table) -> bool:
        return int(t.match.api("referee", "/state")["state"]["turn"]) >= 3

    moving: list[Path] = []

    def show_a_move(t: Table, page: dict[str, Any]) -> bool:
        """Once, a stack's move under way: the map focused on where it may go, pictured."""
        if (
            not moving
            and page["prefix"]
            and any(c["label"].startswith("commit: to") for c in page["choices"])
        ):
            t.click_button("#zoom-focus")
            moving.append(t.shot(shots, "snc1937-move"))
        return False

    table.play(max_clicks=900, until=third_turn, hook=show_a_move)
    table.shot(shots, "snc1937")
    assert third_turn(table), f"two game turns not played within {table.clicks} clicks"
    assert any(label.startswith("declare ") for label in table.labels), "no phase order"
    assert any(label.startswith("move: ") for label in table.labels), "no move built"
    assert moving, "no move was pictured"
    _explained(table, "SNC-")
    _replays(db, match.id)


def _declare_with_the_builder(table: Table, page: dict[str, Any]) -> bool:
    """Nomonhan's declaration builder, once: the legal declaration without its last combat
    first, which leaves units that must fight out (illegal, explained with its NOM-9 clause
    and not sent); then the last combat added, proposed and so submitted."""
    if getattr(table, "built", False) or not page["choices"]:
        return False
    if not any(c["label"].startswith("declare: ") for c in page["choices"]):
        return False
    legal = table.match.api(page["side"], "/view")["view"]["legal_actions"]
    declares = [a for a in legal if a["type"] == "declare" and len(a["combats"]) >= 1]
    if not declares:
        return False
    combats = declares[0]["combats"]
    _build(table, combats[:-1])
    table.click_button("#propose")
    WebDriverWait(table.driver, LOAD_TIMEOUT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#explanation .clause")
    )
    explanation = table.driver.find_element(By.ID, "explanation")
    assert "Illegal" in explanation.text, explanation.text
    clauses = [e.text for e in explanation.find_elements(By.CSS_SELECTOR, ".clause")]
    assert any(re.fullmatch(r"NOM-9\.\d+", c) for c in clauses), (explanation.text, clauses)
    assert table.page()["ply"] == page["ply"], "an illegal declaration was submitted"
    _build(table, combats[-1:])
    table.click_button("#propose")
    table.built = True  # type: ignore[attr-defined]
    return True


def _build(table: Table, combats: list[dict[str, Any]]) -> None:
    start = len(table.driver.find_elements(By.CSS_SELECTOR, "#combats li"))
    for i, combat in enumerate(combats, start):
        table.click_button("#add-combat")  # picks its attackers at once
        for unit in combat["attackers"]:
            assert table.click_map(f'[data-piece="{unit}"]', "corner"), unit
        row = f'#combats li[data-index="{i}"]'
        table.click_button(f"{row} .pick-defenders")
        for unit in combat["defenders"]:
            assert table.click_map(f'[data-piece="{unit}"]', "corner"), unit
        if combat["support"]:
            table.click_button(f"{row} .support")
        shown = table.driver.find_element(By.CSS_SELECTOR, row).text
        assert all(u in shown for u in combat["attackers"] + combat["defenders"]), shown


def test_nomonhan_is_played_to_its_end_by_clicking(
    server: tuple[str, Path], browser: WebDriver, shots: Path
) -> None:
    base, db = server
    match = create_match(browser, base, "nomonhan", seed=5, preset="ja")
    table = Table(browser, match, random.Random(2), closing=())
    page = table.play(max_clicks=600, hook=_declare_with_the_builder)
    table.shot(shots, "nomonhan")
    _over(table, page, r"NOM-\d+(\.\d+)*")
    _explained(table, "NOM-")
    assert getattr(table, "built", False), "the game had no declaration to build"
    assert table.map_clicks > 0, "no unit was moved by clicking the map"
    log = browser.find_elements(By.CSS_SELECTOR, "#log > li")
    assert len(log) >= int(page["ply"]) > 0
    chance = browser.find_elements(By.CSS_SELECTOR, "#log > li.chance .probability")
    assert chance and all(re.fullmatch(r"p = \d+/\d+", e.text) for e in chance)
    _replays(db, match.id)
