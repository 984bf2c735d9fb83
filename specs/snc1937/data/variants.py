"""The Shanghai-Nanking Campaign's options: every AMB-SNC entry of the catalogue, and the silent
points found here.

Preset `standard` follows the catalogue's kernel notes with the front-matter errata box applied
(SNC-0.0.3, SNC-0.0.4); it reads every option's first reading. One note gives way to the example
of play (section 12): `naval_gunfire_adjacent` (AMB-SNC-32), where the text says nothing and
the example rules the note's reading out (the option's text argues it); with it the example
replays to its last number (tests/snc1937/test_example_of_play.py), so no preset of its own is
needed. A second note gives way to the text: `sudden_defeat_timing` (AMB-SNC-15), where the note
checks once a whole move is over and "if at any time" (SNC-4.2.1) names no moment to wait for;
`standard` checks after every action, as the rules always did (the option's text argues it).
Preset `printed` is `standard` with the printed CRT and TEC wherever that box changes them:

- `crt_5to1_six=printed`: the box gives die 6 at 5:1 as 0/4 (SNC-0.0.4); the printed cell is
  the 5:1 column's d6 in `crt.toml` (provisional: the text says only that the box changes it),
  the corrected one its `[[errata]]` record.
- `town_marsh_woods=one_left`: the box corrects the TEC to "towns confer 1L in any type of hex
  ... thus a town in a marsh or woods hex will confer a 2L shift" (SNC-0.0.3), so the TEC as
  printed did not add the town to the marsh or woods: a town there gave 1L. Without the box the
  remaining passages are the 10.4.1 example (2L, SNC-10.4.1.5, blue) and the 10.4.1 Map Errata
  (1L, SNC-10.4.1.6, red), and red text (errata) outranks blue (examples, SNC-0.0.5): 1L again.

Options whose `ambiguity` is None are marked "(found here)": the text is silent in a way the
catalogue does not list. Options on data only (colours, garrison letters, the city list, the
Yangtze's form) are read by no rule: their question names the data file and field that decide.
"""

from __future__ import annotations

from kernel.variants import ALT, HERE, NOTE, TEXT, Catalogue, Option
from kernel.variants import option as _o
from kernel.variants import reading as _r

ERRATA = "errata box"
EXAMPLE = "example of play"  # section 12, the designer's own play (no clause IDs, SNC-0.0.5)


COMBAT = (
    _o(
        "town_marsh_woods",
        "AMB-SNC-1",
        "Does a town in a woods or marsh hex give Chinese defenders 2L or 1L?",
        ("SNC-0.0.3", "SNC-10.4.1.4", "SNC-10.4.1.5", "SNC-10.4.1.6", "SNC-10.4.1.1"),
        _r(
            "two_left",
            "2L: the town's 1L adds to the woods or marsh 1L, within the 2L terrain cap.",
            ERRATA,
            "SNC-0.0.3",
            "SNC-10.4.1.5",
        ),
        _r(
            "one_left",
            "1L: a town gives Chinese defenders 1L whatever the other terrain (the TEC as "
            "printed, and the 10.4.1 Map Errata).",
            ALT,
            "SNC-10.4.1.6",
        ),
    ),
    _o(
        "odds_limits",
        "AMB-SNC-2",
        "Are the odds limits (1:3 and 6:1) applied before or after the column shifts?",
        ("SNC-10.3.1.1", "SNC-10.4.0.3", "SNC-10.5.0.1"),
        _r(
            "clamp_after_shifts",
            "Shift along an unbounded column scale, then clamp the final odds (9:1 with 2L "
            "is 7:1, read as 6:1).",
            NOTE,
            "SNC-10.3.1.1",
        ),
        _r(
            "clamp_before_shifts",
            "Clamp the raw odds to the table first, then shift (9:1 with 2L is 4:1).",
            ALT,
        ),
    ),
    _o(
        "terrain_cap_scope",
        "AMB-SNC-3",
        "Which left shifts count against the two-left terrain cap?",
        ("SNC-10.4.1.1", "SNC-9.6.5", "SNC-10.4.2.1"),
        _r(
            "in_hex_only",
            "Only in-hex terrain shifts (woods, marsh, town, city); the overrun 1L and creek "
            "or river halving are apart.",
            NOTE,
            "SNC-10.4.1.1",
        ),
        _r("all_shifts", "Every left shift, the overrun's included, is capped at 2L.", ALT),
    ),
    _o(
        "unstated_terrain",
        "AMB-SNC-4",
        "What do rice paddy, Yangtze and estuary terrain and the Huangpu do in combat, where "
        "the text states no effect?",
        ("SNC-10.4.1.2", "SNC-10.4.1.3", "SNC-9.3.1"),
        _r("no_effect", "No combat effect.", NOTE, "SNC-10.4.1.2"),
        _r("tec_data", "The effect the TEC data file gives (tec.toml).", ALT, "SNC-9.3.1"),
    ),
    _o(
        "crt_5to1_six",
        None,
        "Which result does die 6 at 5:1 give: the errata box's 0/4 or the printed CRT's cell? "
        "The errata box changes the printed table",
        ("SNC-0.0.4", "SNC-10.5.0.1"),
        _r("errata", "0/4, as the errata box says.", ERRATA, "SNC-0.0.4"),
        _r(
            "printed",
            "The printed cell: the CRT column as printed (crt.toml), not its [[errata]] record.",
            TEXT,
            "SNC-10.5.0.1",
        ),
    ),
    _o(
        "loss_order",
        "AMB-SNC-28",
        "When the two loss rules clash (a one-step unit stronger than a two-step one), which "
        "one wins?",
        ("SNC-10.5.2.1", "SNC-10.5.2.2", "SNC-10.5.2.3"),
        _r(
            "two_step_first",
            "Reduce every two-step unit first; the strongest goes first within each class "
            "(current CF; the owner breaks ties).",
            NOTE,
            "SNC-10.5.2.1",
        ),
        _r("strongest_first", "The strongest unit always goes first.", ALT, "SNC-10.5.2.2"),
    ),
    _o(
        "strength_measure",
        "AMB-SNC-28",
        'What measures "the strongest unit" of the loss rules?',
        ("SNC-10.5.2.2", "SNC-10.5.2.1"),
        _r(
            "current_cf",
            "The CF on the side the counter shows now (a flipped unit counts its reduced CF).",
            NOTE,
            "SNC-10.5.2.2",
        ),
        _r(
            "printed_cf",
            "The CF printed on the counter's front, whether or not it has been flipped.",
            HERE,
        ),
    ),
    _o(
        "yangtze_hexside_combat",
        None,
        "May units attack across a Yangtze hexside? The text bans combat only across all-sea "
        "and all-lake hexsides, and the map data draws no Yangtze hexside today",
        ("SNC-10.4.1.9", "SNC-9.4.6"),
        _r(
            "forbidden",
            "No: a Yangtze hexside is uncrossable for combat too, as AMB-SNC-24's note treats "
            "both forms of the Yangtze as impassable.",
            HERE,
            "SNC-9.4.6",
        ),
        _r(
            "allowed",
            "Yes: only all-sea and all-lake hexsides bar combat.",
            TEXT,
            "SNC-10.4.1.9",
        ),
    ),
    _o(
        "estuary_is_yangtze",
        None,
        'Do Yangtze estuary hexes count as "the Yangtze" for naval gunfire?',
        ("SNC-11.4.2", "SNC-11.4.3", "SNC-9.3.1"),
        _r("yes", "Yes: the estuary is the Yangtze's mouth.", HERE, "SNC-11.4.2"),
        _r("no", "No: only Yangtze hexes and Yangtze hexsides are the Yangtze.", TEXT, "SNC-9.3.1"),
    ),
    _o(
        "naval_inland_basis",
        None,
        'Which hexes are "one hex inland from the Yangtze" for attacking naval gunfire?',
        ("SNC-11.4.2",),
        _r(
            "land_hex_by_yangtze",
            "A land hex next to a land hex that touches the Yangtze.",
            HERE,
            "SNC-11.4.2",
        ),
        _r(
            "any_hex_by_yangtze",
            "A land hex next to any hex, water included, that touches the Yangtze (two hexes "
            "from it in all).",
            HERE,
            "SNC-11.4.2",
        ),
    ),
    _o(
        "landing_halving_base",
        None,
        'What does a reduced unit landing halve: "their printed combat factors" of the front '
        "or the CF of the side it shows?",
        ("SNC-8.4.0.5", "SNC-2.2.1.11"),
        _r(
            "current_side",
            "The CF of the side the counter shows (a reduced unit halves its reduced CF).",
            HERE,
            "SNC-2.2.1.11",
        ),
        _r(
            "printed_front",
            "The full-strength CF printed on the front, even for a reduced unit.",
            TEXT,
            "SNC-8.4.0.5",
        ),
    ),
    _o(
        "concentric",
        "AMB-SNC-27",
        "What geometry makes a Japanese concentric attack?",
        ("SNC-10.4.2.1",),
        _r(
            "directions",
            "The attack directions hold an opposite pair, three alternating directions, or "
            "four or more; overruns may qualify, landings not.",
            NOTE,
            "SNC-10.4.2.1",
        ),
        _r(
            "empty_between",
            "As directions, but the hexes between three alternating attackers must hold no "
            "attacker.",
            ALT,
        ),
    ),
    _o(
        "advance_victors",
        "AMB-SNC-29",
        'Who is "victorious" and may advance after combat?',
        ("SNC-10.5.3.1", "SNC-10.5.3.6", "SNC-8.4.1.2"),
        _r(
            "hex_emptied",
            "Any surviving participant, whenever the defender's hex is empty, whatever the "
            "attacker lost.",
            NOTE,
            "SNC-10.5.3.1",
        ),
        _r(
            "fewer_losses",
            "Only when the hex is empty and the attacker lost fewer steps than the defender.",
            ALT,
        ),
    ),
    _o(
        "example_conflicts",
        "AMB-SNC-5",
        "Where an example of play conflicts with the rules (16:9 called 2:1; the 3rd Division "
        "at 16 CF), which wins? No rule reads this option: the kernel computes by the rules, "
        "and tests built from the examples record the mismatch",
        ("SNC-10.3.0.2", "SNC-8.3.4", "SNC-0.0.5"),
        _r("rules_text", "The rules text wins; the examples contain errors.", NOTE),
        _r("examples", "The examples reveal unstated rules.", ALT),
    ),
)

