"""Shumshu's options: every AMB-SHU entry of the catalogue, and the silent points found here.

Preset `draft` follows the catalogue's kernel notes wherever they decide, and otherwise the
reading named first, but for one note: `decoy_return` takes `reachable_held`, not the note's
empty hex, because a lone new counter in an empty hex would be known as the decoy (SHU-COMBAT.5,
AMB-SHU-21; the option's text argues it). Options whose `ambiguity` is None are marked
"(found here)": the text is silent in a way the catalogue does not list. `SILENT` holds the
options made afterwards from choices the first build had made without an option
(`silent_options`); their first readings keep its behaviour.
"""

from __future__ import annotations

from kernel.variants import ALT, HERE, NOTE, TEXT, Catalogue, Option
from kernel.variants import option as _o
from kernel.variants import reading as _r
from specs.shumshu.data.silent_options import SILENT as SILENT

FIRST_BUILD = (
    _o(
        "die_reading",
        "AMB-SHU-1",
        "Which of the two die numbers on each CRT row does a roller read?",
        ("SHU-CRT.9", "SHU-CRT.1", "SHU-LAND.3", "SHU-BANZAI.1", "SHU-AIR.2", "SHU-PRESS.1"),
        _r(
            "by_nationality",
            "The Japanese read the left number (6 best), the Russians the right (1 best).",
            NOTE,
            "SHU-CRT.9",
            "SHU-BANZAI.1",
        ),
        _r("attacker_left", "Whoever rolls (the attacker) reads the left number.", ALT),
        _r(
            "reversed_nationality",
            "The Russians read the left number and the Japanese the right.",
            ALT,
        ),
    ),
    _o(
        "turn_structure",
        "AMB-SHU-2",
        'Is a game turn a half-day (AM or PM) or a day of two sub-turns? "Per turn" limits '
        "(a replacement, a decoy's return, the Russians' recovery) follow it.",
        ("SHU-SEQ.2", "SHU-REINF.1", "SHU-REPL.1", "SHU-DISRUPT.4", "SHU-COMBAT.6"),
        _r("half_day", "Each game turn is one half-day, alternating AM and PM.", NOTE),
        _r("day", "Each game turn is a day with an AM and a PM sub-turn.", ALT),
    ),
    _o(
        "game_length",
        "AMB-SHU-2",
        "How many half-days does the game last? (The text has no turn track.)",
        ("SHU-SEQ.2", "SHU-WIN.3"),
        _r("three_days", "Six half-days: 18 to 20 August 1945, the fighting's length.", NOTE),
        _r("two_days", "Four half-days.", ALT),
        _r("four_days", "Eight half-days.", ALT),
    ),
    _o(
        "victory_timing",
        "AMB-SHU-3",
        "When does taking a star hex count?",
        ("SHU-WIN.1", "SHU-WIN.2", "SHU-WIN.3"),
        _r(
            "at_end",
            "The Russians must occupy the hex at the end of the game (take and keep it).",
            NOTE,
            "SHU-WIN.1",
        ),
        _r(
            "ever_entered",
            "Entering the hex once is enough; entering the 2-star hex ends the game at once.",
            ALT,
        ),
    ),
    _o(
        "strategic_needs",
        "AMB-SHU-3",
        "Does a strategic victory also need the 1-star hex?",
        ("SHU-WIN.2",),
        _r("two_star_alone", "The 2-star hex alone is a strategic victory.", NOTE, "SHU-WIN.2"),
        _r("both_stars", "The Russians need both star hexes for a strategic victory.", ALT),
    ),
    _o(
        "failed_landing",
        "AMB-SHU-4",
        "What happens to a landing unit that does not clear an opposed hex (D or AD)?",
        ("SHU-LAND.7", "SHU-LAND.10"),
        _r("return", "It goes back off-board and may sail again later (AE eliminates).", NOTE),
        _r(
            "sea_box",
            "It waits disrupted in a sea box off the hex and goes back off-board when it "
            "recovers (AE eliminates).",
            ALT,
        ),
    ),
    _o(
        "cleared_hex_rolls",
        "AMB-SHU-4",
        "Must a lander roll when the hex is already empty or cleared?",
        ("SHU-LAND.2", "SHU-LAND.3"),
        _r("each_rolls", "Every lander rolls; only the worst roll matters then.", NOTE),
        _r("land_freely", "Once the hex is clear, later landers land without a roll.", ALT),
    ),
    _o(
        "kamchatka_shift",
        "AMB-SHU-5",
        'Is the Kamchatka "die roll shifted 1" a die modifier or a column shift?',
        ("SHU-LAND.6",),
        _r("die", "One pip in the Russians' favour, its sign set by the die reading.", NOTE),
        _r("column", "One odds column to the right.", ALT),
    ),
    _o(
        "kamchatka_artillery",
        "AMB-SHU-5",
        "Does the general artillery column shift also apply to a landing in Kamchatka range?",
        ("SHU-LAND.6", "SHU-COMBAT.10"),
        _r("landing_shift_only", "Only the landing's own shift applies.", NOTE),
        _r("with_column", "The artillery column shift applies too.", ALT),
    ),
    _o(
        "worst_roll",
        "AMB-SHU-5",
        'Is a landing\'s "worst possible die roll" the natural or the modified roll?',
        ("SHU-LAND.3", "SHU-LAND.6"),
        _r("natural", "The natural roll.", NOTE),
        _r("modified", "The roll after the Kamchatka modifier.", ALT),
    ),
    _o(
        "no_retreat_scope",
        "AMB-SHU-6",
        "Does No Retreat! apply to every combat or only to landings?",
        ("SHU-LAND.8", "SHU-LAND.9"),
        _r("every_combat", "Any undisrupted defenders may declare it, before the roll.", NOTE),
        _r(
            "landings_only",
            "The Japanese against a landing, the Russians in their beachhead hex.",
            ALT,
        ),
    ),
    _o(
        "no_retreat_dw",
        "AMB-SHU-6",
        "On a DW, are No Retreat! defenders who hold still disrupted?",
        ("SHU-LAND.8",),
        _r("disrupted", "DW becomes D.", NOTE),
        _r("undisrupted", "They hold undisrupted.", ALT),
    ),
    _o(
        "landings",
        "AMB-SHU-7",
        "How many landings, and how many beachheads?",
        ("SHU-LAND.1", "SHU-LAND.10"),
        _r(
            "one_beachhead", "One landing per Russian turn, only while there is no beachhead.", NOTE
        ),
        _r(
            "every_turn",
            "A landing (instead of deliveries) in any Russian turn; a success moves the beachhead.",
            ALT,
        ),
    ),
    _o(
        "beachhead_lost",
        "AMB-SHU-7",
        "When is a beachhead eliminated?",
        ("SHU-LAND.10",),
        _r(
            "emptied_or_taken",
            "When no Russian unit remains in it (or the Japanese take it).",
            NOTE,
        ),
        _r("taken_only", "Only when a Japanese unit enters it.", ALT),
    ),
    _o(
        "schedule",
        "AMB-SHU-8",
        "When may each Russian unit sail?",
        ("SHU-REINF.3", "SHU-SETUP.3"),
        _r("data", "From the turn the data file gives (the schedule as data).", NOTE),
        _r("all_at_once", "Every unit from Turn 1.", ALT),
    ),
    _o(
        "deliveries",
        "AMB-SHU-8",
        'How many units does one AM turn deliver ("as many surviving naval deliveries")?',
        ("SHU-REINF.3",),
        _r("capabilities", "One per surviving landing capability.", NOTE),
        _r("three", "Up to three while any capability survives.", ALT),
    ),
    _o(
        "replacement",
        "AMB-SHU-9",
        'What does "after all Russ reinforcements come over" require?',
        ("SHU-REPL.1", "SHU-REPL.2"),
        _r(
            "after_deliveries",
            "An order in the turn: after this turn's deliveries, at the beachhead, without a "
            "capability; a battalion lost at sea counts as eliminated.",
            NOTE,
        ),
        _r("pool_landed", "Only once no Russian unit waits off-board.", ALT),
    ),
    _o(
        "regiment_use",
        "AMB-SHU-10",
        'May a regiment formed at the start of the turn move and attack at once ("for immediate '
        'use")?',
        ("SHU-RGT.1",),
        _r("immediate", "Yes; its battalions are off the map while it exists.", NOTE),
        _r("next_turn", "Not in the turn it forms.", ALT),
    ),
    _o(
        "non_defenders",
        "AMB-SHU-11",
        "Who chooses the defenders, and does the result reach the units that do not defend?",
        ("SHU-STACK.3",),
        _r("share_result", "The owner picks; the result applies to every unit in the hex.", NOTE),
        _r("defenders_only", "The owner picks; only the defenders are affected.", ALT),
    ),
    _o(
        "tank_road",
        "AMB-SHU-12",
        "How far does a tank move along a road?",
        ("SHU-MOVE.2",),
        _r("three_hexes", "Two extra hexes: three in all.", NOTE),
        _r("two_hexes", "Two hexes in all.", ALT),
    ),
    _o(
        "move_and_attack",
        "AMB-SHU-12",
        "May a unit both move and attack in its player-turn?",
        ("SHU-MOVE.1", "SHU-COMBAT.1"),
        _r("either", "It moves or attacks, not both.", NOTE),
        _r("both", "It may move and then attack.", ALT),
    ),
    _o(
        "could_move",
        "AMB-SHU-13",
        'What does "if they could (still) move into it" require of an attacker?',
        ("SHU-COMBAT.2",),
        _r("terrain", "Only that the hexside can be crossed (no attack from the sea).", NOTE),
        _r(
            "movement_left",
            "Also unused movement: a unit that moved cannot attack (the road bonus never "
            "carries into an enemy hex).",
            ALT,
        ),
    ),
    _o(
        "must_attack",
        "AMB-SHU-14",
        "How must the enemy units next to attacking units be attacked?",
        ("SHU-COMBAT.4", "SHU-RGT.4"),
        _r(
            "same_phase",
            "Each such hex must receive some attack in the same combat phase (attacks are "
            "declared together); an attack whose obligations cannot all be met is illegal.",
            NOTE,
        ),
        _r(
            "same_combat",
            "It must be in the same combat: with one hex per combat, a unit next to such a "
            "hex may only attack it, and a unit next to two such hexes cannot attack.",
            ALT,
        ),
    ),
    _o(
        "regiment_counts",
        "AMB-SHU-15",
        'Does a regiment count as one of the "2 Russ units any size" across a hexside and of '
        "the 3 Russian defenders?",
        ("SHU-COMBAT.3", "SHU-STACK.3"),
        _r("one", "A regiment counts as one unit.", NOTE),
        _r("three", "A regiment counts as its three battalions.", ALT),
    ),
    _o(
        "landing_limit",
        "AMB-SHU-15",
        "Do the hexside limits apply to a landing?",
        ("SHU-COMBAT.3", "SHU-LAND.2"),
        _r("exempt", "No: up to three battalions land, each on its own.", NOTE),
        _r("hexside_limit", "Yes: at most two Russian units land from the sea at once.", ALT),
    ),
    _o(
        "odds_beyond",
        "AMB-SHU-16",
        "How are odds below 1:3 and above 4:1 read?",
        ("SHU-COMBAT.7", "SHU-CRT.2"),
        _r("clamp", "On the 1:3 and the 4:1 column.", NOTE),
        _r("automatic", "Below 1:3 the attackers are eliminated; above 4:1 the defenders.", ALT),
    ),
    _o(
        "shift_order",
        "AMB-SHU-17",
        "How are column shifts combined at the table's edges?",
        ("SHU-COMBAT.9", "SHU-COMBAT.10", "SHU-PRESS.1"),
        _r(
            "sum_then_clamp",
            "All shifts are summed, then clamped to the table; artillery shifts are automatic "
            "for both sides; a pressed attack moves the result after that.",
            NOTE,
        ),
        _r(
            "clamp_each",
            "Each shift is applied in turn (the attacker's first), clamped at each step.",
            ALT,
        ),
    ),
    _o(
        "river_half",
        "AMB-SHU-18",
        'Does "more than half attackers cross-river" count units or attack factors?',
        ("SHU-COMBAT.11",),
        _r("units", "Units; an engineer cancels it for its own hexside.", NOTE),
        _r("factors", "Attack factors; an engineer cancels it for its own hexside.", ALT),
    ),
    _o(
        "disrupted_shift",
        "AMB-SHU-19",
        "Does the shift against disrupted units need every defender disrupted?",
        ("SHU-DISRUPT.2",),
        _r("all_disrupted", "Only if every defender is disrupted.", NOTE),
        _r("any_disrupted", "If any defender is disrupted.", ALT),
    ),
    _o(
        "jp_recovery",
        "AMB-SHU-20",
        'When do disrupted Japanese units recover ("at the end of his player-turn")?',
        ("SHU-DISRUPT.3",),
        _r("own_turn_end", "At the end of the next Japanese player-turn.", NOTE),
        _r("same_player_turn", "At the end of the player-turn in which they were disrupted.", ALT),
    ),
    _o(
        "ru_recovery",
        "AMB-SHU-20",
        "At the end of which Japanese combat phase do disrupted Russian units recover?",
        ("SHU-DISRUPT.4",),
        _r("first_after", "The first one after the disruption.", NOTE),
        _r(
            "next_turn",
            "That of the next game turn, whenever in this one they were disrupted.",
            ALT,
        ),
    ),
    _o(
        "reveal",
        "AMB-SHU-21",
        "When is a hidden Japanese unit revealed?",
        ("SHU-COMBAT.5",),
        _r("in_combat", "When it attacks or is attacked (and when disrupted).", NOTE),
        _r("when_attacked", "Only when it is attacked (and when disrupted).", ALT),
    ),
    _o(
        "rehide",
        "AMB-SHU-21",
        "Does a revealed unit go hidden again?",
        ("SHU-COMBAT.5",),
        _r("on_recovery", "Yes, when it recovers from disruption.", NOTE),
        _r("never", "No.", ALT),
    ),
    _o(
        "decoy_return",
        "AMB-SHU-21",
        "Where does a discovered decoy come back next turn? SHU-COMBAT.6 says only "
        '"removed til next turn"; it is face down again (SHU-COMBAT.5), but the Russians saw '
        "which counter was removed, so where it comes back decides whether they can tell it "
        'from a real unit. Draft departs from the kernel note\'s "empty": a decoy put back '
        "alone on an empty hex is the only new counter there, and the Russians, who watched it "
        "come back in its own step, know that counter is the decoy and can follow it; the text "
        "gives the decoy no such mark, and across a table the Japanese would put it into a "
        "stack. Joining a hex the Japanese hold, the decoy is one more face-down counter "
        "among theirs (tests/shumshu/test_hidden_history.py). It waits while no such hex is "
        "open.",
        ("SHU-COMBAT.6", "SHU-COMBAT.5"),
        _r(
            "reachable_held",
            "In the next Japanese turn, into a hex already holding Japanese pieces, reachable "
            "from hex 33 without entering a Russian hex: the Russians see one more counter "
            "in a Japanese stack.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-COMBAT.5",
        ),
        _r(
            "reachable_empty",
            "In the next Japanese turn, in any empty hex reachable from hex 33 without "
            "entering a Russian hex (the Russians can tell the lone new counter is the decoy).",
            NOTE,
        ),
        _r("hex_33", "At hex 33, if no Russian unit holds it.", ALT),
    ),
    _o(
        "at_guns",
        "AMB-SHU-22",
        'When does "unless the Russian AT guns arrive" end the tank bonus?',
        ("SHU-TANK.2",),
        _r("game_wide", "For good, once the AT guns have landed.", NOTE),
        _r("local", "Only when the AT guns are in the defending hex.", ALT),
    ),
    _o(
        "air_frequency",
        "AMB-SHU-23",
        "How often may the Ki-43 act?",
        ("SHU-AIR.1", "SHU-AIR.2"),
        _r(
            "each_player_turn",
            "One attack shift per Japanese player-turn and one strike per Russian player-turn.",
            NOTE,
        ),
        _r("once_per_turn", "One use (shift or strike) per game turn.", ALT),
    ),
    _o(
        "air_strike",
        "AMB-SHU-23",
        "Is the strike against Russian shipping optional?",
        ("SHU-AIR.2",),
        _r("optional", "The Japanese choose, before the landing rolls.", NOTE),
        _r("mandatory", "The Ki-43 rolls in every Russian player-turn while it flies.", ALT),
    ),
    _o(
        "banzai_press",
        "AMB-SHU-24",
        "May a Banzai! attack be pressed, and on which roll?",
        ("SHU-BANZAI.1", "SHU-PRESS.1"),
        _r(
            "modified_roll",
            "Yes: +1 first (above 6 counts as 6), then the pressed column by the modified roll.",
            NOTE,
        ),
        _r("not_combined", "A Banzai! attack is never pressed.", ALT),
    ),
    _o(
        "press_roll",
        "AMB-SHU-25",
        "Does a pressed attack look at the natural or the modified roll?",
        ("SHU-PRESS.1",),
        _r(
            "modified",
            "The modified roll; only the attacker presses, before the roll; edge columns stay.",
            NOTE,
        ),
        _r("natural", "The natural roll.", ALT),
    ),
    _o(
        "advance_hex",
        "AMB-SHU-26",
        'Adjacent to what is the "empty adj" hex a victor may advance into?',
        ("SHU-COMBAT.13",),
        _r("next_to_defender", "Adjacent to the defender's hex; any number of attackers.", NOTE),
        _r("next_to_victor", "Adjacent to the advancing unit.", ALT),
    ),
    _o(
        "no_retreat_path",
        "AMB-SHU-26",
        "What happens to a unit that must rout or withdraw and has no hex to go to?",
        ("SHU-CRT.4", "SHU-CRT.5"),
        _r("eliminated", "It is eliminated.", NOTE),
        _r("stays", "It stays, disrupted.", ALT),
    ),
    _o(
        "air_sinks",
        "AMB-SHU-27",
        "May the airpower sink a capability with no unit aboard?",
        ("SHU-AIR.2", "SHU-LAND.4"),
        _r(
            "any_capacity",
            "Yes: any capability at random, loaded or not; the per-landing cap does not apply.",
            NOTE,
        ),
        _r("loaded_ship", "Only a ship with a unit aboard.", ALT),
    ),
    _o(
        "landed_units",
        "AMB-SHU-28",
        "May units that landed by assault this turn move and attack?",
        ("SHU-SEQ.1", "SHU-LAND.2"),
        _r(
            "landing_is_action",
            "No: the landing is their action; delivered units act normally.",
            NOTE,
        ),
        _r("may_move_attack", "Yes.", ALT),
    ),
    _o(
        "decoy_movement",
        "AMB-SHU-30",
        "May decoys move? (They count as units for must-attack and stacking, never defend.)",
        ("SHU-COMBAT.6", "SHU-STACK.3", "SHU-COMBAT.4"),
        _r("like_infantry", "They move like infantry battalions.", NOTE),
        _r("fixed", "They never move.", ALT),
    ),
    # --- found here -------------------------------------------------------------------------
    _o(
        "landing_size",
        None,
        "With fewer than three capabilities left, how many battalions may one landing carry? "
        'The text\'s literal "Up to 3 battalions may be landed" sets a most, not a number '
        'owed: the same paragraph counts "the three naval landing capabilities", takes one '
        'away "(permanently)" on a worst roll, and delivers "as many surviving Russ naval '
        'deliveries" (SHU-REINF.3), one unit a capability. Three battalions on three '
        "capabilities is one each; were three still to sail on one capability left, losing the "
        "others would cost a landing nothing, and the text makes the loss permanent for a "
        "reason. So draft carries one per capability left (three while all three survive, "
        "which is the literal sentence); the text does not demand three after a loss, and "
        "`three` keeps the sentence's number regardless",
        ("SHU-LAND.2", "SHU-LAND.3"),
        _r("capabilities", "One per surviving capability, at most three.", HERE),
        _r(
            "three",
            "Up to three while any capability survives; an air strike then picks among "
            "max(capabilities, units) loads.",
            TEXT,
        ),
    ),
    _o(
        "worst_roll_opposed",
        None,
        "Against an opposed hex, does the worst roll also give its CRT result?",
        ("SHU-LAND.3", "SHU-LAND.7"),
        _r("lost_at_sea", "No: the unit and a capability are lost, nothing else.", HERE),
        _r("crt_too", "The CRT result against the defenders applies as well.", HERE),
    ),
    _o(
        "press_landings",
        None,
        "May a landing roll be pressed?",
        ("SHU-PRESS.1", "SHU-LAND.2"),
        _r("no", "No: pressing is for attacks on land.", HERE),
        _r("yes", "Yes: each lander may press.", HERE),
    ),
    _o(
        "resolution_order",
        None,
        "In which order are the declared attacks resolved?",
        ("SHU-SEQ.1", "SHU-COMBAT.1"),
        _r("attacker_chooses", "The attacker picks the next one each time.", HERE),
        _r("declared", "In the order they were declared.", HERE),
    ),
    _o(
        "retreat_together",
        None,
        "Do routed or withdrawn units of one hex go to one hex together?",
        ("SHU-CRT.4", "SHU-CRT.5"),
        _r("each_unit", "Each unit goes to its own choice of hex.", HERE),
        _r("together", "All go to the same hex.", HERE),
    ),
    _o(
        "victors",
        None,
        "Which results make the attackers victors who may advance?",
        ("SHU-COMBAT.13",),
        _r("hex_cleared", "A result that leaves the defender's hex without enemy units.", HERE),
        _r("any_defender_result", "Any of DE, DR, DW and D.", HERE),
    ),
    _o(
        "hex33_blocked",
        None,
        "Where does a Japanese reinforcement arrive when Russians hold hex 33?",
        ("SHU-REINF.2",),
        _r("no_arrival", "It cannot arrive that turn.", HERE),
        _r("adjacent", "In a hex next to hex 33 free of Russian units.", HERE),
    ),
    _o(
        "reinforcement_moves",
        None,
        "May a Japanese reinforcement move in the turn it arrives?",
        ("SHU-REINF.2", "SHU-MOVE.1"),
        _r("may_move", "Yes, and attack.", HERE),
        _r("arrival_is_move", "No: arriving is its move.", HERE),
    ),
    _o(
        "defender_count",
        None,
        "Must the owner field as many defenders as the limit allows?",
        ("SHU-STACK.3",),
        _r("as_many_as_allowed", "Yes: he picks which, not how many.", HERE),
        _r("any_up_to", "He may field any number from one to the limit.", HERE),
    ),
    _o(
        "rgt_obligation",
        None,
        'Does "UnDsrptd" in "UnDsrptd Jpns units or Russ rgts ... must also be attacked" '
        "cover the Russian regiments too?",
        ("SHU-COMBAT.4", "SHU-RGT.4"),
        _r("undisrupted", "Yes: only undisrupted regiments must be attacked.", HERE),
        _r("any", "No: every adjacent regiment must be attacked.", HERE),
    ),
    _o(
        "road_path",
        None,
        'What does "moving along road" require for the extra hexes?',
        ("SHU-MOVE.2",),
        _r("whole_move", "Every hex of the move is entered along the road.", HERE),
        _r("extra_steps", "Only the hexes beyond the first are entered along the road.", HERE),
    ),
)

OPTIONS: tuple[Option, ...] = (*FIRST_BUILD, *SILENT)

DRAFT = {o.name: o.readings[0].name for o in OPTIONS}

PRESETS = {"draft": DRAFT}

CATALOGUE = Catalogue(game="shumshu", options=OPTIONS, presets=PRESETS, default_preset="draft")

LENGTH = {"two_days": 4, "three_days": 6, "four_days": 8}
"""Half-days per `game_length` reading."""
