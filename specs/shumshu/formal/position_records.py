"""The position check's SHU-I-STAGE: each step's records (the sea movement, the declared
attacks, the combat under way and its commitments) appear in their step only, agree with the
pieces, and leave the player to move something to do, so that a position read from JSON can
always be played on (SHU-SEQ.1, SHU-LAND.*, SHU-COMBAT.1 to SHU-COMBAT.4, SHU-STACK.3).

Apart from the other invariants (`position`) because the records of one step are one topic,
checked together by `stage_records`.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from kernel.hexes import Hex
from specs.shumshu.formal.breach import Breach
from specs.shumshu.rules import combat, landing
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import extends
from specs.shumshu.rules.declare import combats_of, pairs_of
from specs.shumshu.rules.setup import setup_waiting
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import holder, real_in


def stage_records(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Each step's records appear in their step only, agree with the pieces, and leave the
    player to move something to do (so a position read from JSON can always be played on)."""
    stage = s.stage
    if (stage is Stage.OVER) != (s.result is not None):
        yield Breach("result", "SHU-WIN.3", "a finished game has a result, and only it")
    if stage in _RU_STAGES and s.side != RU:
        yield Breach("side", "SHU-SEQ.1", f"stage {stage.value} is in the Russian player-turn")
    if stage in (Stage.REINFORCE, Stage.DECOY, Stage.SETUP) and s.side != JP:
        yield Breach("side", "SHU-SEQ.1", f"stage {stage.value} is in the Japanese player-turn")
    if (s.fight is not None) != (stage in _FIGHT_STAGES):
        yield Breach("fight", "SHU-COMBAT.1", "a combat is resolved only in a combat step")
    landing_fight = s.fight is not None and s.fight.landing
    if s.sail is not None and stage not in _SAIL_STAGES and not landing_fight:
        yield Breach("sail", "SHU-LAND.1", "units are at sea only in the Russian sea movement")
    if landing_fight and s.side != RU:
        yield Breach("side", "SHU-LAND.2", "landings are in the Russian player-turn")
    if s.sail is not None:
        yield from _sail(b, s)
    if s.pending and stage not in {Stage.DECLARE, Stage.PICK} | _FIGHT_STAGES:
        yield Breach("pending", "SHU-COMBAT.1", "attacks are pending only in the combat phase")
    if s.pending and landing_fight:
        yield Breach("pending", "SHU-SEQ.1", "attacks come after the landings")
    yield from _pending(b, s)
    if s.fight is not None:
        yield from _fight(b, s)
    if s.acted and s.side != RU:
        yield Breach("acted", "SHU-SEQ.1", "only Russian units land or form in a player-turn")
    for u in s.moved:
        if b.side_of[u] != s.side or (
            b.unit(u).is_decoy and s.variant.is_("decoy_movement", "fixed")
        ):
            yield Breach("moved", "SHU-MOVE.1", f"{u} cannot have moved in this player-turn")
    for u in s.acted:
        spec = b.unit(u)
        if spec.side != RU or (spec.is_regiment and not s.variant.is_("regiment_use", "next_turn")):
            yield Breach("acted", "SHU-SEQ.1", f"{u} cannot have landed or formed this turn")
    if s.moved and (stage in _BEFORE_MOVE or landing_fight or stage is Stage.REINFORCE):
        yield Breach("moved", "SHU-MOVE.1", "units move after the sea movement and arrivals")
    checks = {
        Stage.SETUP: (bool(setup_waiting(b, s)), "SHU-SETUP.1", "a piece to set up"),
        Stage.FORM: (bool(landing.formable(b, s)), "SHU-RGT.1", "a regiment that can form"),
        Stage.REPLACE: (bool(landing.replacements(b, s)), "SHU-REPL.1", "a battalion to replace"),
        Stage.REINFORCE: (
            bool(landing.reinforcements(b, s)),
            "SHU-REINF.2",
            "a unit that can arrive",
        ),
        Stage.DECOY: (bool(landing.decoy_returns(b, s)), "SHU-COMBAT.6", "a decoy to return"),
        Stage.AIR: (landing.strike_possible(s), "SHU-AIR.2", "the Ki-43 free to strike"),
        Stage.AIR_ROLL: (landing.strike_possible(s), "SHU-AIR.2", "the Ki-43 free to strike"),
        Stage.PICK: (
            len(s.pending) >= 2 and s.variant.is_("resolution_order", "attacker_chooses"),
            "SHU-COMBAT.1",
            "two attacks to choose from",
        ),
    }
    if stage in checks:
        ok, clause, what = checks[stage]
        if not ok:
            yield Breach("stage", clause, f"stage {stage.value} needs {what}")


_RU_STAGES = {Stage.FORM, Stage.SAIL, Stage.AIR, Stage.AIR_ROLL, Stage.REPLACE}


_SAIL_STAGES = {Stage.SAIL, Stage.AIR, Stage.AIR_ROLL}


