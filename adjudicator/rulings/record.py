"""A game as its ledger alone says: its turns, the board at the start of each, the battles
each pre-combat turn declares with the rolls linked to them, and the orders of loss in force.

The bodies are read the way the service wrote them (DESIGN.md, the ledger): a ``genesis``
names the starting position and the players; each ``submission`` in force is a turn email
(a ``pre-combat`` turn declares the battles, a ``post-combat`` one moves the board on);
a battle ``roll`` made while a pre-combat turn is in force records the battle it belongs to
as ``"declared": {"submission": seq, "number": k}``. The board at the start of each turn is
played out from the dice as the service plays it (:func:`adjudicator.turns.advance` with
each declared battle's verdict), so a ruling sees the defenders and the banks the players
saw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.battle import resolve_json
from adjudicator.names import NameResolutionError, classic_names, power_label
from adjudicator.notation import Turn, parse
from adjudicator.position import Position, initial, load_json
from adjudicator.powers import Alliance, Power
from adjudicator.rolls import BATTLE_ROLL_KINDS, battle_document
from adjudicator.rolls.declared import order_of_loss_in
from adjudicator.rolls.replay import Entry
from adjudicator.turns import (
    BattleOutcome,
    VerdictError,
    advance,
    outcome_from_json,
    raid_outcome_from_entry,
)

Body = Entry
"""A ledger entry's body, parsed: ``{"seq", "kind", "at", "data", ...}``."""

ROLL_KINDS = BATTLE_ROLL_KINDS | {"tech-roll", "bombing-roll", "rocket-roll"}
"""The kinds of entry that hold dice: a turn "is rolled" from the first of them."""
PRE_COMBAT, POST_COMBAT = "pre-combat", "post-combat"
_POWERS = {power_label(p): p for p in Power}


def power_named(name: object) -> Power | None:
    """The power a ledger entry names ("USSR", "Germany" ...), or None."""
    return _POWERS.get(name) if isinstance(name, str) else None


def in_force(body: Body) -> bool:
    """A submission the service recorded as in force (a late amendment is not)."""
    return bool(body["data"].get("in_force", 1))


@dataclass(frozen=True)
class DeclaredBattle:
    """A battle a pre-combat turn declares, and the battle rolls linked to it."""

    submission: Body
    number: int
    territory: str
    attacker: Mapping[str, int]
    defender: Mapping[str, int] | None
    """The defenders as the turn lists them; None when it lists only the territory."""
    rolls: tuple[Body, ...]
    name: str | None = None
    """How a ruling names a battle no pre-combat turn declares (else from the declaration)."""

    @property
    def label(self) -> str:
        """``USSR 1 #2 East Europe``: the battle as a ruling names it."""
        if self.name is not None:
            return self.name
        data = self.submission["data"]
        return f"{data['power']} {data['round']} #{self.number} {self.territory}"


@dataclass
class LedgerTurn:
    """One power's turn: its entries from the end of the last turn to its post-combat turn.

    A weapons-development roll comes before the pre-combat turn ("The attacker will send a
    pre-combat turn indicating any successful weapons development"), so a turn starts right
    after the previous post-combat turn."""

    power: Power
    round: int
    start: Position | None
    entries: list[Body] = field(default_factory=list)
    precombat: Body | None = None
    """The pre-combat submission in force (the last one in force)."""
    postcombat: Body | None = None

    @property
    def label(self) -> str:
        return f"{power_label(self.power)} {self.round}"

    @property
    def first_roll(self) -> Body | None:
        """The turn's first entry holding dice."""
        return next((e for e in self.entries if e["kind"] in ROLL_KINDS), None)


@dataclass(frozen=True)
class GameRecord:
    """The game's entries, players and turns."""

    bodies: tuple[Body, ...]
    players: Mapping[str, str]
    turns: tuple[LedgerTurn, ...]

    def attacker_address(self, power: Power) -> str:
        """The address of the player moving ``power``."""
        side = "axis" if power.alliance is Alliance.AXIS else "allies"
        return str(self.players.get(side, ""))

    def turn_of(self, seq: int) -> LedgerTurn | None:
        """The turn an entry was recorded in."""
        return next((t for t in self.turns if any(e["seq"] == seq for e in t.entries)), None)

    def battles(self, turn: LedgerTurn) -> list[DeclaredBattle]:
        """The battles of the turn's pre-combat submission in force, with their rolls."""
        if turn.precombat is None:
            return []
        return declared_battles(turn.precombat, self.bodies)