SEQUENCE = (
    _o(
        "reinforcement_delay",
        "AMB-SNC-6",
        "May reinforcements be delayed, or must they be placed in their GT?",
        ("SNC-5.4.1", "SNC-8.0.2", "SNC-8.1.4"),
        _r("delayable", "Either player may delay them, GT by GT, unit by unit.", NOTE, "SNC-8.0.2"),
        _r("mandatory", "They must be placed in their GT.", ALT, "SNC-5.4.1"),
    ),
    _o(
        "replacement_timing",
        "AMB-SNC-5",
        "When in the Japanese Reinforcement Phase are replacements spent? The example lands "
        "units first (AMB-SNC-5 (iii), AMB-SNC-20 (iii))",
        ("SNC-8.3.4", "SNC-8.3.7"),
        _r("first_step", "As the phase's first step, before any landing.", NOTE, "SNC-8.3.4"),
        _r("any_time", "At any time in the phase, as in the example of play.", ALT),
    ),
    _o(
        "fire_support_refresh",
        "AMB-SNC-7",
        "When may a used fire support marker be used again?",
        ("SNC-8.5.1", "SNC-8.5.2", "SNC-11.1.5", "SNC-11.1.6", "SNC-8.4.0.6"),
        _r(
            "each_operations_phase",
            "In every Operations Phase; the Japanese choose First Operations or "
            "Reinforcement Phase, and all are back for the Second (NGF four times per GT).",
            NOTE,
            "SNC-11.1.5",
            "SNC-11.1.6",
        ),
        _r("each_player_turn", "Once per player turn in all.", ALT, "SNC-8.5.1"),
        _r("first_phase_only", "Only in the First Operations Phase.", ALT, "SNC-8.5.1"),
    ),
    _o(
        "sudden_defeat_timing",
        "AMB-SNC-15",
        'Does a momentary state count for the sudden-death defeat ("if at any time")? A move '
        "is made hex by hex (SNC-9.0.3), a combat loss by loss: after_each_action looks after "
        "every one of them, after_each_move only once a whole move, a whole combat with its "
        "advance, or a placement is over. Both presets read the text literally "
        '(after_each_action): "if at any time" names no moment at which the check waits, and '
        "every hex a unit enters is a moment of play (control changes there at once, "
        "SNC-3.2.2); the catalogue's note (after_each_move) makes the kernel's unit of action "
        "a whole move, which the text never does",
        ("SNC-4.2.1", "SNC-9.0.3", "SNC-9.0.10", "SNC-10.5.1.1"),
        _r(
            "after_each_action",
            "Checked after every action: each hex a move enters, each step lost, each "
            "advance, retreat or placement, so a unit passing out of 3512's ring and back "
            "ends the game (AMB-SNC-15 (a)).",
            TEXT,
            "SNC-4.2.1",
            "SNC-9.0.3",
        ),
        _r(
            "after_each_move",
            "Checked once a whole move is over (its last hex), once a whole combat is over "
            "(losses, retreats and advance), and after each placement; a ring left and "
            "regained within one move or combat does not count (AMB-SNC-15 (b)).",
            NOTE,
            "SNC-9.0.10",
            "SNC-10.5.1.1",
        ),
        _r("end_of_phase", "Checked only at the end of each phase.", ALT),
    ),
    _o(
        "attackers_seen",
        None,
        "Does the defender see every declared attacker, or only those on top of their stacks? "
        "SNC-6.3.1 lets a player look beneath an enemy stack's top only when he attacks it; "
        "SNC-10.0.5 has the attacker bring units from any number of hexes into one attack, and "
        "the odds total them (SNC-10.3.0.1). Both presets show them (declared_open): SNC-6.3.1 "
        "guards what an enemy stack holds until it is attacked, and an attack's units are "
        "named and totalled as it is resolved, each player totalling his own side "
        "(SNC-10.3.0.1), which the defender can check only if he sees them",
        ("SNC-6.3.1", "SNC-10.0.5", "SNC-10.3.0.1"),
        _r(
            "declared_open",
            "Every declared attacker is named to both players, under its stack's top too.",
            HERE,
            "SNC-10.0.5",
            "SNC-10.3.0.1",
        ),
        _r(
            "tops_only",
            "The defender sees only the attackers on top of their stacks (and units still at "
            "sea); the others stay hidden like any unit beneath a top.",
            TEXT,
            "SNC-6.3.1",
        ),
    ),
    _o(
        "landing_fire_support",
        None,
        "After Japanese fire support in the First Operations Phase, which markers may a landing "
        'in the Reinforcement Phase still have? SNC-8.4.0.6 gives it those "not used in the '
        'First Operations Phase"; SNC-8.5.2 (red) says the markers are used "in the First '
        'Operations Phase or the Reinforcement Phase, not both". Both presets read SNC-8.5.2 as '
        "all markers at once (all_or_none): a marker used in First Operations is set aside "
        "until the next Operations Phase anyway (SNC-11.1.5), and the Reinforcement Phase is "
        "none, so read per marker the Important note would add nothing",
        ("SNC-8.4.0.6", "SNC-8.5.2", "SNC-11.1.5", "SNC-11.1.6"),
        _r(
            "all_or_none",
            "Once any Japanese marker is used in the First Operations Phase, a landing has only "
            "its amphibious marker.",
            TEXT,
            "SNC-8.5.2",
        ),
        _r(
            "per_marker",
            "A landing may have every marker not used in the First Operations Phase, and its "
            "amphibious marker.",
            TEXT,
            "SNC-8.4.0.6",
        ),
    ),
    _o(
        "marker_arrival",
        None,
        "When do the Japanese receive a GT's fire support markers: with the GT's box (from the "
        "Chinese player turn, which opens the GT) or at the start of their own player turn? It "
        "decides the naval gunfire the Japanese hold in defence in the Chinese player turns of "
        'GT 1 and 2. Both presets read SNC-8.5.1 (own_player_turn): markers "are received at '
        "the beginning of each player turn and may be used during the First Operations "
        "Phase\", the receiving player's turn and phase; the TRT box says only the GT",
        ("SNC-8.5.1", "SNC-3.1.2", "SNC-3.1.3", "SNC-5.1.1", "SNC-11.1.4"),
        _r(
            "own_player_turn",
            "At the start of the Japanese player turn of their GT: not in that GT's Chinese "
            "player turn.",
            TEXT,
            "SNC-8.5.1",
        ),
        _r(
            "game_turn",
            "From the start of their GT, the Chinese player turn included (the TRT box).",
            HERE,
            "SNC-3.1.2",
        ),
    ),
    _o(
        "reinforcement_actions",
        "AMB-SNC-38",
        "What may reinforcements do after their Reinforcement Phase?",
        ("SNC-5.3.5", "SNC-5.3.6", "SNC-8.4.0.2", "SNC-8.2.2"),
        _r(
            "second_phase_order",
            "They act in the Second Operations Phase under the declared order; Chinese "
            "reinforcements never attack in the Reinforcement Phase, Japanese never move.",
            NOTE,
            "SNC-5.3.4",
        ),
        _r(
            "may_move_twice",
            "As second_phase_order, and a Chinese unit that moved in the Reinforcement Phase "
            "may move again in a Second Operations Phase of movement.",
            ALT,
        ),
    ),
    _o(
        "fog_fire_support",
        "AMB-SNC-40",
        "Does the attacker commit fire support before or after the defending stack is revealed?",
        ("SNC-6.3.1", "SNC-6.3.2", "SNC-6.4.1", "SNC-11.1.1"),
        _r(
            "reveal_then_support",
            "Declare the attack, reveal the stack, then the attacker's and the defender's "
            "fire support.",
            NOTE,
            "SNC-11.1.1",
        ),
        _r("support_then_reveal", "Fire support is committed before the reveal.", ALT),
    ),
    _o(
        "non_combat_losses",
        "AMB-SNC-41",
        'Do "units are reduced or eliminated only by combat losses" forbid the eliminations '
        "of other rules (over-stacking, interdiction, elites beyond GT 12)?",
        ("SNC-2.2.1.15", "SNC-6.0.4", "SNC-11.2.3", "SNC-8.1.3", "SNC-8.4.0.9"),
        _r("specific_rules_win", "No: the specific rules win over the general sentence.", NOTE),
        _r(
            "combat_only",
            "Yes: only combat removes units.",
            ALT,
            "SNC-2.2.1.15",
            unplayed="the reading gives no procedure for what replaces an over-stacking cull "
            "(SNC-6.0.4), an interdiction loss (SNC-11.2.3) or an elite unit beyond GT 12 "
            "(SNC-8.1.3); a designer's ruling is needed",
        ),
    ),
    _o(
        "source_gaps",
        "AMB-SNC-42",
        "What do the 14 gaps of the extracted text hold? No rule reads this option: the "
        "kernel implements the text as extracted and marks the clauses next to a gap",
        ("SNC-1.3.1", "SNC-2.2.1.10", "SNC-8.1.4", "SNC-8.5.2", "SNC-9.4.5", "SNC-10.4.1.8"),
        _r("as_extracted", "Nothing beyond the text around them.", NOTE),
        _r("missing_rules", "Rules lost in the extraction (the S&T 329 e-rules decide).", ALT),
    ),
)

