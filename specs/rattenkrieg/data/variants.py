"""Rattenkrieg's options: every AMB-RKS entry of the catalogue, the optional recruiting rule, and
the gaps found here, each with its readings.

The `standard` preset takes the catalogue's kernel note wherever there is one and the literal
text elsewhere; `soviet_recruiting` is the same with the text's optional rule on (RKS-7.5.5).
Options whose `ambiguity` is None are gaps this project found that the catalogue does not list.
"""

from __future__ import annotations

from kernel.variants import Catalogue, Option, Reading

NOTE = "catalogue kernel note"
ALT = "catalogue reading"
TEXT = "literal text"
HERE = "found here"


def _o(
    name: str, amb: str | None, question: str, clauses: tuple[str, ...], *readings: Reading
) -> Option:
    return Option(name=name, question=question, clauses=clauses, readings=readings, ambiguity=amb)


OPTIONS = (
    _o(
        "pass_rule",
        "AMB-RKS-1",
        "What is a pass that ends the Player Turn loop when both players pass in succession?",
        ("RKS-5.1.2", "RKS-7.1.1", "RKS-7.4.1", "RKS-7.4.2", "RKS-7.5.1"),
        Reading(
            "no_designation",
            "A player passes by designating no unit (nothing is flipped); an activation always "
            "ends with its unit flipped and is not a pass. Passing is always allowed.",
            NOTE + " (c)",
            ("RKS-5.1.2", "RKS-7.4.1"),
        ),
        Reading(
            "idle_activation",
            "A Player Turn is a pass when the designated unit performs no operation (it is still "
            "flipped), or when no unit can be designated (then the player passes without one).",
            ALT + " (b)",
            ("RKS-7.4.1", "RKS-7.4.2"),
        ),
        Reading(
            "every_turn",
            "Every Player Turn ends with a pass, so the loop ends after one German and one "
            "Soviet Player Turn.",
            ALT + " (a)",
            ("RKS-7.4.1",),
        ),
    ),
    _o(
        "card_needed",
        "AMB-RKS-3",
        "What must the player hold for the acting unit to keep operating?",
        ("RKS-7.1.3", "RKS-7.2.1", "RKS-7.3.1"),
        Reading(
            "per_operation",
            "Only the card that pays for an operation; moves into friendly Areas are free and "
            "always allowed.",
            NOTE + " (c)",
            ("RKS-7.2.1", "RKS-7.3.1"),
        ),
        Reading(
            "hand_card", "Operations need at least one card in hand.", ALT + " (a)", ("RKS-7.1.3",)
        ),
        Reading(
            "hand_or_step",
            "Operations need a card in hand or a step card on the acting unit.",
            ALT + " (b)",
            ("RKS-7.1.3",),
        ),
    ),
    _o(
        "ace",
        "AMB-RKS-4",
        "What number has an Ace?",
        ("RKS-2.4.1", "RKS-8.7.1", "RKS-8.7.3", "RKS-9.2.2"),
        Reading("one", "The Ace is 1.", NOTE + " (a)"),
        Reading("fourteen", "The Ace is 14, higher than any other card.", ALT + " (b)"),
        Reading(
            "no_number",
            "The Ace has no number: it never hits in combat or bombardment.",
            ALT + " (c)",
        ),
    ),
    _o(
        "neither_hits",
        "AMB-RKS-5",
        "In judgement step 3, does 'neither' refer to the colour condition or to the hit?",
        ("RKS-8.7.3", "RKS-8.7.5"),
        Reading(
            "defender_wins",
            "Step 3 only compares two hitting cards; when neither card hits the defender wins "
            "(step 5).",
            NOTE + " (a)",
            ("RKS-8.7.3", "RKS-8.7.5"),
        ),
        Reading(
            "lower_number",
            "When neither card hits, step 3 applies: the lower number wins and equal numbers "
            "fight again (step 4); step 5 only decides when a card without a number is among "
            "them.",
            ALT + " (b)",
            ("RKS-8.7.3",),
        ),
    ),
    _o(
        "raising",
        "AMB-RKS-6",
        "How many raises may be made? (A raise always replaces the player's card on the table; "
        "the replaced card is lost after the result and the last card is judged.)",
        ("RKS-8.6.1", "RKS-8.6.2", "RKS-8.3.1"),
        Reading(
            "one_each",
            "One raise by the first raiser, then one answer by the other side.",
            NOTE,
            ("RKS-8.6.1", "RKS-8.6.2"),
        ),
        Reading(
            "alternating",
            "Raises alternate without limit until a player declines to raise.",
            ALT + " (ii)",
            ("RKS-8.6.2",),
        ),
    ),
    _o(
        "raise_then_accept",
        "AMB-RKS-6",
        "After the attacker raises, may the defender give up the contest and accept damage?",
        ("RKS-8.5.1", "RKS-8.6.2"),
        Reading("no", "No: he may only raise or let his card stand.", TEXT, ("RKS-8.6.2",)),
        Reading(
            "yes",
            "Yes: he may accept damage; his cards on the table are lost.",
            ALT + " (iv)",
            ("RKS-8.5.1",),
        ),
    ),
    _o(
        "played_step",
        "AMB-RKS-7",
        "Is a step card played in combat spent, even by the winner?",
        ("RKS-8.4.1", "RKS-8.5.2", "RKS-8.5.3"),
        Reading(
            "spent",
            "Every card played is discarded; a played step card is a step lost.",
            NOTE + " (i)",
            ("RKS-8.5.3",),
        ),
        Reading(
            "returned",
            "The judged step card goes back to its unit (face down, but both players have seen "
            "it); cards replaced by a raise are still lost (RKS-8.6.1).",
            ALT + " (i)",
            ("RKS-8.6.1",),
        ),
    ),
    _o(
        "uncontested_card",
        "AMB-RKS-7",
        "What happens to the attacker's card when the defender accepts damage?",
        ("RKS-8.4.1", "RKS-8.5.1"),
        Reading("discarded", "It is discarded.", NOTE + " (ii)"),
        Reading("returned", "It goes back, unseen, to where it came from.", ALT + " (ii)"),
    ),
    _o(
        "lost_step",
        "AMB-RKS-7",
        "Which step card does a unit lose?",
        ("RKS-8.9.1",),
        Reading("owner_chooses", "The owner chooses.", NOTE + " (iii)"),
        Reading("random", "One of the unit's step cards at random.", ALT + " (iii)"),
    ),
    _o(
        "used_steps",
        "AMB-RKS-7",
        "Do lost and spent step cards come back through reshuffles?",
        ("RKS-3.4.3", "RKS-8.9.1", "RKS-7.3.1"),
        Reading(
            "reshuffled",
            "They go to the discard pile and so into the next deck.",
            NOTE + " (iv)",
            ("RKS-3.4.3",),
        ),
        Reading("removed", "They leave the game.", ALT + " (iv)"),
    ),
    _o(
        "step_bluff",
        "AMB-RKS-8",
        "May the defender play a step card that cannot hit?",
        ("RKS-8.5.3",),
        Reading("allowed", "Yes; 'should not' is advice.", NOTE + " (a)"),
        Reading("prohibited", "No; the defender's step cards must be able to hit.", ALT + " (b)"),
    ),
    _o(
        "guards_infantry",
        "AMB-RKS-9",
        "Are Guards Divisions 'Infantry' for the City +2?",
        ("RKS-8.8.1", "RKS-8.8.3", "RKS-3.3.1"),
        Reading("yes", "Guards (Rifle) Divisions are infantry.", NOTE + " (a)", ("RKS-8.8.1",)),
        Reading("no", "Only German Infantry and Soviet Rifle Divisions are.", ALT + " (b)"),
    ),
    _o(
        "rear_control",
        "AMB-RKS-10",
        "Is a side's own Rear a friendly-controlled Area (for retreats)?",
        ("RKS-8.9.1", "RKS-8.9.3", "RKS-8.10.1", "RKS-3.5.1", "RKS-3.6.2"),
        Reading(
            "own_rear_friendly",
            "Yes; the Germans may retreat into their Rear, the Soviets are barred from theirs "
            "by RKS-8.9.3.",
            NOTE + " (a)",
            ("RKS-8.9.3",),
        ),
        Reading(
            "uncontrolled",
            "No Rear is ever controlled, so no unit retreats into one (a unit still moves into "
            "its own Rear freely).",
            ALT + " (b)",
            ("RKS-3.6.2",),
        ),
    ),
    _o(
        "contested_control",
        "AMB-RKS-11",
        "Who controls an Area holding (non-isolated) units of both sides?",
        ("RKS-3.6.1", "RKS-3.6.2", "RKS-3.6.3", "RKS-4.1.1"),
        Reading("last_controller", "The side that controlled it before.", NOTE + " (a)"),
        Reading(
            "uncontrolled",
            "Nobody; an uncontrolled Area is entered like an enemy one, and it counts for "
            "neither side's victory.",
            ALT + " (b)",
        ),
    ),
    _o(
        "isolated_remaining",
        "AMB-RKS-13",
        "Do isolated defenders oblige the attacker to attack again or retreat?",
        ("RKS-8.11.2", "RKS-3.6.3", "RKS-8.10.6"),
        Reading(
            "must_continue", "Yes: they count as remaining units.", NOTE + " (a)", ("RKS-8.11.2",)
        ),
        Reading("may_stop", "No: once only isolated units remain the attacker may stop.", ALT),
    ),
    _o(
        "t34_revival",
        "AMB-RKS-14",
        "When is the T-34's return checked?",
        ("RKS-6.3.1", "RKS-5.1.1"),
        Reading("every_turn", "At the start of every turn from Turn 2.", NOTE + " (a)"),
        Reading(
            "reinforcement_phases",
            "Only in the Reinforcement Phases of Turns 2 and 3.",
            ALT + " (b)",
            ("RKS-5.1.1",),
        ),
        Reading("recruiting_phase", "In every Recruiting Phase.", ALT + " (c)"),
    ),
    _o(
        "t34_revival_window",
        "AMB-RKS-14",
        "Must the T-34 have been eliminated in the immediately preceding turn?",
        ("RKS-6.3.1",),
        Reading("previous_turn", "Yes; a missed chance is lost for good.", NOTE + " (i)"),
        Reading("any_earlier", "No; any earlier turn will do.", ALT + " (ii)"),
    ),
    _o(
        "t34_acts",
        "AMB-RKS-15",
        "May the T-34 be the designated acting unit?",
        ("RKS-7.1.1", "RKS-8.12.1", "RKS-8.12.2"),
        Reading("yes", "Yes; it pays and fights with hand cards only.", NOTE + " (iii)"),
        Reading("no", "No; it only moves with another unit and supports.", ALT + " (iii)"),
    ),
    _o(
        "t34_escort",
        "AMB-RKS-15",
        "When the T-34 moves together with another unit, is it flipped, and is the move paid once?",
        ("RKS-8.12.4", "RKS-7.3.1"),
        Reading("unflipped_paid_once", "It stays face up and one card pays for both.", NOTE),
        Reading(
            "flipped_paid_each",
            "It is flipped, and entering an empty enemy Area costs a card for each unit.",
            ALT + " (iv)",
        ),
    ),
    _o(
        "t34_support",
        "AMB-RKS-15",
        "May the T-34 add its strength when the other unit attacks, or only when it defends?",
        ("RKS-8.12.3",),
        Reading("attack_and_defence", "Both.", NOTE + " (v)"),
        Reading("defence_only", "Only when the other unit defends.", ALT + " (v)"),
    ),
    _o(
        "bombard_damage",
        "AMB-RKS-16",
        "What does 'damaged' mean for Bombardment and Air Force Support?",
        ("RKS-9.2.2", "RKS-9.3.1", "RKS-8.9.1", "RKS-8.10.1"),
        Reading(
            "combat_damage",
            "The owner retreats the unit (flipped) or loses a step, as in combat, else it is "
            "eliminated; a T-34 is eliminated.",
            NOTE + " (a)",
            ("RKS-8.9.1", "RKS-8.9.2"),
        ),
        Reading("step_only", "The unit loses a step, or is eliminated if it has none.", ALT),
    ),
    _o(
        "bombard_isolation",
        "AMB-RKS-16",
        "When a bombarded unit retreats or is eliminated, are the other units of its side in "
        "that Area left to RKS-8.10.1 (retreat or be isolated)?",
        ("RKS-9.2.2", "RKS-9.3.1", "RKS-8.10.1", "RKS-8.10.2"),
        Reading(
            "no",
            "No: bombardment damage never isolates other units.",
            NOTE + " (further gap)",
            ("RKS-9.2.2",),
        ),
        Reading(
            "yes",
            "Yes, where the bombarding side has a non-isolated unit in the Area (as the attacker "
            "is in a combat's Area): the owner retreats the remaining units (flipped) or leaves "
            "them isolated, by RKS-8.10.1 and RKS-8.10.2 as after a combat; then the acting unit "
            "goes on (there is no continuation, RKS-8.11.2).",
            ALT + " (further gap)",
            ("RKS-8.10.1", "RKS-8.10.2", "RKS-9.3.1"),
        ),
    ),
    _o(
        "occupying",
        "AMB-RKS-17",
        "Which side 'occupies' Mamayev Kurgan?",
        ("RKS-9.2.3", "RKS-10.2.1"),
        Reading("controls", "The side controlling it.", NOTE + " (a)", ("RKS-3.6.2",)),
        Reading("present", "A side with a non-isolated unit in it.", ALT + " (b)"),
        Reading("sole_occupant", "The only side with units in it.", ALT + " (c)"),
    ),
    _o(
        "recruit_turn",
        "AMB-RKS-18",
        "Does recruiting take the player's Player Turn?",
        ("RKS-7.5.1", "RKS-5.1.2", "RKS-10.1.1"),
        Reading(
            "player_turn",
            "Yes: a recruit is the Player Turn, and it is not a pass.",
            NOTE + " (a)",
            ("RKS-7.5.1",),
        ),
        Reading(
            "extra",
            "No: after one recruit the same player designates a unit or passes.",
            ALT + " (b)",
        ),
    ),
    _o(
        "hand_limit",
        "AMB-RKS-19",
        "Are 3 (4 with Mamayev Kurgan) cards a hand limit or only the refill target?",
        ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
        Reading("refill_target", "Only the refill target.", NOTE + " (a)", ("RKS-10.1.2",)),
        Reading(
            "hard_limit",
            "A limit: in the Recruiting Phase a larger hand must be discarded down to it.",
            ALT + " (b)",
        ),
    ),
    _o(
        "event_source",
        "AMB-RKS-20",
        "May face-card step cards be played as events?",
        ("RKS-9.1.3",),
        Reading("hand", "Events come from the hand only.", NOTE + " (i)"),
        Reading(
            "hand_or_step",
            "The acting unit's face-card steps may be played too (a step lost).",
            ALT + " (i)",
        ),
    ),
    _o(
        "event_timing",
        "AMB-RKS-20",
        "Do events need an acting unit?",
        ("RKS-9.1.3", "RKS-9.6.1", "RKS-9.8.2"),
        Reading("activation", "Events are operations of the acting unit.", NOTE + " (ii)"),
        Reading(
            "player_turn_too",
            "The events that name no acting unit (Sniper, General Chuikov's flip) may also be "
            "played as a Player Turn of their own, without designating a unit.",
            ALT + " (ii)",
            ("RKS-9.6.1", "RKS-9.8.2"),
        ),
    ),
    _o(
        "chuikov_raises",
        "AMB-RKS-20",
        "Under General Chuikov, does the German also raise first and face up?",
        ("RKS-9.8.1", "RKS-8.6.1"),
        Reading(
            "german_first",
            "The German places every card first and face up, raises included: he may raise "
            "first, and the Soviet may answer a German raise.",
            NOTE + " (iii)",
        ),
        Reading(
            "declaration_only",
            "Only the declarations are reversed; raises are made as usual, face down.",
            ALT + " (iii)",
        ),
    ),
    _o(
        "effect_duration",
        "AMB-RKS-20",
        "Does a 'next combat' event last through the repeats of that combat after a tie?",
        ("RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1", "RKS-8.7.4"),
        Reading("through_repeats", "Yes.", NOTE + " (iv)"),
        Reading("first_round", "No; only the first round.", ALT + " (iv)"),
    ),
    _o(
        "effect_stacking",
        "AMB-RKS-20",
        "Do two Assault Guns or Molotov Cocktails on one unit add up?",
        ("RKS-9.4.1", "RKS-9.7.1"),
        Reading("stack", "Yes: each card adds its +2.", TEXT),
        Reading("once", "No: a second card adds nothing.", ALT + " (iv)"),
    ),
    _o(
        "voluntary_combat",
        "AMB-RKS-21",
        "May the acting unit start a combat against enemy units in its own Area?",
        ("RKS-7.1.2", "RKS-8.1.1", "RKS-8.1.2"),
        Reading("allowed", "Yes, against any enemy unit there.", NOTE + " (a)", ("RKS-7.1.2",)),
        Reading(
            "entry_only",
            "No; combat comes only from entering (RKS-7.3.2) and continuing (RKS-8.11.2).",
            ALT + " (b)",
        ),
    ),
    _o(
        "terrain_side",
        "AMB-RKS-23",
        "Do the City modifiers apply only to the defending unit?",
        ("RKS-8.8.1", "RKS-8.8.2", "RKS-9.2.2"),
        Reading(
            "defender",
            "Only to the defender, and to a bombarded unit.",
            NOTE + " (i)",
            ("RKS-8.8.1",),
        ),
        Reading("both", "To both units fighting in a City Area.", ALT + " (i)"),
    ),
    _o(
        "strength_floor",
        "AMB-RKS-23",
        "Can a modified strength fall below 1?",
        ("RKS-8.8.2",),
        Reading("none", "No floor.", NOTE + " (ii)"),
        Reading("one", "A modified strength is at least 1.", ALT + " (ii)"),
    ),
    _o(
        "engineer_scope",
        "AMB-RKS-23",
        "Which City modifiers does the Combat Engineer cancel?",
        ("RKS-9.5.1", "RKS-8.8.2"),
        Reading("enemy_bonus", "The enemy unit's City modifier.", NOTE + " (iii)"),
        Reading("all", "Every City modifier in that combat, the German's own too.", ALT + " (iii)"),
    ),
    _o(
        "tie_refight",
        "AMB-RKS-24",
        "After a tie, is the whole procedure repeated?",
        ("RKS-8.7.4", "RKS-8.5.1", "RKS-8.6.1"),
        Reading(
            "full_restart",
            "Yes: the defender may now accept damage; raises start again.",
            NOTE + " (a)",
            ("RKS-8.7.4",),
        ),
        Reading(
            "cards_only",
            "Only the cards: the defender must contest again if he can.",
            ALT + " (b)",
        ),
    ),
    _o(
        "arrival_state",
        "AMB-RKS-25",
        "Do reinforcements and a returning T-34 arrive face up, free to act that turn?",
        ("RKS-6.1.1", "RKS-6.2.1", "RKS-6.3.1", "RKS-7.1.1"),
        Reading("face_up", "Face up; they may act.", NOTE),
        Reading("flipped", "Flipped; they act from the next turn.", ALT),
    ),
    _o(
        "recruiting",
        None,
        "The optional rule: may both sides recruit, or only the Soviets?",
        ("RKS-7.5.1", "RKS-7.5.5"),
        Reading("both", "Both sides recruit (the standard rule).", TEXT, ("RKS-7.5.1",)),
        Reading(
            "soviet_only", "Only the Soviet Army recruits (optional rule).", TEXT, ("RKS-7.5.5",)
        ),
    ),
    _o(
        "zero_steps",
        None,
        "(found here) Is a unit that loses its last step as damage eliminated?",
        ("RKS-8.9.1", "RKS-8.9.2", "RKS-8.12.1"),
        Reading(
            "survives",
            "No: elimination is only RKS-8.9.2 (no retreat and no step); a unit may stand "
            "without steps, as the T-34 does.",
            TEXT,
            ("RKS-8.9.2",),
        ),
        Reading(
            "last_step_eliminates",
            "Yes: losing the last step as damage eliminates the unit (steps spent as cards "
            "leave it at zero, as under the other reading).",
            HERE,
            ("RKS-8.9.1",),
        ),
    ),
    _o(
        "assault_gun_on_panzer",
        None,
        "(found here) May an acting Panzer Division play the Assault Gun, on which it has no "
        "effect?",
        ("RKS-9.4.1", "RKS-9.1.3"),
        Reading(
            "not_played",
            "No: an event that can do nothing for the acting unit is not an operation it may take.",
            HERE,
            ("RKS-9.4.1",),
        ),
        Reading(
            "no_effect",
            "Yes: the text says only that it has no effect; the card is discarded and the "
            "Panzer gains nothing (a way to cycle a card).",
            TEXT,
            ("RKS-9.4.1", "RKS-9.1.3"),
        ),
    ),
    _o(
        "cardless_entry",
        None,
        "(found here) May an acting unit with no card to fight with move into an "
        "enemy-controlled Area that holds enemy units?",
        ("RKS-7.3.2", "RKS-8.1.2", "RKS-8.4.1", "RKS-7.1.3"),
        Reading(
            "refused",
            "No: the move would start a combat in which it cannot declare an attack (RKS-8.4.1), "
            "so it is not an operation the unit may take.",
            HERE,
            ("RKS-8.4.1",),
        ),
        Reading(
            "combat_follows",
            "Yes: the text bars no such move, only says that combat occurs immediately "
            "(RKS-7.3.2); the attacker, with no card to place, is then the stuck attacker "
            "(`stuck_attacker`).",
            TEXT,
            ("RKS-7.3.2", "RKS-8.1.2"),
        ),
    ),
    _o(
        "reattack_events",
        None,
        "(found here) After a combat that leaves both sides in the Area, may the attacker play "
        "events before it attacks again?",
        ("RKS-8.11.2", "RKS-7.1.3", "RKS-9.1.3"),
        Reading(
            "none",
            "No: the attacker 'must decide whether to take the attack again or to retreat', and "
            "nothing comes between.",
            HERE,
            ("RKS-8.11.2",),
        ),
        Reading(
            "effects",
            "Yes, the events that put an effect in force for the acting unit (Assault Gun, "
            "Combat Engineer, Molotov Cocktail, General Chuikov, either use), as operations of "
            "its action (RKS-7.1.3, RKS-9.1.3); then it attacks again or retreats. Bombardment, "
            "Air Force Support and the Sniper stay operations between combats.",
            HERE,
            ("RKS-7.1.3", "RKS-9.1.3", "RKS-9.4.1", "RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1"),
        ),
    ),
    _o(
        "reattack_effects",
        None,
        "(found here) Do the 'next combat' events of a combat (Combat Engineer, Molotov "
        "Cocktail, General Chuikov) still apply when the attacker attacks again?",
        ("RKS-8.11.2", "RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1"),
        Reading(
            "spent",
            "No: attacking again is a new combat (RKS-8.11.2); the events were for the one before.",
            HERE,
            ("RKS-8.11.2",),
        ),
        Reading(
            "carried",
            "Yes: [8.11] is the 'Continuation of the Combat', so the attack again is the same "
            "combat continued and its events stay in force.",
            HERE,
            ("RKS-8.11.2", "RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1"),
        ),
    ),
    _o(
        "t34_support_card",
        None,
        "(found here) With which card of a round may the Soviet add the T-34's strength?",
        ("RKS-8.12.3", "RKS-8.6.1", "RKS-8.3.1"),
        Reading(
            "first_card",
            "Only with his first card of a round (his declaration).",
            HERE,
            ("RKS-8.12.3", "RKS-8.3.1"),
        ),
        Reading(
            "any_card",
            "With his declaration or with a raise: the text says only that he 'may add' it "
            "when the other unit takes a combat.",
            TEXT,
            ("RKS-8.12.3", "RKS-8.6.1"),
        ),
    ),
    _o(
        "refill_amount",
        None,
        "(found here) The Recruiting Phase refill: all the way to 3 (4) cards or none, or any "
        "number up to it?",
        ("RKS-10.1.2", "RKS-10.2.1"),
        Reading(
            "all_or_nothing",
            "The player supplies the hand until it has 3 (4) cards, or does not supply it.",
            HERE,
            ("RKS-10.1.2",),
        ),
        Reading(
            "partial",
            "The player 'may supply' the hand: he draws any number of cards up to the target.",
            TEXT,
            ("RKS-10.1.2", "RKS-10.2.1"),
        ),
    ),
    _o(
        "soviet_rear_entry",
        None,
        "(found here) May Soviet units move back into the Soviet Rear along the arrows?",
        ("RKS-3.5.2", "RKS-7.2.1", "RKS-8.9.3"),
        Reading(
            "allowed",
            "Yes: the Rear is adjacent to the three arrow Areas (RKS-3.5.2) and a friendly "
            "Rear is entered freely; RKS-8.9.3 bans only retreats into it.",
            TEXT,
            ("RKS-3.5.2", "RKS-7.2.1", "RKS-8.9.3"),
        ),
        Reading(
            "one_way",
            "No: the arrows lead out of the Rear; Soviet units leave it but never move back in "
            "(retreats are ruled by RKS-8.9.3, `rear_retreat_ban`).",
            HERE,
            ("RKS-3.5.2",),
        ),
    ),
    _o(
        "rear_retreat_ban",
        None,
        "(found here) Does RKS-8.9.3 (no Soviet retreat into the Soviet Rear), an item of the "
        "damage list, also bar the retreats of the remaining units (RKS-8.10.1) and the "
        "attacker's retreat instead of attacking again (RKS-8.11.2)?",
        ("RKS-8.9.3", "RKS-8.10.1", "RKS-8.11.2"),
        Reading(
            "every_retreat",
            "Yes: the sentence is unconditional; a Soviet unit never retreats into the Soviet "
            "Rear.",
            TEXT,
            ("RKS-8.9.3",),
        ),
        Reading(
            "damage_only",
            "No: the ban is for the loser's retreat as damage (RKS-8.9.1); the remaining units "
            "and a continuing attacker may retreat into a friendly Soviet Rear.",
            HERE,
            ("RKS-8.9.3", "RKS-8.10.1", "RKS-8.11.2"),
        ),
    ),
    _o(
        "stuck_attacker",
        None,
        "(found here) An attacker that must fight (a repeat after a tie, RKS-8.7.4, or the "
        "obligation of RKS-8.11.2) but has no card it may place, and no retreat: what happens?",
        ("RKS-8.1.2", "RKS-8.4.1", "RKS-8.7.4", "RKS-8.11.2"),
        Reading(
            "loses",
            "It loses the combat: it retreats if it can, else it is eliminated (RKS-8.9.2).",
            HERE,
            ("RKS-8.9.1", "RKS-8.9.2"),
        ),
        Reading(
            "stays",
            "The combat ends without a result; the unit is flipped and both sides stay.",
            HERE,
            ("RKS-8.11.1",),
        ),
    ),
    _o(
        "isolation_choice",
        None,
        "(clause index note) Is RKS-8.10.1 one choice for all remaining units, or one per unit?",
        ("RKS-8.10.1", "RKS-8.10.2"),
        Reading(
            "all_together",
            "One choice: all retreat (each unit that cannot is isolated) or all are isolated.",
            TEXT,
        ),
        Reading("per_unit", "Each remaining unit retreats or is isolated on its own.", HERE),
    ),
    _o(
        "recruiting_order",
        None,
        "(clause index note) Which side discards and refills first in the Recruiting Phase?",
        ("RKS-10.1.1", "RKS-10.1.2", "RKS-3.4.3"),
        Reading("german_first", "The German, as in the Player Turns (RKS-5.1.3).", HERE),
        Reading("soviet_first", "The Soviet.", HERE),
    ),
    _o(
        "discard_faces",
        None,
        "(found here) Which faces do the discard pile and the cards set aside show? The text "
        "never says that discards lie face up, and cards are revealed only at judgement.",
        ("RKS-3.3.3", "RKS-3.4.3", "RKS-8.4.1", "RKS-8.5.1", "RKS-8.7.1", "RKS-7.3.1", "RKS-8.9.1"),
        Reading(
            "revealed_only",
            "Only cards the rules show to both players lie face up: the cards revealed at "
            "judgement (RKS-8.7.1), an event card played (RKS-9.1.3) and a card drawn for a "
            "bombardment (RKS-9.2.2). An uncontested attack card (RKS-8.5.1), cards replaced "
            "by a raise, a card paid for a move (RKS-7.3.1), a step lost or left by an "
            "eliminated unit (RKS-8.9.1), a Recruiting Phase discard (RKS-10.1.1) and the "
            "Sniper's card (RKS-9.6.1) go face down.",
            HERE,
            ("RKS-8.4.1", "RKS-8.5.1", "RKS-8.7.1", "RKS-3.3.3"),
        ),
        Reading(
            "face_down",
            "Every discarded or removed card lies face down: both players see how many there "
            "are, never which (a card revealed at judgement is remembered, not shown).",
            HERE,
            ("RKS-3.3.3", "RKS-3.4.3"),
        ),
        Reading(
            "face_up",
            "Every discarded or removed card lies face up, so both players see it: the "
            "kernel's first reading, under which the defender who accepts damage learns the "
            "attacker's face-down card and whether it was a bluff.",
            HERE,
            ("RKS-3.4.3",),
        ),
    ),
)

