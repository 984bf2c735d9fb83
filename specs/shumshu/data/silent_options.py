"""Shumshu's options made from choices the first build had made without an option.

Each first reading is the build's behaviour, kept as preset `draft`'s reading; each reading
has a test that fails if it is not honoured (tests/shumshu/test_silent_choices.py,
tests/shumshu/test_landing_decoy_choices.py). `variants` joins them to the catalogue.
"""

from __future__ import annotations

from kernel.variants import HERE, NOTE, TEXT
from kernel.variants import option as _o
from kernel.variants import reading as _r

SILENT = (
    _o(
        "landing_obligation",
        None,
        'Do landers oblige the Japanese next to them to be attacked ("UnDsrptd Jpns units ... '
        'adj to attacking units must also be attacked")? The clause index raises it '
        "(SHU-COMBAT.4); the catalogue does not",
        ("SHU-COMBAT.4", "SHU-LAND.2"),
        _r(
            "at_sea",
            "No: a lander attacks from the sea, off the map, next to no hex but the one it "
            "lands on; the obligation is a rule of the combat phase on land.",
            HERE,
            "SHU-LAND.2",
            "SHU-SETUP.3",
        ),
        _r(
            "coastal_neighbours",
            "Yes: the coastal hexes next to the landing hex share its sea and count as next "
            "to the landers; a lander attacks only the landing hex, so the obligation cannot "
            "be met and no landing is made next to undisrupted Japanese pieces there (decoys "
            "too) (AMB-SHU-14 note: an attack whose obligation cannot be met is illegal).",
            HERE,
            "SHU-COMBAT.4",
            "SHU-LAND.2",
        ),
    ),
    _o(
        "decoy_discovery",
        None,
        'When is a decoy "discovered" (SHU-COMBAT.6): whenever its hex is attacked, or only '
        "when no real unit is left in the hex to hide it?",
        ("SHU-COMBAT.6", "SHU-COMBAT.5"),
        _r(
            "hex_attacked",
            "When its hex is attacked or landed on: the hex's pieces are in combat "
            '("hidden until combat").',
            HERE,
            "SHU-COMBAT.5",
            "SHU-COMBAT.6",
        ),
        _r(
            "when_alone",
            "Only when the attack finds no real unit with it: a decoy stacked with units does "
            "not defend (AMB-SHU-30), so it is not in the combat and stays face down until a "
            "result leaves it alone in the hex.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-STACK.3",
        ),
    ),
    _o(
        "decoy_only_attack",
        "AMB-SHU-21",
        "What result do the attackers of a hex that held only decoys receive?",
        ("SHU-COMBAT.6", "SHU-COMBAT.13"),
        _r(
            "automatic_de",
            "An automatic DE: the attack counts (hexside limits, obligations) and the "
            "attackers are victors who may advance.",
            NOTE,
            "SHU-COMBAT.6",
            "SHU-COMBAT.13",
        ),
        _r(
            "no_result",
            "The attack counts (hexside limits, obligations) but finds nobody: no result, so "
            "no victors and no advance.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-COMBAT.1",
        ),
    ),
    _o(
        "ship_load",
        None,
        'How many units does one landing capability carry ("sinks one landing ship/capacity '
        'and passengers")? It matters when more units sail than capabilities are left '
        "(landing_size or deliveries = three)",
        ("SHU-AIR.2", "SHU-LAND.2", "SHU-REINF.3"),
        _r(
            "one_unit",
            'One: "up to 3 battalions" on "the three naval landing capabilities"; a sunk '
            "capability takes the one unit aboard, and a unit sailing beyond the capabilities "
            "left is a load of its own.",
            HERE,
            "SHU-LAND.2",
            "SHU-LAND.3",
        ),
        _r(
            "shared",
            "The units sailing are shared out over the capabilities left, in embarking order "
            "(the first on the first, and so on round); a sunk capability takes all its "
            "passengers.",
            HERE,
            "SHU-AIR.2",
        ),
    ),
    _o(
        "sunk_passengers",
        None,
        'Are units sunk by the Ki-43 ("permanently sinks one landing ship/capacity and '
        'passengers") eliminated, and so replaceable?',
        ("SHU-AIR.2", "SHU-REPL.1"),
        _r(
            "eliminated",
            'Yes, like the lander "eliminated" by the worst roll: "(permanently)" there marks '
            "the capability only, and a sunk infantry battalion may be replaced.",
            HERE,
            "SHU-LAND.3",
            "SHU-REPL.1",
        ),
        _r(
            "lost_for_good",
            '"Permanently" governs the passengers too: they are lost for good and never replaced.',
            HERE,
            "SHU-AIR.2",
        ),
    ),
    _o(
        "strike_when",
        "AMB-SHU-23",
        "May the Ki-43 strike at shipping in a Russian player-turn in which nothing sails?",
        ("SHU-AIR.2",),
        _r(
            "every_russian_turn",
            "Yes: once in every Russian player-turn while a capability is left (it may sink "
            "an empty one, AMB-SHU-27 note).",
            NOTE,
            "SHU-AIR.2",
        ),
        _r(
            "ships_at_sea",
            "Only when Russian units sail that player-turn (a landing or deliveries): it "
            'sinks "passengers", so ships at sea.',
            HERE,
            "SHU-AIR.2",
        ),
    ),
    _o(
        "eliminated_face",
        None,
        "Is a Japanese unit eliminated while still face down turned face up?",
        ("SHU-COMBAT.5",),
        _r(
            "face_up",
            'Yes: it was eliminated in a combat, and units are "hidden until combat".',
            HERE,
            "SHU-COMBAT.5",
        ),
        _r(
            "as_it_was",
            "No: it leaves the map as it was; one never revealed (a unit that did not defend, "
            "AMB-SHU-11, or an attacker under reveal=when_attacked) leaves face down, and the "
            "Russians learn only that a piece is gone.",
            HERE,
            "SHU-COMBAT.5",
            "SHU-STACK.3",
        ),
    ),
    _o(
        "friendly_landing",
        None,
        "May the Russians land on a coastal hex they already hold, and how?",
        ("SHU-LAND.1", "SHU-LAND.2", "SHU-LAND.3"),
        _r(
            "unopposed",
            'Yes, as on an empty hex ("even if the hex is empty"): each lander rolls, and only '
            "the worst roll matters.",
            HERE,
            "SHU-LAND.3",
        ),
        _r(
            "not_allowed",
            'No: each lander is "attacking the coastal hex", and the Russians do not attack '
            "their own hex.",
            HERE,
            "SHU-LAND.2",
        ),
        _r(
            "no_roll",
            "Yes, without a roll: nobody is attacked, so the units come ashore as deliveries do.",
            HERE,
            "SHU-LAND.1",
            "SHU-REINF.3",
        ),
    ),
    _o(
        "lander_order",
        None,
        "In which order do the landers of one landing roll?",
        ("SHU-LAND.2",),
        _r(
            "data_order",
            "In the order of the counter list: the Russians choose who sails, not who rolls first.",
            HERE,
            "SHU-LAND.2",
        ),
        _r(
            "russian_choice",
            "In the order the Russians embark them, which they choose.",
            HERE,
            "SHU-LAND.2",
        ),
    ),
    _o(
        "decoy_return_moves",
        None,
        "May a discovered decoy move in the Japanese turn it comes back?",
        ("SHU-COMBAT.6", "SHU-MOVE.1"),
        _r(
            "may_move",
            "Yes: it comes back before the movement, and moves like the other pieces.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-MOVE.1",
        ),
        _r(
            "return_is_move",
            "No: coming back is its move that turn.",
            HERE,
            "SHU-COMBAT.6",
        ),
    ),
    _o(
        "reform",
        "AMB-SHU-10",
        "May a regiment form again once one of its battalions (or the regiment) has been "
        "eliminated, from replaced battalions?",
        ("SHU-RGT.1", "SHU-REPL.1"),
        _r(
            "may_rejoin",
            "Yes: any three undisrupted battalions of the regiment together form it, replaced "
            "ones included.",
            TEXT,
            "SHU-RGT.1",
        ),
        _r(
            "not_after_loss",
            "No: once a battalion of the regiment (or the regiment) is eliminated, the "
            "regiment never forms again.",
            HERE,
            "SHU-RGT.1",
            "SHU-REPL.1",
        ),
    ),
    _o(
        "landing_swamp",
        None,
        'Does the swamp shift ("Dfdrs on swamp drop attack 1 column too") apply to a landing? '
        'The text exempts landings in one sentence: "Except for a landing, add 1 defense '
        'factor to a hex of dfndrs on a mountain". Draft reads it as written: the exception '
        "is the mountain's, and the swamp sentence has none; the other reading takes the "
        'exception as heading the terrain rules, joined by "too"',
        ("SHU-COMBAT.12", "SHU-COMBAT.8", "SHU-LAND.2"),
        _r(
            "applies",
            "Yes: a lander attacking a swamp hex is shifted 1 column left like any attacker; "
            "only the mountain's defence factor is excepted for a landing.",
            TEXT,
            "SHU-COMBAT.12",
            "SHU-COMBAT.8",
        ),
        _r(
            "exempt",
            'No: "Except for a landing" heads the terrain effects on the defenders\' hex, and '
            '"too" joins the swamp to the mountain; a landing\'s only shifts are its own '
            "(SHU-LAND.6) and the disrupted defenders' (SHU-DISRUPT.2).",
            HERE,
            "SHU-COMBAT.8",
            "SHU-COMBAT.12",
        ),
    ),
    _o(
        "decoy_return_blocked",
        None,
        "Where does a discovered decoy come back while the Russians hold hex 33? "
        "`decoy_return` counts its way back from hex 33, the Japanese way onto Shumshu "
        '(SHU-REINF.2); the text says only "removed til next turn" (SHU-COMBAT.6, AMB-SHU-21 '
        "iii). Draft keeps it off until hex 33 is free, the first build's behaviour; a decoy "
        "was never on Paramushir (SHU-SETUP.1), so the other reading does not tie it to hex "
        "33. Under decoy_return=hex_33 it waits either way",
        ("SHU-COMBAT.6", "SHU-REINF.2", "SHU-SETUP.1"),
        _r(
            "waits",
            "It stays removed while the Russians hold hex 33, and comes back in the first "
            "Japanese player-turn after they leave it.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-REINF.2",
        ),
        _r(
            "from_japanese_hexes",
            "It comes back next turn as `decoy_return` says, the way counted from every hex "
            "the Japanese hold instead of from hex 33: the text promises it back next turn and "
            "ties it to no entry hex.",
            HERE,
            "SHU-COMBAT.6",
            "SHU-SETUP.1",
        ),
    ),
    _o(
        "decoy_return_compulsory",
        None,
        'Must a decoy due back ("removed til next turn") come back in the first Japanese '
        "player-turn it may? Draft: yes, the first build's behaviour: the text bounds the "
        'removal ("til next turn") and gives the Japanese no choice to keep a counter out; '
        "keeping it off is the other reading",
        ("SHU-COMBAT.6",),
        _r(
            "compulsory",
            'Yes: "til next turn" bounds the removal; once a hex is open it comes back.',
            HERE,
            "SHU-COMBAT.6",
        ),
        _r(
            "optional",
            "No: the Japanese may keep it off; it may then come back in any later Japanese "
            "player-turn.",
            HERE,
            "SHU-COMBAT.6",
        ),
    ),
    _o(
        "decoy_return_order",
        None,
        "With two decoys due back, which comes back first? The two are alike (no factors, "
        "the same move, both face down), so the readings play the same game up to the "
        "decoys' names; draft keeps the first build's fixed order, which offers each "
        "choice of hexes once",
        ("SHU-COMBAT.6", "SHU-COMBAT.5"),
        _r(
            "data_order",
            "The first in the counter list: the two are alike to the Russians (SHU-COMBAT.5), "
            "so the order tells nothing and decides nothing but the hex each takes.",
            HERE,
            "SHU-COMBAT.6",
        ),
        _r(
            "japanese_choice",
            "The Japanese choose which comes back first (the rules give no order).",
            HERE,
            "SHU-COMBAT.6",
        ),
    ),
    _o(
        "replace_lost",
        None,
        "May a battalion lost at sea this Russian player-turn (a worst landing roll, an AE "
        "against the landing, the Ki-43's sinking) be replaced in the same player-turn, at the "
        'beachhead the landing has just made? SHU-REPL.2 puts the replacement "after all Russ '
        'reinforcements come over" and AMB-SHU-9 leaves open when a loss may be replaced',
        ("SHU-REPL.1", "SHU-REPL.2", "SHU-LAND.3"),
        _r(
            "same_turn",
            'Yes: the worst roll "eliminates" it (SHU-LAND.3), and "1 elimed Russ inf bn may '
            'be replaced per turn, after all Russ reinforcements come over": it comes after '
            "the sea movement in which it was lost.",
            TEXT,
            "SHU-REPL.1",
            "SHU-REPL.2",
            "SHU-LAND.3",
        ),
        _r(
            "next_turn",
            "No: a battalion lost while coming over this player-turn was one of this turn's "
            "reinforcements, and may be replaced from the next Russian player-turn on.",
            HERE,
            "SHU-REPL.2",
        ),
    ),
    _o(
        "landing_turns",
        None,
        "May the Russians make a naval landing on a PM turn? The landing paragraph gives no "
        'time ("they can try another or same hex with surviving units in later turn"), and '
        'the AM limit is written for reinforcements ("A player can bring over reinforcements '
        'on his AM turn"), a paragraph of its own. Draft reads the paragraphs apart, the '
        "first build's behaviour; the other reading counts landers as units brought over",
        ("SHU-LAND.1", "SHU-LAND.10", "SHU-REINF.1"),
        _r(
            "any_turn",
            'In any Russian player-turn: "in later turn" names no half of the day.',
            HERE,
            "SHU-LAND.10",
        ),
        _r(
            "am_only",
            "Only on the Russian AM turn: landers come over from off-board like deliveries, "
            "and units are brought over on a player's AM turn.",
            HERE,
            "SHU-REINF.1",
            "SHU-LAND.1",
        ),
    ),
)
