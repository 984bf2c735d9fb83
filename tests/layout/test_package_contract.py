"""Every registered game satisfies the package contract (`tools.testing.package_contract`),
and the contract check catches a package that breaks it."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import tests.toy
from tools.registry import game_names, get_package
from tools.testing.package_contract import contract_problems


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_satisfies_the_package_contract(name: str) -> None:
    assert contract_problems(get_package(name)) == []


def test_the_toy_game_of_the_tests_satisfies_the_package_contract() -> None:
    """The toy (tests/toy/) has the package shape of a real game, the worked example of
    docs/adding-a-game.md: no data files (its data_dir is its data/ folder), no verification
    link, an evaluation, no resampler (it hides nothing) and no OpenSpiel codec."""
    package = tests.toy.PACKAGE
    assert package.name == "toy" and package.formal is None and package.spiel is None
    assert package.data_dir.is_dir() and not list(package.data_dir.glob("*.toml"))
    assert contract_problems(package) == []


def test_contract_catches_a_wrong_name_and_a_missing_data_folder() -> None:
    broken = attrs.evolve(get_package("nomonhan"), name="nomonhan2", data_dir=Path("/nowhere"))
    problems = contract_problems(broken)
    assert any("is not its rules' name" in p for p in problems)
    assert any("is not a folder" in p for p in problems)


def test_contract_catches_a_missing_resampler_for_hidden_information() -> None:
    broken = attrs.evolve(get_package("shumshu"), resampler=None)
    assert contract_problems(broken) == ["no resampler for a game with hidden information"]


def test_contract_catches_an_evaluation_out_of_range() -> None:
    broken = attrs.evolve(get_package("nomonhan"), evaluation=lambda: lambda obs, side: 2.0)
    assert any("not in [-1, 1]" in p for p in contract_problems(broken))