STANDARD = {
    "pass_rule": "no_designation",
    "card_needed": "per_operation",
    "ace": "one",
    "neither_hits": "defender_wins",
    "raising": "one_each",
    "raise_then_accept": "no",
    "played_step": "spent",
    "uncontested_card": "discarded",
    "lost_step": "owner_chooses",
    "used_steps": "reshuffled",
    "step_bluff": "allowed",
    "guards_infantry": "yes",
    "rear_control": "own_rear_friendly",
    "contested_control": "last_controller",
    "isolated_remaining": "must_continue",
    "t34_revival": "every_turn",
    "t34_revival_window": "previous_turn",
    "t34_acts": "yes",
    "t34_escort": "unflipped_paid_once",
    "t34_support": "attack_and_defence",
    "bombard_damage": "combat_damage",
    "bombard_isolation": "no",
    "occupying": "controls",
    "recruit_turn": "player_turn",
    "hand_limit": "refill_target",
    "event_source": "hand",
    "event_timing": "activation",
    "chuikov_raises": "german_first",
    "effect_duration": "through_repeats",
    "effect_stacking": "stack",
    "voluntary_combat": "allowed",
    "terrain_side": "defender",
    "strength_floor": "none",
    "engineer_scope": "enemy_bonus",
    "tie_refight": "full_restart",
    "arrival_state": "face_up",
    "recruiting": "both",
    "zero_steps": "survives",
    "assault_gun_on_panzer": "not_played",
    "cardless_entry": "refused",
    "reattack_events": "none",
    "reattack_effects": "spent",
    "t34_support_card": "first_card",
    "refill_amount": "all_or_nothing",
    "soviet_rear_entry": "allowed",
    "rear_retreat_ban": "every_retreat",
    "stuck_attacker": "loses",
    "isolation_choice": "all_together",
    "recruiting_order": "german_first",
    "discard_faces": "revealed_only",
}

PRESETS = {
    "standard": STANDARD,
    "soviet_recruiting": {**STANDARD, "recruiting": "soviet_only"},
}

CATALOGUE = Catalogue(
    game="rattenkrieg", options=OPTIONS, presets=PRESETS, default_preset="standard"
)
