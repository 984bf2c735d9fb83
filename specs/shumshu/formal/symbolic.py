"""Shumshu as a symbolic transition system, for the prover and the refinement check: the static
tables (this module), the state variables and what a position says (`symbolic_state`), the
changes to a frame (`symbolic_effects`), the questions the steps ask (`symbolic_queries`), the
sequence of play with the results (`symbolic_play`), the odds and the table
(`symbolic_odds`), the attack declarations (`symbolic_declare`) and the action schemas, one
per kind of action of the Python rules (`symbolic_schema` their base, `symbolic_landing_actions`
and `symbolic_actions` for the turn up to the declaration, `symbolic_combat_actions` for those
of one combat).

Built from the same data file as the rules (map, counters, capabilities, the CRT and its die
readings) and from the variant, and written against `solvers.checking.terms.Ops`: the formulas the
prover unrolls and the evaluator the refinement check runs are one definition.

**What is modelled.** Every rule that decides what happens next, exactly as the Python rules
do it, action by action: the Japanese set-up, regiments forming and breaking, the Russian sea
movement (landing hex, embarking, the Ki-43's strike with the unit it sinks, each lander's roll
with the worst roll and the per-landing cap on lost capabilities, No Retreat!, clearing the
hex, the beachhead), deliveries and replacements, Japanese reinforcements and returning decoys,
movement with the road bonus, the attack declarations with the hexside limits and the must-be-
attacked obligations (`symbolic_declare`), the choice of defenders, the odds with every column
shift, the CRT with both die readings, Banzai! and pressed attacks, results with disruption,
routs, withdrawals and advances, recovery at the ends of player-turns, the game's end and its
result. Dice are the range of their faces (a choice of the chance schema); probabilities are
left out, which only matters to expectations, never to what can happen.

**What is abstracted, and why that is sound.** The state leaves out what no rule of the
encoded readings reads: whether a Japanese piece is face up (only the observation reads it),
the die face kept after a roll (only the result is read), where the first routed unit went
(`retreat_together=each_unit`), the turn of the Ki-43's last use (`air_frequency=
each_player_turn` reads `air_used`) and the star hexes ever entered (`victory_timing=at_end`).
A value nothing reads cannot change what a step may do or where it leads. Dice are the range of
their faces, a choice of the chance schema: their probabilities matter to expectations, never
to what can happen. Attack declarations are counted per hexside rather than per unit: units in
one hex that may attack are alike (`symbolic_declare`).

Where `sequence.py` loops, or asks a question whose answer the position already fixes, the model
takes the answer every reachable position gives, and says why where it does: the units routed
by one result are all in the combat's hex, so either each has a hex to go to or none has
(`after_result`); a hex emptied of all but decoys gives victors who can always advance into it
(`start_fight`); a victor is next to the defender's hex, which is free when anybody won
(`can_advance`). Elsewhere the model follows the rules for every position, reachable or not.

Why the proofs speak about the code: for the invariants, every concrete step must be a model
step (then whatever holds in every model state reachable from the set-up holds in every
position play reaches); for witnesses and "play always ends", the model's steps must also be
the rules' (a model path replays as a game; no model path is longer than the rules allow). The
refinement check (`solvers.checking.refinement`, tests/shumshu/test_refinement.py, and `wargame
verify`)
tests both directions on seeded playouts of every preset and on hand-made positions for the
steps play seldom reaches; it is a test of the model against the code, the proofs are proofs
about the model.

Only the draft readings of every option (and every bounded game length) are encoded; another
reading raises `UnsupportedReading`, and the prover then claims nothing.
"""

from __future__ import annotations

from kernel.errors import WargameError
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.shumshu.data.loader import ShumshuData
from specs.shumshu.data.variants import CATALOGUE, LENGTH
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat import DEFENDER_LIMIT
from specs.shumshu.rules.declare import HEXSIDE_LIMIT
from specs.shumshu.rules.landing import MAX_LANDERS
from specs.shumshu.rules.state import JP, RU, Stage