def declared_battles(precombat: Body, bodies: Iterable[Body]) -> list[DeclaredBattle]:
    """Each battle (not a walk-in or a raid) ``precombat`` declares, with its rolls."""
    seq = precombat["seq"]
    linked = [
        b
        for b in bodies
        if b["kind"] in BATTLE_ROLL_KINDS
        and (b["data"].get("declared") or {}).get("submission") == seq
    ]
    out = []
    for battle in precombat["data"].get("battles", []):
        if battle.get("kind") != "battle" or "territory" not in battle:
            continue  # a walk-in, a raid, or a place that could not be read
        number = int(battle["number"])
        rolls = tuple(r for r in linked if r["data"]["declared"].get("number") == number)
        defender = battle.get("defender")
        out.append(
            DeclaredBattle(
                precombat,
                number,
                str(battle["territory"]),
                dict(battle.get("attacker", {})),
                dict(defender) if isinstance(defender, Mapping) else None,
                rolls,
            )
        )
    return out


# --- a battle void by a combat declaration error, and the battle fought again ---------------


def declaration_errors(precombat: Body, number: int) -> list[Mapping[str, Any]]:
    """The errors the service found in ``precombat`` that void battle ``number`` (IAAPA Error
    Correction II: "If any of this information is incorrect, it is considered a CDE, and the
    entire battle is null and void and no portion of the results may stand")."""
    return [
        f
        for f in precombat["data"].get("findings", [])
        if number in f.get("battles", []) and f.get("severity") == "error"
    ]


def recognised(bodies: Iterable[Body], rolls: Sequence[Body], precombat: Body) -> int | None:
    """The seq of the first error-recognition note about a battle after its first roll
    (Error Correction VII: "It is mandatory that all communications regarding error
    recognition occur through the dice roller")."""
    if not rolls:
        return None
    about = {int(r["seq"]) for r in rolls} | {int(precombat["seq"])}
    for body in bodies:
        if body["seq"] <= rolls[0]["seq"] or body["kind"] != "note":
            continue
        data = body["data"]
        named = data.get("ref_seq", rolls[0]["seq"])
        if data.get("topic") == "error-recognition" and named in about:
            return int(body["seq"])
    return None


@dataclass(frozen=True)
class Fight:
    """Which of a declared battle's rolls decide it."""

    void: tuple[Body, ...]
    """Rolls of a battle a combat declaration error voids, made before the error was
    recognised: "no portion of the results may stand"."""
    deciding: tuple[Body, ...]
    """The rolls that decide the battle: all of them, or for a void battle those made after
    the error-recognition note (the battle fought again with the correct units)."""
    recognised: int | None = None
    """The seq of that note."""


def fight(battle: DeclaredBattle, bodies: Sequence[Body]) -> Fight:
    """How ``battle``'s rolls count: a battle the pre-combat turn's errors void is void
    until the error is recognised through the dice roller, and the rolls after that are the
    battle fought again ("The attacker may then elect to re-roll the entire battle with the
    correct number and type of units or he may elect not to fight the battle at all"). A
    proposal the Minister of Law overrode (a ruling among ``bodies``) leaves the battle
    standing, every roll counting."""
    if not battle.rolls or not declaration_errors(battle.submission, battle.number):
        return Fight((), battle.rolls)
    if _overridden(bodies, battle.label):
        return Fight((), battle.rolls)
    noted = recognised(bodies, battle.rolls, battle.submission)
    void, again = split_at(battle.rolls, noted)
    return Fight(void, again, noted)


def split_at(rolls: Sequence[Body], noted: int | None) -> tuple[tuple[Body, ...], tuple[Body, ...]]:
    """A void battle's rolls: those before the error-recognition note ``noted`` (all when
    None), void, and those after it, the battle fought again."""
    void = tuple(r for r in rolls if noted is None or r["seq"] < noted)
    return void, tuple(r for r in rolls if noted is not None and r["seq"] > noted)


def _overridden(bodies: Iterable[Body], label: str) -> bool:
    """Whether a ruling voiding the battle ``label`` names was overridden."""
    rulings = [b for b in bodies if b["kind"] == "ruling"]
    voiding = {
        int(r["seq"])
        for r in rulings
        if r["data"].get("status") == "proposed" and label in r["data"].get("void_battles", [])
    }
    return any(
        r["data"].get("status") == "overridden" and r["data"].get("refers_to") in voiding
        for r in rulings
    )


# --- orders of loss and verdicts ----------------------------------------------------------


def orders_in_force(
    precombat: Body,
    bodies: Sequence[Body],
    attacker: str,
    number: int,
    territory: str,
    first_roll: int | None,
    read: Turn | None = None,
) -> dict[str, list[str]]:
    """The orders of loss in force for a declared battle (IAAPA Orders of Loss: "If a
    defender does not send in any special orders of loss prior to the attacker rolling the
    battle then the Association defaults will be used"): the attacker's from his pre-combat
    turn, either side's from a special-orders note sent before the battle's first roll."""
    orders: dict[str, list[str]] = {}
    if found := order_of_loss_in(str(precombat["data"]["text"]), number, territory, read):
        orders["attacker"] = found
    for entry in bodies:
        if entry["seq"] <= precombat["seq"]:
            continue
        if first_roll is not None and entry["seq"] >= first_roll:
            break
        data = entry["data"]
        if entry["kind"] != "note" or data.get("topic") != "special-orders":
            continue
        if found := order_of_loss_in(str(data["text"]), number, territory):
            orders["attacker" if data.get("by") == attacker else "defender"] = found
    return orders


