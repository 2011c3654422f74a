"""Read TripleA game files (``*.xml``) into a :class:`Board`.

Any TripleA game XML: territories and their water flag, connections, territory attachments
(production = IPC value, capital, originalFactory, originalOwner, isImpassable), canal
attachments, the opening owners, unit placements and resources. Parsing goes through
defusedxml because game files are downloaded from the internet.

Only the map and opening set-up are read into the board; unit rules are read separately by
:func:`load_triplea_units` (the league checks its own unit table against them).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from xml.etree.ElementTree import Element

from defusedxml import ElementTree

from adjudicator.boards.model import NEUTRAL, Board, BoardError, Canal, Player, Territory

StrPath = str | os.PathLike[str]


def _parse(path: StrPath) -> Element:
    root: Element = ElementTree.parse(os.fspath(path)).getroot()
    if root.tag != "game":
        raise BoardError(f"{os.fspath(path)}: not a TripleA game file (root <{root.tag}>)")
    return root


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def _int(value: str | None, what: str) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise BoardError(f"{what}: {value!r} is not a whole number") from None


def _options(attachment: Element) -> dict[str, str]:
    return {opt.get("name", ""): opt.get("value", "") for opt in attachment.iter("option")}


def _attachments(root: Element, java_suffix: str) -> list[tuple[str, dict[str, str]]]:
    """(attachTo, options) of every attachment whose javaClass ends with ``java_suffix``."""
    found = []
    for att in root.iter("attachment"):
        if (att.get("javaClass") or "").endswith(java_suffix):
            found.append((att.get("attachTo", ""), _options(att)))
    return found


def load_triplea_xml(path: StrPath) -> Board:
    """The board described by the TripleA game file at ``path``.

    BoardError if the file is inconsistent (a connection or placement naming a territory the
    map does not define).
    """
    root = _parse(path)
    info = root.find("info")
    name = info.get("name", "") if info is not None else ""

    alliances = {a.get("player", ""): a.get("alliance", "") for a in root.iter("alliance")}
    player_list = root.find("playerList")
    players = (
        []
        if player_list is None
        else [
            Player(p.get("name", ""), alliances.get(p.get("name", "")) or None)
            for p in player_list.iter("player")
        ]
    )

    owners = {o.get("territory", ""): o.get("owner", "") for o in root.iter("territoryOwner")}
    territory_options: dict[str, dict[str, str]] = defaultdict(dict)
    for attach_to, options in _attachments(root, "TerritoryAttachment"):
        territory_options[attach_to].update(options)

    map_el = root.find("map")
    if map_el is None:
        raise BoardError(f"{os.fspath(path)}: no <map>")
    territories = []
    for el in map_el.iter("territory"):
        t_name = el.get("name", "")
        opts = territory_options.get(t_name, {})
        territories.append(
            Territory(
                name=t_name,
                is_sea=_flag(el.get("water")),
                ipc=_int(opts.get("production", "0"), f"{t_name} production"),
                original_owner=opts.get("originalOwner") or owners.get(t_name) or None,
                capital_of=opts.get("capital") or None,
                original_factory=_flag(opts.get("originalFactory")),
                impassable=_flag(opts.get("isImpassable")),
            )
        )
    connections = [(c.get("t1", ""), c.get("t2", "")) for c in map_el.iter("connection")]

    canal_zones: dict[str, set[str]] = defaultdict(set)
    canal_land: dict[str, set[str]] = defaultdict(set)
    for attach_to, options in _attachments(root, "CanalAttachment"):
        canal = options.get("canalName", "")
        canal_zones[canal].add(attach_to)
        canal_land[canal].update(t for t in options.get("landTerritories", "").split(":") if t)
    canals = [Canal(c, frozenset(canal_zones[c]), frozenset(canal_land[c])) for c in canal_zones]

    units: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for p in root.iter("unitPlacement"):
        owner = p.get("owner") or NEUTRAL
        where, unit = p.get("territory", ""), p.get("unitType", "")
        qty = _int(p.get("quantity"), f"{unit} in {where}")
        counts = units[owner][where]
        counts[unit] = counts.get(unit, 0) + qty

    resources: dict[str, dict[str, int]] = defaultdict(dict)
    for r in root.iter("resourceGiven"):
        player, resource = r.get("player", ""), r.get("resource", "")
        qty = _int(r.get("quantity"), f"{player} {resource}")
        resources[player][resource] = resources[player].get(resource, 0) + qty

    unit_list = root.find("unitList")
    unit_types = [] if unit_list is None else [u.get("name", "") for u in unit_list.iter("unit")]

    return Board.build(
        name=name,
        players=players,
        territories=territories,
        connections=connections,
        canals=canals,
        initial_units=units,
        starting_resources=resources,
        unit_types=unit_types,
    )


@dataclass(frozen=True)
class ProductionRule:
    """A TripleA purchase: ``cost`` of the main resource buys ``quantity`` of ``unit``."""

    name: str
    unit: str
    quantity: int
    cost: int


@dataclass(frozen=True)
class TripleaUnits:
    """Unit rules of a TripleA game file: attachment options, purchase rules, frontiers."""

    options: Mapping[str, Mapping[str, str]]
    """unit type -> unitAttachment option -> value (as written)."""
    rules: Mapping[str, ProductionRule]
    frontiers: Mapping[str, tuple[str, ...]]
    """frontier name -> the production rule names it offers."""

    def cost(self, unit: str, frontier: str = "production") -> int:
        """What one ``unit`` costs in ``frontier``; KeyError if the frontier has no rule."""
        for rule_name in self.frontiers[frontier]:
            rule = self.rules[rule_name]
            if rule.unit == unit and rule.quantity == 1:
                return rule.cost
        raise KeyError(f"frontier {frontier!r} sells no single {unit!r}")


def load_triplea_units(path: StrPath) -> TripleaUnits:
    """The unit attachments and production rules of the TripleA game file at ``path``."""
    root = _parse(path)
    options: dict[str, dict[str, str]] = defaultdict(dict)
    for attach_to, opts in _attachments(root, "UnitAttachment"):
        options[attach_to].update(opts)
    rules = {}
    for el in root.iter("productionRule"):
        cost, result = el.find("cost"), el.find("result")
        if cost is None or result is None:
            continue
        rule_name = el.get("name", "")
        rules[rule_name] = ProductionRule(
            name=rule_name,
            unit=result.get("resourceOrUnit", ""),
            quantity=_int(result.get("quantity"), f"{rule_name} result"),
            cost=_int(cost.get("quantity"), f"{rule_name} cost"),
        )
    frontiers = {
        f.get("name", ""): tuple(r.get("name", "") for r in f.iter("frontierRules"))
        for f in root.iter("productionFrontier")
    }
    return TripleaUnits(
        options=MappingProxyType({u: MappingProxyType(o) for u, o in options.items()}),
        rules=MappingProxyType(rules),
        frontiers=MappingProxyType(frontiers),
    )


def load_triplea_properties(path: StrPath) -> Mapping[str, str]:
    """The game options of the TripleA game file at ``path`` (``<property name value>`` under
    ``<propertyList>``, such as "Two hit battleship" or "LHTR Heavy Bombers"), as written."""
    root = _parse(path)
    found = {}
    for plist in root.iter("propertyList"):
        for prop in plist.iter("property"):
            if prop.get("value") is not None:
                found[prop.get("name", "")] = prop.get("value", "")
    return MappingProxyType(found)
