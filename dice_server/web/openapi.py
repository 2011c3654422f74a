"""The OpenAPI 3.0 description of every JSON endpoint (``GET /api/v1/openapi.json``).

Written out by hand, one entry per operation, from the same names the views use (the entry
kinds' API paths come from :data:`dice_server.kinds.BY_API_PATH`), so that a client can be
generated from it and schemathesis can hold the live server to it (tests/contract). A test
walks Flask's URL map against :func:`document`: a JSON route without an operation here, or
an operation without a route, fails the suite.

Every refusal of the league's API is ``{"error": "...", "field": "..."}`` (``field`` when one
field is at fault) with a 4xx status, or 503 when a ledger fails its integrity check; the
TripleA endpoints keep the TripleA client's own shape, ``{"status": "Error", "errors":
[...]}``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dice_server.kinds import BY_API_PATH

Schema = dict[str, Any]

#: OpenAPI's name for each JSON endpoint outside /api/v1 (the rest are /api/v1/...).
MACHINE_PATHS = (
    "/healthz",
    "/api/roll",
    "/api/register",
    "/games/{number}/entries/{seq}.json",
    "/tables/{public_id}/ledger.json",
)


# --- Schema builders ----------------------------------------------------------------------


def obj(required: tuple[str, ...] = (), **properties: Schema) -> Schema:
    """A JSON object with these properties (others allowed: readers ignore what they do not
    know, and answers may grow)."""
    schema: Schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


def integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    schema: Schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def text(*choices: str, description: str = "") -> Schema:
    schema: Schema = {"type": "string"}
    if choices:
        schema["enum"] = list(choices)
    if description:
        schema["description"] = description
    return schema


def array(items: Schema, max_items: int | None = None) -> Schema:
    schema: Schema = {"type": "array", "items": items}
    if max_items is not None:
        schema["maxItems"] = max_items
    return schema


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


FLAG = integer(0, 1)
ANY_OBJECT: Schema = {"type": "object"}

# --- Request bodies -----------------------------------------------------------------------

HEADER = {
    "round": integer(1),
    "turn": integer(1),
    "country": text(description="the power rolling: USSR, Germany, UK, Japan, USA"),
    "comment": text(),
}
HEADER_FIELDS = ("round", "turn", "country")
UNIT_COUNT = obj(
    ("unit", "count"),
    unit=text(description="INF ARM FTR BMB TRN SUB AC BB AA"),
    count=integer(1, 999),
)
BATTLE_ROLL = obj(
    (*HEADER_FIELDS, "battle", "attacker"),
    **HEADER,
    battle=text(description="the territory or sea zone, as the board names it"),
    attacker=array(UNIT_COUNT),
    defender=array(UNIT_COUNT),
    bombard=array(UNIT_COUNT),
    options=array(text(description="subs-first, defenders-only, heavy-bombers, super-subs, ...")),
    kind=text(description="in a game of another system: the roll's kind (see its own path)"),
)
TECH_ROLL = obj(
    (*HEADER_FIELDS, "dice"),
    **HEADER,
    dice=integer(1),
    declared=integer(1),
    owned=array(text(description="a technology, as the tech chart names it")),
)
BOMBING_ROLL = obj(
    (*HEADER_FIELDS, "target", "bombers", "aa"),
    **HEADER,
    target=text(description="the territory with the industrial complex"),
    bombers=integer(1),
    aa=FLAG,
    options=array(text("heavy-bombers")),
)
ROCKET_ROLL = obj(
    (*HEADER_FIELDS, "target"),
    **HEADER,
    target=text(),
    **{"from": text(description="the territory of the firing AA gun")},
    rockets=integer(1, 1),
)
NOTE = obj(
    ("topic", "text"),
    topic=text(
        "special-orders",
        "retreat",
        "error-recognition",
        "void-claim",
        "forfeit-request",
        "general",
        "away",
    ),
    text=text(),
    ref_seq=integer(1),
    **{"from": text(description="an away notice's first day, YYYY-MM-DD")},
    until=text(description="an away notice's last day, YYYY-MM-DD"),
)
WILL_SIDE = text("German", "Japanese")
WILL_UNIT = obj(("unit",), unit=text(description="infantry panzer 6SS fleet KB rebel"), name=text())
WILL_BATTLE = obj(
    ("turn", "side", "boxes"),
    turn=integer(1),
    side=WILL_SIDE,
    area=text(),
    boxes=array(
        obj(
            ("attacker", "defender"), attacker=array(WILL_UNIT), defender=array(WILL_UNIT), air=FLAG
        )
    ),
    air_superiority=WILL_SIDE,
    aircraft=integer(0, 12),
    momentum=FLAG,
    comment=text(),
)
WILL_AIR = obj(
    ("turn", "side", "german_hq", "japanese_hq"),
    turn=integer(1),
    side=WILL_SIDE,
    german_hq=integer(0, 2),
    japanese_hq=integer(0, 2),
    comment=text(),
)
WILL_REBEL = obj(
    ("turn", "side", "area", "adjacent_rebellions"),
    turn=integer(1),
    side=WILL_SIDE,
    area=text(),
    adjacent_rebellions=integer(0, 20),
    comment=text(),
)
WILL_ATOMIC = obj(
    ("turn", "side"),
    turn=integer(1),
    side=WILL_SIDE,
    target=text("army", "fleet", "Panama Canal", "Suez Canal"),
    target_name=text(),
    area=text(),
    comment=text(),
)
TT_FACTION = text("Axis", "West", "USSR")
TT_UNIT = obj(
    ("unit", "cv"),
    unit=text(description="Fortress, Air Force, Carrier, Submarine, Fleet, Tank, Infantry, Convoy"),
    cv=integer(1, 4),
    target=text("A", "N", "G", "S"),
    scoot=FLAG,
)
TT_COMBAT = obj(
    ("year", "season", "area", "battle", "attacker", "defender", "units"),
    year=integer(1936, 1945),
    season=text("Spring", "Summer", "Fall", "Winter"),
    area=text(),
    battle=text("land", "sea"),
    round=integer(1, 99),
    attacker=TT_FACTION,
    defender=text("Axis", "West", "USSR", "Neutral"),
    units=obj(("attacker", "defender"), attacker=array(TT_UNIT), defender=array(TT_UNIT)),
    first_fire=obj(attacker=array(text()), defender=array(text())),
    declarer_first_fire=FLAG,
    comment=text(),
)
TT_TURN_ORDER = obj(
    ("year", "faction"), year=integer(1936, 1945), faction=TT_FACTION, comment=text()
)

#: Each entry kind's request body, by kind name.
KIND_BODIES: dict[str, Schema] = {
    "roll": BATTLE_ROLL,
    "tech-roll": TECH_ROLL,
    "bombing-roll": BOMBING_ROLL,
    "rocket-roll": ROCKET_ROLL,
    "note": NOTE,
    "will-battle-roll": WILL_BATTLE,
    "will-air-roll": WILL_AIR,
    "will-rebel-roll": WILL_REBEL,
    "will-atomic-roll": WILL_ATOMIC,
    "tt-combat-round": TT_COMBAT,
    "tt-turn-order": TT_TURN_ORDER,
}

ROLL_HEADER = {"round": 1, "turn": 1, "country": "Germany"}
#: A request each Classic kind records, as documented examples (another system's kind has
#: its roller page's example).
KIND_EXAMPLES: dict[str, Any] = {
    "roll": {
        **ROLL_HEADER,
        "battle": "Karelia S.S.R.",
        "attacker": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 2}],
        "defender": [{"unit": "INF", "count": 2}, {"unit": "AA", "count": 1}],
    },
    "tech-roll": {**ROLL_HEADER, "dice": 2},
    "bombing-roll": {**ROLL_HEADER, "target": "Russia", "bombers": 2, "aa": 1},
    "rocket-roll": {**ROLL_HEADER, "target": "United Kingdom", "from": "West Europe"},
    "note": {"topic": "general", "text": "I will move on Sunday"},
}

BID = obj(("total", "details"), total=integer(), details=text())
CHALLENGE = obj(
    ("opponent", "method", "bid"),
    opponent=text(description="the opponent's email address"),
    method=text("pbem", "face-to-face"),
    variant=text(),
    agreements=array(text()),
    mentor=text(),
    instructions=text(),
    message=text(),
    bid=BID,
    low_luck=FLAG,
)
RULING = obj(
    ("ref_seq", "verdict", "reason"),
    ref_seq=integer(1),
    verdict=text("confirm", "amend", "override", "approve", "deny"),
    reason=text(),
    conditions=text(),
    deadline=text(),
)
ODDS_UNIT = obj(("unit", "count"), unit=text(), count=integer(1, 30))
ODDS = obj(
    ("attacker", "defender"),
    battle=text(),
    kind=text("land", "sea"),
    attacker=array(ODDS_UNIT),
    defender=array(ODDS_UNIT),
    low_luck={"type": "boolean"},
    ruleset=text("classic", "big_world_1942"),
    retreat=obj(attackers_at_most=integer(0), after_round=integer(1)),
)
TRIPLEA_ROLL = obj(
    ("times", "max", "email1"),
    times=integer(1),
    max=integer(2, 1000),
    email1=text(description="To: a registered address"),
    email2=text(description="Cc"),
)
TRIPLEA_REGISTER = obj(("email",), email=text())

# --- Answers ------------------------------------------------------------------------------

COMPONENTS: dict[str, Schema] = {
    "Error": obj(
        ("error",),
        error=text(description="what was wrong, in words"),
        field=text(description="the field at fault, as a JSON path"),
    ),
    "SignedEntry": obj(
        ("body", "sig", "key"),
        body=text(description="the entry's canonical JSON, exactly as signed"),
        sig=text(description="Ed25519 signature of body, base64"),
        key=text(description="the signing key's id"),
    ),
    "Ledger": obj(("entries",), entries=array(ref("SignedEntry"))),
    "TripleAError": obj(("status", "errors"), status=text("Error"), errors=array(text())),
}


def json_content(schema: Schema) -> Schema:
    return {"application/json": {"schema": schema}}


def answers(status: str, schema: Schema, what: str, *, triplea: bool = False) -> Schema:
    """The answers of one operation: its success, and every refusal in the error shape."""
    error = ref("TripleAError") if triplea else ref("Error")
    return {
        status: {"description": what, "content": json_content(schema)},
        "4XX": {"description": "refused: nothing was written", "content": json_content(error)},
        "503": {
            "description": "the ledger failed its integrity check, or the database is away",
            "content": json_content(error),
        },
    }


def parameter(name: str, schema: Schema, example: Any) -> Schema:
    return {"name": name, "in": "path", "required": True, "schema": schema, "example": example}


GAME = parameter("number", integer(1), 1)
CHALLENGE_ID = parameter("challenge_id", integer(1), 1)
BEARER: list[Schema] = [{"bearer": []}]
SESSION_OR_BEARER: list[Schema] = [{"bearer": []}, {"session": []}]


def operation(
    summary: str,
    answer: Schema,
    *,
    status: str = "200",
    body: Schema | None = None,
    example: Any = None,
    parameters: tuple[Schema, ...] = (),
    security: list[Schema] | None = BEARER,
    triplea: bool = False,
    retry: bool = False,
) -> Schema:
    op: Schema = {
        "summary": summary,
        "responses": answers(status, answer, summary, triplea=triplea),
        "parameters": list(parameters),
    }
    if retry:
        op["parameters"].append(
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "schema": text(),
                "description": "a retry with the same key and body returns the first answer",
            }
        )
    if body is not None:
        content = json_content(body)
        if example is not None:
            content["application/json"]["example"] = example
        if triplea:
            content["application/x-www-form-urlencoded"] = {"schema": body}
        op["requestBody"] = {"required": True, "content": content}
    op["security"] = security if security is not None else []
    return op


def sent_to_log_in(op: Schema) -> Schema:
    """A page's download: without a login, the answer is the way to the login page."""
    op["responses"]["302"] = {"description": "not logged in: to the login page"}
    return op