STACKING = (
    _o(
        "stacking_check",
        "AMB-SNC-8",
        "Which hexes does the stacking check after a combat cover?",
        ("SNC-6.0.2", "SNC-6.0.3", "SNC-6.0.4"),
        _r(
            "combat_hexes",
            "The hexes of that combat (the target and the attackers' hexes), for both players.",
            NOTE,
            "SNC-6.0.2",
        ),
        _r("global", "Every hex of both players.", ALT, "SNC-6.0.3"),
    ),
    _o(
        "reinforcement_stacking",
        "AMB-SNC-8",
        "Are Reinforcement Phase placements checked for stacking when placed?",
        ("SNC-6.0.2", "SNC-13.16", "SNC-13.19", "SNC-8.4.1.1"),
        _r(
            "exempt_until_next_check",
            "No: placements are exempt until the next check point.",
            NOTE,
            "SNC-6.0.2",
        ),
        _r("checked_on_placement", "Yes: a placement may not over-stack its hex.", ALT),
    ),
    _o(
        "movement_check_side",
        "AMB-SNC-8",
        "Whose hexes does the check at the end of an Operations Phase of movement cover?",
        ("SNC-6.0.2", "SNC-6.0.3"),
        _r("phasing_player", "The phasing player's only: check (a) is his.", NOTE, "SNC-6.0.2"),
        _r("both_players", "Both players', as at check (b).", ALT, "SNC-6.0.3"),
    ),
    _o(
        "overrun_stacking",
        "AMB-SNC-8",
        "Is the stacking limit checked after an overrun? An overrun is a combat (SNC-9.6.3), but "
        'it is fought in a Move phase, and SNC-6.0.2 says the limits "only apply" at the end '
        "of a Move phase and after each combat of a Fight phase. Both presets read the text's "
        '"only": an overrun in a Move phase starts no check, so units may still move out of an '
        "over-stacked hex until the phase ends, when check (a) covers it",
        ("SNC-6.0.2", "SNC-6.0.4", "SNC-9.6.3", "SNC-5.3.2"),
        _r(
            "end_of_phase",
            "No: check (b) is for an Operations Phase of attack; an overrun's hexes wait for "
            "check (a) at the end of its Move phase.",
            TEXT,
            "SNC-6.0.2",
        ),
        _r(
            "after_each_overrun",
            "Yes: an overrun is a combat, so check (b) follows it (its hexes, both players).",
            ALT,
            "SNC-6.0.2",
            "SNC-9.6.3",
        ),
    ),
    _o(
        "japanese_stack",
        "AMB-SNC-9",
        "What may a Japanese stack of five hold?",
        ("SNC-6.2.1", "SNC-6.2.2", "SNC-8.4.1.1", "SNC-13.29", "SNC-13.32"),
        _r(
            "five_any",
            "At most five units of any mix; detachments and brigades count as a fifth.",
            NOTE,
            "SNC-6.2.1",
        ),
        _r(
            "division_plus_one",
            "At most four units of one division (the SNLF battalions count as one) plus one "
            "other unit.",
            ALT,
            "SNC-6.2.1",
            "SNC-6.2.2",
        ),
    ),
    _o(
        "snlf_partial_division",
        None,
        "Under japanese_stack=division_plus_one, do fewer than four SNLF battalions together "
        'count as (part of) one division, or only "the four ... stacked together"? It decides '
        "whether SNLF 1, 2 and 9 with the Shanghai Garrison in 3512 are legal",
        ("SNC-6.2.2", "SNC-13.24", "SNC-13.27"),
        _r(
            "any_together",
            "Any SNLF battalions stacked together are units of one division.",
            HERE,
            "SNC-6.2.2",
        ),
        _r(
            "all_four",
            "Only all four together are a division; fewer are separate units.",
            TEXT,
            "SNC-6.2.2",
        ),
    ),
    _o(
        "static_de",
        "AMB-SNC-10",
        "How many division equivalents do Chinese static units (garrisons, TP, PPC) count?",
        ("SNC-6.2.3", "SNC-13.13", "SNC-13.5", "SNC-13.6"),
        _r("zero", "None, like free-stacking markers.", NOTE),
        _r(
            "by_size",
            "As a regular unit of their size symbol: a division 1, anything smaller 1/2.",
            ALT,
            "SNC-6.2.3",
        ),
    ),
    _o(
        "overstack_cull",
        None,
        'Which sets of units may an owner eliminate from an over-stacked hex ("enough excess '
        'units ... to bring [it] into compliance")?',
        ("SNC-6.0.4",),
        _r(
            "minimal",
            "Any set whose removal brings the hex within limits and none of whose units could "
            "be kept (no unit removed needlessly).",
            HERE,
            "SNC-6.0.4",
        ),
        _r("fewest", "Only the sets with the fewest units that bring it within limits.", HERE),
    ),
)

