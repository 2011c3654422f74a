"""What every entry kind declares, and the words its entries share.

An :class:`EntryKind` is the one place a kind of ledger entry is described: how its entries
read in mail and on the pages (``headline``, ``describe``), and for a kind a member writes,
how a request is checked (``read``), its JSON API path, its roller page (``page``, with the
template ``roller_<page>.html``) and that page's form. The API, the roller, the timeline,
the mail and the roll service all read the registry (:mod:`dice_server.kinds`), so adding
a kind is one module here and one template.

A form only gathers fields: every rule is checked by ``read``, the same function the JSON
API's requests go through, and its refusal comes back to the field it names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Data = Mapping[str, Any]

SIDE = {"attacker": "Attacker", "defender": "Defender"}

AA_SYSTEM = "aa-classic"
"""The game system of the league's Axis & Allies (:mod:`dice_server.kinds.systems`)."""


@dataclass(frozen=True)
class EntryKind:
    """One kind of ledger entry (``"bombing-roll"``) and everything the channels need of it."""

    name: str
    """The entry's ``kind`` as the ledger records it."""
    headline: Callable[[Data], str]
    """What the entry is, in a subject line: ``UK: West Europe round 1``."""
    describe: Callable[[Data], list[str]]
    """The lines of the entry particular to its kind, as mail and the entry page show them."""
    rolls: bool = False
    """The entry holds dice (``sides`` and ``dice``): a roll, which a void-claim may name."""
    read: Callable[[Any], Any] | None = None
    """Checks what a member sent, whole, before any lock is taken: the request to record
    (a roll's has ``record(by, draw)``), or :class:`~dice_server.errors.InvalidRequest`
    naming the field at fault. ``None``: members do not write this kind."""
    title: str = ""
    """The roller page's heading."""
    api_path: str = ""
    """``POST /api/v1/games/<number>/<api_path>`` writes one."""
    page: str = ""
    """``/games/<number>/<page>`` is its roller page, drawn by ``roller_<page>.html``."""
    endpoint: str = ""
    """The roller page's endpoint name (``roller.<endpoint>``)."""
    form: type | None = None
    """The roller page's form (a Flask-WTF form with ``nonce`` and ``payload()``)."""
    while_ended: bool = False
    """Still written once the game has ended (a dispute outlives the game)."""
    system: str = AA_SYSTEM
    """The game system whose games a roll of this kind is thrown in (a note, in any)."""
    template: str = ""
    """The roller page's template, if not ``roller_<page>.html``."""


def dice_text(values: list[int]) -> str:
    return " ".join(str(v) for v in values) if values else "(none)"


def group_line(group: Data) -> str:
    """One labelled group: who threw, with what, the dice left to right, what they did."""
    purpose = group.get("purpose")
    if purpose == "research":
        made_up = " (made up to the dice declared)" if group.get("made_up") else ""
        stand = group.get("stand")
        among = f" among the first {stand}; the rest are ignored" if stand is not None else ""
        return (
            f"Research x{group['count']}{made_up}: {dice_text(group['dice'])} -> "
            f"{group['breakthroughs']} breakthrough(s){among}"
        )
    if purpose == "chart":
        return f"Chart: {dice_text(group['dice'])} -> {group['technology']}"
    if purpose in ("damage", "rocket"):
        return (
            f"{group['unit']} x{group['count']} {purpose}: {dice_text(group['dice'])} -> "
            f"{group['damage']} IPC"
        )
    if purpose == "aa":
        return (
            f"AA at {group['target']} x{group['count']} (hit on {group['hit_on']} or less): "
            f"{dice_text(group['dice'])} -> {group['hits']} shot down"
        )
    if group.get("unit") == "AA" and "target" in group:
        # "target": the aircraft type the dice were thrown at, not the aircraft a hit removes.
        return (
            f"Defender AA at {group['target']} x{group['count']} (hit on {group['hit_on']} or "
            f"less): {dice_text(group['dice'])} -> {group['hits']} hit(s) (thrown at the "
            f"{group['target']}; the attacker picks which aircraft a hit removes)"
        )
    label = f"{SIDE.get(group.get('side', ''), 'AA')} {group['unit']}"
    if group.get("fire") == "bombard":
        label += " support shot"
    # Big World's labels (a Classic group has none of these keys).
    notes = {
        "support": f" supported by {group.get('support')}",
        "best_of": f", each unit's better of {group.get('best_of')} dice counting",
    }
    extra = "".join(text for key, text in notes.items() if key in group)
    opening = {"subs": " opening shot", "bombardment": " bombardment"}.get(
        str(group.get("fire")), ""
    )
    return (
        f"{label}{opening} x{group['count']} (hit on {group['hit_on']} or less){extra}: "
        f"{dice_text(group['dice'])} -> {group['hits']} hit(s) as thrown"
    )


def thrown(data: Data) -> list[str]:
    """Every group of a roll, in the order thrown."""
    return ["Dice in the order thrown:", *(f"  {group_line(g)}" for g in data.get("groups", []))]


def roll_header(data: Data) -> str:
    """``UK, turn 2, round 1``: the header of a roll that is not a battle round."""
    return f"{data['country']}, turn {data['turn']}, round {data['round']}"
