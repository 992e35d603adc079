"""The C libraries WeasyPrint and CairoSVG load (Pango, HarfBuzz, cairo, ...), looked up in the linker's cache read once.

Both try a list of names for each library, cffi hands every name without a path to
ctypes.util.find_library, and on Linux that runs `ldconfig -p` once per name and, for a name
the cache does not hold (most of them: 'libgobject-2.0-0', 'gobject-2.0-0', ... the names of
other systems), gcc and then ld as well: about 15 ms a name, 0.3 s of the 0.9 s it takes to
import WeasyPrint and CairoSVG (bench/README.md, "the libraries looked up once"). That import
is what `gm turn run` waits for before its render workers can start.

Inside `found_once()` a name is looked up in the output of one `ldconfig -p`, with the rule
ctypes uses on it. A name not there is not looked for with gcc and ld: those return only a
library's soname, which dlopen then finds on the same paths as every other name, and each
library's list of names ends with its soname (libpango-1.0.so.0, libcairo.so.2), which dlopen
tries directly. Where `ldconfig -p` cannot be read (not glibc), ctypes' own search runs.
"""

from __future__ import annotations

import ctypes.util
import os
import re
import struct
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

# ctypes' own table (ctypes/util.py): the ABI ldconfig names beside each 64-bit library.
_ABI = {"x86_64-64": "libc6,x86-64", "ppc64-64": "libc6,64bit", "sparc64-64": "libc6,64bit"}
_ABI |= {"s390x-64": "libc6,64bit", "ia64-64": "libc6,IA-64"}


@contextmanager
def found_once() -> Iterator[None]:
    """Import WeasyPrint or CairoSVG inside this: ctypes.util.find_library answers from one read
    of the linker's cache while it lasts (this process only; put back after)."""
    search = ctypes.util.find_library
    cache: list[bytes | None] = []

    def find_library(name: str) -> str | None:
        if not cache:
            cache.append(_linker_cache())
        if cache[0] is None:
            return search(name)
        return _soname(cache[0], name)

    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = search


def _linker_cache() -> bytes | None:
    """What `ldconfig -p` prints, None where it prints nothing (not glibc's ldconfig)."""
    if os.name != "posix" or os.uname().sysname != "Linux":
        return None
    try:
        listing = subprocess.run(
            ["/sbin/ldconfig", "-p"],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            env={"LC_ALL": "C", "LANG": "C"},
            check=False,
        ).stdout
    except OSError:
        return None
    return listing or None


def _soname(listing: bytes, name: str) -> str | None:
    """The first library in the listing called lib<name>.<something> for this machine's ABI, as ctypes finds it."""
    bits = "-32" if struct.calcsize("l") == 4 else "-64"
    abi = _ABI.get(os.uname().machine + bits, "libc6")
    found = re.search(rb"\s+(lib%s\.[^\s]+)\s+\(%s" % (re.escape(name).encode(), re.escape(abi).encode()), listing)
    return os.fsdecode(found.group(1)) if found else None
