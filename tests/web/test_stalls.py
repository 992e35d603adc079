"""Clients that stall cost the portal no worker: 50 uploads that announce a body and send nothing,
and 20 that send their headers a piece at a time, while a player signs in and submits. Real
`gm serve` on loopback."""

from __future__ import annotations

import resource
import socket
import time
from urllib.parse import urlencode

import pytest

from tests.web.test_workers import Served, csrf, request, session_cookie


def stalled_upload(port: int) -> socket.socket:
    """A connection that sends a POST's headers with a Content-Length, then nothing."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        b"POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 5000\r\n\r\ncsrf="
    )
    return sock


def slow_headers(port: int) -> socket.socket:
    """A connection that has sent half of its headers (a slowloris)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
    return sock


def sign_in_and_submit(server: Served, seat: str, secret: str) -> None:
    connection = server.connect()
    connection.timeout = 5
    connection.sock.settimeout(5)
    response, page = request(connection, "GET", "/")
    cookie = session_cookie(response)
    form = urlencode({"csrf": csrf(page), "game": "g1", "seat": seat, "secret": secret}).encode()
    response, _ = request(connection, "POST", "/sign-in", cookie, form, "application/x-www-form-urlencoded")
    assert response.status == 303
    cookie = session_cookie(response)
    response, page = request(connection, "GET", "/", cookie)
    orders = f"GAME g1\nPLAYER {seat}\nPASSWORD <your secret>\nTURN 1\nCLAIM ENG SCO WAL\nEND\n"
    form = urlencode({"csrf": csrf(page), "orders": orders, "action": "submit"}).encode()
    response, page = request(connection, "POST", "/orders", cookie, form, "application/x-www-form-urlencoded")
    assert response.status == 200 and "<h2>Submitted</h2>" in page
    connection.close()


@pytest.mark.slow
def test_stalled_uploads_and_slow_headers_leave_the_portal_to_players(home, game):
    settings = home / "gm.toml"
    # A player starved by the stalls would wait for them to end (body_seconds); the bound below
    # is under it, and far above what a sign-in takes on a loaded machine.
    settings.write_text(settings.read_text().replace("[portal]\n", "[portal]\nbody_seconds = 10\n", 1))
    server = Served(home)
    stalls = [stalled_upload(server.port) for _ in range(50)]
    slow = [slow_headers(server.port) for _ in range(20)]
    try:
        time.sleep(0.5)  # every stalled request has reached a worker
        began = time.monotonic()
        sign_in_and_submit(server, "BR", game["BR"])
        assert time.monotonic() - began < 8
        # The stalled uploads end with 408 once their body is late, and the connection closes.
        for sock in stalls:
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    finally:
        for sock in stalls + slow:
            sock.close()
        server.stop()


def raw_answer(port: int, data: bytes) -> bytes:
    """Everything the server answers to `data` on a new connection, until it closes it or 20 s
    pass (a third of body_seconds' 60: an answer that waited for the body comes later)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and b"</html>" in answer:
                    break
        except TimeoutError:
            pass
    return answer


def test_bodies_too_large_without_a_length_or_cut_short_are_not_served(home, game):
    server = Served(home)
    try:
        port = server.port
        # A Content-Length over the limit: 413 at once, without waiting for (or reading) the body.
        began = time.monotonic()
        answer = raw_answer(
            port,
            b"POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
            b"boundary=x\r\nContent-Length: 50000000\r\n\r\n--x\r\n",
        )
        assert answer.startswith(b"HTTP/1.1 413 ") and b"a turn file may be at most" in answer
        assert time.monotonic() - began < 20  # not after body_seconds (60): without reading the body
        # A chunked body: 411, since one that breaks off could not be told from a whole one.
        small = b"game=g1&seat=BR"
        answer = raw_answer(
            port,
            b"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/"
            b"x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n%s\r\n0\r\n\r\n"
            % (len(small), small),
        )
        assert answer.startswith(b"HTTP/1.1 411 ")
        # A client that goes away halfway through its body: nothing reaches the app, nothing is logged.
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\ngame=g1")
            time.sleep(0.3)
        time.sleep(0.3)
        sign_in_and_submit(server, "BR", game["BR"])
    finally:
        out = server.stop()
    assert "Traceback" not in out and "exception" not in out, out


@pytest.mark.slow
def test_connections_that_send_nothing_do_not_keep_players_out(home, game):
    """A worker took at most 512 connections at once (granian's default: backlog / workers), and
    left the rest in the kernel's queue until one closed: 1,500 connections that sent nothing
    (opened in half a second, and again each time the server drops them after 30 s) kept a
    player out. Now a worker holds as many as its open files allow (MOST_CONNECTIONS at most)."""
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 4096:
        pytest.skip("this machine allows fewer open files than the test's connections")
    server = Served(home)
    idle = []
    try:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(2300)]
        time.sleep(0.5)  # every connection accepted by a worker
        sign_in_and_submit(server, "BR", game["BR"])  # kept out, a request times out after 5 s
    finally:
        for sock in idle:
            sock.close()
        server.stop()
