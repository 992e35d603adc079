"""Placeholder."""
def view(state, seat): return {"ruleset": "mcempires", "title": state["title"], "seat": seat, "seats": []}
def order_form(state, seat): return []
def turn_label(state): return f"Round {state['round']}"
def hidden_variant(state, seat, rng): return state
