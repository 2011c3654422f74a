"""The entries the server writes about the game itself: its creation with the dice seed's
commitment (``genesis``), the seed revealed when the game ends (``seed-reveal``), and a new
commitment when it is reopened (``commitment``). Members never write these."""

from __future__ import annotations

import hashlib

from dice_server.kinds.base import Data, EntryKind
from dice_server.verifier import canonical_json


def genesis_headline(data: Data) -> str:
    players = data["players"]
    return f"game created: {players['axis']} (Axis) v {players['allies']} (Allies)"


def genesis(data: Data) -> list[str]:
    players = data["players"]
    lines = [f"Axis: {players['axis']}; Allies: {players['allies']}"]
    if data.get("mentor"):
        lines.append(f"Mentor: {data['mentor']}")
    if data.get("variant"):
        lines.append(f"Variant: {data['variant']}")
    lines += [f"Gentlemen's agreement: {a}" for a in data.get("agreements", [])]
    lines += _bid_lines(data)
    if "position" in data:
        start = data["position"]
        digest = hashlib.sha256(canonical_json(start)).hexdigest()
        lines.append(
            f"Starting position: round {start['round']}, {start['to_move']} to move "
            f"(SHA-256 {digest[:16]}…)"
        )
    return [
        *lines,
        f"Dice seed commitment: {data['seed_commitment']}",
        "The seed is revealed when the game ends; then anyone can recompute every die of the game.",
    ]


def _bid_lines(data: Data) -> list[str]:
    """How a game from a challenge started: both bids, the draw between equal bids, and what
    the winning bid placed (IAAPA Bidding: "The IAAPA web server will inform the players
    that Player one will play the Axis with ...")."""
    bids = data.get("bids")
    if not isinstance(bids, dict):
        return []
    axis, allies = bids["axis"], bids["allies"]
    lines = [
        f"Challenge {data.get('challenge')}: bids {axis['member']} {axis['total']} IPCs, "
        f"{allies['member']} {allies['total']} IPCs"
    ]
    draw = data.get("draw")
    if isinstance(draw, dict):
        lines.append(
            f"Equal bids: the server drew a die: {draw['dice'][0]} ({draw['rule']}); "
            "recompute it from the seed when it is revealed"
        )
    else:
        lines.append("The lower bid plays the Axis and gets its bid.")
    applied = data.get("bid", {})
    placed = [
        f"{n} {unit} for {power} in {place}"
        for place, powers in applied.get("placements", {}).items()
        for power, units in powers.items()
        for unit, n in units.items()
    ]
    money = [f"{n} IPCs for {power}" for power, n in applied.get("ipcs", {}).items()]
    what = ", ".join(placed + money) or "nothing"
    lines.append(
        f"{axis['member']} plays the Axis with the bid of {axis['total']} IPCs: {what} "
        "(placed before the first USSR turn)"
    )
    lines += [
        f"Bid {finding['severity']}: {finding['message']}"
        for finding in applied.get("findings", [])
    ]
    return lines


def reveal_headline(data: Data) -> str:
    winner = f": {data['winner'].title()} win" if data.get("winner") else ""
    return f"game {data['status']}{winner}"


def reveal(data: Data) -> list[str]:
    winner = f", {data['winner']} win" if data.get("winner") else ""
    lines = [f"Result: {data['status']}{winner}"]
    if data.get("reason"):
        lines.append(f"Reason: {data['reason']}")
    return [
        *lines,
        f"Rated: {'yes' if data.get('rated') else 'no'}",
        f"Seed: {data['seed']} (commitment of entry #{data['commitment_seq']})",
    ]


def commitment(data: Data) -> list[str]:
    return [
        f"Reason: {data.get('reason', '')}",
        f"New dice seed commitment: {data['seed_commitment']}",
    ]


GENESIS = EntryKind(name="genesis", headline=genesis_headline, describe=genesis)
SEED_REVEAL = EntryKind(name="seed-reveal", headline=reveal_headline, describe=reveal)
COMMITMENT = EntryKind(
    name="commitment", headline=lambda _data: "game reopened", describe=commitment
)
