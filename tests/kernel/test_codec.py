"""Versioned JSON: envelopes and field readers name what is wrong."""

from __future__ import annotations

import pytest

from kernel.codec import STATE_FORMAT, envelope, get_field, open_envelope, parse_json
from kernel.errors import InvalidInput


def test_malformed_json_names_line_and_column() -> None:
    with pytest.raises(InvalidInput) as err:
        parse_json('{"a": 1,\n "b": }', what="state")
    assert "line 2" in err.value.message and err.value.field == "state"


def test_envelope_checks_format_version_and_game() -> None:
    doc = envelope(STATE_FORMAT, "nomonhan", {"turn": 1})
    assert open_envelope(doc, STATE_FORMAT, "nomonhan")["turn"] == 1
    for key, value in (("format", "other"), ("version", 99), ("game", "chess")):
        with pytest.raises(InvalidInput) as err:
            open_envelope({**doc, key: value}, STATE_FORMAT, "nomonhan")
        assert err.value.field == key
    with pytest.raises(InvalidInput):
        open_envelope([1, 2], STATE_FORMAT, "nomonhan")


def test_get_field_checks_type_and_presence() -> None:
    obj = {"turn": 3, "flag": True, "name": "x"}
    assert get_field(obj, "turn", int) == 3
    with pytest.raises(InvalidInput) as err:
        get_field(obj, "flag", int, "state")
    assert err.value.field == "state.flag"
    with pytest.raises(InvalidInput) as err2:
        get_field(obj, "missing", str, "state")
    assert err2.value.field == "state.missing"
