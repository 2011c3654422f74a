"""Hand-made game ledgers for the rulings' conformance cases, and the proof that they are
made exactly as the service makes them.

A :class:`GameLedger` writes entry bodies with the functions the service itself records
with: a battle roll's data is :meth:`adjudicator.rolls.BattleRoll.record` with the dice a
case needs, a submission's is the turn report of :func:`adjudicator.declarations.check_report`
against the game's position, a post-combat turn is played out by
:func:`adjudicator.turns.advance` from the dice. :func:`test_a_hand_made_ledger_is_the_services`
plays a turn through the service, then writes the same turn by hand with the dice the
service drew, and compares every entry's data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from flask.testing import FlaskClient

from adjudicator.battle import resolve_json
from adjudicator.declarations import check_report
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.names import classic_names, power_label
from adjudicator.notation import parse
from adjudicator.notation.jsonreport import diagnostic_report
from adjudicator.position import Position, arranged, dump_json, initial
from adjudicator.powers import Alliance, Power
from adjudicator.rolls import BattleRoll, RollHeader, TechRoll, battle_document
from adjudicator.rolls.declared import order_of_loss_in, rolling_errors
from adjudicator.rulings import Ruling, rule_ledger
from adjudicator.turns import advance, outcome_from_json
from adjudicator.units import UnitType
from dice_server.ledger import entry_values
from dice_server.services.battles import roll_finding
from tests.conftest import League

AXIS, ALLIES = "axis@example.org", "allies@example.org"


DECLARED = ("number", "territory", "kind", "attacker", "defender")
"""What a submission records of each declared battle (the service's ``_declared``)."""


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def listing(units: Mapping[str, int]) -> tuple[tuple[UnitType, int], ...]:
    return tuple((UnitType(name), n) for name, n in units.items())


class GameLedger:
    """A game's entry bodies, written one by one as the service writes them."""

    def __init__(self, position: Position | None = None) -> None:
        self.position = position or initial()
        self.bodies: list[dict[str, Any]] = []
        self.clock = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
        self.pre: dict[str, Any] | None = None
        self.add(
            "genesis",
            {
                "players": {"axis": AXIS, "allies": ALLIES},
                "seed_commitment": "0" * 64,
                "position": dump_json(self.position),
            },
        )

    def add(self, kind: str, data: dict[str, Any]) -> int:
        seq = len(self.bodies) + 1
        prev = hashlib.sha256(canonical(self.bodies[-1]).encode()).hexdigest() if seq > 1 else ""
        self.clock += timedelta(minutes=1)
        body = {
            "v": 1,
            "game": 1,
            "seq": seq,
            "kind": kind,
            "at": self.clock.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "prev": prev or "0" * 64,
            "data": data,
        }
        self.bodies.append(body)
        return seq

    def mover(self) -> Power:
        return self.position.to_move

    def player(self, power: Power | None = None) -> str:
        power = power or self.mover()
        return AXIS if power.alliance is Alliance.AXIS else ALLIES

    def opponent(self) -> str:
        return ALLIES if self.player() == AXIS else AXIS

    def _data(self, phase: str, text: str, report: Mapping[str, Any]) -> dict[str, Any]:
        shown = canonical(dump_json(self.position))
        return {
            "power": power_label(self.mover()),
            "round": self.position.round,
            "phase": phase,
            "text": text,
            "position_sha256": hashlib.sha256(shown.encode()).hexdigest(),
            "findings": entry_values(report.get("diagnostics", [])),
            "in_force": 1,
            "by": self.player(),
        }

    def precombat(self, text: str) -> int:
        report = check_report(text, self.position)
        data = self._data("pre-combat", text, report)
        data["battles"] = [
            entry_values(
                {k: b.get(k) for k in ("number", "territory", "kind", "attacker", "defender")}
            )
            for b in report.get("battles", [])
        ]
        seq = self.add("submission", data)
        self.pre = self.bodies[-1]
        return seq

    def _verdicts(self) -> dict[int, Any]:
        assert self.pre is not None
        found = {}
        text = str(self.pre["data"]["text"])
        for battle in self.pre["data"]["battles"]:
            rolls = [
                b
                for b in self.bodies
                if b["kind"] == "roll"
                and b["data"].get("declared")
                == {"submission": self.pre["seq"], "number": battle["number"]}
            ]
            if not rolls:
                continue
            doc = battle_document(rolls)
            order = order_of_loss_in(text, battle["number"], battle["territory"])
            if order:
                doc["order_of_loss"] = {"attacker": order}
            found[battle["number"]] = outcome_from_json(dict(resolve_json(doc)))
        return found

    def postcombat(self, text: str) -> int:
        assert self.pre is not None
        pre_text = str(self.pre["data"]["text"])
        report = check_report(text, self.position, precombat=pre_text)
        data = self._data("post-combat", text, report)
        played = advance(self.position, parse(pre_text), parse(text), self._verdicts())
        data["played_out"] = [entry_values(diagnostic_report(f)) for f in played.findings]
        shown = canonical(dump_json(played.position))
        data["new_position_sha256"] = hashlib.sha256(shown.encode()).hexdigest()
        seq = self.add("submission", data)
        self.position, self.pre = played.position, None
        return seq

    def turn(self, pre: str, post: str) -> tuple[int, int]:
        """A whole turn without dice."""
        return self.precombat(pre), self.postcombat(post)

    def roll(
        self,
        battle: str,
        attacker: Mapping[str, int],
        defender: Mapping[str, int],
        dice: Sequence[int],
        *,
        bombard: Mapping[str, int] | None = None,
        options: Sequence[str] = (),
        round: int = 1,
    ) -> int:
        """A battle roll thrown with ``dice`` (every one of them, in order), linked to the
        declared battle as the service links it."""
        header = RollHeader(round, self.position.round, self.mover())
        place = classic_names().place(battle).label
        request = BattleRoll.of(
            header, battle, listing(attacker), listing(defender), listing(bombard or {}), options
        )
        left = list(dice)

        def draw(n: int) -> list[int]:
            assert n <= len(left), f"the roll throws {request.dice_count} dice, not {len(dice)}"
            taken, left[:] = left[:n], left[n:]
            return taken

        data = request.record(self.player(), draw)
        assert not left, f"the roll throws {request.dice_count} dice, not {len(dice)}"
        if self.pre is not None:
            data.update(self._link(place, data))
        return self.add("roll", data)

    def _link(self, place: str, data: Mapping[str, Any]) -> dict[str, Any]:
        """What the service adds to a roll made while a pre-combat turn is in force: its
        declared battle and the findings on its units (``services.battles.link_roll``)."""
        assert self.pre is not None
        declared = self.pre["data"]["battles"]
        match = next(
            (b for b in declared if b["territory"] == place and b["kind"] == "battle"), None
        )
        if match is None:
            listed = ", ".join(f"#{b['number']} {b['territory']}" for b in declared) or "none"
            message = (
                f"{place} is not a battle of the pre-combat turn in force (entry "
                f"#{self.pre['seq']}; its battles: {listed})"
            )
            return {"findings": [roll_finding(Diagnostic(Severity.ERROR, Rule.CDE, message))]}
        link = {"submission": self.pre["seq"], "number": int(match["number"])}
        earlier = [
            b for b in self.bodies if b["kind"] == "roll" and b["data"].get("declared") == link
        ]
        rolled = {s: {u["unit"]: u["count"] for u in data[s]} for s in ("attacker", "defender")}
        for ship in data.get("bombard", []):
            rolled["attacker"]["BB"] = rolled["attacker"].get("BB", 0) + ship["count"]
        if not earlier:
            expected = {s: dict(match.get(s, {})) for s in ("attacker", "defender")}
            what = f"the declaration of battle #{link['number']} (entry #{self.pre['seq']})"
        else:
            order = order_of_loss_in(str(self.pre["data"]["text"]), link["number"], place)
            doc = battle_document(earlier)
            if order:
                doc["order_of_loss"] = {"attacker": order}
            try:
                survivors: Any = resolve_json(doc)["survivors"]
            except ValueError:
                return {"declared": link}
            expected = {s: dict(survivors.get(s, {})) for s in ("attacker", "defender")}
            if earlier[0]["data"].get("bombard"):
                expected["attacker"].pop("BB", None)
            what = f"the survivors of battle #{link['number']}'s earlier rolls"
        expected["defender"].pop("IC", None)
        findings = []
        for side in ("attacker", "defender"):
            if side == "defender" and not rolled["defender"]:
                continue
            found = rolling_errors(side, rolled[side], expected[side], what)
            findings += [roll_finding(f) for f in found]
        out: dict[str, Any] = {"declared": link}
        if findings:
            out["findings"] = findings
        return out

    def note(self, topic: str, text: str, by: str, ref_seq: int | None = None) -> int:
        data: dict[str, Any] = {"topic": topic, "text": text, "by": by}
        if ref_seq is not None:
            data["ref_seq"] = ref_seq
        return self.add("note", data)

    def tech(self, rolled: int, dice: Sequence[int], declared: int | None = None) -> int:
        header = RollHeader(1, self.position.round, self.mover())
        request = TechRoll(header, rolled, declared if declared is not None else rolled, ())
        left = list(dice)

        def draw(n: int) -> list[int]:
            taken, left[:] = left[:n], left[n:]
            return taken

        return self.add("tech-roll", request.record(self.player(), draw))

    def export(self) -> dict[str, Any]:
        return {"entries": [{"body": canonical(b), "sig": "", "key": ""} for b in self.bodies]}

    def rulings(self) -> list[Ruling]:
        return rule_ledger([json.loads(e["body"]) for e in self.export()["entries"]])

    def ruled(self, rule: str) -> list[Ruling]:
        """The rulings citing ``rule``."""
        return [r for r in self.rulings() if rule in r.rule]


def board(units: Mapping[str, Mapping[Power, Mapping[UnitType, int]]], **kw: Any) -> Position:
    return arranged(units, **kw)


def dice_of(seq: int, *indices: int) -> tuple[tuple[int, int], ...]:
    return tuple((seq, i) for i in indices)


def every_die(seq: int, count: int) -> tuple[tuple[int, int], ...]:
    return dice_of(seq, *range(count))


# --- the format, checked against the service -----------------------------------------------

USSR_PRE = """Russia 1 pre-combat

purchases: 8 inf ($24)

combat moves:
attack #1 - ukraine (3 inf, 2 arm, 1 ftr)
kar 3 inf, 1 arm
cauc 3 inf
russia 1 arm, 1 ftr (land caucasus)
"""
UKRAINE = {
    "round": 1,
    "turn": 1,
    "country": "USSR",
    "battle": "Ukraine",
    "attacker": [{"unit": "INF", "count": 6}, {"unit": "ARM", "count": 2}],
    "defender": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 2}],
}
USSR_POST = """Russia 1 post-combat

Non-combat moves:
Russia 1 FTR to Caucasus

Placement:
Russia 8 INF

Russia 12/$30
"""


