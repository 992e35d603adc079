"""The C libraries WeasyPrint and CairoSVG load, looked up once (gm/render/libraries.py): the same
answers as ctypes' own search, one read of the linker's cache, and ctypes as it was afterwards."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

from gm.render import libraries

# Every name WeasyPrint 70 (weasyprint/text/ffi.py) and cairocffi 1.7 try, found or not.
TRIED = (
    *("libgobject-2.0-0", "gobject-2.0-0", "gobject-2.0", "libgobject-2.0.so.0"),
    *("libpango-1.0-0", "pango-1.0-0", "pango-1.0", "libpango-1.0.so.0"),
    *("libharfbuzz-0", "harfbuzz", "harfbuzz-0.0", "libharfbuzz.so.0"),
    *("libharfbuzz-subset-0", "harfbuzz-subset", "harfbuzz-subset-0.0"),
    *("libharfbuzz-vector-0", "harfbuzz-vector", "harfbuzz-vector-0.0"),
    *("libfontconfig-1", "fontconfig-1", "fontconfig", "libfontconfig.so.1"),
    *("libpangoft2-1.0-0", "pangoft2-1.0-0", "pangoft2-1.0", "libpangoft2-1.0.so.0"),
    *("cairo-2", "cairo", "libcairo-2"),
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the linker's cache is glibc's, on Linux")


def test_the_answers_are_ctypes_own_for_every_name_weasyprint_and_cairocffi_try():
    own = {name: ctypes.util.find_library(name) for name in TRIED}
    with libraries.found_once():
        quick = {name: ctypes.util.find_library(name) for name in TRIED}
    assert quick == own
    # Not a vacuous check: the libraries a report needs are found, the other systems' names are not.
    assert quick["pango-1.0"] and quick["cairo"] and quick["libgobject-2.0-0"] is None


def test_the_linkers_cache_is_read_once_and_nothing_else_is_run(monkeypatch):
    ran = []
    real_popen = subprocess.Popen

    def popen(command, *args, **kwargs):  # subprocess.run and ctypes' ldconfig, gcc and ld all come here
        ran.append(command[0])
        return real_popen(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", popen)
    with libraries.found_once():
        for name in TRIED:
            ctypes.util.find_library(name)
    assert ran == ["/sbin/ldconfig"]


def test_ctypes_is_put_back_even_when_the_import_fails():
    own = ctypes.util.find_library
    with pytest.raises(ImportError):
        with libraries.found_once():
            assert ctypes.util.find_library is not own
            import gm_no_such_module  # noqa: F401
    assert ctypes.util.find_library is own


def test_without_the_linkers_cache_ctypes_searches_as_it_would(monkeypatch):
    asked = []
    monkeypatch.setattr(libraries, "_linker_cache", lambda: None)
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: asked.append(name) or f"lib{name}.so.9")
    with libraries.found_once():
        assert ctypes.util.find_library("pango-1.0") == "libpango-1.0.so.9"
    assert asked == ["pango-1.0"]
