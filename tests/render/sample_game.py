"""A realistic fake Clash game (4 seats, 24 territories) for report tests, goldens and the bench."""

from __future__ import annotations

SEATS = [
    # code, player, nation, colour, money, vp
    ("BR", "Alice", "Britain", "#c8553d", 14, 3),
    ("FR", "Bruno", "France", "#3d7ec8", 9, 2),
    ("DE", "Clara", "Germany", "#e0b040", 11, 3),
    ("RU", "Dmitri", "Russia", "#4f9d69", 6, 1),
]
COLOURS = {code: colour for code, _, _, colour, _, _ in SEATS}
NEUTRAL_COLOUR = "#cfc8b8"
SCORE_TITLE = {"title": "Victory points", "column": "VP"}  # what Clash's scores count
UNOWNED_COLOUR = "#f7f5ef"

TERRITORIES = [
    # code, name, x, y, owner, troops, core_of
    ("IRE", "Ireland", 120, 210, "BR", 2, None),
    ("EDI", "Edinburgh", 245, 110, "BR", 3, "BR"),
    ("YOR", "York", 300, 190, "BR", 2, None),
    ("WAL", "Wales", 205, 265, "BR", 1, None),
    ("LON", "London", 300, 290, "BR", 5, "BR"),
    ("BRE", "Brest", 215, 395, "BR", 3, None),
    ("PAR", "Paris", 345, 410, "FR", 4, "FR"),
    ("BUR", "Burgundy", 440, 440, "FR", 3, None),
    ("GAS", "Gascony", 270, 510, "FR", 2, None),
    ("MAR", "Marseille", 420, 560, "FR", 3, "FR"),
    ("SPA", "Spain", 185, 630, "FR", 1, None),
    ("HOL", "Holland", 420, 300, "DE", 2, None),
    ("RUH", "Ruhr", 475, 370, "DE", 3, None),
    ("KIE", "Kiel", 500, 230, "DE", 2, None),
    ("BER", "Berlin", 590, 265, "DE", 4, "DE"),
    ("MUN", "Munich", 545, 440, "DE", 3, "DE"),
    ("SIL", "Silesia", 660, 350, "DE", 2, None),
    ("SWE", "Sweden", 610, 100, None, 0, None),
    ("ITA", "Rome", 590, 580, "neutral", 2, None),
    ("STP", "St Petersburg", 800, 95, "RU", 3, "RU"),
    ("WAR", "Warsaw", 740, 270, "RU", 4, None),
    ("MOS", "Moscow", 890, 215, "RU", 5, "RU"),
    ("UKR", "Ukraine", 820, 400, "RU", 2, None),
    ("SEV", "Sevastopol", 905, 540, "RU", 2, None),
]

BORDERS = """
IRE-EDI IRE-WAL EDI-YOR YOR-LON YOR-WAL WAL-LON LON-BRE LON-HOL WAL-BRE
BRE-PAR BRE-GAS PAR-BUR PAR-GAS PAR-HOL GAS-MAR GAS-SPA SPA-MAR MAR-BUR MAR-ITA
BUR-RUH BUR-MUN HOL-RUH HOL-KIE RUH-KIE RUH-MUN KIE-BER KIE-SWE BER-SWE BER-SIL BER-MUN
MUN-SIL MUN-ITA SIL-WAR SIL-UKR SWE-STP STP-MOS STP-WAR WAR-MOS WAR-UKR MOS-UKR UKR-SEV MOS-SEV ITA-SEV
"""

ORDER_FORM = """GAME clash-1
PLAYER {seat}
PASSWORD ________
TURN {turn}
# One order per line, for example:
#   MOVE LON BRE 3      (move 3 troops from London to Brest)
#   ATTACK BRE PAR 2    (attack Paris from Brest with 2 troops)
#   RECRUIT LON 2       (2 troops in London, 2 money each)

END"""


