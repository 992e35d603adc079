"""Imperials reports: the hex map draws any board safely and once per round; a report renders in
both modes; no seat's report, JSON or HTML, holds what only another seat may know."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from random import Random

import pytest
from gm_games.imperials import ruleset

from gm.clock import FixedClock
from gm.home import Home, create_home
from gm.render.environment import make_environment, package_templates_dir, render_report_html
from gm.render.hexmap import _drawing, hex_map, hex_picture, hex_svg
from gm.services import games, turns
from gm.services.reports import report_context
from gm.store import records
from gm.store.database import open_database

CLOCK = FixedClock(datetime(2026, 11, 24, 12, 0, tzinfo=UTC))


def board(**more) -> dict:
    return {
        "hexes": [
            {"col": 2, "row": 0, "fill": "#7fb069", "label": "A", "number": 6, "hot": True, "caption": "wood"},
            {"col": 1, "row": 1, "fill": "#aeb0ba", "label": "B", "number": 9, "caption": "ore"},
        ],
        "corners": [{"at": [2, 0, k], "text": str(k + 1)} for k in range(6)],
        **more,
    }


def svg_of(markup) -> str:
    match = re.fullmatch(
        r'<img class="hexmap" alt="the board" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)">', str(markup)
    )
    assert match, markup
    return base64.b64decode(match[1]).decode("utf-8")


def test_the_hex_map_is_an_svg_image_with_every_label():
    svg = svg_of(hex_map(board()))
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="hexmap"')
    assert svg.count("<polygon") == 2 and ">A</text>" in svg and ">6</text>" in svg
    assert all(f">{n}</text>" in svg for n in range(1, 7))
    assert 'stroke="#b71c1c"' in svg  # the 6 is marked red
    assert svg == hex_svg(board())


def test_the_hex_map_escapes_text_and_refuses_colours_that_are_not_colours():
    svg = svg_of(
        hex_map(
            board(pieces=[{"at": [2, 0, 1], "shape": "town", "colour": "url(file:///etc/passwd)", "text": "<b>&</b>"}])
        )
    )
    assert "<b>" not in svg and "&lt;b&gt;&amp;&lt;/b&gt;" in svg
    assert "passwd" not in svg and 'fill="#cccccc"' in svg


def test_the_same_board_is_drawn_once():
    _drawing.cache_clear()
    for _ in range(4):
        hex_map(board())
    assert (_drawing.cache_info().hits, _drawing.cache_info().misses) == (3, 1)


def test_the_board_picture_is_drawn_once_and_embedded_as_it_is(monkeypatch):
    """What the report shows: the same board as a palette PNG, drawn once for every seat of a
    round, which the render workers embed without decoding (gm.render.pdf.palette_image)."""
    import io

    from PIL import Image

    from gm.render import pictures as map_pictures
    from gm.render.pdf import palette_image

    drawn = []
    real = map_pictures._draw
    monkeypatch.setattr(map_pictures, "_draw", lambda svg, *size: drawn.append(svg) or real(svg, *size))
    monkeypatch.setattr(map_pictures, "_pictures", type(map_pictures._pictures)())
    pictures = {str(hex_picture(board())) for _ in range(4)}
    assert len(pictures) == 1 and drawn == [hex_svg(board())]
    url = re.fullmatch(
        r'<img class="hexmap" alt="The island: [^"]+" src="(data:image/png;base64,[A-Za-z0-9+/=]+)">', pictures.pop()
    )[1]
    assert palette_image(url) is not None
    picture = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")
    colours = {colour for _, colour in picture.getcolors(1 << 16)}

    def shown(fill):  # 256 colours: a flat fill comes back within a few levels
        return any(max(abs(a - b) for a, b in zip(colour, fill)) <= 8 for colour in colours)

    assert shown((0x7F, 0xB0, 0x69)) and shown((0xAE, 0xB0, 0xBA))  # both tiles' fills
    assert shown((0xB7, 0x1C, 0x1C))  # the 6 ringed in red


def game_in_play(tmp_path: Path, mode: str, rounds: int):
    home = Home(tmp_path / "home")
    create_home(home)
    db = open_database(home.database)
    games.create_game(db, CLOCK, "g", "imperials", None, 7, options={"mode": mode})
    for name in ("Ann", "Bob", "Cy"):
        games.join_game(db, CLOCK, "g", f"{name.lower()}@example.org", name)
    for _ in range(rounds + 1):
        turns.run_turn(db, home, CLOCK, "g")
    game = records.game_by_name(db, "g")
    return db, game, records.seats_of(db, game.id), records.turns_of(db, game.id, 0)


@pytest.mark.parametrize("mode", ["basic", "wonders"])
def test_no_report_holds_another_seat_s_hand(tmp_path, mode):
    db, game, seats, stored = game_in_play(tmp_path, mode, 6)
    env = make_environment(None, [package_templates_dir("gm_games.imperials.templates")])
    for before, turn in zip(stored[-3:], stored[-2:]):
        for secret in seats:
            variant = dataclasses.replace(turn, state=ruleset.hidden_variant(turn.state, secret.code, Random(1)))
            for seat in seats:
                if seat.code == secret.code:
                    continue
                context = report_context(game, ruleset, turn, seat, seats, None, before.state)
                other = report_context(game, ruleset, variant, seat, seats, None, before.state)
                assert json.dumps(context, sort_keys=True) == json.dumps(other, sort_keys=True)
                assert render_report_html(env, context) == render_report_html(env, other)
                assert all(
                    e["data"].get("seat") != secret.code
                    or e["kind"] not in ("card_drawn", "discard_cards", "card_dropped")
                    for e in context["events"]
                )
    db.conn.close()


def test_a_seat_s_own_report_shows_its_hand_and_costs(tmp_path):
    db, game, seats, stored = game_in_play(tmp_path, "basic", 3)
    env = make_environment(None, [package_templates_dir("gm_games.imperials.templates")])
    seat = seats[0]
    context = report_context(game, ruleset, stored[-1], seat, seats, None, stored[-2].state)
    hand = stored[-1].state["seats"][seat.code]["hand"]
    assert context["view"]["you"]["hand"] == [
        {"good": g, "count": hand[g]} for g in ("wood", "brick", "wool", "wheat", "ore")
    ]
    html = render_report_html(env, context)
    assert "your hand" in html and "The dice this round" in html and 'class="hexmap"' in html
    assert "Victory points (first to 10 in their own turn wins; last round 100)" in html
    db.conn.close()
