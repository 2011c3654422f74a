"""The "Details" of a bid read as players write them.

The league's own examples (IAAPA Bidding) are the grammar: "14 IPCs (2 J INF for Manchuria,
1 G TRN in S. Med. SZ)", "three extra German INF in Ukraine, one Japanese ARM in Burma and 1
extra IPC to spend for Japan on its first move", "an extra IC and INF for Japan in Burma".

- A leading "N IPCs" before a parenthesis, a colon or a new line is a total written in the
  details; the items follow.
- Items are separated by commas, semicolons, parentheses, new lines, "and", "+" and "&".
- An item is a count, a power, a unit or "IPC"/"IPCs", then the place
  (:mod:`adjudicator.bids.items`).
- "Ger: 2 INF Ukraine" names the power for the items after it, until another power label.
- An item missing its power or its place takes it from the next item joined to it by
  "and"/"+": "an extra IC and INF for Japan in Burma" is an IC and an INF, both for Japan in
  Burma.

Places are read with the engine's names (:mod:`adjudicator.names`): abbreviations and the
typo rule (IAAPA Error Correction VI); a place the board does not have is named in a finding
while the item's value still counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from adjudicator.bids.items import ItemDraft, ItemReader
from adjudicator.bids.model import BidCode, BidItem, Finding
from adjudicator.diagnostics import Rule, Severity
from adjudicator.names import (
    AmbiguousName,
    NameResolutionError,
    Names,
    UnknownName,
    normalise,
    power_label,
)
from adjudicator.powers import Power

NOTHING = frozenset({"", "0", "none", "nothing", "nil", "nobid", "no"})
"""Details (normalised) that bid nothing at all."""

HEADINGS = frozenset({"bid", "bids", "details", "mybid", "yourbid"})
"""Words a player may head the details with ("Bid: ..."), read past (normalised)."""

_HEADER = re.compile(
    r"^\s*(?:bid\s*:?\s*)?(?P<sign>[+\-\u2013\u2212])?\s*\$?(?P<n>\d+)\s*"
    r"(?:(?:IPC'?s?|PUs?)\s*(?:total\s*)?(?:[(:]|\n)|:)",
    re.IGNORECASE,
)
"""The bid's total before its items: "14 IPCs (...)", "Bid 12:", "11: ..."."""
_LEADING_POWER = re.compile(r"^\s*(?P<name>[^\W\d_][\w.]*(?:\s+[^\W\d_][\w.]*)?)\s+(?=[+\-]?\d)")
"""A power's name before its first item, with no colon: "Japan 1 ipc", "Germany +2 inf"."""
_LABEL = re.compile(r"^(?P<label>[^\d:]+?)\s*:\s*(?P<rest>.*)$", re.DOTALL)
_CHUNKS = re.compile(r"[,;()\[\]]")
_JOINED = re.compile(r"\s+and\s+|\s*[+&]\s*", re.IGNORECASE)


@dataclass(frozen=True)
class BidReading:
    """The details as read: a total written in them, the items, and what could not be read
    (or was read only after a correction)."""

    written_total: int | None
    items: tuple[BidItem, ...]
    findings: tuple[Finding, ...]


def places(reader: ItemReader, drafts: list[ItemDraft]) -> dict[str, str | None]:
    """Each place written (by its text) read as the board's name, None if unknown: one
    finding per place however many items name it."""
    found: dict[str, str | None] = {}
    for written in dict.fromkeys(d.place for d in drafts if d.place):
        naming = [d for d in drafts if d.place == written]
        where = f"In {_listed([d.written for d in naming])}"
        line = naming[0].line
        try:
            place = reader.names.place(written)
        except AmbiguousName as exc:
            found[written] = None
            reader.error(
                BidCode.UNKNOWN_PLACE,
                f"{where}: {written!r} is no one place of this board: it could be any of "
                f"{', '.join(exc.candidates)}. The value still counts; write the place "
                "in full.",
                line,
            )
            continue
        except NameResolutionError as exc:
            found[written] = None
            why = f" ({exc.reason})" if isinstance(exc, UnknownName) and exc.reason else ""
            reader.error(
                BidCode.UNKNOWN_PLACE,
                f"{where}: {written!r} is not a territory or sea zone of this board{why}, "
                "so nothing can be placed there. The value still counts; name a place on "
                "the board.",
                line,
            )
            continue
        found[written] = place.value
        notice = place.warning()
        if notice and place.corrected:
            reader.note(
                Severity.WARNING,
                Rule.TYPOGRAPHICAL_ERRORS,
                BidCode.TYPO,
                f"{where}: {notice}; write {place.alias!r} to avoid the correction.",
                line,
            )
        elif notice:
            reader.note(
                Severity.INFO,
                Rule.ABBREVIATIONS,
                BidCode.ABBREVIATION,
                f"{where}: {notice}.",
                line,
            )
    return found