MOVEMENT = (
    _o(
        "retreat_into_ezoc",
        "AMB-SNC-11",
        "May a retreating unit (a landing's survivors) enter an EZOC hex?",
        ("SNC-8.4.0.9", "SNC-8.4.1.3", "SNC-6.0.2", "SNC-10.5.1.1"),
        _r(
            "allowed",
            "Yes: one adjacent hex of the owner's choice, not enemy-occupied, water or 3513.",
            NOTE,
            "SNC-8.4.0.9",
        ),
        _r("forbidden", "No: EZOC hexes are closed to a retreat.", ALT),
    ),
    _o(
        "retreat_blocked",
        "AMB-SNC-11",
        "What happens to a unit that must retreat and has no legal hex?",
        ("SNC-8.4.0.9", "SNC-8.4.1.3"),
        _r("eliminated", "It is eliminated.", NOTE),
        _r("stays", "It stays in place.", ALT),
    ),
    _o(
        "control_entry",
        "AMB-SNC-16",
        'Which arrivals "enter" a hex and so take its control?',
        ("SNC-3.2.1", "SNC-3.2.2", "SNC-9.1.3", "SNC-0.0.1"),
        _r(
            "any_arrival",
            "A unit coming to be in a hex by any means: movement, advance, landing, retreat "
            "or placement.",
            NOTE,
            "SNC-3.2.2",
        ),
        _r(
            "movement_and_advance",
            "Only movement (overruns included) and advance after combat (a landing's advance "
            "included); placement and retreat do not change control.",
            ALT,
            "SNC-3.2.2",
        ),
    ),
    _o(
        "control_transit",
        None,
        'Does a moving unit take control of every hex it "enters" on its way, or only of the '
        "hex where its move ends?",
        ("SNC-3.2.2",),
        _r(
            "every_hex_entered",
            "Every hex entered, even passing through: control switches immediately.",
            TEXT,
            "SNC-3.2.2",
        ),
        _r("where_move_ends", "Only the hex where the unit stops.", HERE),
    ),
    _o(
        "victory_control",
        "AMB-SNC-16",
        'Does "Japanese units control all city hexes" mean hex control, or Japanese units in '
        "each city?",
        ("SNC-4.3.1", "SNC-4.3.2", "SNC-3.2.2"),
        _r("hex_control", "Hex control (SNC-3.2.x): a city stays Japanese once entered.", NOTE),
        _r(
            "occupation",
            "A Japanese unit in each city hex (3513 then counts by SNC-4.3.2).",
            ALT,
            "SNC-4.3.1",
        ),
    ),
    _o(
        "japanese_loc",
        "AMB-SNC-19",
        "What blocks a Japanese line of communication for replacements?",
        ("SNC-8.3.5", "SNC-8.3.8", "SNC-7.2.2", "SNC-8.2.5"),
        _r(
            "blocked_by_units_and_zoc",
            "Chinese units and Chinese ZOC; any length, ending at a landing hex (SNLF: Wusong "
            "or a Yangtze-adjacent hex).",
            NOTE,
            "SNC-7.2.2",
        ),
        _r("blocked_by_units", "Only Chinese units; Chinese ZOC does not block it.", ALT),
    ),
    _o(
        "replacement_targets",
        "AMB-SNC-20",
        "Which reduced Japanese units may replacements restore?",
        ("SNC-8.3.1", "SNC-8.3.2", "SNC-8.3.4", "SNC-8.3.8"),
        _r(
            "any_two_step",
            "Any reduced Japanese two-step unit with a LoC (SNLF battalions and detachments too).",
            NOTE,
            "SNC-8.3.8",
        ),
        _r("regiments_only", "Only regiments (size III).", TEXT, "SNC-8.3.2"),
    ),
    _o(
        "chinese_rail",
        "AMB-SNC-21",
        "Are SNC-8.2(b) and SNC-9.5.2 one rail-reinforcement mechanism or two?",
        ("SNC-8.2.4", "SNC-8.2.5", "SNC-8.2.6", "SNC-9.5.2.1", "SNC-9.5.2.2", "SNC-9.5.2.3"),
        _r(
            "one_mechanism",
            "One: the hex needs a rail path from 0202 or 1824 free of Japanese units and EZOC "
            "and a LoC to the west or south edge.",
            NOTE,
        ),
        _r("two_mechanisms", "Two: either condition alone suffices.", ALT),
    ),
    _o(
        "road_creek_scope",
        None,
        "Where a road bridges a creek (road_and_creek=roads_negate_creek), does it do so for a "
        "unit that gets no road rate (the Chinese under chinese_roads=no_bonus)?",
        ("SNC-9.4.1", "SNC-9.4.2", "SNC-9.5.1.1", "SNC-9.5.1.2"),
        _r(
            "with_road_rate",
            "No: the bridge comes with moving along the road at its rate; a Chinese unit pays "
            "1 MP plus the creek.",
            HERE,
            "SNC-9.4.1",
        ),
        _r(
            "every_unit",
            "Yes: a road crosses the creek for everyone; the Chinese pay 1 MP and no creek.",
            HERE,
            "SNC-9.5.1.2",
        ),
    ),
    _o(
        "chinese_roads",
        "AMB-SNC-22",
        "Do the Chinese also pay 1/2 MP along roads and railroads?",
        ("SNC-9.4.1", "SNC-9.5.0.4", "SNC-9.5.1.1"),
        _r("no_bonus", "No: 1 MP per hex whatever the terrain.", NOTE, "SNC-9.4.1"),
        _r("half_mp", "Yes: 1/2 MP along roads and railroads.", ALT, "SNC-9.5.0.4"),
    ),
    _o(
        "road_and_creek",
        "AMB-SNC-23",
        "Does a road cancel creek-crossing costs (it does not cancel river costs)?",
        ("SNC-9.4.2", "SNC-9.5.0.2", "SNC-9.5.0.3", "SNC-9.5.1.2"),
        _r("roads_keep_creek_cost", "No: creek costs stay along a road.", NOTE, "SNC-9.5.1.2"),
        _r("roads_negate_creek", "Yes: only river costs stay.", ALT),
    ),
    _o(
        "yangtze_form",
        "AMB-SNC-24",
        "Is the Yangtze drawn as hexes, hexsides, or both? No rule reads this option: the map "
        "data decides (map.toml: terrain 'yangtze'/'estuary' hexes and hexsides of kind "
        "'yangtze'), and both forms are impassable",
        ("SNC-9.3.3", "SNC-9.4.6", "SNC-9.4.5", "SNC-8.3.8", "SNC-11.4.2"),
        _r("map_data", "As the map data draws it, every form impassable.", NOTE, "SNC-9.4.6"),
        _r("hexes_only", "In-hex terrain only, as the Designer's Note says.", ALT, "SNC-9.3.3"),
    ),
    _o(
        "overrun_cost",
        "AMB-SNC-25",
        'What does an overrun cost ("1 additional MP")?',
        ("SNC-9.6.1", "SNC-9.6.2", "SNC-9.6.3", "SNC-9.6.8"),
        _r(
            "entry_plus_one",
            "The cost of entering the target hex plus 1 (the example: 3 MP for marsh).",
            NOTE,
            "SNC-9.6.9",
        ),
        _r("one_mp", "Just 1 MP.", ALT, "SNC-9.6.1"),
    ),
    _o(
        "overrun_from_ezoc",
        "AMB-SNC-25",
        "May an overrun be launched from a hex in a Chinese ZOC?",
        ("SNC-9.6.2", "SNC-7.2.1"),
        _r("allowed", "Yes, as in the example (2806 is in 2707's ZOC).", NOTE, "SNC-9.6.9"),
        _r("forbidden", "No: a unit in an EZOC has stopped.", ALT, "SNC-7.2.1"),
    ),
    _o(
        "repeated_overruns",
        "AMB-SNC-26",
        'Are repeated overruns bound by "attacked once per phase"?',
        ("SNC-9.6.7", "SNC-9.6.8", "SNC-10.0.7", "SNC-10.0.8"),
        _r("exempt", "No: overruns are exempt from SNC-10.0.7 and SNC-10.0.8.", NOTE, "SNC-9.6.8"),
        _r("once_per_hex", "Each hex may be overrun once per phase.", ALT, "SNC-10.0.8"),
    ),
    _o(
        "ngl_zoc_entry",
        None,
        "For SNC-7.1.5, is an empty coastal hex within the Naval Gunfire Line occupied by the "
        "Japanese group that enters it, so that a Chinese ZOC does not stop the group there?",
        ("SNC-7.1.5", "SNC-7.2.1"),
        _r(
            "occupied_before_entry",
            "No: only hexes Japanese units held before the move are shielded; entering an "
            "empty one in a Chinese ZOC ends the move.",
            HERE,
            "SNC-7.2.1",
        ),
        _r(
            "occupied_on_entry",
            "Yes: the group occupies the hex on entering it, so the Chinese ZOC does not reach "
            "it and the move goes on.",
            TEXT,
            "SNC-7.1.5",
        ),
    ),
    _o(
        "overrun_repeat_cost",
        None,
        "What does a renewed overrun against the same hex cost: the 1 MP of SNC-9.6.8 or the "
        "full overrun cost of overrun_cost?",
        ("SNC-9.6.8", "SNC-9.6.1"),
        _r("one_mp", 'Just 1 MP: "pay 1 more MP".', TEXT, "SNC-9.6.8"),
        _r(
            "full_cost",
            "The full cost of a first overrun, as `overrun_cost` reads it (entry plus 1 under "
            "entry_plus_one).",
            HERE,
            "SNC-9.6.1",
        ),
    ),
    _o(
        "overrun_entry",
        None,
        "Under overrun_cost=one_mp, does a group that clears the overrun hex pay the cost of "
        "entering it?",
        ("SNC-9.6.1", "SNC-9.6.6", "SNC-9.6.9"),
        _r(
            "free",
            'No: it "advances into the hex" (the 9.6 example) as after combat, keeping the MP '
            "left after the overrun's 1 MP.",
            HERE,
            "SNC-9.6.9",
        ),
        _r(
            "pays_entry",
            "Yes: the hex's entry cost comes off its MP (never below 0) before it may move on "
            "(SNC-9.6.6 continues its movement). Under entry_plus_one the entry is paid already.",
            HERE,
            "SNC-9.6.6",
        ),
    ),
    _o(
        "snlf_loc_target",
        None,
        'Where may an SNLF LoC end: "Wusong (3510) or another Yangtze River hex"?',
        ("SNC-8.3.8", "SNC-8.3.5"),
        _r(
            "yangtze_bank",
            "Wusong or any land hex next to a Yangtze or estuary hex.",
            HERE,
            "SNC-8.3.8",
        ),
        _r(
            "yangtze_landings",
            "Wusong or an amphibious landing hex next to a Yangtze or estuary hex.",
            HERE,
            "SNC-8.3.5",
        ),
    ),
    _o(
        "rail_start_in_ezoc",
        None,
        "May a Chinese reinforcement set out by rail from Nanking or Hangzhou when that hex is "
        "in a Japanese ZOC? SNC-9.5.2.3 forbids entering an EZOC; SNC-7.2.3 lets a unit leave one",
        ("SNC-9.5.2.3", "SNC-7.2.3", "SNC-9.5.2.2"),
        _r(
            "blocked",
            "No: the start hex counts as entered, so an EZOC there blocks the rail move.",
            HERE,
            "SNC-9.5.2.3",
        ),
        _r(
            "allowed",
            "Yes: only the hexes entered after the start must be free of EZOC (a Japanese unit "
            "in the start hex still blocks).",
            HERE,
            "SNC-7.2.3",
        ),
    ),
    _o(
        "stack_movement",
        "AMB-SNC-44",
        "Do units move as stacks or one by one?",
        ("SNC-9.0.10", "SNC-9.0.7", "SNC-9.6.2"),
        _r("stacks", "A stack may move together, paying the highest cost.", NOTE),
        _r("units_only", "Units move one at a time, except in overruns.", ALT, "SNC-9.0.10"),
    ),
)

