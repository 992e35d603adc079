"""The player's time zone: found from what they type (a zone or a city), offered as a list the
browser searches as they type, and guessed from the browser where it runs the portal's script."""

from __future__ import annotations

from functools import lru_cache
from zoneinfo import available_timezones

from markupsafe import Markup, escape


@lru_cache(maxsize=1)
def zones() -> tuple[str, ...]:
    """Every zone a player may choose: the Area/City ones and UTC (not the old aliases like EST)."""
    return tuple(sorted(z for z in available_timezones() if "/" in z or z == "UTC"))


@lru_cache(maxsize=1)
def zone_list() -> Markup:
    """The <option>s of a <datalist> of every zone, made once (escaping some 400 names on every
    page was a third of the seat page's time). No value attributes: an option's value is its
    text, and the list is a third shorter without them."""
    return Markup("").join(Markup("<option>{0}</option>").format(escape(z)) for z in zones())


def _key(text: str) -> str:
    """How names are compared: case, underscores and runs of spaces do not matter."""
    return " ".join(text.replace("_", " ").split()).lower()


@lru_cache(maxsize=1)
def _by_name() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """What a player may type: a whole zone, or its city alone ("new york" names
    America/New_York; "georgetown" names two places, so neither)."""
    cities: dict[str, list[str]] = {}
    for zone in zones():
        cities.setdefault(_key(zone.rsplit("/", 1)[-1]), []).append(zone)
    return {_key(zone): zone for zone in zones()}, {city: tuple(found) for city, found in cities.items()}


def find_zone(typed: str) -> str | None:
    """The zone the player means, or None when the text names none, or more than one.

    Case does not matter, and a city alone will do ("tokyo", "New York", "sao_paulo")."""
    whole, cities = _by_name()
    key = _key(typed[:100])
    if key in whole:
        return whole[key]
    found = cities.get(key, ())
    return found[0] if len(found) == 1 else None
