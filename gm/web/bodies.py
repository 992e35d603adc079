"""What granian calls: read a request's whole body on the event loop, with a deadline, then answer it
with the Flask app (a page on the loop, a form in a thread).

granian's own WSGI interface hands a request to a Python thread as soon as its headers are in, and
the thread then waits for the body for as long as the client likes (granian has no time limit for
bodies: emmett-framework/granian#728): a few clients that announce a body and send nothing held
every thread of every worker. Here granian serves RSGI, its native asynchronous interface: the body
arrives on the worker's event loop, where a stalled one costs a coroutine and no thread, and only a
request whose body is complete reaches the app. A body not complete `deadline` seconds after its
headers is answered 408 and its connection closed; one larger than the app accepts is not read at
all and the app answers 413 from its length; a body without a length (chunked) gets 411.
"""

from __future__ import annotations

import asyncio
import io
import logging
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

# granian.rsgi is where granian names these for RSGI apps, as aliases of its Rust module's classes
# that it leaves out of an __all__, so mypy takes them for private imports.
from granian.rsgi import HTTPProtocol, ProtocolClosed, ProtocolError, Scope  # type: ignore[attr-defined]

if TYPE_CHECKING:  # _typeshed is for type checkers only: it is not there at run time
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import WSGIApplication, WSGIEnvironment

log = logging.getLogger("gm.web")

_LATE = (
    b"The request took too long to arrive. Try again; if it happens again, send your orders as "
    b"a smaller file or by mail."
)
_NO_LENGTH = b"Send the request with a Content-Length (a browser does)."
_PLAIN = [("content-type", "text/plain; charset=utf-8"), ("connection", "close"), ("cache-control", "no-store")]
# Bodies of these methods are not read (a GET with a body is answered as if it had none).
_NO_BODY = frozenset({"GET", "HEAD", "OPTIONS"})


class WholeBodies:
    """An RSGI app for granian around a WSGI app: the body first, read on the loop within
    `deadline` seconds and at most `max_body` bytes, then the WSGI app, on the loop for a page and
    in one of `threads` threads of this worker for a form."""

    def __init__(self, app: WSGIApplication, threads: int, deadline: float, max_body: int):
        self.app, self.threads, self.deadline, self.max_body = app, threads, deadline, max_body
        self._pool: ThreadPoolExecutor | None = None

    def __rsgi_init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # In the worker, after the fork: threads do not survive a fork, so the pool starts here.
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="gm-portal")

    def __rsgi_del__(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    async def __rsgi__(self, scope: Scope, protocol: HTTPProtocol) -> None:
        if scope.proto != "http":
            return  # websockets are off in gm serve
        body: bytes | None = b""
        if scope.method not in _NO_BODY:
            length: str | None = scope.headers.get("content-length")
            if length is None and "transfer-encoding" in scope.headers:
                # A chunked body that breaks off cannot be told from a whole one here; browsers
                # (and proxies) send a form with its length.
                protocol.response_bytes(411, _PLAIN, _NO_LENGTH)
                return
            try:
                async with asyncio.timeout(self.deadline):
                    body = await self._body(length, protocol)
            except TimeoutError:
                protocol.response_bytes(408, _PLAIN, _LATE)
                return
            except (ProtocolClosed, ProtocolError):
                return  # the client went away before its body was in: nobody to answer
        environ = wsgi_environ(scope, body or b"")
        if body is None:  # over the limit: the app answers 413 from the length alone
            environ["CONTENT_LENGTH"] = str(self.max_body + 1)
        try:
            if scope.method in _NO_BODY:
                # A page only reads (the database, templates: no waiting on the disk), so it is
                # made here on the loop, sparing two hand-overs between threads.
                status, headers, content = self._answer(environ)
            else:
                # A form may write (a submission is synced to disk) or check a secret with scrypt:
                # in a thread, so the loop and the other thread go on meanwhile.
                status, headers, content = await asyncio.get_running_loop().run_in_executor(
                    self._pool, self._answer, environ
                )
        except Exception:  # the app answers its own errors; this is a bug below it: say so, keep serving
            log.exception("portal bug under %s %s", scope.method, scope.path)
            protocol.response_bytes(500, _PLAIN[:1], b"The portal hit a bug. Tell your GM.")
            return
        protocol.response_bytes(status, headers, content)

    async def _body(self, length: str | None, protocol: HTTPProtocol) -> bytes | None:
        """The whole body (b"" when none is announced); None, unread, when its announced length
        is over the limit or not a number."""
        if length is None:
            return b""
        if not (length.isascii() and length.isdigit()) or int(length) > self.max_body:
            return None
        return await protocol() if int(length) else b""

    def _answer(self, environ: WSGIEnvironment) -> tuple[int, list[tuple[str, str]], bytes]:
        """Runs the WSGI app in a pool thread: (status, headers, the whole answer)."""
        started: list[tuple[str, list[tuple[str, str]]]] = []
        written: list[bytes] = []

        def start_response(
            status: str,
            headers: list[tuple[str, str]],
            exc_info: OptExcInfo | None = None,
        ) -> Callable[[bytes], object]:
            if exc_info is not None and exc_info[1] is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [(status, headers)]
            return written.append

        result = self.app(environ, start_response)
        try:
            written.extend(result)  # a page is one list already; a report file, its blocks
        finally:
            if hasattr(result, "close"):
                result.close()
        status, headers = started[0]
        return int(status[:3]), headers, b"".join(written)


_HTTP_NAMES: dict[str, str] = {}


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environment (PEP 3333) of an RSGI request whose body has been read."""
    host, _, port = scope.server.rpartition(":")
    client = scope.client.rpartition(":")[0]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        # granian gives the path percent-decoded as text; WSGI wants its bytes as latin-1.
        "PATH_INFO": scope.path.encode("utf-8", "surrogateescape").decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": host.strip("[]"),
        "SERVER_PORT": port,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client.strip("[]"),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for name, value in scope.headers.items():
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        elif name == "content-length":
            environ["CONTENT_LENGTH"] = value
        else:
            key = _HTTP_NAMES.get(name)
            if key is None:
                key = "HTTP_" + name.upper().replace("-", "_")
                if len(_HTTP_NAMES) < 1000:  # the usual few dozen names; never grown without end
                    _HTTP_NAMES[name] = key
            if key in environ:  # a header sent twice: one value, as HTTP folds them
                value = environ[key] + ("; " if key == "HTTP_COOKIE" else ", ") + value
            environ[key] = value
    return environ
