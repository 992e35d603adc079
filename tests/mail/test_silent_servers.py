"""A mail server that takes the connection and never answers is given up after [smtp] or
[imap] timeout (60 s unless gm.toml says otherwise): a silent peer on loopback with a timeout
of 1 s, and the 60 s that gm.toml as gm init writes leaves them, read where the connection is
opened. A connection opened without a timeout fails these tests at once rather than hanging."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from gm.errors import GMError
from gm.home import Home
from gm.intake.imap import ImapSource, imap_settings
from gm.mail.senders import smtp_connection
from gm.mail.settings import server_settings
from tests.intake.mails import configure


@pytest.fixture
def silent() -> Iterator[int]:
    """A port on loopback whose connections the kernel takes (the backlog) and nobody answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield listener.getsockname()[1]
    listener.close()


class Timeouts(list):
    """The timeout each connection is opened with; one opened without a timeout is refused.
    connect: make the connection (else it fails at once, its timeout seen, not waited for)."""

    connect = True


@pytest.fixture
def timeouts(monkeypatch) -> Timeouts:
    asked = Timeouts()
    real = socket.create_connection

    def create_connection(address, timeout=None, *args, **kwargs):
        asked.append(timeout)
        if not isinstance(timeout, (int, float)):
            raise AssertionError(f"a connection to {address} opened without a timeout would wait for ever")
        if not asked.connect:
            raise OSError("not connected: the test reads the timeout only")
        return real(address, timeout, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return asked


def _with_timeout(home, section: str, seconds: int | None) -> None:
    """gm.toml's [section] pointed at the silent port, with `timeout = seconds` (None: not set)."""
    path = home / "gm.toml"
    line = "" if seconds is None else f"timeout = {seconds}\n"
    path.write_text(path.read_text().replace(f"[{section}]\n", f"[{section}]\n{line}", 1))


@pytest.mark.parametrize("seconds", [1, None])
def test_a_silent_smtp_server_is_given_up_after_its_timeout(home, silent, timeouts, seconds):
    configure(home, {"smtp.host": "127.0.0.1", "smtp.port": silent, "smtp.security": "none"})
    _with_timeout(home, "smtp", seconds)
    server = server_settings(Home(home), "smtp", 587, "starttls")
    timeouts.connect = seconds is not None  # 60 s: seen, not waited for
    with pytest.raises(GMError) as failed:
        smtp_connection(server, sending=True)
    assert timeouts == [seconds or 60]
    if seconds:
        assert (
            f"cannot reach the SMTP server 127.0.0.1:{silent} (Connection unexpectedly closed: timed out); nothing was sent"
            in str(failed.value)
        )


@pytest.mark.parametrize("seconds", [1, None])
def test_a_silent_imap_server_is_given_up_after_its_timeout(home, silent, timeouts, seconds):
    configure(home, {"imap.host": "127.0.0.1", "imap.port": silent, "imap.security": "none"})
    _with_timeout(home, "imap", seconds)
    server, place = imap_settings(Home(home))
    timeouts.connect = seconds is not None
    with pytest.raises(GMError) as failed:
        with ImapSource(server, place):
            pass
    assert timeouts == [seconds or 60]
    if seconds:
        assert f"cannot reach the IMAP server 127.0.0.1:{silent} (timed out)" in str(failed.value)