STAGES = tuple(Stage)
ST = {stage: i for i, stage in enumerate(STAGES)}
SETUP, FORM, SAIL, AIR, AIR_ROLL, REPLACE, REINFORCE, DECOY, MOVE = (
    ST[Stage.SETUP],
    ST[Stage.FORM],
    ST[Stage.SAIL],
    ST[Stage.AIR],
    ST[Stage.AIR_ROLL],
    ST[Stage.REPLACE],
    ST[Stage.REINFORCE],
    ST[Stage.DECOY],
    ST[Stage.MOVE],
)
DECLARE, PICK, DEFENDERS, HOLD, COMMIT, ROLL, RETREAT, ADVANCE, OVER = (
    ST[Stage.DECLARE],
    ST[Stage.PICK],
    ST[Stage.DEFENDERS],
    ST[Stage.HOLD],
    ST[Stage.COMMIT],
    ST[Stage.ROLL],
    ST[Stage.RETREAT],
    ST[Stage.ADVANCE],
    ST[Stage.OVER],
)

RESULTS = ("", "DE", "DR", "DW", "D", "AD", "AE", "lost")
"""Result codes of the combat under way ("lost": a lander lost at sea on its worst roll)."""
RES = {name: i for i, name in enumerate(RESULTS)}
NONE, DE, DR, DW, D, AD, AE, LOST = range(len(RESULTS))

WIN_CLAUSES = ("", "SHU-WIN.1", "SHU-WIN.2", "SHU-WIN.3")
"""Winner codes: 0 while play goes on, then the clause of the result."""
MARGINAL, STRATEGIC, JAPANESE = 1, 2, 3

# Where a piece is, besides a hex: codes above the hexes (1..H); 0 is the pool.
POOL = 0
OFF = ("gone", "unformed", "in_regiment", "removed", "sea", "sunk")

UNSUPPORTED_TEXT = "the symbolic model encodes preset draft's readings (and every game length)"


class UnsupportedReading(WargameError):
    """The symbolic model does not encode this reading (the prover then claims nothing)."""

    kind = "unsupported_reading"


def _check_readings(variant: Variant) -> None:
    draft = CATALOGUE.presets["draft"]
    for option, reading in variant.choices:
        if option == "game_length":
            if LENGTH.get(reading) is None:
                raise UnsupportedReading(f"game_length={reading} is not bounded", clauses=())
            continue
        if draft.get(option) != reading:
            raise UnsupportedReading(
                f"{UNSUPPORTED_TEXT}, not {option}={reading}", clauses=("SHU-SEQ.1",)
            )


