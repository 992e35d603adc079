"""No mail goes to an .invalid address (RFC 2606), where robots, the demo's seats and forgotten
players stand; gm asks gm.mail.settings.mailable before queueing any."""

from __future__ import annotations

from gm.mail.settings import mailable
from gm.services.demo import ROBOT_DOMAIN
from gm.services.erasure import PSEUDONYM_DOMAIN
from gm.services.games import ROBOT_EMAIL


def test_only_an_address_at_invalid_is_not_mailed():
    assert mailable("ann@example.org") and mailable("invalid@example.org") and mailable("x@invalid.example")
    for address in (ROBOT_EMAIL, "br" + ROBOT_DOMAIN, "p7@" + PSEUDONYM_DOMAIN, "Bob@Robots.INVALID"):
        assert not mailable(address), address
