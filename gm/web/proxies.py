"""The client's address behind a reverse proxy: taken from X-Forwarded-For only when the request
comes from a proxy the GM trusts, so the limits per client address count each player, not the
proxy, and a client elsewhere cannot pass for another address."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

from werkzeug.middleware.proxy_fix import ProxyFix

from gm.errors import GMError

if TYPE_CHECKING:  # _typeshed is for type checkers only: it is not there at run time
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = ["127.0.0.1", "::1"]  # where `gm serve` listens by default, behind a proxy on the same machine


def trusted_networks(values: Iterable[object], where: str) -> tuple[Network, ...]:
    """The GM's `[portal] trusted_proxies` (addresses or networks like "10.0.0.0/8"), checked."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(str(value), strict=False))
        except ValueError:
            raise GMError(
                f"{where}: [portal] trusted_proxies holds {value!r}, which is not an address "
                'or a network such as "127.0.0.1" or "10.0.0.0/8". Fix the file and try again.'
            ) from None
    return tuple(networks)


def client_of(address: str | None) -> str:
    """The client a limit per client address counts: an IPv4 address itself; an IPv6 address by
    its /64, the network one home line or one rented server is given (every one of its 2**64
    addresses is the same client, and changing address costs it nothing); an IPv4 address written
    as IPv6 (::ffff:a.b.c.d) as that IPv4 address."""
    text = address or ""
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])  # (a zone, fe80::1%eth0, names no other client)
    except ValueError:
        return text  # (no address from the server: one client all the same)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class ClientAddress:
    """WSGI middleware: a request from a trusted proxy gets the address the proxy put last in
    X-Forwarded-For (the client it saw; werkzeug's ProxyFix with one hop) as REMOTE_ADDR; any
    other request keeps the address it came from, whatever headers it sends."""

    def __init__(self, app: WSGIApplication, trusted: tuple[Network, ...]):
        self.app = app
        self.forwarded = ProxyFix(app, x_for=1, x_proto=0, x_host=0, x_port=0, x_prefix=0)
        self.trusted = trusted

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if self.trusted and self._from_trusted(environ.get("REMOTE_ADDR", "")):
            return self.forwarded(environ, start_response)
        return self.app(environ, start_response)

    def _from_trusted(self, address: str) -> bool:
        try:
            peer = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(peer in network for network in self.trusted)
