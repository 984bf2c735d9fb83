"""The bridges SHU-P-NO-LEAK's relation assumes (`solvers.checking.noninterference.Bridge`):
how many Japanese pieces stand on a hex a public variable names, and on each map hex
(SHU-LAND.1, SHU-LAND.2, SHU-COMBAT.5, SHU-COMBAT.6, SHU-STACK.3, SHU-REINF.2, AMB-SHU-7). The
Russians see each such count, the face-up pieces as they are and the face-down ones counted
on the hex, so it is equal in two states they cannot tell apart; `noninterference.prove`
derives it hex by hex from equal observations before it assumes it. Spelled out, a pair of
steps whose stages read it (whether the beachhead is lost, a landing opposed, the defenders
within the limit, where a decoy may come back) need not rediscover it hex by hex."""

from __future__ import annotations

from typing import Any

from kernel.hexes import hex_name
from solvers.checking.noninterference import Bridge
from solvers.checking.terms import Frame, Ops
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.rules.state import JP


def japanese_at(m: Model, hex_var: str, name: str) -> Bridge:
    """How many Japanese pieces stand on the hex the public variable `hex_var` names: the
    Russians see it, the face-up pieces as they are and the face-down ones counted on the hex,
    so it is equal in two states they cannot tell apart; spelled out, a pair of steps need not
    rediscover it hex by hex."""

    def term(o: Ops[Any, Any], s: Frame[Any, Any]) -> Any:
        return o.count(o.eq(s.i(m.at[u]), s.i(hex_var)) for u in m.t.of_side[JP])

    return Bridge(name, term, hex_var)


def japanese_at_beachhead(m: Model) -> Bridge:
    """The Japanese pieces on the beachhead (SHU-LAND.1, AMB-SHU-7: the beachhead is lost
    when the Japanese take it, `settle`; SHU-REPL.1: no replacement at a beachhead they
    hold)."""
    return japanese_at(m, "beach", "Japanese pieces on the beachhead")


def japanese_at_landing(m: Model) -> Bridge:
    """The Japanese pieces on the coastal hex the Russians sail for (SHU-LAND.2, SHU-COMBAT.6:
    whether a landing there is opposed, once its decoys are discovered; SHU-STACK.3: whether
    its defenders fit the limit)."""
    return japanese_at(m, "sail_hex", "Japanese pieces on the landing hex")


def japanese_at_combat(m: Model) -> Bridge:
    """The Japanese pieces on the hex of the combat under way (SHU-COMBAT.5, SHU-COMBAT.6,
    SHU-STACK.3: its defenders and the decoys discovered there)."""
    return japanese_at(m, "fhex", "Japanese pieces on the combat's hex")


HEX_RLIMIT = 80_000_000
"""The limit of the question a count on one map hex is derived in: the finite-domain solver
settles each in seconds, one (hex 0503) only past 20M."""


def japanese_on_hex(m: Model, h: int) -> Bridge:
    """The Japanese pieces on map hex `h` (SHU-COMBAT.6: a decoy comes back to a hex the
    Japanese hold; SHU-REINF.2, AMB-SHU-7: whether an arrival leaves the Japanese on the
    beachhead), read once a piece has moved (`noninterference_moves`)."""

    def term(o: Ops[Any, Any], s: Frame[Any, Any]) -> Any:
        return o.count(o.eq(s.i(m.at[u]), h) for u in m.t.of_side[JP])

    return Bridge(f"Japanese pieces on hex {hex_name(m.t.hexes[h - 1])}", term, rlimit=HEX_RLIMIT)


def bridges(m: Model) -> tuple[Bridge, ...]:
    """The counts on the hexes a public variable names, which the steps' stages read, and
    on each map hex."""
    named = (japanese_at_beachhead(m), japanese_at_landing(m), japanese_at_combat(m))
    return named + tuple(japanese_on_hex(m, h) for h in m.t.cells)
