"""Which sessions are signed in, kept on the server: a cookie counts only while its session is here.

A session cookie is signed, so nobody can forge one, but a signature cannot be taken back: a copy
made before sign-out would work until it expires. So each sign-in records its session here (a hash
of the session id, never the id), every request of a signed-in session checks that it is still
recorded, and sign-out removes it. The file is shared by every worker of `gm serve` and kept
across restarts; a lost file signs everybody out, never anybody in.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from gm.store.sessions import SessionTable

# A signed-in session's row notes when it was last used at most this often (seconds).
SEEN_EVERY = 60.0


class SessionRegister(SessionTable):
    """Signed-in sessions by a hash of their id, each with who it is ('seat:ID' or 'gm') and when
    it was last used; a session unused for `lifetime` seconds has ended, as its cookie has."""

    # Sessions that ended unused are deleted at every this-many-th sign-in (of a process).
    PURGE_EVERY = 100

    def __init__(self, path: Path, lifetime: float):
        self.lifetime = lifetime
        self._begun = 0
        super().__init__(path)

    def begin(self, sid: str, who: str) -> None:
        """Record a session that just signed in; now and then forget those that ended unused."""
        now = time.time()
        self.record(_tag(sid), who, now)
        self._begun += 1  # (not exact across threads: it only spaces out the clean-ups)
        if self._begun % self.PURGE_EVERY == 1:
            self.forget_unused_since(now - self.lifetime)

    def alive(self, sid: str) -> bool:
        """True while the session is recorded and was used within its lifetime (noted now)."""
        tag, now = _tag(sid), time.time()
        seen = self.last_seen(tag)
        if seen is None or seen < now - self.lifetime:
            return False
        if now - seen >= SEEN_EVERY:
            self.note_seen(tag, now)
        return True

    def end(self, sid: str) -> None:
        """Sign the session out everywhere, on disk before the answer goes."""
        self.delete(_tag(sid))

    def end_all(self, who: str) -> int:
        """Sign out every session of a seat ('seat:ID') or of the GM ('gm'); how many there were."""
        return self.delete_all(who)


def _tag(sid: str) -> bytes:
    return hashlib.sha256(sid.encode("utf-8")).digest()[:16]