def test_a_hand_made_ledger_is_the_services(client: FlaskClient, league: League) -> None:
    """The same turn through the service and by hand: every entry's data is the same (the
    roll with the dice the service drew), the keys of the genesis too; the rulings the
    service records of its own (``ruling`` entries) are left aside, and change nothing."""

    def post(what: str, payload: dict[str, Any], who: str = "allies") -> Any:
        answer = client.post(
            f"/api/v1/games/{league.game}/{what}",
            data=json.dumps(payload),
            headers={**league.auth(who), "Content-Type": "application/json"},
        )
        assert answer.status_code == 201, answer.get_data(as_text=True)
        return answer

    post("turns", {"text": USSR_PRE})
    post("rolls", UKRAINE)
    post("notes", {"topic": "error-recognition", "text": "1 FTR left out", "ref_seq": 3}, "axis")
    post("tech-rolls", {"round": 1, "turn": 1, "country": "USSR", "dice": 2, "declared": 1})
    post("turns", {"text": USSR_POST})
    exported = client.get(f"/api/v1/games/{league.game}/ledger", headers=league.auth("axis"))
    ledger = [json.loads(e["body"]) for e in exported.get_json()["entries"]]
    served = [b for b in ledger if b["kind"] != "ruling"]  # the service's own proposals

    game = GameLedger()
    game.precombat(USSR_PRE)
    game.roll("Ukraine", {"INF": 6, "ARM": 2}, {"INF": 3, "ARM": 2}, served[2]["data"]["dice"])
    game.note("error-recognition", "1 FTR left out", AXIS, ref_seq=3)
    game.tech(2, served[4]["data"]["dice"], declared=1)
    game.postcombat(USSR_POST)
    assert [b["kind"] for b in game.bodies] == [b["kind"] for b in served]
    assert set(game.bodies[0]["data"]) <= set(served[0]["data"])
    assert game.bodies[0]["data"]["position"] == served[0]["data"]["position"]
    for mine, theirs in zip(game.bodies[1:], served[1:], strict=True):
        assert set(mine) == set(theirs)
        assert mine["data"] == theirs["data"], mine["kind"]
    assert [r.rule for r in rule_ledger(ledger)] == [r.rule for r in game.rulings()]


def the_ruling(rulings: Sequence[Ruling], rule: str) -> Ruling:
    """The one ruling citing exactly ``rule``."""
    found = [r for r in rulings if r.rule == rule]
    assert len(found) == 1, [(r.rule, r.decision) for r in rulings]
    return found[0]


def roll_request(
    country: str,
    battle: str,
    attacker: Sequence[tuple[str, int]],
    defender: Sequence[tuple[str, int]],
    options: Sequence[str] = (),
    *,
    round: int = 1,
    turn: int = 1,
) -> dict[str, Any]:
    """A battle roll request body with its units, as a ruling's ``to_roll`` holds it (the
    comment aside)."""
    return {
        "round": round,
        "turn": turn,
        "country": country,
        "battle": battle,
        "attacker": [{"unit": u, "count": n} for u, n in attacker],
        "defender": [{"unit": u, "count": n} for u, n in defender],
        "options": list(options),
    }


def requests(ruling: Ruling) -> list[dict[str, Any]]:
    """A ruling's roll requests without their comments."""
    return [{k: v for k, v in body.items() if k != "comment"} for body in ruling.to_roll]
