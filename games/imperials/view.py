"""What one seat sees of an Imperials game (placeholder while the report is built)."""
from __future__ import annotations


def turn_label(state: dict) -> str:
    if state["phase"] == "setup":
        return "Set-up: villages and roads"
    if state["phase"] == "over":
        return "Game over"
    return f"Round {state['round']}"


def view(state: dict, seat: str) -> dict:
    return {"ruleset": "imperials", "title": state["title"], "seat": seat,
            "seats": [{"code": c, "name": s["name"], "colour": s["colour"]} for c, s in state["seats"].items()]}


def order_form(state: dict, seat: str) -> list[str]:
    return []
