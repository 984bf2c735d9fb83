"""Nomonhan as a symbolic transition system, for the prover and the refinement check: the
state variables and what a position says (this module, over the static tables of
`symbolic_tables`), what the schemas ask of a position (`symbolic_queries`), the sequence of play
(`symbolic_play`), and the action schemas (`symbolic_actions`, `symbolic_combat`).

Built from the same data file as the Python rules (map, counters, turn track) and from the
variant's readings, and written against `solvers.checking.terms.Ops`, so the formulas the prover
unrolls
and the evaluator the refinement check runs are one definition. It encodes the rules, not the
Python functions: zones of control from adjacency and hexsides (NOM-7.1, NOM-7.4), movement as
reachability with hill costs, rivers, bridges, ZOC stops and no passing through units
(NOM-8.1 to NOM-8.7), the legal declarations (NOM-9.2 to NOM-9.21), dice as the range of hit
differences, losses, retreats and advances (NOM-9.24 to NOM-9.34), and the sequence with its
initiative change, end rolls and game end (NOM-4, NOM-5, NOM-6).

The state keeps everything the rules act on except which units retreated in the combat being
resolved (only the `retreat_repeat=once` reading reads it) and whether the end roll was already
made (only `end_roll_timing=at_change`). Those readings, `reinforcement_timing=lost`,
`scoring=own_remaining` and `resolution_order=fixed_in_advance` raise `UnsupportedReading`.
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.variants import Variant
from solvers.checking.system import BoolVar, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.data.loader import DATA_FILE, NomonhanData, load_data
from specs.nomonhan.formal.symbolic_tables import Tables
from specs.nomonhan.rules.board import FIXED, OPEN, PONTOON, RIVER

MOVE, DECLARE, PICK, ROLL, DAMAGE, ADVANCE, END_ROLL, OVER = range(8)
STAGE_NAMES = ("move", "declare", "pick", "roll", "damage", "advance", "end_roll", "over")
SIDE_CODE = {"JP": 1, "SU": 2}
DRAW = 3  # winner code of a finished game without a winner (AMB-NOM-2 reading "draw")


class Position:
    """The state variables of one variant, its set-up, and what a position says: who is where,
    zones of control, reach, sides and roles. `symbolic_queries.Queries` adds what the schemas
    ask of it, `symbolic_play.Model` the sequence of play and the action schemas."""

    def __init__(self, variant: Variant, data: NomonhanData | None = None) -> None:
        t = Tables(data or load_data(DATA_FILE), variant)
        self.t = t
        self.name = f"nomonhan/{variant.preset or 'custom'}"
        self.pos = tuple(f"pos.{i}" for i in t.ids)
        self.steps = tuple(f"steps.{i}" for i in t.ids)
        self.moved = tuple(f"moved.{i}" for i in t.ids)
        self.pend = tuple(f"pend.{i}" for i in t.ids)
        self.psup = tuple(f"psup.{i}" for i in t.ids)
        self.cur = tuple(f"cur.{i}" for i in t.ids)
        self.start = tuple(f"start.{i}" for i in t.ids)
        self.variables = self._variables()

    def _variables(self) -> tuple[Var, ...]:
        t = self.t
        h, n, d = len(t.cells), len(t.units), t.max_damage()
        turn8 = t.v.is_("game_end", "turn8")
        out: list[Var] = [
            IntVar("turn", 1, t.turn_boxes if turn8 else None),
            BoolVar("jp_ini"),
            IntVar("phase", 1, 4),
            IntVar("stage", 0, OVER),
        ]
        for u in t.units:
            out += [
                IntVar(self.pos[u], 0, h),
                IntVar(self.steps[u], 0, t.full(u)),
                BoolVar(self.moved[u]),
                IntVar(self.pend[u], 0, n),
                BoolVar(self.psup[u]),
                BoolVar(self.cur[u]),
                IntVar(self.start[u], 0, h),
            ]
        max_pts = {
            s: sum(t.weight(u) * t.full(u) for u in t.units if t.side[u] != s) for s in SIDE_CODE
        }
        out += [
            BoolVar("demolished"),
            BoolVar("art_used"),
            BoolVar("nip_moved"),
            BoolVar("changed"),
            BoolVar("csup"),
            IntVar("loser", 0, 2),
            IntVar("dmg_left", 0, d),
            IntVar("dmg_total", 0, d),
            IntVar("adv_left", 0, d),
            IntVar("pts.JP", 0, max_pts["JP"]),
            IntVar("pts.SU", 0, max_pts["SU"]),
            IntVar("winner", 0, DRAW),
        ]
        return tuple(out)

    def over(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """The game is over (NOM-4.1 to NOM-4.3): what a search for positions with no legal
        action leaves out (`solvers.checking.explore_model.stuck_reach`)."""
        return o.eq(s.i("stage"), o.num(OVER))

    def initial(self) -> dict[str, int | bool]:
        """Set-up from the data (NOM-3.1 to NOM-3.4): Turn 1, Japanese initiative (NOM-6.1)."""
        t = self.t
        out: dict[str, int | bool] = {
            v.name: (False if isinstance(v, BoolVar) else 0) for v in self.variables
        }
        out.update(turn=1, jp_ini=True, phase=1, stage=MOVE)
        for u, spec in enumerate(t.specs):
            out[self.pos[u]] = 0 if spec.setup is None else t.index[spec.setup]
            out[self.steps[u]] = t.full(u)
        return out

    # --- geometry: functions of positions and the demolition flag only (memoised) ----------

    def at(self, o: Ops[B, I], s: Frame[B, I], u: int, h: int) -> B:
        return o.eq(s.ints[self.pos[u]], h)

    def on_map(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return o.not_(o.eq(s.ints[self.pos[u]], 0))

    def occupied(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        return self.held(o, s, "", h)

    def held(self, o: Ops[B, I], s: Frame[B, I], side: str, h: int) -> B:
        """A unit of `side` ("": of either side) is in hex `h`."""
        key = ("held", side, h)
        memo = s.memo
        if key not in memo:
            units = self.t.of_side[side] if side else self.t.units
            memo[key] = o.among(h, [s.ints[self.pos[u]] for u in units])
        value: B = memo[key]
        return value

    def where(self, o: Ops[B, I], s: Frame[B, I], u: int, f: Callable[[int], B]) -> B:
        """`f` of the hex unit `u` is in (false off the map)."""
        return o.case(s.ints[self.pos[u]], f, self.t.cells)

    def carries(self, o: Ops[B, I], s: Frame[B, I], a: int, b: int) -> B:
        """ZOC and contact reach from `a` into adjacent `b`: not across a river without a bridge
        (NOM-7.4, NOM-9.6); the pontoon per AMB-NOM-16, once blown per AMB-NOM-17."""
        kind = self.t.kind.get((a, b), OPEN)
        if kind in (OPEN, FIXED):
            return o.lit(True)
        if kind == RIVER or not self.t.pontoon_counts:
            return o.lit(False)
        return o.lit(True) if self.t.blown_counts else o.not_(s.b("demolished"))

    def crosses(self, o: Ops[B, I], s: Frame[B, I], u: int, a: int, b: int) -> B:
        """Unit `u` may cross from `a` into adjacent `b`: never a river without a bridge
        (NOM-8.4); the pontoon only for some units (NOM-8.5, AMB-NOM-16), never once blown
        (NOM-OPT.5)."""
        kind = self.t.kind.get((a, b), OPEN)
        if kind in (OPEN, FIXED):
            return o.lit(True)
        if kind != PONTOON or not self.t.pontoon_user[u]:
            return o.lit(False)
        return o.not_(s.b("demolished"))

    def zoc_of(self, o: Ops[B, I], s: Frame[B, I], side: str, h: int) -> B:
        """Hex `h` is in the ZOC of a unit of `side` (NOM-7.1, NOM-7.4)."""
        key = ("zoc", side, h)
        memo = s.memo
        if key not in memo:
            parts = []
            for n in self.t.nbr[h]:
                carries = self.carries(o, s, n, h)
                if o.known(carries) is not False:
                    parts.append(o.all([carries, self.held(o, s, side, n)]))
            memo[key] = o.any(parts)
        value: B = memo[key]
        return value

    def enemy(self, u: int) -> str:
        return self.t.enemy[u]

    def in_enemy_zoc(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return self.where(o, s, u, lambda h: self.zoc_of(o, s, self.enemy(u), h))

    def touch(self, o: Ops[B, I], s: Frame[B, I], x: int, y: int) -> B:
        """Units `x` and `y` are adjacent across a hexside that carries ZOC (NOM-9.6)."""
        a, b = min(x, y), max(x, y)
        key = ("touch", a, b)
        memo = s.memo
        if key not in memo:
            pb = s.ints[self.pos[b]]

            def near(h: int) -> B:
                parts = []
                for n in self.t.nbr[h]:
                    carries = self.carries(o, s, n, h)
                    if o.known(carries) is not False:
                        parts.append(o.all([carries, o.eq(pb, n)]))
                return o.any(parts)

            memo[key] = self.where(o, s, a, near)
        value: B = memo[key]
        return value

    def blocked(self, o: Ops[B, I], s: Frame[B, I], u: int, h: int) -> B:
        """A moving `u` may not enter `h`: another unit is there (NOM-8.7), unless friendly
        units may be passed through (AMB-NOM-23)."""
        key = ("blocked", u, h)
        memo = s.memo
        if key not in memo:
            others = self.t.blockers[u]
            memo[key] = o.among(h, [s.ints[self.pos[v]] for v in others])
        value: B = memo[key]
        return value

    def reach(self, o: Ops[B, I], s: Frame[B, I], u: int, flag: int, j: int, h: int) -> B:
        """`u` can reach `h` with at least `j` MP left, starting from its hex (`flag` 0) or
        entering at flag hex `flag`: 1 MP per clear hex (NOM-8.2), 2 per hill and none without
        them (NOM-8.3), crossing per `crosses`, no unit passed (NOM-8.7), and no going on from
        an enemy ZOC hex entered (NOM-7.2). Written as plain loops that skip what is known
        false, so a concrete evaluation explores only what it must."""
        key = ("reach", u, flag, j, h)
        memo = s.memo
        if key in memo:
            value: B = memo[key]
            return value
        t = self.t
        ma = t.specs[u].ma if flag == 0 else t.specs[u].ma - t.cost[flag]
        start = o.value(s.ints[self.pos[u]]) if flag == 0 else flag
        if start is not None and t.dist[start][h] > ma - j:
            memo[key] = o.lit(False)  # every hex entered costs at least 1 MP
            return o.lit(False)
        base = o.all([self.at(o, s, u, h) if flag == 0 else o.lit(h == flag), o.lit(j <= ma)])
        left = j + t.cost[h]
        result = base
        if o.known(base) is not True and left <= ma:
            blocked = self.blocked(o, s, u, h)
            if o.known(blocked) is not True:
                parts = []
                for n in t.nbr[h]:
                    crosses = self.crosses(o, s, u, n, h)
                    if o.known(crosses) is False:
                        continue
                    go_on = self.at(o, s, u, n) if flag == 0 else o.lit(n == flag)
                    if o.known(go_on) is not True:  # not the start: NOM-7.2 stops it there
                        go_on = o.any([go_on, o.not_(self.zoc_of(o, s, self.enemy(u), n))])
                        if o.known(go_on) is False:
                            continue
                    further = self.reach(o, s, u, flag, left, n)
                    if o.known(further) is not False:
                        parts.append(o.all([crosses, go_on, further]))
                result = o.any([base, o.all([o.not_(blocked), o.any(parts)])])
        memo[key] = result
        return result

    def destination(self, o: Ops[B, I], s: Frame[B, I], u: int, flag: int, h: int) -> B:
        """`u` may end its move in `h`: reached, not where it started, and empty (NOM-8.6)."""
        start = self.at(o, s, u, h) if flag == 0 else o.lit(h == flag)
        return o.all(
            [o.not_(start), self.reach(o, s, u, flag, 0, h), o.not_(self.occupied(o, s, h))]
        )

    # --- sides and roles (not memoised: they follow the phase) ------------------------------

    def phasing_jp(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """Japan is the phasing side: the IP in phases 1-2, the NIP in 3-4 (NOM-5.1, NOM-9.1)."""
        return o.iff(o.le(s.i("phase"), 2), s.b("jp_ini"))

    def is_side(self, o: Ops[B, I], jp: B, u: int) -> B:
        return jp if self.t.side[u] == "JP" else o.not_(jp)

    def phasing(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return self.is_side(o, self.phasing_jp(o, s), u)

    def initiative(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return self.is_side(o, s.b("jp_ini"), u)

    def code(self, o: Ops[B, I], jp: B) -> I:
        return o.ite(jp, SIDE_CODE["JP"], SIDE_CODE["SU"])

    def of_loser(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return o.eq(s.i("loser"), SIDE_CODE[self.t.side[u]])

    def obliged(self, o: Ops[B, I], s: Frame[B, I], a: int) -> B:
        """A phasing unit in contact must attack unless it is on a hill (NOM-9.2, NOM-9.13) or
        cannot attack (NOM-9.20)."""
        if not self.t.can_attack(a):
            return o.lit(False)
        return o.all(
            [
                self.phasing(o, s, a),
                o.any(self.touch(o, s, a, d) for d in self.t.of_side[self.enemy(a)]),
                o.not_(self.where(o, s, a, lambda h: o.lit(self.t.hill[h]))),
            ]
        )

    def must_defend(self, o: Ops[B, I], s: Frame[B, I], d: int) -> B:
        """A defender in the ZOC of an (obliged) attacker must be attacked (NOM-9.3)."""
        v = self.t.v
        if not v.is_("must_be_attacked", "required"):
            return o.lit(False)
        only_obliged = v.is_("must_be_attacked_scope", "obliged_attackers")
        sources = (
            o.all(
                [
                    self.obliged(o, s, a) if only_obliged else self.phasing(o, s, a),
                    self.touch(o, s, a, d),
                ]
            )
            for a in self.t.of_side[self.enemy(d)]
        )
        return o.all([o.not_(self.phasing(o, s, d)), o.any(sources)])

    def any_contact(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """Some attack can be declared, or some defender must be attacked (else the Combat
        Phase has nothing to declare and ends at once)."""
        t = self.t
        pairs = (
            o.all([self.phasing(o, s, a), self.touch(o, s, a, d)])
            for a in t.units
            if t.can_attack(a)
            for d in t.of_side[self.enemy(a)]
        )
        return o.any([o.any(pairs), o.any(self.must_defend(o, s, d) for d in t.units)])
