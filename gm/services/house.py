"""What the house tells its players about itself: where its portal is, what turn credits cost
and how to pay for them (gm.toml's [portal] base_url and [credits])."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from gm.core.model import JSONObject
from gm.home import Home
from gm.mail.settings import mail_settings

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Paying:
    """How a player buys turn credits, as the house tells it in a held notice and on the portal.

    price: the GM's words for the price ([credits] price, "" when not set).
    how: the GM's words for how to pay ([credits] how_to_pay, "" when not set: then the player
        is told to ask the GM).
    gm_address: where to write about it (the [mail] address; "" in a home that mails nothing).
    portal: the portal's address when players can reach it, else None.
    """

    price: str
    how: str
    gm_address: str
    portal: str | None

    def to_json(self) -> JSONObject:
        return {"price": self.price, "how": self.how, "gm_address": self.gm_address, "portal": self.portal}


def portal_address(home: Home) -> str | None:
    """The portal's address as players reach it, or None when the house has none they can reach:
    [portal] base_url empty, not a web address, or on this machine only (the default, loopback)."""
    base: str = home.setting("portal", "base_url", DEFAULT_BASE_URL).strip().rstrip("/")
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.hostname == "localhost":
        return None
    try:
        if ipaddress.ip_address(parts.hostname).is_loopback:
            return None
    except ValueError:
        pass  # a name, not an address: players reach it
    return base


def paying(home: Home) -> Paying:
    """The house's words on buying turn credits."""
    return Paying(
        price=" ".join(home.setting("credits", "price", "").split()),
        how=" ".join(home.setting("credits", "how_to_pay", "").split()),
        gm_address=mail_settings(home).address,
        portal=portal_address(home),
    )