def neighbours() -> dict[str, list[str]]:
    links: dict[str, list[str]] = {t[0]: [] for t in TERRITORIES}
    for pair in BORDERS.split():
        a, b = pair.split("-")
        links[a].append(b)
        links[b].append(a)
    return {code: sorted(codes) for code, codes in links.items()}


def clash_view(seat: str = "BR", turn: int = 5, outcome: dict | None = None) -> dict:
    """The Clash view of `seat` at `turn`; troops drift a little with the turn so reports differ."""
    links = neighbours()
    territories = []
    for code, name, x, y, owner, troops, core_of in TERRITORIES:
        if owner not in (None, "neutral"):
            troops += (turn + len(code) + ord(code[0])) % 3
        colour = COLOURS.get(owner, NEUTRAL_COLOUR if owner == "neutral" else UNOWNED_COLOUR)
        territories.append(
            {
                "code": code,
                "name": name,
                "x": x,
                "y": y,
                "neighbours": links[code],
                "owner": owner,
                "troops": troops,
                "core_of": core_of,
                "colour": colour,
            }
        )
    seats = []
    for code, player, nation, colour, money, vp in SEATS:
        held = [t for t in territories if t["owner"] == code]
        seats.append(
            {
                "code": code,
                "name": player,
                "nation": nation,
                "colour": colour,
                "money": money + turn % 4,
                "vp": vp,
                "territories": len(held),
                "troops": sum(t["troops"] for t in held),
            }
        )
    mine = next(s for s in seats if s["code"] == seat)
    you = {
        "code": seat,
        "name": mine["name"],
        "nation": mine["nation"],
        "colour": mine["colour"],
        "money": mine["money"],
        "vp": mine["vp"],
        "core": [t["code"] for t in territories if t["core_of"] == seat],
        "territories": [
            {"code": t["code"], "name": t["name"], "troops": t["troops"], "neighbours": t["neighbours"]}
            for t in territories
            if t["owner"] == seat
        ],
    }
    round_ = (turn + 1) // 2
    return {
        "ruleset": "clash",
        "title": "Clash of Empires: Europe",
        "seat": seat,
        "phase": "orders",
        "round": round_,
        "rounds": 30,
        "turn_label": f"Round {round_} of 30",
        "map": {"width": 1000, "height": 700, "territories": territories},
        "seats": seats,
        "you": you,
        "order_of_play": ["DE", "BR", "RU", "FR"],
        "outcome": outcome,
        "known": known(territories, seats, seat),
    }


def known(territories: list[dict], seats: list[dict], seat: str) -> dict:
    """What the seat sees of the others, as the Clash view lists it (gm_games.clash.view.known)."""
    from gm_games.clash.view import KNOWN_COLUMNS

    from gm.core.known import NOBODY, Sighting, listing
    from gm.core.names import named

    nations = {s["code"]: named(s["nation"], s["code"]) for s in seats}
    mine = {t["code"] for t in territories if t["owner"] == seat}
    sightings = [
        Sighting(
            t["code"],
            t["name"],
            t["owner"] or NOBODY,
            (t["troops"], nations.get(t["core_of"], ""), " ".join(n for n in t["neighbours"] if n in mine)),
        )
        for t in territories
        if t["code"] not in mine
    ]
    return listing(
        "Every territory you see",
        "Territory",
        ("territory", "territories"),
        KNOWN_COLUMNS,
        sightings,
        [s["code"] for s in seats],
        {"neutral": "Neutral troops", NOBODY: "Empty"},
    )