def read_details(
    details: str, names: Names, controller: Callable[[str, bool], Power | None] | None = None
) -> BidReading:
    """The items of ``details`` as written, with what could not be read. ``controller``
    gives the Axis power that alone may place units in a place (of the position the bid is
    placed on; naval units or not): units added there with no power named are that power's,
    with a note (IAAPA Bidding)."""
    text = details.strip()
    if normalise(text) in NOTHING:
        return BidReading(None, (), ())
    written_total = None
    header = _HEADER.match(text)
    if header and text[header.end() :].strip():
        written_total = int(header["n"]) * (1 if header["sign"] in (None, "+") else -1)
        first = 1 + text[: header.end()].count("\n")
        text = text[header.end() :]
    else:
        first = 1
    reader = ItemReader(names)
    drafts: list[ItemDraft] = []
    label: Power | None = None
    for reader.line, row in enumerate(text.splitlines(), first):
        for chunk in _CHUNKS.split(row):
            labelled = _LABEL.match(chunk.strip())
            if labelled:
                if (power := reader.power_named(labelled["label"])) is not None:
                    label, chunk = power, labelled["rest"]
                elif normalise(labelled["label"]) in HEADINGS:
                    chunk = labelled["rest"]
            leading = _LEADING_POWER.match(chunk)  # "Japan 1 ipc": the power, then its items
            if leading and (power := reader.power_named(leading["name"])) is not None:
                label, chunk = power, chunk[leading.end() :]
            parts = [part.strip() for part in _JOINED.split(chunk)]
            if len(parts) > 1 and (power := reader.power_named(parts[0])) is not None:
                label, parts = power, parts[1:]  # "Germany +2 inf Ukraine"
            if len(parts) == 1 and _place_of_the_last(names, drafts, parts[0]):
                drafts[-1].place = parts[0]  # "1 tank (E Europe)"
                continue
            joined = [reader.draft(part) for part in parts if part]
            drafts += _shared([d for d in joined if d is not None], label)
    read_places = places(reader, drafts)
    items = []
    for draft in drafts:
        line = draft.line
        place = read_places.get(draft.place)
        power = draft.power
        if power is None and not draft.power_unknown:
            power = _power_of_place(reader, draft, place, controller)
        if power is None and not draft.power_unknown:
            reader.error(
                BidCode.NO_POWER,
                f"In {draft.written!r}: no power is named for {draft.count} "
                f"{'IPC' if draft.unit is None else draft.unit.value}. Name Germany "
                '("G") or Japan ("J"): "3 G INF Ukraine", "1 J IPC".',
                line,
            )
        if draft.unit is not None and not draft.place:
            reader.error(
                BidCode.NO_PLACE,
                f"In {draft.written!r}: no territory or sea zone is named for the "
                f'{draft.unit.value}. Write where they go: "{draft.count} '
                f'{draft.unit.value} in <territory or sea zone>".',
                line,
            )
        items.append(
            BidItem(
                written=draft.written,
                count=draft.count,
                unit=draft.unit,
                power=power,
                place=place,
                place_written=draft.place,
                removal=draft.removal,
                line=draft.line,
            )
        )
    return BidReading(written_total, tuple(items), tuple(reader.findings))


def _power_of_place(
    reader: ItemReader,
    draft: ItemDraft,
    place: str | None,
    controller: Callable[[str, bool], Power | None] | None,
) -> Power | None:
    """The power of land units or aircraft added with none named in a territory an Axis
    power controls, or of naval units in a sea zone only one Axis power's land touches
    (noted); None for anything else. "German units may not be placed in Japanese
    territories or sea zones nor may Japanese units be placed in German territories or sea
    zones due to a bid" (IAAPA Bidding): a fighter in Germany's territory is Germany's."""
    if controller is None or place is None or draft.unit is None or draft.removal:
        return None
    stats = draft.unit.stats
    owner = controller(place, stats.is_sea)
    if owner is None:
        return None
    name = power_label(owner)
    if stats.is_land:
        rule, why = (
            Rule.BID_LAND_UNITS,
            "only the power controlling a territory may place land units in it",
        )
    elif stats.is_sea:
        rule, why = (
            Rule.BID_NAVAL_UNITS,
            f"of the Axis, only {name} land touches it, and only the power whose land it "
            "touches may place naval units in a sea zone",
        )
    else:
        rule, why = (
            Rule.BID_NATIONALITY,
            f"no bid places {name}'s ally's units in {name}'s territories",
        )
    reader.note(
        Severity.INFO,
        rule,
        BidCode.POWER_OF_PLACE,
        f"In {draft.written!r}: no power is named, and {place} is {name}'s: read as "
        f"{name}'s {draft.unit.value} ({why}).",
        draft.line,
    )
    return owner


def _place_of_the_last(names: Names, drafts: list[ItemDraft], part: str) -> bool:
    """Whether ``part`` (a chunk of its own, as in brackets) is the place of the item read
    just before it, which names units and no place: "1 tank (E Europe)"."""
    if not part or not drafts or drafts[-1].unit is None or drafts[-1].place:
        return False
    try:
        names.place(part)
    except NameResolutionError:
        return False
    return True


def _shared(drafts: list[ItemDraft], label: Power | None) -> list[ItemDraft]:
    """Items joined by "and"/"+" lend the power and place they name to the items before them
    that lack them; a power label names the power of the items that still lack one."""
    shared = []
    for at, draft in enumerate(drafts):
        after = drafts[at + 1 :]
        if draft.power is None and not draft.power_unknown:
            lent = next((d.power for d in after if d.power is not None), None)
            draft = replace(draft, power=lent or label)
        if draft.unit is not None and not draft.place:
            lent_place = next((d.place for d in after if d.unit is not None and d.place), "")
            draft = replace(draft, place=lent_place)
        shared.append(draft)
    return shared


def _listed(items: list[str]) -> str:
    return ", ".join(repr(item) for item in items)