REINFORCEMENT = (
    _o(
        "elite_return_ban",
        None,
        "May a returning Chinese elite unit (SNC-8.1.4: in or next to Nanking) be placed next "
        'to a Japanese unit? SNC-8.2.1 bans it for "Chinese reinforcements", and SNC-8.0.1 '
        "calls reinforcements the units set on the TRT; SNC-8.1.2 sets the elite unit on the "
        "TRT, but under 8.1, Replacements. Both presets apply the ban (applies): the unit "
        "comes from the TRT like any reinforcement (SNC-8.0.1), and SNC-8.1.4 says where, not "
        "that the ban is lifted",
        ("SNC-8.1.4", "SNC-8.2.1", "SNC-8.0.1", "SNC-8.1.2"),
        _r(
            "applies",
            "Never next to a Japanese unit, as any Chinese reinforcement.",
            HERE,
            "SNC-8.2.1",
            "SNC-8.0.1",
        ),
        _r(
            "exempt",
            "In or next to Nanking, next to Japanese units or not (never in their hex).",
            TEXT,
            "SNC-8.1.4",
        ),
    ),
    _o(
        "elite_return_move",
        None,
        "May a returned Chinese elite unit move in the Reinforcement Phase it is placed in? "
        "SNC-8.2.2 gives a move to units placed in their listed starting hexes; SNC-8.1.4 only "
        "places the returned unit. Both presets read SNC-8.1.4 as written (placed_only): "
        "Nanking or a hex next to it is no listed starting hex, and the text gives the "
        "returned unit no move",
        ("SNC-8.1.4", "SNC-8.2.2", "SNC-8.2.3", "SNC-8.2.7"),
        _r("placed_only", "No: it is placed and moves no more that phase.", TEXT, "SNC-8.1.4"),
        _r(
            "moves",
            "Yes: like a method-(a) arrival, never next to a Japanese unit (SNC-8.2.3).",
            HERE,
            "SNC-8.2.2",
            "SNC-8.2.3",
        ),
    ),
    _o(
        "tenth_army_unopposed",
        None,
        "Does the 10th Army get its second hex of advance when its landing hex holds no "
        'Chinese unit? SNC-8.4.1.2 gives two hexes "after combat, starting with the landing '
        'hex"; a landing on an empty hex has no combat and its units are placed '
        "(SNC-8.4.0.11). Both presets read it as written (after_combat_only)",
        ("SNC-8.4.1.2", "SNC-8.4.0.11", "SNC-8.4.1.1"),
        _r(
            "after_combat_only",
            "No: only after a landing combat; placed units stay in the landing hex.",
            TEXT,
            "SNC-8.4.1.2",
        ),
        _r(
            "unopposed_too",
            "Yes: the landing hex is entered either way, and the second hex follows as after a "
            "combat.",
            HERE,
            "SNC-8.4.1.1",
        ),
    ),
    _o(
        "tenth_army_delay",
        None,
        'How does a 10th Army unit delayed (SNC-8.0.2, unit by unit) keep to "one landing '
        'location" (SNC-8.4.1.1; the 16th Division too, SNC-8.4.2.1)? Both presets read the '
        "limit as binding each landing (each_landing): SNC-8.0.2 lets every unit be delayed on "
        "its own, and the units that land in one GT land at one location",
        ("SNC-8.4.1.1", "SNC-8.4.2.1", "SNC-8.0.2"),
        _r(
            "each_landing",
            "The units landing in one GT land together at one hex; a unit delayed lands later "
            "at any hex its line names.",
            HERE,
            "SNC-8.0.2",
        ),
        _r(
            "whole_line",
            "The line lands whole: once one of its units is delayed this GT, the rest wait "
            "too, so all land at one location.",
            HERE,
            "SNC-8.4.1.1",
        ),
    ),
    _o(
        "landing_unpaid_losses",
        "AMB-SNC-12",
        "What happens to landing losses that cannot be paid, and to attackers that do not fit "
        "in the landing hex?",
        ("SNC-8.4.0.8", "SNC-8.4.0.9", "SNC-10.5.1.3"),
        _r(
            "ignored",
            "Losses that cannot be absorbed are ignored; the stacking limit is applied with "
            "the owner's culls.",
            NOTE,
            "SNC-10.5.1.3",
        ),
        _r(
            "attackers_stay_at_sea",
            "Attackers that cannot advance stay at sea and land in a later phase.",
            ALT,
        ),
    ),
    _o(
        "landing_split",
        None,
        "May the units of one section 13 line land at different landing hexes (the 9.6 and GT 3 "
        'examples land "one detachment to each of his divisions"), or does a line land whole?',
        ("SNC-8.4.0.3", "SNC-8.4.1.1", "SNC-8.4.2.1", "SNC-13.29"),
        _r(
            "by_formation",
            "Each formation of a line (a division's regiments, a brigade, each detachment or "
            "battalion) lands whole at any hex the line names, in any order; only a line the "
            'text sends to "one landing location" (the 10th Army, the 16th Division) lands '
            "together. The GT 3 example splits its line; SNC-8.4.1.1 and SNC-8.4.2.1 would not "
            'need to say "one" otherwise.',
            HERE,
            "SNC-8.4.1.1",
        ),
        _r(
            "whole_line",
            "A section 13 line is one landing: all its units at one of its hexes.",
            HERE,
            "SNC-8.4.0.3",
        ),
    ),
    _o(
        "landing_is_attack",
        "AMB-SNC-12",
        "Is a landing those units' one attack for the following Second Operations Phase?",
        ("SNC-8.4.0.4", "SNC-10.0.7"),
        _r("separate", "No: they may attack again in the Second Operations Phase.", NOTE),
        _r("counts", "Yes: they may not attack again that GT.", ALT, "SNC-10.0.7"),
    ),
    _o(
        "landing_halving",
        "AMB-SNC-13",
        "Are landing attackers halved on the total or unit by unit?",
        ("SNC-8.4.0.5", "SNC-10.4.1.8", "SNC-10.3.0.1"),
        _r("total", "Halve the total, rounding down; no creek or river reduction.", NOTE),
        _r("per_unit", "Halve each unit's CF, rounding down.", ALT, "SNC-8.4.0.5"),
    ),
    _o(
        "interdiction_removal",
        "AMB-SNC-30",
        "How many combat factors do the Chinese remove after the interdiction roll?",
        ("SNC-11.2.1", "SNC-11.2.2", "SNC-11.2.3", "SNC-8.0.2"),
        _r(
            "at_least_smallest_overshoot",
            "Units totalling at least the roll with the smallest overshoot, the Chinese "
            "choosing; all when the total is less.",
            NOTE,
        ),
        _r("at_most_roll", "Units totalling at most the roll.", ALT),
    ),
    _o(
        "chinese_air",
        "AMB-SNC-31",
        "How often may the Chinese try air support?",
        ("SNC-11.3.1", "SNC-11.3.2", "SNC-11.3.3"),
        _r("unlimited", "Against every Japanese air marker, until a 1 is rolled.", NOTE),
        _r("once_per_phase", "Once per phase.", ALT),
    ),
    _o(
        "naval_gunfire_adjacent",
        "AMB-SNC-32",
        'What must be "adjacent" to the Yangtze or Huangpu for attacking naval gunfire? The '
        "text does not say, and the catalogue's note takes the defender's hex without evidence. "
        "The example of play (section 12), the designer's own play, is the only evidence: on "
        'GT 3 it adds naval gunfire ("three fire support shifts", "3R") to the attacks on '
        "3511 and 3410, hexes off the water, from 3510, 3512 and 3611 on it; under "
        "defender_hex those attacks could have two markers, not three (one per category, "
        "SNC-11.1.3), and the 3410 die gives 1/0, not the text's 1/1. The example cannot tell "
        "attacker_hex from either. Both presets take either: it adds the example's attacks to "
        'the note\'s, and an attack on a hex by the water is "adjacent" to it on any reading. '
        "No rule text is broken, so the rules-text-first note of AMB-SNC-5 does not apply",
        ("SNC-11.4.2", "SNC-11.4.3", "SNC-7.1.5", "SNC-11.1.3"),
        _r(
            "either",
            "The defender's hex or an attacker's hex (a landing's: the landing hex).",
            EXAMPLE,
            "SNC-11.4.2",
        ),
        _r("defender_hex", "The defender's hex.", NOTE),
        _r("attacker_hex", "An attacker's hex.", ALT),
    ),
    _o(
        "static_steps",
        "AMB-SNC-33",
        "How many steps does a static unit printed on both sides have?",
        ("SNC-2.2.1.11", "SNC-13.1"),
        _r("counter_data", "As printed: two when both sides are printed.", NOTE),
        _r("elite_only", "Only Japanese and Chinese elite units have two.", TEXT, "SNC-2.2.1.11"),
    ),
    _o(
        "snlf9_arrival",
        "AMB-SNC-35",
        "How does SNLF 9 arrive in 3512 or 3611?",
        ("SNC-8.4.0.1", "SNC-13.27", "SNC-6.2.2"),
        _r("placed", "Placed directly, with no landing combat.", NOTE, "SNC-13.27"),
        _r("landing", "By amphibious landing, halved.", ALT, "SNC-8.4.0.1"),
    ),
    _o(
        "east_of_32xx",
        "AMB-SNC-43",
        'What does "east of hex row 32xx (inclusive)" cover?',
        ("SNC-8.4.1.1", "SNC-13.32"),
        _r("columns", "Columns 32 and above.", NOTE),
        _r("rows", "Rows 32 and above.", TEXT, "SNC-8.4.1.1"),
    ),
    _o(
        "captured_city_garrison",
        "AMB-SNC-37",
        "Where do the garrisons placed in captured cities come from?",
        ("SNC-9.1.3", "SNC-6.2.1", "SNC-9.1.2"),
        _r(
            "finite_pool",
            "The Japanese garrison counters of the counter data; none is placed when the pool "
            "is empty; an over-stack is culled at the next check.",
            NOTE,
        ),
        _r(
            "unlimited",
            "As many as needed: one in every city occupied.",
            ALT,
            "SNC-9.1.3",
            unplayed="garrisons beyond the counter mix need a supply of their own in the "
            "position (the dead never return, SNC-8.3.3); the position has none yet",
        ),
    ),
)