class Tables:
    """What the model needs of the data file and the variant, as small static tables: hexes
    numbered 1..H in sorted order (0: none), units numbered in data order, the road paths, the
    CRT, the limits."""

    def __init__(self, data: ShumshuData, variant: Variant) -> None:
        _check_readings(variant)
        self.v = variant
        self.data = data
        b = Board(data)
        self.board = b
        self.hexes: tuple[Hex, ...] = b.hexes
        self.index = {h: i + 1 for i, h in enumerate(self.hexes)}
        H = len(self.hexes)
        self.H = H
        self.cells = tuple(range(1, H + 1))
        self.nbr = {self.index[h]: tuple(self.index[n] for n in b.neighbors(h)) for h in b.hexes}
        self.adjacent = {(a, n) for a, ns in self.nbr.items() for n in ns}
        self.edges = tuple(sorted(self.adjacent))
        self.coastal = frozenset(self.index[h] for h in data.coast)
        self.red = frozenset(self.index[h] for h in data.red)
        self.black = frozenset(self.index[h] for h in data.black)
        self.mountain = frozenset(self.index[h] for h, t in data.terrain.items() if t == "mountain")
        self.swamp = frozenset(self.index[h] for h, t in data.terrain.items() if t == "swamp")
        self.river = frozenset(
            (self.index[a], self.index[n])
            for a in b.hexes
            for n in b.neighbors(a)
            if b.river_between(a, n)
        )
        self.road = frozenset(
            (self.index[a], self.index[n])
            for a in b.hexes
            for n in b.neighbors(a)
            if b.road_between(a, n)
        )
        self.hex33 = self.index[data.hex33]
        self.one_star = self.index[data.one_star]
        self.two_star = self.index[data.two_star]
        self.landing_hexes = tuple(
            sorted(self.index[h] for h in b.hexes if b.is_coastal(h) and not b.in_red(h))
        )
        # --- pieces ---
        self.ids = tuple(u.id for u in data.units)
        self.specs = data.units
        self.units = tuple(range(len(data.units)))
        self.N = len(self.units)
        self.side = tuple(u.side for u in data.units)
        self.of_side = {s: tuple(u for u in self.units if self.side[u] == s) for s in (RU, JP)}
        self.decoy = tuple(u.is_decoy for u in data.units)
        self.regiment = tuple(u.is_regiment for u in data.units)
        self.tank = tuple(u.is_tank for u in data.units)
        self.real = tuple(u for u in self.units if not self.decoy[u])
        self.decoys = tuple(u for u in self.units if self.decoy[u])
        self.attack = tuple(u.attack for u in data.units)
        self.defence = tuple(u.defence for u in data.units)
        self.regiments = tuple(u for u in self.units if self.regiment[u])
        self.bns = {
            r: tuple(self.ids.index(x) for x in data.battalions_of(self.ids[r]))
            for r in self.regiments
        }
        self.sailors = tuple(
            u for u in self.of_side[RU] if not self.regiment[u]
        )  # Russian units that sail (SHU-SETUP.3)
        self.setup_pieces = tuple(u for u in self.units if data.units[u].setup == "shumshu")
        self.paramushir = tuple(u for u in self.of_side[JP] if data.units[u].setup == "paramushir")
        self.infantry = tuple(u for u in self.of_side[RU] if data.units[u].type == "infantry")
        self.engineers = tuple(u for u in self.units if data.units[u].type == "engineer")
        self.at_guns = tuple(u for u in self.units if data.units[u].type == "at_gun")
        self.from_turn = tuple(u.from_turn for u in data.units)
        self.allowance = tuple(self._allowance(u) for u in self.units)
        # --- codes of places off the map ---
        self.loc_code = {name: H + 1 + i for i, name in enumerate(OFF)}
        self.GONE = self.loc_code["gone"]
        self.UNFORMED = self.loc_code["unformed"]
        self.IN_REGIMENT = self.loc_code["in_regiment"]
        self.REMOVED = self.loc_code["removed"]
        self.MAX_AT = H + len(OFF)
        # --- sequence and limits ---
        self.length = LENGTH[variant.reading("game_length")]
        self.capabilities = data.capabilities
        self.max_landers = MAX_LANDERS
        self.defender_limit = DEFENDER_LIMIT
        self.hexside_limit = HEXSIDE_LIMIT
        # --- the CRT (SHU-CRT.2, SHU-CRT.9): row of a face for a left or right reader ---
        crt = data.crt
        self.crt = tuple(tuple(RES[cell] for cell in row) for row in crt.rows)
        self.row_of = {
            True: {face: crt.left.index(face) for face in range(1, 7)},
            False: {face: crt.right.index(face) for face in range(1, 7)},
        }
        self.columns = len(crt.columns)
        self.road_paths = {(u, h): self._road_paths(u, h) for u in self.units for h in self.cells}
        self.diameter = self._diameter()

    def reads_left(self, side: str) -> bool:
        """Die reading by nationality (SHU-CRT.9, AMB-SHU-1 draft): the Japanese read left."""
        return side == JP

    def _allowance(self, u: int) -> int:
        """Hexes along a road: tanks three, battalions and decoys two, regiments one
        (SHU-MOVE.2, SHU-RGT.3, AMB-SHU-12)."""
        spec = self.specs[u]
        if spec.is_tank:
            return 3
        if spec.is_decoy or (spec.is_battalion and not spec.is_tank):
            return 2
        return 1

    def _road_paths(self, u: int, start: int) -> dict[int, tuple[tuple[int, ...], ...]]:
        """For a unit starting in `start`: each hex reached along the road within its
        allowance, with every road path to it (the hexes entered, the last the destination),
        never through `start` again (SHU-MOVE.2, `road_path=whole_move`)."""
        reach = self.allowance[u]
        out: dict[int, list[tuple[int, ...]]] = {}

        def walk(path: tuple[int, ...]) -> None:
            here = path[-1] if path else start
            if path:
                out.setdefault(path[-1], []).append(path)
            if len(path) >= reach:
                return
            for n in self.nbr[here]:
                if (here, n) in self.road and n != start and n not in path:
                    walk((*path, n))

        walk(())
        return {h: tuple(ps) for h, ps in out.items()}

    def _diameter(self) -> int:
        best = 0
        for a in self.cells:
            seen = {a: 0}
            todo = [a]
            while todo:
                h = todo.pop(0)
                for n in self.nbr[h]:
                    if n not in seen:
                        seen[n] = seen[h] + 1
                        todo.append(n)
            best = max(best, *seen.values())
        return best
