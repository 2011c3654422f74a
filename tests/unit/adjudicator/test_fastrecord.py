"""adjudicator.fastrecord: a frozen dataclass made with quick_init behaves as the dataclass
made without it, field for field; classes it cannot serve exactly are refused."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import InitVar, dataclass, field

import pytest

from adjudicator.diagnostics import Diagnostic
from adjudicator.fastrecord import quick_init
from adjudicator.notation import parse
from adjudicator.notation.model import TurnKind
from adjudicator.position import initial
from adjudicator.units import Units, UnitType


def _pair() -> tuple[type, type]:
    """The same frozen dataclass twice: as ``dataclass`` makes it, and with quick_init."""

    def make() -> type:
        @dataclass(frozen=True)
        class Record:
            name: str
            count: int = 2
            tags: tuple[str, ...] = field(default_factory=tuple)
            seen: list[int] = field(default_factory=list, hash=False)
            memo: dict[str, int] = field(default_factory=dict, init=False, compare=False)
            kind: str = field(default="plain", init=False)

            def __post_init__(self) -> None:
                self.memo["made"] = self.count  # a mutable field, filled after the fields

        return Record

    return make(), quick_init(make())


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("inf",), {}),
        (("arm", 3), {}),
        (("ftr",), {"tags": ("air",), "count": 5}),
        ((), {"name": "bmb", "seen": [1, 2]}),
    ],
)
def test_the_record_is_the_dataclass_s_own(args: tuple, kwargs: dict) -> None:
    plain, quick = _pair()
    a, b = plain(*args, **kwargs), quick(*args, **kwargs)
    assert vars(a) == vars(b)
    assert list(vars(a)) == list(vars(b))  # the fields in the same order
    assert repr(a).split("(", 1)[1] == repr(b).split("(", 1)[1]
    assert hash(b) == hash(quick(*args, **kwargs))
    assert b == quick(*args, **kwargs)
    assert b.memo == {"made": b.count}


def test_the_signature_is_the_dataclass_s_own() -> None:
    plain, quick = _pair()
    assert inspect.signature(plain) == inspect.signature(quick)
    assert quick.__init__.__qualname__.endswith("Record.__init__")


def test_each_record_gets_its_own_default_list() -> None:
    _, quick = _pair()
    one, two = quick("inf"), quick("arm")
    one.seen.append(1)
    assert two.seen == []


def test_missing_and_unknown_arguments_are_refused_as_by_the_dataclass() -> None:
    plain, quick = _pair()
    for cls in (plain, quick):
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls("inf", colour="red")
        with pytest.raises(TypeError):
            cls("inf", kind="odd")  # not an argument of __init__


def test_the_record_stays_frozen() -> None:
    _, quick = _pair()
    record = quick("inf")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.name = "arm"  # type: ignore[misc]
    assert dataclasses.replace(record, count=7).count == 7


def test_the_engine_s_records_still_compare_hash_and_refuse_changes() -> None:
    units = Units.of({UnitType.INF: 2, UnitType.ARM: 1})
    assert units == Units.of([(UnitType.ARM, 1), (UnitType.INF, 2)])
    assert {units: 1}[Units.of({UnitType.ARM: 1, UnitType.INF: 2})] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        units.counts = ()  # type: ignore[misc]
    position = initial()
    first = dataclasses.replace(position, round=3)  # not the shared opening position
    first.memo()["seen"] = True
    later = dataclasses.replace(first, round=2)
    assert later.memo() == {}  # the init=False field, made afresh for each position
    turn = parse("Germany 1 pre-combat\nPurchases: 2 INF")
    assert turn.kind is TurnKind.PRE_COMBAT and len(turn.purchases) == 1
    assert dataclasses.replace(turn, battles=()) == turn
    assert Diagnostic.__init__.__qualname__ == "Diagnostic.__init__"


def test_classes_it_cannot_serve_exactly_are_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Slotted:
        name: str

    @dataclass(frozen=True)
    class KeywordOnly:
        name: str = field(kw_only=True)

    @dataclass(frozen=True)
    class WithInitVar:
        name: str
        hint: InitVar[int] = 0

    @dataclass
    class Thawed:
        name: str

    for cls in (Slotted, KeywordOnly, WithInitVar, Thawed):
        with pytest.raises(TypeError, match=cls.__name__):
            quick_init(cls)