DATA_ONLY = (
    _o(
        "city_list",
        "AMB-SNC-17",
        "Which hexes are the seven cities? No rule reads this option: the map data decides "
        "(map.toml [[city]] records; 3512, 3513, 3611 and 2410 are the text's)",
        ("SNC-4.3.1", "SNC-10.4.1.7", "SNC-9.6.1", "SNC-7.1.2"),
        _r(
            "map_data",
            "The seven [[city]] records of map.toml: the text's four, and 0202, 1102 and 1824 "
            "marked provisional.",
            NOTE,
            "SNC-4.3.1",
        ),
        _r(
            "other_candidates",
            "Three other candidates of the catalogue (0116, 3509, 3510) in place of the "
            "provisional ones: an edit of map.toml, no code change.",
            ALT,
            "SNC-13.6",
            unplayed="the rules play the one city list of map.toml (its [[city]] records); "
            "this reading needs those records edited, and no second list is kept for the "
            "option to choose",
        ),
    ),
    _o(
        "japanese_colour",
        "AMB-SNC-34",
        "Are Japanese counters red on white or white on red? No game effect and no rule reads "
        "this option: the counter data's `arm` field decides",
        ("SNC-1.2.1", "SNC-2.2.1.2"),
        _r("red_on_white", "Red on white.", TEXT, "SNC-2.2.1.2"),
        _r("white_on_red", "White on red.", TEXT, "SNC-1.2.1"),
    ),
    _o(
        "garrison_letters",
        "AMB-SNC-36",
        "Which lettered garrison stands in which hex? No rule reads this option: the set-up "
        "data decides (setup.toml at-start lines for SNC-13.5 and SNC-13.6)",
        ("SNC-13.5", "SNC-13.6"),
        _r("setup_data", "As the set-up data places them (hex-number order).", NOTE),
        _r(
            "player_choice",
            "The Chinese player places the letters at set-up.",
            ALT,
            unplayed="the set-up places every lettered garrison where setup.toml does; no "
            "set-up action lets the Chinese player place the letters",
        ),
    ),
)

