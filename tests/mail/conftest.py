"""A real SMTP server on loopback (aiosmtpd with STARTTLS and AUTH) for the tests of 'gm mail send'."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
from dataclasses import dataclass, field

import pytest

SMTP_USER, SMTP_PASSWORD = "gm", "smtp-test-password"


def free_port() -> int:
    # aiosmtpd cannot be told port 0 and report the port it got, so pick a free one first.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Delivered:
    mail_from: str
    rcpt_tos: list
    content: bytes


@dataclass
class Handler:
    """Keeps each delivered mail; answers RCPT for an address from `answers` (code and text) when told to."""

    delivered: list = field(default_factory=list)
    answers: dict = field(default_factory=dict)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        answer = self.answers.get(address)
        if answer:
            return answer.pop(0) if isinstance(answer, list) else answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.delivered.append(Delivered(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 Message accepted for delivery"


@dataclass
class SmtpServer:
    port: int
    ca_file: str
    handler: Handler

    def settings(self) -> dict:
        """The gm.toml settings that make gm send through this server."""
        return {
            "mail.transport": "smtp",
            "smtp.host": "127.0.0.1",
            "smtp.port": self.port,
            "smtp.security": "starttls",
            "smtp.user": SMTP_USER,
            "smtp.password_env": "GM_TEST_SMTP_PASSWORD",
            "smtp.ca_file": self.ca_file,
        }


def _authenticate(server, session, envelope, mechanism, auth_data):
    from aiosmtpd.smtp import AuthResult

    ok = auth_data.login == SMTP_USER.encode() and auth_data.password == SMTP_PASSWORD.encode()
    return AuthResult(success=ok, handled=False)  # handled=False: the server answers 535 itself


@pytest.fixture(scope="session")
def smtp_server(tmp_path_factory):
    """aiosmtpd on 127.0.0.1 with a throw-away certificate: STARTTLS and AUTH required."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test server's certificate")
    from aiosmtpd.controller import Controller

    folder = tmp_path_factory.mktemp("smtp")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    handler = Handler()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=free_port(),
        tls_context=context,
        require_starttls=True,
        authenticator=_authenticate,
        auth_require_tls=True,
    )
    controller.start()
    yield SmtpServer(controller.port, str(cert), handler)
    controller.stop()


@pytest.fixture
def smtp(smtp_server, monkeypatch):
    """The session's SMTP server, emptied, with the password in the environment."""
    smtp_server.handler.delivered.clear()
    smtp_server.handler.answers.clear()
    monkeypatch.setenv("GM_TEST_SMTP_PASSWORD", SMTP_PASSWORD)
    return smtp_server
