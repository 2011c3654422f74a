"""A Big World 1942 battle resolved from the dice thrown (``pbem battle resolve`` of a
document with ``"ruleset": "big_world_1942"``).

The rounds are :func:`~adjudicator.bigworld.combat.play_big_world_round`'s; each volley
takes its dice from the round as written (:mod:`adjudicator.bigworld.reading`). A Big World
game is TripleA's, not the league's: there is no IAAPA rule for dice that do not fit the
forces, so a round whose dice do not match the units that fire is refused, naming the list
and how many dice it should hold.

Output, version 1 (the Classic result's keys where they mean the same)::

    {"version": 1, "ruleset": "big_world_1942", "kind", "amphibious", "name"?,
     "start": {"attacker": {..}, "defender": {..}, "bombarding": {..}, "aa_guns": n},
     "rounds": [{"round", "aa_hits", "bombard_hits", "first_strike_hits",
                 "sub_hits": {"attacker", "defender"}, "attacker_hits", "defender_hits",
                 "attacker_casualties": {UNIT: n}, "defender_casualties": {UNIT: n},
                 "damaged": {"attacker": n, "defender": n}}],
     "survivors": {"attacker": {..}, "defender": {..}},
     "outcome": "attacker-wins" | "defender-wins" | "both-destroyed" | "continues"
                | "attacker-retreats" | "stalemate",
     "retreat_allowed": 0 | 1, "captured": 0 | 1, "final": 1, "diagnostics": []}

``attacker_hits`` counts all the attacker's hits of the round (subs' included; before
round 1 the AA and bombardment hits are apart), ``sub_hits`` each side's submarines' hits
and ``first_strike_hits`` both together, casualties count units lost (a battleship's
first hit is damage, shown under ``damaged``: battleships hit once and still afloat after
the round). Survivors of a battle that has ended are repaired.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.battle.errors import InvalidValue
from adjudicator.battle.reading import RULESET
from adjudicator.bigworld.combat import (
    BigWorldBattle,
    Fire,
    Salvo,
    holds_territory,
    open_battle,
    play_big_world_round,
    stalemate,
    taken_without_a_roll,
)
from adjudicator.bigworld.reading import dice_of_round, read_big_world_battle
from adjudicator.bigworld.units import Army, BigWorldUnit

W = BigWorldUnit


class _Dice:
    """The dice of one round as written, handed out volley by volley."""

    def __init__(self, rnd: Mapping[str, object], where: str, *, void: bool = False) -> None:
        self.where = where
        self.void = void
        """Dice beyond what the units that fire throw are void, not refused: the dice
        server's roll throws for every unit listed, before any is lost."""
        self.voided: dict[str, dict[str, list[int]]] = {}
        keys = ("aa", "bombard", "attacker", "defender")
        self.lists = {key: dice_of_round(rnd, key, where) for key in keys}
        self.used: dict[tuple[str, BigWorldUnit], int] = {}

    def _key(self, salvo: Salvo) -> str:
        if salvo.fire is Fire.AA:
            return "aa"
        if salvo.fire is Fire.BOMBARD:
            return "bombard"
        return salvo.side.value

    def __call__(self, salvo: Salvo) -> int:
        key = self._key(salvo)
        thrown = self.lists[key]
        before = dict(self.used)
        hits = 0
        for shot in salvo.shots:
            unit = W.AA if key == "aa" else shot.unit
            start = self.used.get((key, unit), 0)
            dice = thrown.get(unit, [])[start : start + shot.dice]
            if len(dice) < shot.dice:
                self._short(key, unit, salvo, before.get((key, unit), 0))
            self.used[(key, unit)] = start + shot.dice
            for i in range(0, shot.dice, shot.dice_each):
                group = dice[i : i + shot.dice_each]
                if shot.best_of:
                    hits += min(group) <= shot.hit_on
                else:
                    hits += sum(die <= shot.hit_on for die in group)
        return hits

    def _short(self, key: str, unit: BigWorldUnit, salvo: Salvo, earlier: int) -> None:
        """Refuse a list shorter than the dice its units throw (``earlier``: the list's dice
        read before this volley)."""
        need = earlier + sum(s.dice for s in salvo.shots if key == "aa" or s.unit is unit)
        raise InvalidValue(
            self._path(key, unit),
            f"too few dice: the units that fire throw {need} {'die' if need == 1 else 'dice'}",
        )

    def _path(self, key: str, unit: BigWorldUnit) -> str:
        """Where a unit's dice are in the document (the AA gun's are one list)."""
        return f"{self.where}.{key}" + ("" if key == "aa" else f".{unit.value}")

    def finish(self) -> None:
        """Refuse dice no unit threw (or, with ``void``, set them apart: the last dice of
        their list, as the units lost before they fire are the last of their type)."""
        for key, lists in self.lists.items():
            for unit, dice in lists.items():
                used = self.used.get((key, unit), 0)
                if len(dice) > used and self.void:
                    self.voided.setdefault(key, {})[unit.value] = dice[used:]
                elif len(dice) > used:
                    raise InvalidValue(
                        self._path(key, unit),
                        f"{len(dice)} dice, but the units that fire throw {used} "
                        f"(a unit lost before it fires throws none)",
                    )