def _place(written: str) -> str | None:
    try:
        return classic_names().place(written).label
    except NameResolutionError:
        return None


def verdicts(
    precombat: Body, bodies: Sequence[Body], attacker: str, read: Turn | None = None
) -> dict[int, BattleOutcome]:
    """Each declared battle's verdict from its dice, as the service plays the turn out: a
    battle from its linked rolls (those that decide it: :func:`fight`), a bombing raid from
    the bombing roll on its target (``read``: the pre-combat turn's text parsed, when the
    caller has it)."""
    found: dict[int, BattleOutcome] = {}
    for battle in declared_battles(precombat, bodies):
        rolls = fight(battle, bodies).deciding
        if not rolls:
            continue  # not rolled, or void and not fought again: not fought
        first = int(rolls[0]["seq"])
        orders = orders_in_force(
            precombat, bodies, attacker, battle.number, battle.territory, first, read
        )
        try:
            doc = battle_document(list(rolls))
            if orders:
                doc["order_of_loss"] = dict(orders)
            found[battle.number] = outcome_from_json(dict(resolve_json(doc)))
        except (ValueError, VerdictError):
            continue
    later = [b for b in bodies if b["seq"] > precombat["seq"]]
    for raid in precombat["data"].get("battles", []):
        if raid.get("kind") != "raid" or "territory" not in raid:
            continue
        for entry in later:
            if entry["kind"] != "bombing-roll":
                continue
            if _place(str(entry["data"].get("target", ""))) == raid["territory"]:
                try:
                    found[int(raid["number"])] = raid_outcome_from_entry(entry["data"])
                except VerdictError:
                    pass
                break
    return found


def _played(
    start: Position | None,
    precombat: Body | None,
    postcombat: Body,
    bodies: Sequence[Body],
    attacker: str,
) -> Position | None:
    """The board after a turn, played out as the service plays it; None if it cannot be."""
    if start is None:
        return None
    try:
        before = parse(str(precombat["data"]["text"])) if precombat is not None else None
        battles = verdicts(precombat, bodies, attacker) if precombat is not None else {}
        return advance(start, before, parse(str(postcombat["data"]["text"])), battles).position
    except ValueError:
        return None


# --- reading the ledger --------------------------------------------------------------------


def _genesis_position(data: Mapping[str, Any]) -> Position | None:
    doc = data.get("position")
    try:
        return initial() if doc is None else load_json(doc)
    except ValueError:
        return None


def read_record(bodies: Sequence[Body]) -> GameRecord:
    """The game of these entry bodies (in seq order): its turns and the board at each start.

    Submissions move the turn as the service moved it: a pre-combat turn in force is the
    turn's declaration (an amendment in force replaces it), a post-combat turn in force ends
    the turn, and an amended post-combat turn in force replays the turn before it."""
    ordered = tuple(sorted(bodies, key=lambda b: int(b["seq"])))
    players: Mapping[str, str] = {}
    start: Position | None = None
    for body in ordered:
        if body["kind"] == "genesis":
            players = dict(body["data"].get("players", {}))
            start = _genesis_position(body["data"])
            break
    first = start.to_move if start is not None else Power.USSR
    current = LedgerTurn(first, start.round if start is not None else 1, start)
    turns = [current]
    record = GameRecord(ordered, players, ())
    for body in ordered:
        if body["kind"] == "genesis":
            continue
        current.entries.append(body)
        data = body["data"]
        if body["kind"] != "submission" or not in_force(body):
            continue
        if data.get("phase") == PRE_COMBAT:
            current.precombat = body
            continue
        attacker = record.attacker_address(current.power)
        previous = turns[-2] if len(turns) > 1 else None
        if "amends" in data and previous is not None and current.precombat is None:
            previous.postcombat = body
            since = [b for b in ordered if b["seq"] <= body["seq"]]
            after = _played(
                previous.start,
                previous.precombat,
                body,
                since,
                record.attacker_address(previous.power),
            )
            current.start = after
            continue
        current.postcombat = body
        since = [b for b in ordered if b["seq"] <= body["seq"]]
        after = _played(current.start, current.precombat, body, since, attacker)
        if after is not None:
            current = LedgerTurn(after.to_move, after.round, after)
        else:
            nxt = _next_power(current.power)
            rnd = current.round + (1 if nxt is Power.USSR else 0)
            current = LedgerTurn(nxt, rnd, None)
        turns.append(current)
    return GameRecord(ordered, players, tuple(turns))


def _next_power(power: Power) -> Power:
    order = sorted(Power, key=lambda p: p.value)
    return order[(order.index(power) + 1) % len(order)]
