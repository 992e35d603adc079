"""A render worker gives memory back to the system when it frees it (issue 32: its peak with a
32-seat Empires turn went from 141 to 118 MB in one process; in a mixed house from 152 to 144).
Each check runs in a fresh process, as a worker (argument "worker") and as a plain process that
did not ask, so that each test can fail."""

from __future__ import annotations

import subprocess
import sys
import textwrap

# glibc's malloc by ctypes, and the process's resident memory.
PRELUDE = textwrap.dedent("""\
    import ctypes, sys
    from gm.render import worker

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    as_worker = sys.argv[1] == "worker"

    def resident_kb():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
""")

# Free one 24 MB block (glibc then raises its mmap threshold past that size unless told not
# to), then fill and free a second: how much of the second stays resident.
LARGE = textwrap.dedent("""\
    if as_worker:
        worker._give_back_large_blocks()
    size = 24 << 20
    libc.free(libc.malloc(size))
    before = resident_kb()
    block = libc.malloc(size)
    ctypes.memset(block, 1, size)
    libc.free(block)
    print(resident_kb() - before)
""")

# 400 blocks of 64 KB from the heap, every one freed but the last (which keeps the heap's top
# where it is, so free() alone gives nothing back): how much of the 25 MB stays resident, with
# or without the trim a worker makes between two reports.
TRIM = textwrap.dedent("""\
    before = resident_kb()
    blocks = [libc.malloc(64 << 10) for _ in range(400)]
    for block in blocks:
        ctypes.memset(block, 1, 64 << 10)
    for block in blocks[:-1]:
        libc.free(block)
    if as_worker:
        worker._trim_heap()
    print(resident_kb() - before)
""")


def kept_kb(check: str, mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", PRELUDE + check, mode], capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_a_render_worker_gives_a_freed_large_block_back():
    assert kept_kb(LARGE, "worker") < 2_000
    assert kept_kb(LARGE, "plain") > 20_000


def test_a_render_worker_gives_its_heaps_free_pages_back_between_reports():
    assert kept_kb(TRIM, "worker") < 5_000
    assert kept_kb(TRIM, "plain") > 20_000