def _lost(before: Army, after: Army) -> dict[str, int]:
    return {
        u.value: before.count(u) - after.count(u)
        for u, _ in before
        if before.count(u) > after.count(u)
    }


def _outcome(battle: BigWorldBattle, attackers: Army, defenders: Army) -> str:
    if not attackers:
        return "both-destroyed" if not defenders else "defender-wins"
    if not defenders:
        return "attacker-wins"
    if stalemate(battle, attackers, defenders):
        return "stalemate"
    return "continues"


def resolve_big_world(doc: Mapping[str, object], *, void: bool = False) -> dict[str, object]:
    """Resolve a Big World 1942 battle document to its output object (the module's note);
    a :class:`~adjudicator.battle.errors.BattleInputError` naming the field when it is
    malformed or its dice do not fit the units that fire.

    With ``void`` (a roll of the dice server, thrown for every unit listed before any is
    lost), dice of units lost before they fire are set apart in each round's ``void``
    (``{"attacker": {UNIT: [dice]}, ...}``, the last dice of each list) instead of refused."""
    read = read_big_world_battle(doc)
    battle = read.battle
    attackers, defenders = battle.attacker, battle.defender
    rounds: list[dict[str, object]] = []
    outcome = "continues"
    if taken_without_a_roll(battle):
        outcome = "attacker-wins"
    for i, rnd in enumerate(read.rounds):
        where = f"rounds[{i}]"
        if outcome != "continues":
            raise InvalidValue(where, f"the battle was over before this round ({outcome})")
        dice = _Dice(rnd, where, void=void)
        aa_hits = bombard_hits = 0
        a0, d0 = attackers, defenders
        if i == 0:
            attackers, defenders, aa_hits, bombard_hits = open_battle(battle, dice)
        elif rnd.get("aa") or rnd.get("bombard"):
            raise InvalidValue(where, "AA guns and bombardment fire before round 1 only")
        sub_hits = [0, 0]
        hits = [0, 0]
        if attackers and defenders:
            play = play_big_world_round(battle, attackers, defenders, dice)
            attackers, defenders = play.attackers, play.defenders
            sub_hits = [play.attacker_sub_hits, play.defender_sub_hits]
            hits = [play.attacker_hits, play.defender_hits]
        dice.finish()
        outcome = _outcome(battle, attackers, defenders)
        retreat = rnd.get("retreat", 0)
        if retreat not in (0, 1) or isinstance(retreat, bool):
            raise InvalidValue(f"{where}.retreat", f"expected 0 or 1, got {retreat!r}")
        if retreat:
            if not battle.retreat_possible:
                raise InvalidValue(
                    f"{where}.retreat",
                    "the attacker cannot retreat (an amphibious assault, or no_retreat)",
                )
            if outcome == "continues":
                outcome = "attacker-retreats"
        rounds.append(
            {
                "round": i + 1,
                "aa_hits": aa_hits,
                "bombard_hits": bombard_hits,
                "first_strike_hits": sub_hits[0] + sub_hits[1],
                "sub_hits": {"attacker": sub_hits[0], "defender": sub_hits[1]},
                "attacker_hits": sub_hits[0] + hits[0],
                "defender_hits": sub_hits[1] + hits[1],
                "attacker_casualties": _lost(a0, attackers),
                "defender_casualties": _lost(d0, defenders),
                "damaged": {"attacker": attackers.damaged, "defender": defenders.damaged},
            }
        )
        if void:
            rounds[-1]["void"] = dice.voided
    over = outcome != "continues"
    left_a = attackers.repaired() if over else attackers
    left_d = defenders.repaired() if over else defenders
    out: dict[str, object] = {
        "version": 1,
        "ruleset": RULESET,
        "kind": battle.battlefield.value,
        "amphibious": int(battle.amphibious),
    }
    if read.name:
        out["name"] = read.name
    out["start"] = {
        "attacker": battle.attacker.to_json(),
        "defender": battle.defender.to_json(),
        "bombarding": battle.bombarding.to_json(),
        "aa_guns": battle.aa_guns,
    }
    out.update(
        {
            "rounds": rounds,
            "survivors": {"attacker": left_a.to_json(), "defender": left_d.to_json()},
            "outcome": outcome,
            "retreat_allowed": int(battle.retreat_possible),
            "captured": int(outcome == "attacker-wins" and holds_territory(battle, attackers)),
            "final": 1,
            "diagnostics": [],
        }
    )
    return out
