"""The Minister of Law's rulings on a game, from its ledger alone (IAAPA Error Correction
Procedures, and the orders-of-loss pause of the Default Orders of Loss).

Given the parsed bodies of a game's ledger entries (the JSON of ``GET
/api/v1/games/<n>/ledger``, each ``body`` read), :func:`rule_ledger` finds every error the
league's rules name and rules on it:

- combat declaration errors (Section II, :mod:`.declarations`): the battle void, with the
  attacker's options; over-commitment voiding every battle using the units; the cases that
  are no CDE (the intent is clear; the declared place is assumed correct); a roll for a
  battle never declared;
- rolling errors (Section III, :mod:`.rolling`, :mod:`.rounds`), the dice counted left to
  right: ghost and forgotten AA guns and support shots, too few, too many and wrong units,
  with exactly which dice stand and which are dropped, what to roll now and from which round
  the battle is re-rolled (and, when only the defending territory was declared, wrong
  defenders on the first roll as a rolling error); a battle re-fought after a CDE, against
  the correct units (:mod:`.refights`); rolls made while no pre-combat turn is in force,
  the first round taken as declared and the later ones weighed against the survivors
  (:mod:`.undeclared`);
- a round rolled through the pause owed to the defender (:mod:`.pauses`), with the rule's
  three options when following the order of loss may have changed the outcome;
- tech rolls (Section IV), discrepancies (V) and typographical errors (VI) from the
  service's findings and the weapons-development rolls (:mod:`.findings`);
- the time limit (Section VII, :mod:`.timing`) on CDEs and rolling errors: an error not
  recognised through the roller before the next turn is rolled is fixed; one recognised but
  not corrected voids the next turn.

The engine is pure: the ledger's bodies in, values out. The board each ruling needs (the
defenders, a power's IPCs) is played out from the ledger itself (:mod:`.record`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.rulings.declarations import cde_rulings, undeclared_rulings
from adjudicator.rulings.findings import finding_rulings, tech_rulings
from adjudicator.rulings.model import Ruling
from adjudicator.rulings.pauses import pause_rulings
from adjudicator.rulings.record import read_record
from adjudicator.rulings.rolling import Correctable, review_battle
from adjudicator.rulings.shapes import LedgerFormatError, check_body
from adjudicator.rulings.timing import timed
from adjudicator.rulings.undeclared import unrecorded_rulings

DOCUMENT_VERSION = 1


def _checked(bodies: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    out = []
    seen: set[int] = set()
    for i, body in enumerate(bodies):
        if not isinstance(body, Mapping):
            raise LedgerFormatError(f"entry {i + 1} is not an object")
        seq = body.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise LedgerFormatError(f"entry {i + 1} has no seq")
        if not isinstance(body.get("kind"), str) or not isinstance(body.get("data"), Mapping):
            raise LedgerFormatError("an entry needs a kind and its data", seq)
        if seq in seen:
            raise LedgerFormatError("given twice", seq)
        seen.add(seq)
        check_body(body)
        out.append(body)
    if not any(b["kind"] == "genesis" for b in out):
        raise LedgerFormatError("no genesis entry: these are not a game's entries")
    return sorted(out, key=lambda b: int(b["seq"]))


def rule_ledger(bodies: Sequence[Mapping[str, Any]]) -> list[Ruling]:
    """Every ruling for a game, from its entries' parsed bodies (seq order).

    Raises :class:`LedgerFormatError` (a ``ValueError``) when the bodies are not a game's
    ledger entries."""
    record = read_record(_checked(bodies))
    items: list[Correctable] = []
    plain: list[Ruling] = []
    for turn in record.turns:
        cdes, standing, void = cde_rulings(record, turn)
        items += cdes
        plain += standing
        items += undeclared_rulings(turn)
        items += unrecorded_rulings(record, turn)
        for battle in record.battles(turn):
            if battle.number in void or not battle.rolls:
                continue
            review = review_battle(record, turn, battle)
            items += review.rulings
            plain += pause_rulings(record, review)
    plain += tech_rulings(record)
    plain += finding_rulings(record)
    rulings = timed(record, items) + plain
    return sorted(rulings, key=lambda r: (min(r.about, default=0), r.rule, r.decision))


def rulings_document(bodies: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"version": 1, "rulings": [...]}``: every ruling for a game, as JSON."""
    return {"version": DOCUMENT_VERSION, "rulings": [r.json() for r in rule_ledger(bodies)]}


__all__ = ["DOCUMENT_VERSION", "LedgerFormatError", "Ruling", "rule_ledger", "rulings_document"]
