"""Strict decoding through wire records: tagged unions, also under `Annotated`."""

from __future__ import annotations

from typing import Annotated, Any, Union

import msgspec
import pytest

from kernel.errors import InvalidInput
from kernel.wire import Record, _tagged, convert


class _Go(Record, frozen=True, tag="go", tag_field="type"):
    to: int


class _Stop(Record, frozen=True, tag="stop", tag_field="type"):
    why: str


_PLAIN = Union[_Go, _Stop]  # noqa: UP007 (a runtime union object, as wire modules build them)
_DESCRIBED = Annotated[_PLAIN, msgspec.Meta(description="an action")]


@pytest.mark.parametrize("union", [_PLAIN, _DESCRIBED])
def test_a_tagged_union_decodes_through_the_record_its_tag_names(union: Any) -> None:
    """The fast path sees through `Annotated` (a described union is still a tagged union),
    and a bad member still names its field."""
    assert _tagged(union) == ("type", {"go": _Go, "stop": _Stop})
    assert convert({"type": "stop", "why": "done"}, union) == _Stop("done")
    with pytest.raises(InvalidInput) as err:
        convert({"type": "go", "to": "x"}, union)
    assert err.value.field == "to"
    with pytest.raises(InvalidInput) as err:
        convert({"type": "fly"}, union)
    assert err.value.field == "type"
