"""Nomonhan's options: every EN/JA difference and every AMB-NOM entry, with its readings.

Presets: `ja` follows the Japanese original wherever the texts differ, and the catalogue's
kernel notes where both are silent; `en` follows the English translation wherever it says
something different (or nothing), and the same kernel notes elsewhere. Options marked
"(found here)" are ambiguities not in the shared catalogue.
"""

from __future__ import annotations

from kernel.variants import Catalogue, Option, Reading

EN = "EN text"
JA = "JA text"
NOTE = "catalogue kernel note"


def _o(
    name: str, amb: str | None, question: str, clauses: tuple[str, ...], *readings: Reading
) -> Option:
    return Option(name=name, question=question, clauses=clauses, readings=readings, ambiguity=amb)


OPTIONS = (
    _o(
        "tie",
        "AMB-NOM-2",
        "Who wins a tie on victory points?",
        ("NOM-4.3", "NOM-4.4"),
        Reading("soviet", "A points tie is a Soviet win.", JA, ("NOM-4.4",)),
        Reading("draw", "A points tie has no winner.", EN, ("NOM-4.3",)),
    ),
    _o(
        "scoring",
        "AMB-NOM-3",
        "Whose steps score victory points?",
        ("NOM-4.5", "NOM-4.6"),
        Reading(
            "enemy_eliminated",
            "2 per enemy tank step and 1 per other enemy step eliminated.",
            JA,
            ("NOM-4.5", "NOM-4.6"),
        ),
        Reading("own_remaining", "2 per own tank step and 1 per other own step still in play.", EN),
    ),
    _o(
        "game_end",
        "AMB-NOM-4",
        "When does the game end if no sudden death occurs?",
        ("NOM-5.4", "NOM-5.5"),
        Reading(
            "turn8",
            "Rolls at the end of Turns 6 and 7; automatic end after Turn 8.",
            JA,
            ("NOM-5.4", "NOM-5.5"),
        ),
        Reading(
            "rolls_only",
            "Rolls at the end of Turns 6 and 7; after that play goes on.",
            EN,
            ("NOM-5.4",),
        ),
    ),
    _o(
        "end_roll_timing",
        "AMB-NOM-5",
        "Is the end-of-turn roll made at the damage point that changes the initiative, or after "
        "the whole combat result?",
        ("NOM-5.4", "NOM-6.2"),
        Reading("after_combat", "After the combat's damage and advance are applied.", NOTE),
        Reading("at_change", "At the damage point that changes the initiative.", "literal"),
    ),
    _o(
        "initiative_change",
        "AMB-NOM-6",
        "Does the combat that changes the initiative finish?",
        ("NOM-6.2", "NOM-6.3", "NOM-9.24", "NOM-9.29"),
        Reading(
            "finish_combat",
            "The whole result (damage and advance) is applied; only the "
            "other pending combats are cancelled.",
            NOTE,
            ("NOM-6.3",),
        ),
        Reading(
            "immediate",
            "The turn ends at the first IP retreat or step loss; the rest of "
            "the damage is lost and there is no advance.",
            "literal",
            ("NOM-6.2",),
        ),
    ),
    _o(
        "damage_allocation",
        "AMB-NOM-7",
        "Who allocates damage points?",
        ("NOM-9.24",),
        Reading("owner", "The owner of the damaged units, point by point.", NOTE),
        Reading("winner", "The winner of the combat, point by point.", "alternative"),
    ),
    _o(
        "advance_points",
        "AMB-NOM-8",
        "What is the advance allowance?",
        ("NOM-9.12", "NOM-9.29"),
        Reading(
            "hit_difference", "The full hit difference, even if some could not be applied.", NOTE
        ),
        Reading("damage_applied", "Only the damage points actually applied.", "alternative"),
    ),
    _o(
        "combat_grouping",
        "AMB-NOM-9",
        "May one combat include several defenders?",
        ("NOM-9.5", "NOM-9.7", "NOM-9.9"),
        Reading(
            "many_to_many",
            "Several attackers against several defenders (a connected group of units in contact).",
            NOTE,
            ("NOM-9.9",),
        ),
        Reading("one_defender", "Every combat has exactly one defending unit.", "alternative"),
    ),
    _o(
        "combat_connection",
        None,
        "(found here) Must the units of one combat form one group linked by contacts? (The "
        "AMB-NOM-9 kernel note offers both: connected components, or any grouping.)",
        ("NOM-9.6", "NOM-9.7", "NOM-9.9"),
        Reading(
            "connected",
            "Yes: every unit of a combat is linked to the others through units in contact.",
            NOTE,
            ("NOM-9.9",),
        ),
        Reading(
            "free",
            "No: any attackers and defenders, each attacker in contact with a defender of the "
            "combat and each defender with an attacker of it, even in separate groups.",
            "JA NOM-9.7 read literally: any combination that meets its conditions 1 and 2",
            ("NOM-9.7",),
        ),
    ),
    _o(
        "must_be_attacked",
        None,
        "Must every defender in an attacker's ZOC be attacked?",
        ("NOM-9.3",),
        Reading("required", "Yes.", JA, ("NOM-9.3",)),
        Reading("not_required", "No; only attackers are obliged.", EN, ("NOM-9.2",)),
    ),
    _o(
        "must_be_attacked_scope",
        None,
        "(found here) Do units exempt from attacking (on a hill, or the Artillery) oblige the "
        "enemy units in their ZOC to be attacked?",
        ("NOM-9.3", "NOM-9.13", "NOM-9.20"),
        Reading(
            "obliged_attackers",
            "Only the ZOC of attackers that must attack counts.",
            "harmonises NOM-9.3 with NOM-9.13 and NOM-9.20",
        ),
        Reading(
            "any_attacker",
            "The ZOC of every attacker unit counts; the obligation may then be impossible to meet.",
            "JA read literally",
            ("NOM-9.3",),
        ),
    ),
    _o(
        "attacker_targets",
        None,
        "(found here) Must a non-hill attacker attack every enemy unit in its ZOC?",
        ("NOM-9.7", "NOM-9.14"),
        Reading("free", "Any grouping that satisfies NOM-9.2 to NOM-9.6.", JA, ("NOM-9.7",)),
        Reading(
            "all_adjacent",
            "Yes: only hill units may pick a single target.",
            "JA NOM-9.14 read a contrario (AMB-NOM-9)",
            ("NOM-9.14",),
        ),
    ),
    _o(
        "resolution_order",
        "AMB-NOM-11",
        "Who orders the resolution of declared combats?",
        ("NOM-9.8", "NOM-6.3"),
        Reading("chosen_each", "The attacker picks the next combat after each result.", NOTE),
        Reading("fixed_in_advance", "The attacker fixes the order when declaring.", "alternative"),
    ),
    _o(
        "hill_hits",
        "AMB-NOM-12",
        "Whose dice need a 6 in an attack on a hill?",
        ("NOM-9.15", "NOM-9.16"),
        Reading("attacker_only", "Only the attacker's dice.", NOTE),
        Reading("both_sides", "Both sides' dice in that combat.", "alternative"),
    ),
    _o(
        "hill_defenders",
        "AMB-NOM-12",
        "With several defenders, when is a combat an attack on a hill?",
        ("NOM-9.15",),
        Reading("any_on_hill", "When any defender is on a hill.", "alternative"),
        Reading("all_on_hill", "Only when every defender is on a hill.", "alternative"),
    ),
    _o(
        "artillery_range_to",
        "AMB-NOM-13",
        "What is the Artillery's range measured to?",
        ("NOM-9.17", "NOM-9.21"),
        Reading("defender_hex", "A defending unit's hex.", "alternative"),
        Reading("attacker_hex", "An attacking unit's hex.", "alternative"),
        Reading("any_participant", "Any participating unit's hex.", "alternative"),
    ),
    _o(
        "artillery_frequency",
        "AMB-NOM-14",
        "How often may the Artillery support?",
        ("NOM-9.17", "NOM-9.19"),
        Reading("per_combat_phase", "Once per Combat Phase.", JA, ("NOM-9.17",)),
        Reading(
            "per_turn",
            "Once per turn (EN gives no period; a turn may hold several Combat Phases).",
            "EN read as once per turn",
        ),
    ),
    _o(
        "artillery_adjacency",
        None,
        "May the Artillery support with a Japanese unit adjacent?",
        ("NOM-9.18",),
        Reading("banned", "No.", JA, ("NOM-9.18",)),
        Reading("allowed", "Yes (EN is silent).", EN),
    ),
    _o(
        "artillery_adjacency_river",
        None,
        "(found here) Under the NOM-9.18 ban, does a Japanese unit across a river without a "
        "bridge from the Artillery count as adjacent?",
        ("NOM-9.18", "NOM-7.4"),
        Reading(
            "any_adjacent",
            "Yes: any Japanese unit in a hex adjacent to the Artillery's stops its support.",
            "JA read literally (隣接ヘクス, an adjacent hex)",
            ("NOM-9.18",),
        ),
        Reading(
            "in_contact",
            "No: only a Japanese unit whose ZOC reaches the Artillery (NOM-7.4), the units that "
            "could engage it (the ban's aside: as a target it fights at 1, NOM-9.20).",
            "NOM-9.18 read with NOM-7.4 and NOM-9.20",
            ("NOM-9.18", "NOM-7.4", "NOM-9.20"),
        ),
    ),
    _o(
        "artillery_rules",
        "AMB-NOM-15",
        "Is the Artillery a one-step support unit or a generic counter?",
        ("NOM-9.19", "NOM-9.20", "NOM-9.28", "NOM-4.1"),
        Reading(
            "ja",
            "One step, never attacks, strength 1 when attacked, cannot retreat, the "
            "flip only marks use.",
            JA,
            ("NOM-9.19", "NOM-9.20", "NOM-9.28"),
        ),
        Reading(
            "generic",
            "Generic counter: printed values, two sides, may attack and retreat.",
            EN,
            ("NOM-9.24",),
        ),
    ),
    _o(
        "artillery_self_support",
        None,
        "(found here) May an Artillery that attacks (artillery_rules=generic) also support the "
        "combat it attacks in?",
        ("NOM-9.17", "NOM-9.20"),
        Reading(
            "allowed",
            "Yes: it adds its strength as an attacker and the +1 of its support.",
            "EN read literally (no restriction on which attack)",
            ("NOM-9.17",),
        ),
        Reading(
            "other_combats",
            "No: support goes to an attack it is not part of; in its own combat it adds only "
            "its strength.",
            "support read as aid to other units' attack",
            ("NOM-9.17",),
        ),
    ),
    _o(
        "artillery_shielding",
        "AMB-NOM-15",
        "May the Soviets put all the damage of a combat with the Artillery on other units?",
        ("NOM-9.24", "NOM-9.28"),
        Reading("may_shield", "Yes, the damage is allocated as usual.", NOTE),
        Reading(
            "any_damage_ends",
            "No: any damage in a combat with the Artillery falls on it.",
            "alternative",
            ("NOM-9.28",),
        ),
    ),
    _o(
        "pontoon_users",
        "AMB-NOM-16",
        "Which units may cross the pontoon bridge?",
        ("NOM-8.5",),
        Reading("not_tanks", "Every unit but tanks.", JA),
        Reading("infantry_cavalry", "Only infantry and cavalry.", EN),
    ),
    _o(
        "pontoon_is_bridge",
        "AMB-NOM-16",
        "Does the pontoon bridge count as a bridge for ZOC and the +1 defence?",
        ("NOM-7.4", "NOM-9.22"),
        Reading("yes", "Yes.", NOTE),
        Reading("no", "No: only fixed bridges carry ZOC and attacks.", "alternative"),
    ),
    _o(
        "demolition",
        "AMB-NOM-17",
        "Is pontoon demolition in force, and when? (JA breaks off after the effect, NOM-OPT.6: "
        "only what the texts state is implemented)",
        ("NOM-OPT.1", "NOM-OPT.2", "NOM-OPT.3", "NOM-OPT.4", "NOM-OPT.6"),
        Reading("off", "Not in force (the optional rule is not adopted).", JA, ("NOM-OPT.1",)),
        Reading(
            "optional_ja",
            "JA optional rule: a Japanese unit is reduced; declared at the "
            "start of a Japanese Movement Phase.",
            JA,
            ("NOM-OPT.2", "NOM-OPT.3"),
        ),
        Reading(
            "standard_en",
            "EN standard rule: any time in a Japanese Movement Phase.",
            EN,
            ("NOM-OPT.3",),
        ),
    ),
    _o(
        "demolition_effect",
        "AMB-NOM-17",
        "What does a blown pontoon bridge stop?",
        ("NOM-OPT.5",),
        Reading("everything", "The hexside is a river without a bridge for every purpose.", NOTE),
        Reading("crossing_only", "Only crossing; ZOC and attacks still pass.", JA, ("NOM-OPT.5",)),
    ),
    _o(
        "reinforcement_timing",
        "AMB-NOM-18",
        "When must a GT n reinforcement enter?",
        ("NOM-8.8", "NOM-8.9", "NOM-3.4"),
        Reading(
            "first_phase",
            "In the first friendly Movement Phase of turn n or, if there is "
            "none or the flag hex is blocked, the next one.",
            NOTE,
        ),
        Reading(
            "any_phase",
            "In any friendly Movement Phase of turn n or later, at the owner's choice.",
            "alternative",
        ),
        Reading(
            "lost",
            "As first_phase, but lost if turn n gives its side no Movement Phase.",
            "alternative",
        ),
    ),
    _o(
        "reinforcement_movement",
        "AMB-NOM-18",
        "May a reinforcement move on after entering?",
        ("NOM-8.8",),
        Reading("enter_and_move", "Entering costs the flag hex's MP; the unit may move on.", NOTE),
        Reading("enter_only", "Placing it on the flag hex is its move.", "alternative"),
    ),
    _o(
        "flag_friendly",
        None,
        "(found here) Does a friendly unit on the flag hex postpone a due reinforcement? "
        "(Only an enemy unit does, in the text; under reinforcement_timing=any_phase the owner "
        "may wait anyway.)",
        ("NOM-8.6", "NOM-8.8", "NOM-8.9"),
        Reading(
            "postpones",
            "Yes, for as long as it stays (no stacking, NOM-8.6); entry is then not compulsory.",
            "NOM-8.9 extended by NOM-8.6",
            ("NOM-8.6",),
        ),
        Reading(
            "must_clear",
            "No: while a reinforcement is due, a friendly unit on its flag hex that can still "
            "move must move off before the phase ends, so that the reinforcement enters.",
            "NOM-8.9 read a contrario (only an enemy unit postpones entry)",
            ("NOM-8.8", "NOM-8.9"),
        ),
    ),
    _o(
        "disturbed_combats",
        "AMB-NOM-19",
        "What happens to a pending combat whose units are no longer in contact?",
        ("NOM-9.8", "NOM-6.3"),
        Reading(
            "drop_out_of_contact",
            "Units out of contact drop out; with no pair left the combat is cancelled.",
            NOTE,
        ),
        Reading("resolve_anyway", "It is resolved as declared.", "alternative"),
    ),
    _o(
        "retreat_repeat",
        "AMB-NOM-20",
        "May one unit retreat several hexes in one combat?",
        ("NOM-9.24",),
        Reading("per_point", "Yes, one hex per damage point assigned to it.", NOTE),
        Reading("once", "At most one hex; further points to it are step losses.", "alternative"),
    ),
    _o(
        "advance_units",
        "AMB-NOM-21",
        "Which units may advance after combat?",
        ("NOM-9.30",),
        Reading("participants", "Only units that took part in the combat.", JA, ("NOM-9.34",)),
        Reading("any_friendly", "Any friendly unit.", EN),
    ),
    _o(
        "advance_trigger",
        "AMB-NOM-21",
        "Which enemy hexes must be emptied for an advance?",
        ("NOM-9.29",),
        Reading("all_hexes", "Every enemy participant has left its hex.", NOTE),
        Reading("any_hex", "At least one enemy participant has left its hex.", "alternative"),
    ),
    _o(
        "tank_advance_bridge",
        None,
        "May tanks advance across a bridge?",
        ("NOM-9.33",),
        Reading("banned", "No.", JA, ("NOM-9.33",)),
        Reading("allowed", "Yes (EN is silent).", EN),
    ),
    _o(
        "tank_numbers",
        "AMB-NOM-22",
        "Which of a tank's numbers is attack and which defence?",
        ("NOM-2.2", "NOM-9.10"),
        Reading("left_attack", "Left is attack, centre is defence.", "alternative"),
        Reading("left_defence", "Left is defence, centre is attack.", "alternative"),
    ),
    _o(
        "pass_through",
        "AMB-NOM-23",
        "May a moving unit pass through friendly units?",
        ("NOM-8.7",),
        Reading("none", "No unit may pass through any other unit.", JA, ("NOM-8.7",)),
        Reading("friendly", "Friendly units may be passed through.", EN),
    ),
)