VICTORY = (
    _o(
        "gt8_adjacency",
        "AMB-SNC-14",
        "From GT 8, does any Chinese unit in or next to 3512 win, or only one that comes there?",
        ("SNC-4.1.2", "SNC-4.2.1", "SNC-4.3.3"),
        _r("literal", "Any Chinese unit in or next to 3512, checked always.", NOTE, "SNC-4.1.2"),
        _r(
            "must_gain",
            "Only a Chinese unit that moves or advances into 3512 or a hex next to it.",
            ALT,
        ),
    ),
    _o(
        "sudden_death_units",
        None,
        "Do Chinese static units (garrisons) count as the Chinese units in or next to 3512 of "
        "the sudden-death victory and defeat? The 3511 garrison stands next to 3512 at start",
        ("SNC-4.1.2", "SNC-4.2.1", "SNC-13.5"),
        _r("any_unit", 'Yes: every Chinese unit is a "Chinese unit".', TEXT, "SNC-4.1.2"),
        _r("mobile_only", "No: only mobile units, which can counterattack.", HERE),
    ),
)

ZOC = (
    _o(
        "city_zoc",
        "AMB-SNC-18",
        "Do units in a city project a ZOC out of it?",
        ("SNC-7.1.2", "SNC-7.1.1"),
        _r("projects_out", "Yes: cities only block ZOC going in.", NOTE, "SNC-7.1.2"),
        _r("none", "No: cities neither receive nor project a ZOC.", ALT),
    ),
)