# --- The document -------------------------------------------------------------------------


def _entry_paths() -> dict[str, Schema]:
    paths: dict[str, Schema] = {}
    for api_path, kind in BY_API_PATH.items():
        paths[f"/api/v1/games/{{number}}/{api_path}"] = {
            "post": operation(
                f"{kind.title or kind.name}: a signed, timestamped {kind.name} entry",
                ref("SignedEntry"),
                status="201",
                body=KIND_BODIES.get(kind.name, ANY_OBJECT),
                example=KIND_EXAMPLES.get(kind.name, getattr(kind.form, "example", None)),
                parameters=(GAME,),
                retry=True,
            )
        }
    return paths


@cache
def document() -> Schema:
    """The OpenAPI document (built once per process: it depends on code alone)."""
    reader = "the game's players, its mentor, a minister"
    paths: dict[str, Schema] = {
        **_entry_paths(),
        "/api/v1/games/{number}/turns": {
            "post": operation(
                "A turn as the player wrote it: a submission entry and the engine's report "
                "(the player of the power to move)",
                obj(("entry", "report"), entry=ref("SignedEntry"), report=ANY_OBJECT),
                status="201",
                body=obj(("text",), text=text()),
                parameters=(GAME,),
                retry=True,
            )
        },
        "/api/v1/games/{number}/rulings": {
            "post": operation(
                "A minister's decision on a proposed ruling or a request",
                ref("SignedEntry"),
                status="201",
                body=RULING,
                parameters=(GAME,),
            )
        },
        "/api/v1/games/{number}/finish": {
            "post": operation(
                "The finish, posted by the victor (by the loser 7 days after the game ended)",
                ref("SignedEntry"),
                status="201",
                body=obj(winner=text(), reason=text()),
                parameters=(GAME,),
            )
        },
        "/api/v1/games/{number}/annulment": {
            "post": operation(
                "A player's agreement to annul the game; the second annuls it",
                ref("SignedEntry"),
                status="201",
                body=obj(reason=text()),
                parameters=(GAME,),
            )
        },
        "/api/v1/games/{number}/position": {
            "get": operation(
                f"The kept position and whose turn it is ({reader})",
                obj(("position", "turn"), position=ANY_OBJECT, turn=ANY_OBJECT),
                parameters=(GAME,),
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/games/{number}/battles": {
            "get": operation(
                f"The current turn's declared battles ({reader})",
                array(ANY_OBJECT),
                parameters=(GAME,),
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/games/{number}/ledger": {
            "get": operation(
                f"The game's ledger in seq order ({reader})",
                ref("Ledger"),
                parameters=(GAME,),
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/games/{number}/luck": {
            "get": operation(
                f"Each player's battle dice against the odds ({reader})",
                ANY_OBJECT,
                parameters=(GAME,),
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/members/me/luck": {
            "get": operation(
                "My battle dice against the odds over every game I played",
                ANY_OBJECT,
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/members/me/calendar": {
            "post": operation(
                "My calendar link (made on first use; renewed with renew: true)",
                obj(("url",), url=text()),
                body=obj(renew={"type": "boolean"}),
            )
        },
        "/api/v1/odds": {
            "post": operation(
                "The exact odds of a battle before it is rolled (members)",
                ANY_OBJECT,
                body=ODDS,
                example={
                    "kind": "land",
                    "attacker": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 2}],
                    "defender": [{"unit": "INF", "count": 3}],
                },
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/challenges": {
            "post": operation(
                "Issue a challenge with the challenger's bid (a confirmed member)",
                ANY_OBJECT,
                status="201",
                body=CHALLENGE,
                retry=True,
            ),
            "get": operation(
                "My challenges, sent and received, and the open challenges board",
                obj(
                    ("sent", "received", "open"),
                    sent=array(ANY_OBJECT),
                    received=array(ANY_OBJECT),
                    open=array(ANY_OBJECT),
                ),
                security=SESSION_OR_BEARER,
            ),
        },
        "/api/v1/challenges/{challenge_id}": {
            "get": operation(
                "One challenge (its players, mentor, a minister)",
                ANY_OBJECT,
                parameters=(CHALLENGE_ID,),
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/challenges/{challenge_id}/accept": {
            "post": operation(
                "Accept with one's own bid: the game is created (the opponent)",
                obj(("game",), game=integer(1)),
                status="201",
                body=obj(("bid",), bid=BID, message=text()),
                parameters=(CHALLENGE_ID,),
            )
        },
        "/api/v1/challenges/{challenge_id}/decline": {
            "post": operation(
                "Decline a challenge (the opponent)",
                ANY_OBJECT,
                body=obj(message=text()),
                parameters=(CHALLENGE_ID,),
            )
        },
        "/api/v1/challenges/{challenge_id}/cancel": {
            "post": operation(
                "Cancel one's challenge before it is answered (the challenger)",
                ANY_OBJECT,
                body=obj(message=text()),
                parameters=(CHALLENGE_ID,),
            )
        },
        "/api/v1/bids/check": {
            "post": operation(
                "A bid read and checked on the Classic opening; records nothing (members)",
                obj(
                    ("total", "value", "findings"),
                    total=integer(),
                    value=integer(),
                    findings=array(ANY_OBJECT),
                ),
                body=BID,
                example={"total": 9, "details": "3 G INF Ukraine"},
                security=SESSION_OR_BEARER,
            )
        },
        "/api/v1/ratings": {
            "get": operation("The league's ratings (public)", ANY_OBJECT, security=None)
        },
        "/api/v1/keys": {
            "get": operation(
                "The signing keys, old ones included (public)",
                obj(
                    ("keys",),
                    keys=array(
                        obj(("id", "alg", "public"), id=text(), alg=text("Ed25519"), public=text())
                    ),
                ),
                security=None,
            )
        },
        "/api/v1/openapi.json": {
            "get": operation("This document (public)", ANY_OBJECT, security=None)
        },
        "/healthz": {
            "get": operation(
                "The process answers and the database is reachable (public)",
                obj(("status",), status=text("ok")),
                security=None,
            )
        },
        "/api/roll": {
            "post": operation(
                "TripleA's dice server protocol: roll for a registered address (public)",
                obj(
                    ("status", "result"),
                    status=text("OK"),
                    result=obj(
                        ("dice", "signature", "date"),
                        dice=array(integer(1)),
                        signature=text(),
                        date=integer(),
                    ),
                ),
                body=TRIPLEA_ROLL,
                security=None,
                triplea=True,
            )
        },
        "/api/register": {
            "post": operation(
                "TripleA's dice server protocol: mail a link that registers an address",
                obj(("status", "result"), status=text("OK"), result=ANY_OBJECT),
                body=TRIPLEA_REGISTER,
                security=None,
                triplea=True,
            )
        },
        "/games/{number}/entries/{seq}.json": {
            "get": sent_to_log_in(
                operation(
                    f"One ledger entry as signed, a download for the pages ({reader})",
                    ref("SignedEntry"),
                    parameters=(GAME, parameter("seq", integer(1), 1)),
                    security=[{"session": []}],
                )
            )
        },
        "/tables/{public_id}/ledger.json": {
            "get": operation(
                "A TripleA dice table's ledger (anyone with its link)",
                ref("Ledger"),
                parameters=(parameter("public_id", text(), "unknown"),),
                security=None,
            )
        },
    }
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "PBEM league dice server",
            "version": "1",
            "description": (
                "Signed, hash-chained dice and turns for play-by-email games. Refusals are "
                '{"error", "field"?} with a 4xx status and write nothing.'
            ),
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": COMPONENTS,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the API token `pbem member add` printed",
                },
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "session",
                    "description": "a member logged in to the pages",
                },
            },
        },
    }