_BEFORE_MOVE = {
    Stage.SETUP,
    Stage.FORM,
    Stage.SAIL,
    Stage.AIR,
    Stage.AIR_ROLL,
    Stage.REPLACE,
}


_FIGHT_STAGES = {
    Stage.DEFENDERS,
    Stage.HOLD,
    Stage.COMMIT,
    Stage.ROLL,
    Stage.RETREAT,
    Stage.ADVANCE,
}


def _pending(b: Board, s: ShumshuState) -> Iterator[Breach]:
    """Declared attacks: undisrupted attackers of the phasing side next to an enemy hex, each
    in one attack, the attacks in their declared form; while declaring, a declaration some
    legal one extends (SHU-COMBAT.1 to SHU-COMBAT.4)."""
    enemy = JP if s.side == RU else RU
    seen: set[str] = set()
    hexes: set[Hex] = set()
    fighting = set(s.fight.attackers) if s.fight is not None else set()
    for i, c in enumerate(s.pending):
        where = f"pending[{i}]"
        if not c.attackers or c.hex in hexes or (s.fight is not None and c.hex == s.fight.hex):
            yield Breach(where, "SHU-COMBAT.1", f"one attack into {c.hex}, with attackers")
        hexes.add(c.hex)
        if holder(b, s, c.hex) != enemy:
            yield Breach(f"{where}.hex", "SHU-COMBAT.1", f"{c.hex} is not an enemy hex")
        for a in c.attackers:
            p = s.piece(a)
            if (
                b.side_of[a] != s.side
                or p.loc is not Loc.MAP
                or p.hex not in b.neighbors(c.hex)
                or a in seen
                or a in fighting
            ):
                yield Breach(f"{where}.attackers", "SHU-COMBAT.1", f"{a} cannot attack {c.hex}")
            seen.add(a)
    if s.stage is Stage.DECLARE:
        pairs = pairs_of(s.pending)
        if s.pending != combats_of(b, pairs) or not extends(b, s, pairs):
            yield Breach(
                "pending", "SHU-COMBAT.4", "no legal declaration goes on from these attacks"
            )


def _sail(b: Board, s: ShumshuState) -> Iterator[Breach]:
    sail = s.sail
    assert sail is not None
    for u in sail.party:
        if not landing.available(b, s, u):
            yield Breach("sail.party", "SHU-LAND.2", f"{u} is not a Russian unit that may sail")
    landing_party = sail.hex is not None
    ranks = [b.order[u] for u in sail.party]
    if ranks != sorted(ranks) and not (
        landing_party and s.variant.is_("lander_order", "russian_choice")
    ):
        yield Breach("sail.party", "SHU-LAND.2", "the units sail in the counter list's order")
    if len(sail.party) > landing.party_limit(s, landing_party) and not sail.sailed:
        yield Breach("sail.party", "SHU-LAND.2", "more units at sea than the ships carry")
    if sail.sailed != (s.stage is not Stage.SAIL):
        yield Breach("sail.sailed", "SHU-LAND.2", "embarking ends when the units sail")
    if sail.hex is not None:
        if not b.is_coastal(sail.hex) or b.in_red(sail.hex):
            yield Breach("sail.hex", "SHU-LAND.5", f"no landing at {sail.hex}")
        barred = landing.hex_barred(b, s, sail.hex)
        if barred is not None and s.stage in _SAIL_STAGES:  # no lander has rolled yet
            yield Breach("sail.hex", barred[0], barred[1])
        if s.stage is Stage.SAIL and not sail.party and not landing.embark_choices(b, s):
            yield Breach("sail.party", "SHU-LAND.2", "a landing with nobody to land")
        if s.variant.is_("landings", "one_beachhead") and s.beachhead is not None:
            yield Breach("sail.hex", "SHU-LAND.10", "a landing while a beachhead holds")
    else:
        if sail.lost_ship or sail.landed:
            yield Breach("sail", "SHU-LAND.4", "deliveries do not roll")
        if sail.party and not landing.delivery_possible(s) and s.stage is Stage.SAIL:
            yield Breach("sail.party", "SHU-REINF.3", "deliveries need a beachhead and an AM turn")