AUDIT = (
    _o(
        "garrison_occupation",
        "AMB-SNC-16",
        "Does a Japanese group that moves through a city hex, without ending its move there, "
        '"occupy" it and so place a garrison in it (SNC-9.1.3: "each time the Japanese occupy '
        'or reoccupy a city hex they immediately place one of the Japanese garrison units")? '
        "AMB-SNC-16 (iv) notes that occupying may differ from controlling (SNC-3.2.2: control "
        "passes when a unit enters). Both presets read it as written (every_city_entered): a "
        'unit in a hex occupies it, and "immediately" places the garrison as the city is '
        "entered, as control passes (control_transit)",
        ("SNC-9.1.3", "SNC-3.2.2", "SNC-9.1.2"),
        _r(
            "every_city_entered",
            "Yes: every city hex a Japanese unit enters brings a garrison at once, in transit "
            "too (with control_transit=every_hex_entered).",
            TEXT,
            "SNC-9.1.3",
        ),
        _r(
            "where_units_stay",
            "No: a moving group occupies only the city its move ends in; an advance, a landing "
            "or a placement occupies its hex.",
            ALT,
            "SNC-9.1.3",
            "SNC-3.2.2",
        ),
    ),
    _o(
        "landing_defended_once",
        None,
        "May a landing attack Chinese units that an earlier landing of the same Reinforcement "
        "Phase attacked already (they retreated one hex into another landing hex, "
        'SNC-8.4.0.9)? SNC-10.0.8 says "defending units may not be attacked more than once per '
        'phase", but section 10 frames its limits for "the Operations Phase that the player '
        'chooses attack" (SNC-10.0.1), and a landing is a "special amphibious attack" of the '
        "Reinforcement Phase made whatever the phase order (SNC-8.4.0.10). Both presets take "
        "exempt, as the catalogue does for the other attack outside a Fight phase, the overrun "
        "(repeated_overruns=exempt, AMB-SNC-26), and for the landing's attackers "
        "(landing_is_attack=separate, AMB-SNC-12 (v)); applies reads SNC-10.0.8 literally",
        ("SNC-10.0.8", "SNC-10.0.1", "SNC-8.4.0.4", "SNC-8.4.0.9", "SNC-8.4.0.10"),
        _r(
            "exempt",
            "Yes: each landing fights whatever Chinese units stand in its landing hex, as "
            "often as groups land there; the per-phase limits are the Fight phases'.",
            HERE,
            "SNC-10.0.1",
            "SNC-8.4.0.4",
        ),
        _r(
            "applies",
            "No: a group may not land at a hex holding a Chinese unit a landing of this phase "
            "attacked already; it lands elsewhere or waits (SNC-8.0.2).",
            TEXT,
            "SNC-10.0.8",
        ),
    ),
)

OPTIONS: tuple[Option, ...] = (
    *COMBAT,
    *SEQUENCE,
    *STACKING,
    *MOVEMENT,
    *REINFORCEMENT,
    *DATA_ONLY,
    *VICTORY,
    *ZOC,
    *AUDIT,
)

STANDARD = {o.name: o.readings[0].name for o in OPTIONS}

ERRATA_CHANGES = {"crt_5to1_six": "printed", "town_marsh_woods": "one_left"}
"""Where the errata box (SNC-0.0.3, SNC-0.0.4) changes the printed TEC or CRT: the printed
readings, which preset `printed` takes (see the module docstring)."""

PRINTED = {**STANDARD, **ERRATA_CHANGES}

PRESETS = {"standard": STANDARD, "printed": PRINTED}

CATALOGUE = Catalogue(game="snc1937", options=OPTIONS, presets=PRESETS, default_preset="standard")
