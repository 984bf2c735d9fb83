"""Every fact the rules text states about the Rattenkrieg components, checked against the data.

A transcription of the printed map and counters is valid when all of these hold; the
provisional values shipped here are chosen so that they do (`wargame data check rattenkrieg`).
Each fact is a function of the components (`Components`, read once from the data) that returns
None when the fact holds, else what is wrong; `FACTS` lists them with their clauses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from kernel.data import Fact, FactResult, Provenance, check_facts
from specs.rattenkrieg.data.loader import AreaSpec, RKData, UnitSpec, load_data
from specs.rattenkrieg.rules.cards import DECK

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

START_HANDS = 4 + 3  # RKS-3.4.1


@attrs.frozen
class Components:
    """What the facts read of the data: the Areas by id, the Stalingrad ones (`city`, every Area
    but the Rears) and its Normal ones, the Rear of each side, the Area of each role, the units
    by id, and each Area's neighbours (by border or arrow)."""

    data: RKData
    areas: dict[str, AreaSpec]
    city: list[AreaSpec]
    normal: list[str]
    rears: dict[str | None, str]
    roles: dict[str, str]
    units: dict[str, UnitSpec]
    adjacent: dict[str, set[str]]

    @classmethod
    def of(cls, data: RKData) -> Components:
        city = [a for a in data.areas if a.kind != "rear"]
        adjacent: dict[str, set[str]] = {a.id: set() for a in data.areas}
        for a, b in data.borders + data.arrows:
            adjacent[a].add(b)
            adjacent[b].add(a)
        return cls(
            data=data,
            areas={a.id: a for a in data.areas},
            city=city,
            normal=[a.id for a in city if a.kind == "normal"],
            rears={a.side: a.id for a in data.areas if a.kind == "rear"},
            roles={a.role: a.id for a in data.areas if a.role is not None},
            units={u.id: u for u in data.units},
            adjacent=adjacent,
        )


def _need(ok: bool, problem: str) -> str | None:
    """None when the fact holds (`ok`), else `problem`."""
    return None if ok else problem


def regions(c: Components) -> str | None:
    """RKS-2.1.1: a German Rear, a Soviet Rear and Stalingrad."""
    return _need(
        set(c.rears) == {"GE", "SU"} and len(c.data.areas) == len(c.city) + 2,
        f"the map needs one German and one Soviet Rear besides Stalingrad, has {c.rears}",
    )


def twelve(c: Components) -> str | None:
    """RKS-2.1.2: Stalingrad has 12 Areas."""
    return _need(len(c.city) == 12, f"Stalingrad has {len(c.city)} Areas, not 12")


def named(c: Components, role: str, label: str) -> str | None:
    """RKS-3.1.3, RKS-9.2.3: the Area of `role` (called `label`) is a Stalingrad Area."""
    return _need(
        role in c.roles and c.areas[c.roles[role]].kind != "rear",
        f"{label} must be a Stalingrad Area of the map",
    )


def kinds(c: Components) -> str | None:
    """RKS-2.1.3: Stalingrad has Normal and City Areas, and no others."""
    found = {a.kind for a in c.city}
    return _need(found == {"normal", "city"}, f"Stalingrad Area kinds: {sorted(found)}")


def soviet_rear(c: Components) -> str | None:
    """RKS-3.5.2: the Soviet Rear touches exactly 3 Stalingrad Areas, all by arrows."""
    rear = c.rears.get("SU")
    if rear is None:
        return "no Soviet Rear"
    arrow_areas = {b if a == rear else a for a, b in c.data.arrows}
    ok = len(arrow_areas) == 3 and c.adjacent[rear] == arrow_areas and rear not in arrow_areas
    ok = ok and all(c.areas[x].kind != "rear" for x in arrow_areas)
    return _need(
        ok,
        f"the Soviet Rear must touch exactly 3 Stalingrad Areas, all by arrows: "
        f"{sorted(c.adjacent[rear])}, arrows to {sorted(arrow_areas)}",
    )


def rears_apart(c: Components) -> str | None:
    """RKS-3.5.1: the two Rears are not adjacent."""
    ge, su = c.rears.get("GE"), c.rears.get("SU")
    return _need(ge is None or su is None or su not in c.adjacent[ge], "the Rears touch")