def _fight(b: Board, s: ShumshuState) -> Iterator[Breach]:
    fight = s.fight
    assert fight is not None
    stage = s.stage
    defender = JP if s.side == RU else RU
    before_roll = stage in (Stage.DEFENDERS, Stage.HOLD, Stage.COMMIT, Stage.ROLL)
    if not fight.attackers or any(b.side_of[a] != s.side for a in fight.attackers):
        yield Breach("fight.attackers", "SHU-COMBAT.1", "the attackers are the phasing side's")
        return
    if fight.landing:
        sail = s.sail
        if (
            sail is None
            or sail.hex != fight.hex
            or not sail.party
            or sail.party[0] != fight.attackers[0]
            or len(fight.attackers) != 1
        ):
            yield Breach("fight", "SHU-LAND.2", "a landing roll is the next lander's, alone")
        elif before_roll and s.piece(fight.attackers[0]).loc is not Loc.POOL:
            yield Breach("fight.attackers", "SHU-LAND.2", "the lander is at sea until it lands")
    elif before_roll:
        for a in fight.attackers:
            p = s.piece(a)
            if p.loc is not Loc.MAP or p.hex not in b.neighbors(fight.hex):
                yield Breach("fight.attackers", "SHU-COMBAT.1", f"{a} cannot attack {fight.hex}")
    if fight.banzai and (s.side != JP or fight.landing):
        yield Breach("fight.banzai", "SHU-BANZAI.1", "Banzai! is a Japanese attack")
    if fight.air and not (s.side == JP and s.air and s.air_used and not fight.landing):
        yield Breach("fight.air", "SHU-AIR.1", "the Ki-43 shifts a Japanese attack it flies in")
    real = [p.id for p in real_in(b, s, fight.hex)]
    if any(b.side_of[d] != defender or d not in real for d in fight.defenders) and before_roll:
        yield Breach("fight.defenders", "SHU-STACK.3", "the defenders are units of the hex")
    if before_roll:
        if fight.result or fight.face or fight.retreating or fight.winners or fight.first_to:
            yield Breach("fight.result", "SHU-CRT.1", "nothing is decided before the roll")
        opposed = holder(b, s, fight.hex) == defender
        if not fight.landing and not real:
            yield Breach("fight.hex", "SHU-COMBAT.1", f"nobody defends {fight.hex}")
        if stage is Stage.DEFENDERS:
            if fight.defenders or not opposed or not real:
                yield Breach("fight.defenders", "SHU-STACK.3", "the defenders are still to pick")
        elif opposed or not fight.landing:
            if fight.defenders not in combat.defender_choices(b, s, fight.hex):
                yield Breach("fight.defenders", "SHU-STACK.3", "not a legal set of defenders")
        elif fight.defenders:
            yield Breach("fight.defenders", "SHU-STACK.3", "an empty hex has no defenders")
        if stage in (Stage.DEFENDERS, Stage.HOLD) and (
            fight.hold or fight.press or fight.air or fight.banzai
        ):
            yield Breach("fight.hold", "SHU-LAND.8", "No Retreat! and the attack come later")
        if stage is Stage.HOLD and not combat.hold_allowed(b, s, fight):
            yield Breach("fight.hold", "SHU-LAND.8", "nobody may declare No Retreat! here")
        if fight.hold and not fight.defenders:
            yield Breach("fight.hold", "SHU-LAND.8", "No Retreat! needs defenders")
        if stage is Stage.COMMIT and (fight.press or fight.air or fight.banzai):
            yield Breach("fight.press", "SHU-PRESS.1", "the attacker has not chosen yet")
        if stage is Stage.ROLL and (fight.press, fight.air, fight.banzai) not in _commits(b, s):
            yield Breach("fight.press", "SHU-PRESS.1", "not a choice open to this attacker")
    if stage is Stage.RETREAT:
        ok = fight.result in ("DR", "DW") and bool(fight.retreating)
        if ok:
            first = s.piece(fight.retreating[0])
            ok = first.loc is Loc.MAP and first.hex == fight.hex
            ok = ok and all(
                b.side_of[u] == defender and s.piece(u).hex == fight.hex for u in fight.retreating
            )
            ok = ok and bool(combat.retreat_choices(b, s, fight))
        if not ok:
            yield Breach("fight.retreating", "SHU-CRT.4", "units rout or withdraw after a DR or DW")
    elif fight.retreating:
        yield Breach("fight.retreating", "SHU-CRT.4", "routs and withdrawals come after the roll")
    if fight.first_to is not None and fight.first_to not in b.neighbors(fight.hex):
        yield Breach("fight.first_to", "SHU-CRT.4", "a retreat goes one hex")
    if stage is Stage.ADVANCE:
        ok = not fight.landing and bool(fight.winners)
        ok = ok and all(
            w in fight.attackers
            and s.piece(w).loc is Loc.MAP
            and not s.piece(w).disrupted
            and combat.advance_choices(b, s, fight, w)
            for w in fight.winners
        )
        if not ok:
            yield Breach("fight.winners", "SHU-COMBAT.13", "an advance needs victors")
    elif fight.winners:
        yield Breach("fight.winners", "SHU-COMBAT.13", "victors advance in the advance step")


def _commits(b: Board, s: ShumshuState) -> list[tuple[bool, bool, bool]]:
    """The attacker's choices as they were before the roll (the Ki-43's use is recorded)."""
    fight = s.fight
    assert fight is not None
    before = attrs.evolve(s, air_used=False) if fight.air else s
    if fight.air and before.variant.is_("air_frequency", "once_per_turn"):
        before = attrs.evolve(before, air_turn=0)
    return combat.commit_choices(b, before, fight)