def events() -> list[dict]:
    return [
        {
            "kind": "roll",
            "data": {"text": "The order of play was rolled: Germany goes first.", "die": 5},
            "public": True,
        },
        {"kind": "income", "data": {"text": "Britain collected 7 money from 6 territories."}, "public": False},
        {"kind": "recruit", "data": {"text": "Britain recruited 2 troops in London."}, "public": False},
        {
            "kind": "battle",
            "data": {
                "text": "Britain attacked Brest from London and took it.",
                "attacker": "BR",
                "defender": "FR",
                "from": "LON",
                "to": "BRE",
                "attacking": 6,
                "defending": 3,
                "attacker_losses": 1,
                "defender_losses": 3,
                "captured": True,
            },
            "public": True,
        },
        {
            "kind": "battle",
            "data": {
                "text": "Germany attacked Warsaw from Silesia and was thrown back.",
                "attacker": "DE",
                "defender": "RU",
                "from": "SIL",
                "to": "WAR",
                "attacking": 3,
                "defending": 4,
                "attacker_losses": 2,
                "defender_losses": 1,
                "captured": False,
            },
            "public": True,
        },
        {"kind": "move", "data": {"text": "France moved 2 troops from Paris to Burgundy."}, "public": True},
        {
            "kind": "vp",
            "data": {"text": "Britain scored 1 victory point for holding Brest at the census."},
            "public": False,
        },
    ]


def scores(view: dict) -> list[dict]:
    rows = [{"seat": s["code"], "name": s["name"], "nation": s["nation"], "score": s["vp"]} for s in view["seats"]]
    return sorted(rows, key=lambda row: (-row["score"], row["seat"]))


def report_context(
    seat: str = "BR", turn: int = 5, deadline: str | None = "2026-11-27 18:00 UTC", outcome: dict | None = None
) -> dict:
    """The context services build for report.html, exactly as the brief of gm.render describes it."""
    view = clash_view(seat, turn, outcome)
    return {
        "game": {"name": "clash-1", "title": "Clash of Empires: Europe", "ruleset": "clash"},
        "turn": turn,
        "turn_label": view["turn_label"],
        "next_label": "the next round",
        "seat": seat,
        "player": next(s["name"] for s in view["seats"] if s["code"] == seat),
        "deadline": deadline,
        "created": "2026-11-21T19:00:00Z",
        "view": view,
        "events": events(),
        "scores": scores(view),
        "score_title": SCORE_TITLE,
        "order_form": ORDER_FORM.format(seat=seat, turn=turn + 1),
        "outcome": outcome,
    }


FINAL_OUTCOME = {
    "winners": ["BR", "DE"],
    "reason": "most victory points after round 30",
    "scores": {"BR": 9, "DE": 9, "FR": 6, "RU": 4},
}


def standings_context() -> dict:
    rows = [{"seat": s[0], "name": s[1], "nation": s[2], "score": FINAL_OUTCOME["scores"][s[0]]} for s in SEATS]
    return {
        "game": {"name": "clash-1", "title": "Clash of Empires: Europe", "ruleset": "clash"},
        "turns": 60,
        "created": "2027-03-02T18:00:00Z",
        "outcome": FINAL_OUTCOME,
        "scores": sorted(rows, key=lambda row: (-row["score"], row["seat"])),
        "score_title": SCORE_TITLE,
    }


def endgame_context(seat: str = "DE", status: str = "active", awarded: int = 3, now: int = 9) -> dict:
    """The end-of-game report's context (gm/services/endgame.py gives the real one): a tied
    winner, short of credits, whose prize was capped, with the house's prize table; or a seat
    that dropped out and forfeited its discount."""
    standings = standings_context()
    player, nation = next((s[1], s[2]) for s in SEATS if s[0] == seat)
    rows = [{**row, "status": "dropped" if row["seat"] == "RU" else "active"} for row in standings["scores"]]
    return {
        **standings,
        "scores": rows,
        "seat": seat,
        "player": player,
        "email": f"{player.lower()}@example.org",
        "nation": nation,
        "won": seat in FINAL_OUTCOME["winners"],
        "status": status,
        "condition": "points",
        "discount": {
            "now": now,
            "awarded": awarded,
            "earned": 4,
            "table": {"win": 4, "finish": 1, "knockout": 1, "by_condition": {"runaway": 6}},
            "cap": 10,
            "bonus_from": 10,
        },
        "credits": {"left": -1},
        "slip": {"days": 14, "default": "join"},
    }