def rifles(c: Components) -> str | None:
    """RKS-3.1.1: one Soviet Rifle for every Normal Area."""
    n = sum(1 for u in c.data.units if u.type == "rifle" and u.side == "SU")
    return _need(n == len(c.normal), f"{n} Rifles for {len(c.normal)} Normal Areas (one each)")


def placed(c: Components, unit: str, role: str) -> str | None:
    """RKS-3.1.2, RKS-3.1.3: `unit` starts in the Area of `role` (or the Soviet Rear)."""
    where = c.rears.get("SU") if role == "soviet-rear" else c.roles.get(role)
    u = c.units.get(unit)
    return _need(u is not None and u.setup == where, f"{unit} must start in {role}")


def german_start(c: Components) -> str | None:
    """RKS-3.2.1: six German units other than 16Pz and 100J start in the German Rear."""
    start = sorted(u.id for u in c.data.units if u.side == "GE" and u.setup == c.rears.get("GE"))
    ok = len(start) == 6 and "16Pz" not in start and "100J" not in start
    ok = ok and all(u.setup in (None, c.rears.get("GE")) for u in c.data.units if u.side == "GE")
    return _need(ok, f"six German units, not 16Pz or 100J, start in the German Rear: {start}")


def german_total(c: Components) -> str | None:
    """RKS-3.2.1: the Germans have 8 units."""
    n = sum(1 for u in c.data.units if u.side == "GE")
    return _need(n == 8, f"{n} German units, not 8 (6 at set-up and 2 reinforcements)")


def arrives(c: Components, unit: str, turn: int) -> str | None:
    """RKS-6.1.1, RKS-6.2.1: `unit` arrives on Turn `turn`."""
    return _need(
        unit in c.units and c.units[unit].arrives == turn,
        f"{unit} must arrive on Turn {turn}",
    )


def only_those_arrive(c: Components) -> str | None:
    """RKS-5.1.1: only 16Pz, 100J and 39Gds arrive later."""
    late = sorted(u.id for u in c.data.units if u.arrives is not None)
    return _need(late == sorted(["16Pz", "100J", "39Gds"]), f"reinforcements: {late}")


def step_table(c: Components) -> str | None:
    """RKS-3.3.1: the steps of each type of unit."""
    table = dict(c.data.step_table)
    want = {"panzer": 4, "motorized": 3, "guards": 3, "infantry": 2, "rifle": 1, "tank": 0}
    return _need(table == want, f"steps by type must be {want}, are {table}")


def unit_steps(c: Components) -> str | None:
    """RKS-3.3.1: every unit has its type's steps, but 100J, an Infantry Division, has 1."""
    table = dict(c.data.step_table)
    bad = [u.id for u in c.data.units if u.steps != (1 if u.id == "100J" else table[u.type])]
    return _need(
        not bad and c.units.get("100J") is not None and c.units["100J"].type == "infantry",
        f"steps differ from RKS-3.3.1: {bad}",
    )


def guards(c: Components) -> str | None:
    """RKS-3.1.2: 13Gds and 39Gds are Guards Divisions."""
    bad = [g for g in ("13Gds", "39Gds") if g not in c.units or c.units[g].type != "guards"]
    return _need(not bad, f"not Soviet Guards Divisions: {bad}")


def t34(c: Components) -> str | None:
    """RKS-8.12.1, RKS-6.3.1: the T-34 is a tank without steps that returns to Tractor
    Works."""
    u = c.units.get("T-34")
    ok = u is not None and u.type == "tank" and u.steps == 0
    ok = ok and u is not None and u.revives_in == c.roles.get("tractor_works")
    return _need(ok, "the T-34 is a tank without steps that returns to Tractor Works")


def strengths(c: Components) -> str | None:
    """RKS-2.3.1: every unit has a name and a combat strength."""
    bad = [u.id for u in c.data.units if u.strength < 1 or not u.name]
    return _need(not bad, f"units without a name or a combat strength: {bad}")


def deal_fits(c: Components) -> str | None:
    """RKS-3.4.2, RKS-2.4.1: the set-up deal leaves cards in the 52-card deck."""
    dealt = sum(u.steps for u in c.data.units if u.setup is not None or u.type == "rifle")
    total = dealt + START_HANDS
    return _need(total <= len(DECK), f"set-up deals {total} cards from a 52-card deck")


