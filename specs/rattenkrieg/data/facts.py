"""Every fact the rules text states about the Rattenkrieg components, checked against the data.

A transcription of the printed map and counters is valid when all of these hold; the
provisional values shipped here are chosen so that they do (`wargame data check rattenkrieg`).
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.data import Fact
from specs.rattenkrieg.data.loader import RKData
from specs.rattenkrieg.rules.cards import DECK

START_HANDS = 4 + 3  # RKS-3.4.1


def facts(data: RKData) -> list[Fact]:
    areas = {a.id: a for a in data.areas}
    city = [a for a in data.areas if a.kind != "rear"]
    normal = [a.id for a in city if a.kind == "normal"]
    rears = {a.side: a.id for a in data.areas if a.kind == "rear"}
    roles = {a.role: a.id for a in data.areas if a.role is not None}
    units = {u.id: u for u in data.units}
    adjacent: dict[str, set[str]] = {a.id: set() for a in data.areas}
    for a, b in data.borders + data.arrows:
        adjacent[a].add(b)
        adjacent[b].add(a)

    def need(ok: bool, problem: str) -> str | None:
        return None if ok else problem

    def regions() -> str | None:
        return need(
            set(rears) == {"GE", "SU"} and len(data.areas) == len(city) + 2,
            f"the map needs one German and one Soviet Rear besides Stalingrad, has {rears}",
        )

    def twelve() -> str | None:
        return need(len(city) == 12, f"Stalingrad has {len(city)} Areas, not 12")

    def named(role: str, label: str) -> Callable[[], str | None]:
        return lambda: need(
            role in roles and areas[roles[role]].kind != "rear",
            f"{label} must be a Stalingrad Area of the map",
        )

    def kinds() -> str | None:
        found = {a.kind for a in city}
        return need(found == {"normal", "city"}, f"Stalingrad Area kinds: {sorted(found)}")

    def soviet_rear() -> str | None:
        rear = rears.get("SU")
        if rear is None:
            return "no Soviet Rear"
        arrow_areas = {b if a == rear else a for a, b in data.arrows}
        ok = len(arrow_areas) == 3 and adjacent[rear] == arrow_areas and rear not in arrow_areas
        ok = ok and all(areas[x].kind != "rear" for x in arrow_areas)
        return need(
            ok,
            f"the Soviet Rear must touch exactly 3 Stalingrad Areas, all by arrows: "
            f"{sorted(adjacent[rear])}, arrows to {sorted(arrow_areas)}",
        )

    def rears_apart() -> str | None:
        ge, su = rears.get("GE"), rears.get("SU")
        return need(ge is None or su is None or su not in adjacent[ge], "the Rears touch")

    def rifles() -> str | None:
        n = sum(1 for u in data.units if u.type == "rifle" and u.side == "SU")
        return need(n == len(normal), f"{n} Rifles for {len(normal)} Normal Areas (one each)")

    def placed(unit: str, role: str) -> Callable[[], str | None]:
        def check() -> str | None:
            where = rears.get("SU") if role == "soviet-rear" else roles.get(role)
            u = units.get(unit)
            return need(u is not None and u.setup == where, f"{unit} must start in {role}")

        return check

    def german_start() -> str | None:
        start = sorted(u.id for u in data.units if u.side == "GE" and u.setup == rears.get("GE"))
        ok = len(start) == 6 and "16Pz" not in start and "100J" not in start
        ok = ok and all(u.setup in (None, rears.get("GE")) for u in data.units if u.side == "GE")
        return need(ok, f"six German units, not 16Pz or 100J, start in the German Rear: {start}")

    def german_total() -> str | None:
        n = sum(1 for u in data.units if u.side == "GE")
        return need(n == 8, f"{n} German units, not 8 (6 at set-up and 2 reinforcements)")

    def arrives(unit: str, turn: int) -> Callable[[], str | None]:
        return lambda: need(
            unit in units and units[unit].arrives == turn,
            f"{unit} must arrive on Turn {turn}",
        )

    def only_those_arrive() -> str | None:
        late = sorted(u.id for u in data.units if u.arrives is not None)
        return need(late == sorted(["16Pz", "100J", "39Gds"]), f"reinforcements: {late}")

    def step_table() -> str | None:
        table = dict(data.step_table)
        want = {"panzer": 4, "motorized": 3, "guards": 3, "infantry": 2, "rifle": 1, "tank": 0}
        return need(table == want, f"steps by type must be {want}, are {table}")

    def unit_steps() -> str | None:
        table = dict(data.step_table)
        bad = [u.id for u in data.units if u.steps != (1 if u.id == "100J" else table[u.type])]
        return need(
            not bad and units.get("100J") is not None and units["100J"].type == "infantry",
            f"steps differ from RKS-3.3.1: {bad}",
        )

    def guards() -> str | None:
        bad = [g for g in ("13Gds", "39Gds") if g not in units or units[g].type != "guards"]
        return need(not bad, f"not Soviet Guards Divisions: {bad}")

    def t34() -> str | None:
        u = units.get("T-34")
        ok = u is not None and u.type == "tank" and u.steps == 0
        ok = ok and u is not None and u.revives_in == roles.get("tractor_works")
        return need(ok, "the T-34 is a tank without steps that returns to Tractor Works")

    def strengths() -> str | None:
        bad = [u.id for u in data.units if u.strength < 1 or not u.name]
        return need(not bad, f"units without a name or a combat strength: {bad}")

    def deal_fits() -> str | None:
        dealt = sum(u.steps for u in data.units if u.setup is not None or u.type == "rifle")
        total = dealt + START_HANDS
        return need(total <= len(DECK), f"set-up deals {total} cards from a 52-card deck")

    def connected() -> str | None:
        start = rears.get("GE")
        if start is None:
            return "no German Rear"
        seen, todo = {start}, [start]
        while todo:
            for n in adjacent[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        missing = sorted(a.id for a in city if a.id not in seen)
        return need(not missing, f"Areas the Germans can never reach: {missing}")

    return [
        Fact("RKS-2.1.1", "the map has a German Rear, a Russian Rear and Stalingrad", regions),
        Fact("RKS-2.1.2", "Stalingrad has 12 Areas", twelve),
        Fact("RKS-2.1.3", "Stalingrad has Normal (grey) and City (red) Areas", kinds),
        Fact(
            "RKS-3.1.3",
            "Tractor Works is an Area of Stalingrad",
            named("tractor_works", "Tractor Works"),
        ),
        Fact(
            "RKS-9.2.3",
            "Mamayev Kurgan is an Area of Stalingrad",
            named("mamayev_kurgan", "Mamayev Kurgan"),
        ),
        Fact("RKS-3.5.2", "the Soviet Rear touches exactly 3 Areas, joined by arrows", soviet_rear),
        Fact("RKS-3.5.1", "the two Rears are not adjacent", rears_apart),
        Fact("RKS-3.1.1", "one Rifle for every Normal Area", rifles),
        Fact("RKS-3.1.2", "13Gds starts in the Russian Rear", placed("13Gds", "soviet-rear")),
        Fact("RKS-3.1.3", "the T-34 starts in Tractor Works", placed("T-34", "tractor_works")),
        Fact(
            "RKS-3.2.1",
            "six German units other than 16Pz and 100J start in the German Rear",
            german_start,
        ),
        Fact("RKS-3.2.1", "the Germans have 8 units", german_total),
        Fact("RKS-6.1.1", "16Pz arrives on Turn 2", arrives("16Pz", 2)),
        Fact("RKS-6.1.1", "100J arrives on Turn 2", arrives("100J", 2)),
        Fact("RKS-6.2.1", "39Gds arrives on Turn 3", arrives("39Gds", 3)),
        Fact("RKS-5.1.1", "only 16Pz, 100J and 39Gds arrive later", only_those_arrive),
        Fact(
            "RKS-3.3.1", "steps: Panzer 4, Motorized 3, Guards 3, Infantry 2, Rifle 1", step_table
        ),
        Fact(
            "RKS-3.3.1",
            "every unit has its type's steps; 100J, an Infantry Division, has 1",
            unit_steps,
        ),
        Fact("RKS-3.1.2", "13Gds and 39Gds are Guards Divisions", guards),
        Fact("RKS-8.12.1", "the T-34 has no step and returns to Tractor Works (RKS-6.3.1)", t34),
        Fact("RKS-2.3.1", "every unit has a name and a combat strength", strengths),
        Fact("RKS-3.4.2", "the set-up deal leaves a deck (RKS-2.4.1: 52 cards)", deal_fits),
        Fact("RKS-2.1.1", "every Stalingrad Area can be reached from the German Rear", connected),
    ]
