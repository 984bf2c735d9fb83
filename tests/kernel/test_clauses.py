"""Clause IDs are read exactly: whole IDs, ranges expanded, sections and look-alikes left out;
and the gap search counts a clause as reached by the functions that cite it, never by a class
docstring (an action or a record)."""

from __future__ import annotations

import pytest

from kernel.clauses import clause_ids


def test_whole_ids_and_ranges() -> None:
    text = (
        "NOM-OPT.5. See NOM-9.17 to NOM-9.21 and SNC-6.0.2 to SNC-6.0.4; SHU-CRT.1, "
        "RKS-8.7.2 (SNC-10.4.1.3), NOM-9.2-NOM-9.4."
    )
    assert clause_ids(text) == [
        "NOM-OPT.5",
        *(f"NOM-9.{n}" for n in range(17, 22)),
        "SNC-6.0.2",
        "SNC-6.0.3",
        "SNC-6.0.4",
        "SHU-CRT.1",
        "RKS-8.7.2",
        "SNC-10.4.1.3",
        "NOM-9.2",
        "NOM-9.3",
        "NOM-9.4",
    ]


@pytest.mark.parametrize(
    "text",
    ["OFF-MAP", "AMB-SNC-40", "NOM-7", "NOM-OPT rules", "XNOM-9.1", "SNC-7.2.x", "SNC-9.5.2.y"],
)
def test_look_alikes_and_sections_are_no_clauses(text: str) -> None:
    assert clause_ids(text) == []


def test_each_id_once_in_order_of_first_citation() -> None:
    assert clause_ids("NOM-9.8, NOM-9.2 and again NOM-9.8") == ["NOM-9.8", "NOM-9.2"]