def connected(c: Components) -> str | None:
    """RKS-2.1.1: every Stalingrad Area can be reached from the German Rear."""
    start = c.rears.get("GE")
    if start is None:
        return "no German Rear"
    seen, todo = {start}, [start]
    while todo:
        for n in c.adjacent[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    missing = sorted(a.id for a in c.city if a.id not in seen)
    return _need(not missing, f"Areas the Germans can never reach: {missing}")


FACTS: tuple[tuple[str, str, Callable[..., str | None], tuple[Any, ...]], ...] = (
    ("RKS-2.1.1", "the map has a German Rear, a Russian Rear and Stalingrad", regions, ()),
    ("RKS-2.1.2", "Stalingrad has 12 Areas", twelve, ()),
    ("RKS-2.1.3", "Stalingrad has Normal (grey) and City (red) Areas", kinds, ()),
    (
        "RKS-3.1.3",
        "Tractor Works is an Area of Stalingrad",
        named,
        ("tractor_works", "Tractor Works"),
    ),
    (
        "RKS-9.2.3",
        "Mamayev Kurgan is an Area of Stalingrad",
        named,
        ("mamayev_kurgan", "Mamayev Kurgan"),
    ),
    ("RKS-3.5.2", "the Soviet Rear touches exactly 3 Areas, joined by arrows", soviet_rear, ()),
    ("RKS-3.5.1", "the two Rears are not adjacent", rears_apart, ()),
    ("RKS-3.1.1", "one Rifle for every Normal Area", rifles, ()),
    ("RKS-3.1.2", "13Gds starts in the Russian Rear", placed, ("13Gds", "soviet-rear")),
    ("RKS-3.1.3", "the T-34 starts in Tractor Works", placed, ("T-34", "tractor_works")),
    (
        "RKS-3.2.1",
        "six German units other than 16Pz and 100J start in the German Rear",
        german_start,
        (),
    ),
    ("RKS-3.2.1", "the Germans have 8 units", german_total, ()),
    ("RKS-6.1.1", "16Pz arrives on Turn 2", arrives, ("16Pz", 2)),
    ("RKS-6.1.1", "100J arrives on Turn 2", arrives, ("100J", 2)),
    ("RKS-6.2.1", "39Gds arrives on Turn 3", arrives, ("39Gds", 3)),
    ("RKS-5.1.1", "only 16Pz, 100J and 39Gds arrive later", only_those_arrive, ()),
    ("RKS-3.3.1", "steps: Panzer 4, Motorized 3, Guards 3, Infantry 2, Rifle 1", step_table, ()),
    (
        "RKS-3.3.1",
        "every unit has its type's steps; 100J, an Infantry Division, has 1",
        unit_steps,
        (),
    ),
    ("RKS-3.1.2", "13Gds and 39Gds are Guards Divisions", guards, ()),
    ("RKS-8.12.1", "the T-34 has no step and returns to Tractor Works (RKS-6.3.1)", t34, ()),
    ("RKS-2.3.1", "every unit has a name and a combat strength", strengths, ()),
    ("RKS-3.4.2", "the set-up deal leaves a deck (RKS-2.4.1: 52 cards)", deal_fits, ()),
    ("RKS-2.1.1", "every Stalingrad Area can be reached from the German Rear", connected, ()),
)
"""Each fact's clause, statement, check and the check's arguments after the components."""


def facts(data: RKData) -> list[Fact]:
    """The facts of `FACTS`, each checked against `data`."""
    c = Components.of(data)
    return [
        Fact(clause, statement, functools.partial(check, c, *args))
        for clause, statement, check, args in FACTS
    ]


class RattenkriegDataCheck:
    """The data check role (`kernel.roles.DataCheck`) of the rules it is built from: their data,
    or another file's."""

    def __init__(self, rules: RattenkriegRules) -> None:
        self.rules = rules

    def _data(self, data_file: Path | None) -> RKData:
        return self.rules.data if data_file is None else load_data(data_file)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check the text's facts against the data (this game's, or another file's)."""
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Every data record with values the text does not give, and how they were chosen."""
        return [(n, p) for n, p in self._data(data_file).records if p.is_provisional]