_COMMON = {
    "end_roll_timing": "after_combat",
    "initiative_change": "finish_combat",
    "damage_allocation": "owner",
    "advance_points": "hit_difference",
    "combat_grouping": "many_to_many",
    "combat_connection": "connected",
    "must_be_attacked_scope": "obliged_attackers",
    "attacker_targets": "free",
    "resolution_order": "chosen_each",
    "hill_hits": "attacker_only",
    "hill_defenders": "any_on_hill",
    "artillery_range_to": "defender_hex",
    "artillery_shielding": "may_shield",
    "artillery_adjacency_river": "any_adjacent",
    "artillery_self_support": "allowed",
    "pontoon_is_bridge": "yes",
    "demolition_effect": "everything",
    "reinforcement_timing": "first_phase",
    "reinforcement_movement": "enter_and_move",
    "flag_friendly": "postpones",
    "disturbed_combats": "drop_out_of_contact",
    "retreat_repeat": "per_point",
    "advance_trigger": "all_hexes",
    "tank_numbers": "left_attack",
}

PRESETS = {
    "ja": {
        **_COMMON,
        "tie": "soviet",
        "scoring": "enemy_eliminated",
        "game_end": "turn8",
        "must_be_attacked": "required",
        "artillery_frequency": "per_combat_phase",
        "artillery_adjacency": "banned",
        "artillery_rules": "ja",
        "pontoon_users": "not_tanks",
        "demolition": "off",
        "advance_units": "participants",
        "tank_advance_bridge": "banned",
        "pass_through": "none",
    },
    "en": {
        **_COMMON,
        "tie": "draw",
        "scoring": "enemy_eliminated",
        "game_end": "rolls_only",
        "must_be_attacked": "not_required",
        "artillery_frequency": "per_combat_phase",
        "artillery_adjacency": "allowed",
        "artillery_rules": "generic",
        "pontoon_users": "infantry_cavalry",
        "demolition": "standard_en",
        "advance_units": "any_friendly",
        "tank_advance_bridge": "allowed",
        "pass_through": "friendly",
    },
}
# `scoring` stays `enemy_eliminated` under `en` too: EN does not say whose steps count, and the
# JA reading is the catalogue's; `own_remaining` is one option switch away (AMB-NOM-3).
# `artillery_frequency` under `en`: EN gives no period; once per Combat Phase (AMB-NOM-14).

CATALOGUE = Catalogue(game="nomonhan", options=OPTIONS, presets=PRESETS, default_preset="ja")
