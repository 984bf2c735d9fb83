"""Playing a hot-seat match in the browser by clicking only: each side through its own link
(its token), the pages' sub-decision choices clicked one by one (or the units and hexes they
name on the map). Every step checks the page as a player would see it: each clicked button
inside the 1280x800 window, no sideways scrolling, no console error, no referee resource asked
with a side's token, and no id hidden from the side in its page.

The loops are bounded by counts of clicks, never by the clock; the waits are for the page to
load after a click."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.service.browser.scripts import EMPTY_CELLS, PAGE, RECT, TEXT
from tools.registry import get_game, get_package

LOAD_TIMEOUT = 60.0  # seconds a page may take to load after a click (generous: slow CI)
PREFER = (
    "done", "end", "pass", "stand", "accept", "declare: commit", "defence: commit",
    "discard: commit", "strike no", "hold no", "intercept no", "commit: to",
)  # fmt: skip
"""Choices that close a phase or a compound choice: taken often, the games stay short."""


@dataclass
class Match:
    base: str
    game: str
    id: str
    links: dict[str, str]  # role -> the play page's address with its token

    def token(self, role: str) -> str:
        return self.links[role].split("#token=", 1)[1]

    def api(self, role: str, path: str) -> Any:
        """GET a resource of the match with `role`'s token (the test's own look, not the
        page's)."""
        req = urllib.request.Request(
            f"{self.base}/api/games/{self.game}/matches/{self.id}{path}",
            headers={"Authorization": f"Bearer {self.token(role)}"},
        )
        with urllib.request.urlopen(req, timeout=LOAD_TIMEOUT) as r:
            return json.loads(r.read())


def create_match(driver: WebDriver, base: str, game: str, seed: int, preset: str) -> Match:
    """Create a hot-seat match of `game` on `/` by clicking; its links by role."""
    driver.get(f"{base}/?seed={seed}")  # the same dice on every run
    WebDriverWait(driver, LOAD_TIMEOUT).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1"
    )
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    Select(driver.find_element(By.ID, "preset")).select_by_value(preset)
    driver.find_element(By.ID, "mode-hotseat").click()
    driver.find_element(By.ID, "create").click()
    links = WebDriverWait(driver, LOAD_TIMEOUT).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#links a")
    )
    by_role = {str(a.get_attribute("data-role")): str(a.get_attribute("href")) for a in links}
    sides = get_game(game).sides
    assert set(by_role) == {*sides, "referee"}, by_role
    match_id = driver.find_element(By.ID, "match-id").text
    return Match(base, game, match_id, by_role)


def words(label: str) -> list[str]:
    return [w for w in re.split(r"[\s:,=]+", label) if w]


def strings(v: Any, out: set[str] | None = None) -> set[str]:
    """Every string in a JSON value (keys left out)."""
    out = set() if out is None else out
    if isinstance(v, str):
        out.add(v)
    elif isinstance(v, list):
        for x in v:
            strings(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            strings(x, out)
    return out


def game_ids(game: str) -> set[str]:
    """The ids the hidden-id check looks for: the game's units and, where it has them, its
    cards (the codec's own vocabularies)."""
    codec: Any = get_package(game).spiel(get_game(game))[0].codec  # type: ignore[misc]
    ids = set(codec.units)
    cards = getattr(codec, "card_ix", None)
    if cards:
        ids |= set(cards)
    return ids


@dataclass
class Table:
    """One hot-seat match played by clicking, a side's page at a time."""

    driver: WebDriver
    match: Match
    rng: random.Random
    prefer: float = 0.8  # how often a closing choice is taken when one is offered
    closing: tuple[str, ...] = PREFER  # the labels (their beginnings) of those choices
    map_share: float = 0.5  # how often a choice naming visible map elements is clicked there
    clicks: int = 0
    map_clicks: int = 0
    buttons: int = 0
    seat: str | None = None
    seats: int = 0  # how many times the other side's link was opened
    labels: list[str] = field(default_factory=list)  # every choice clicked, in order
    console: list[str] = field(default_factory=list)
    checked: set[tuple[str, str]] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    explained: list[str] = field(default_factory=list)  # the clauses of an illegal proposal

    def __post_init__(self) -> None:
        self.ids = game_ids(self.match.game)
        self.sides = get_game(self.match.game).sides
        self.open = get_game(self.match.game).perfect_information  # nothing is hidden

    # --- reading the page ------------------------------------------------------------------
    def page(self) -> dict[str, Any]:
        page: dict[str, Any] = self.driver.execute_script(PAGE)
        return page

    def settled(self) -> dict[str, Any]:
        """The page once it has stopped loading."""

        def ready(d: WebDriver) -> dict[str, Any] | Literal[False]:
            p = self.page()
            return p if p["busy"] == "0" and p["turn"] in ("mine", "over", "waiting") else False

        page: dict[str, Any] = WebDriverWait(self.driver, LOAD_TIMEOUT, poll_frequency=0.02).until(
            ready
        )
        return page

    def sit(self, side: str) -> dict[str, Any]:
        """Open `side`'s link (a fresh page load, its token only)."""
        # the same page with another token in its fragment: it reloads itself (hashchange)
        self.driver.execute_script("document.body.dataset.stale = '1'")
        self.driver.get(self.match.links[side])
        WebDriverWait(self.driver, LOAD_TIMEOUT, poll_frequency=0.02).until(
            lambda d: d.execute_script("return document.body.dataset.stale") is None
        )
        self.seat = side
        self.seats += 1
        page = self.settled()
        assert page["side"] == side, page
        return page

    # --- the checks ------------------------------------------------------------------------
    def check(self, page: dict[str, Any], *, hidden: bool = False) -> None:
        """No sideways scroll; no console error; a side's page asked only its own resources;
        with `hidden` (a side's page just loaded for its turn, and the last page), it shows
        no id hidden from that side (asked once per side and ply)."""
        sx, sy, width, inner = page["scroll"]
        assert sx == 0 and width <= inner, f"the page scrolls sideways: {page['scroll']}"
        assert sy == 0, f"the page itself scrolled: {page['scroll']}"
        chrome: Any = self.driver  # the Chromium driver's own call
        for entry in chrome.get_log("browser"):
            if entry.get("level") == "SEVERE":
                self.console.append(str(entry.get("message")))
        assert not self.console, self.console
        referee = [p for p in page["asked"] if p.endswith(("/state", "/chance"))]
        assert not referee, f"{page['side']}'s page asked a referee resource: {referee}"
        key = (page["side"], page["ply"])
        if not hidden or key in self.checked or page["side"] not in self.sides or self.open:
            return
        self.checked.add(key)
        unseen = self.hidden_from(page["side"])
        if unseen:
            text = self.driver.execute_script(TEXT)
            shown = {x: m for x in unseen if (m := re.search(_bounded(x), text))}
            where = {x: text[max(m.start() - 80, 0) : m.end() + 40] for x, m in shown.items()}
            assert not shown, f"{page['side']}'s page shows ids hidden from it: {where}"

    def hidden_from(self, side: str) -> set[str]:
        """The game's ids in the whole state that `side` has not been shown: neither in its
        own view nor in its own log (which says, e.g., the cards it discarded itself,
        RKS-10.1.1). What those two resources may hold is the service's own test
        (`tests/service/test_no_leak.py`); here, that the page shows nothing more."""
        state = self.match.api("referee", "/state")["state"]
        seen = strings(self.match.api(side, "/view"))
        for entry in self.match.api(side, "/log")["entries"]:
            seen |= set(re.findall(r"[A-Za-z0-9-]+", " ".join([entry["text"], *entry["events"]])))
        return (strings(state) & self.ids) - seen

    def inside(self, element: Any) -> None:
        left, top, right, bottom, w, h = self.driver.execute_script(RECT, element)
        # a pixel's rounding allowed: scrolled into view, a button may end at y = 800.03
        assert left >= -1 and right <= w + 1 and top >= -1 and bottom <= h + 1, (
            f"clicked outside the {w}x{h} window: {(left, top, right, bottom)}"
        )

    # --- clicking --------------------------------------------------------------------------
    def click_button(self, css: str) -> None:
        """Click a button as a player does: scrolled into its panel's view, then clicked
        where it is (asserted inside the window)."""
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", element)
        self.inside(element)
        element.click()
        self.clicks += 1

    def click_choice(self, choice: dict[str, str]) -> None:
        self.labels.append(choice["label"])
        self.click_button(f'#choices button.choice[data-id="{choice["id"]}"]')
        self.buttons += 1

    def click_map(self, css: str, where: str) -> bool:
        """Click a map element (its top-left corner for a counter, left of centre for a hex)
        when it is wholly in sight; False when it is not."""
        found = self.driver.find_elements(By.CSS_SELECTOR, f"#board {css}")
        if not found:
            return False
        left, top, right, bottom, _w, _h = self.driver.execute_script(RECT, found[0])
        frame = self.driver.find_element(By.ID, "map")
        fl, ft, fr, fb, _w, _h = self.driver.execute_script(RECT, frame)
        if not (fl <= left and right <= fr and ft <= top and bottom <= fb - 2):
            return False
        width, height = right - left, bottom - top
        dx, dy = (-width / 2 + 3, -height / 2 + 3) if where == "corner" else (-width / 4, 0)
        ActionChains(self.driver, duration=0).move_to_element_with_offset(
            found[0], int(dx), int(dy)
        ).click().perform()
        self.clicks += 1
        self.map_clicks += 1
        self.settled()
        return True

    def by_map(self, page: dict[str, Any], choice: dict[str, str]) -> bool:
        """Make `choice` by clicking what it names on the map (a unit, then a hex): True when
        the page took it (the prefix or the ply moved on)."""
        if page["scale"] < 0.6:
            return False
        named = words(choice["label"])
        pieces = [w for w in named if self._on_map("data-piece", w)]
        cells = [w for w in named if self._on_map("data-cell", w)]
        if len(pieces) > 1 or len(cells) > 1 or not (pieces or cells):
            return False
        before = (page["ply"], page["prefix"])
        if pieces and not self.click_map(f'[data-piece="{pieces[0]}"]', "corner"):
            return False
        now = self.page()
        if (now["ply"], now["prefix"]) != before:
            return True
        if cells and not self.click_map(f'[data-cell="{cells[0]}"]', "centre"):
            return False
        now = self.page()
        return (now["ply"], now["prefix"]) != before

    def _on_map(self, attr: str, name: str) -> bool:
        return bool(self.driver.find_elements(By.CSS_SELECTOR, f'#board [{attr}="{name}"]'))

    def zoom_in(self) -> dict[str, Any]:
        """Zoom with the map's buttons until counters can be clicked (scale 0.6 or more)."""
        page = self.page()
        for _ in range(6):
            if page["scale"] >= 0.6:
                break
            self.click_button("#zoom-in")
            page = self.page()
        return page

    def propose_illegal(self, page: dict[str, Any]) -> bool:
        """Once: a unit clicked, then a hex no choice names, as a player trying a move the
        rules forbid. The page asks the explain route and shows the clauses; nothing is sent.
        False when no such unit and hex are in sight now."""
        page = self.zoom_in()
        heads = [c for c in page["choices"] if c["label"].startswith("move: ")]
        if heads:  # an SNC group: its first unit chosen, then a hex its commits do not name
            self.click_choice(heads[0])
            page = self.settled()
        else:
            movers = [
                c
                for c in page["choices"]
                if len([w for w in words(c["label"]) if self._on_map("data-piece", w)]) == 1
                and any(self._on_map("data-cell", w) for w in words(c["label"]))
            ]
            unit = next(
                (w for c in movers for w in words(c["label"]) if self._on_map("data-piece", w)),
                None,
            )
            if unit is None or not self.click_map(f'[data-piece="{unit}"]', "corner"):
                return False
            page = self.settled()
        named = sorted({w for c in page["choices"] for w in words(c["label"])})
        empty = self.driver.execute_script(EMPTY_CELLS, named)
        before = (page["ply"], page["prefix"])
        if not empty or not self.click_map(f'[data-cell="{empty[0]}"]', "centre"):
            self.click_button("#clear")
            return False
        WebDriverWait(self.driver, LOAD_TIMEOUT).until(
            lambda d: (
                d.find_elements(By.CSS_SELECTOR, "#explanation .clause")
                or "Legal" in d.find_element(By.ID, "explanation").text
            )
        )
        text = self.driver.find_element(By.ID, "explanation").text
        assert text.startswith("Illegal"), text
        self.explained = [
            e.text for e in self.driver.find_elements(By.CSS_SELECTOR, "#explanation .clause")
        ]
        now = self.settled()
        assert (now["ply"], now["prefix"]) == before, "an illegal proposal was sent"
        self.click_button("#clear")
        return True

    # --- playing ---------------------------------------------------------------------------
    def choose(self, choices: list[dict[str, str]]) -> dict[str, str]:
        """A closing choice (`closing`) with probability `prefer` when one is offered; with
        no closing labels, a kind of choice first (its first word: "move", "end", ...), then
        one of that kind, so that ending a phase is as likely as one more move."""
        if not self.closing:
            kinds = sorted({re.split(r"[\s:]+", c["label"])[0] for c in choices})
            kind = self.rng.choice(kinds)
            return self.rng.choice(
                [c for c in choices if re.split(r"[\s:]+", c["label"])[0] == kind]
            )
        closing = [c for c in choices if c["label"].startswith(self.closing)]
        if closing and self.rng.random() < self.prefer:
            return self.rng.choice(closing)
        return self.rng.choice(choices)

    def step(self, hook: Callable[[Table, dict[str, Any]], bool] | None = None) -> bool:
        """One click (or a seat change); False once the game is over."""
        page = self.settled()
        self.check(page)
        if page["turn"] == "over":
            self.check(page, hidden=True)
            return False
        if page["turn"] == "waiting":
            assert page["toMove"] in self.sides and page["toMove"] != page["side"], page
            self.check(self.sit(page["toMove"]), hidden=True)
            return True
        if hook is not None and hook(self, page):
            return True
        if not self.explained and not page["prefix"] and self.propose_illegal(page):
            return True
        if not page["choices"]:  # a selection left from the map: clear it
            self.click_button("#clear")
            return True
        choice = self.choose(page["choices"])
        if self.rng.random() < self.map_share and self.by_map(page, choice):
            self.labels.append(choice["label"])
            return True
        now = self.page()
        if (now["ply"], now["prefix"]) != (page["ply"], page["prefix"]):
            return True  # a map click took another way there: fine, it was legal
        if any(c["id"] == choice["id"] for c in now["choices"]):
            self.click_choice(choice)
        elif now["choices"]:
            self.click_choice(now["choices"][0])
        else:
            self.click_button("#clear")
        return True

    def play(
        self,
        max_clicks: int,
        until: Callable[[Table], bool] | None = None,
        hook: Callable[[Table, dict[str, Any]], bool] | None = None,
    ) -> dict[str, Any]:
        """Click until the game is over (or `until` says so), at most `max_clicks` clicks."""
        self.check(self.sit(self.sides[0]), hidden=True)
        while self.clicks < max_clicks:
            if until is not None and until(self):
                break
            if not self.step(hook):
                break
        return self.settled()

    def shot(self, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        assert self.driver.save_screenshot(str(path)), path
        return path


def _bounded(name: str) -> str:
    return rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])"
