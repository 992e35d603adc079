"""docs/limits.md, the ledger of gm's limits, keeps the code's numbers: for each row that names a
constant (`NAME` with the module in its "where" column) or a gm.toml setting (`[section] key`),
the number the row gives first is the constant's value, or the setting's in the gm.toml that
`gm init` writes; and every test it names exists."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from pathlib import Path

from gm.home import DEFAULT_TOML

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "docs" / "limits.md"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:\*\*\d+)?")


def rows() -> list[list[str]]:
    found = []
    for line in LEDGER.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 5 and not set(cells[0]) <= {"-"} and cells[0] != "limit":
            found.append(cells)
    return found


def first_number(text: str) -> float:
    number = NUMBER.search(text)
    assert number, text
    base, _, power = number.group(0).replace(",", "").partition("**")
    value = float(base) if "." in base else int(base)
    return value ** int(power) if power else value


def test_the_ledger_has_the_limits_of_mail_the_portal_and_the_render_budget():
    named = " ".join(cells[1] for cells in rows())
    for name in ("MOST_TURN_FILES", "[mail] replies_per_hour", "MOST_URLENCODED_BYTES", "[reports] max_pages"):
        assert name in named


def test_every_number_in_the_ledger_is_the_codes():
    checked = 0
    for limit, number, where, _tests, _docs in rows():
        setting = re.search(r"\(`\[(\w+)\] (\w+)`", number)
        constant = re.search(r"`([A-Za-z_][\w.]*)`", number)
        if setting:
            section, key = setting.groups()
            block = DEFAULT_TOML.split(f"[{section}]", 1)[1].split("\n[", 1)[0]
            value = re.search(rf"^{key} = (\S+)$", block, re.MULTILINE)
            if value is None:
                continue  # a setting gm init does not write (its default is the constant's)
            assert first_number(number) == first_number(value.group(1)), (limit, value.group(0))
            checked += 1
        elif constant and where.strip("`").startswith("gm/"):
            module = importlib.import_module(where.strip("`").split(",")[0].removesuffix(".py").replace("/", "."))
            value = module
            for part in constant.group(1).split("."):
                if part != module.__name__.rpartition(".")[2]:  # known_browsers.MOST: the module's own name
                    value = getattr(value, part)
            if isinstance(value, timedelta):  # LONGEST_WAIT: in the unit the row gives ("12 hours")
                unit = re.search(r"\d[\d,]* (second|minute|hour|day)s?\b", number)
                assert unit, (limit, number)
                value = value / timedelta(**{unit.group(1) + "s": 1})
            assert isinstance(value, (int, float)), (limit, constant.group(1))
            assert first_number(number) == value, (limit, constant.group(1), value)
            checked += 1
    assert checked >= 60


def test_every_test_the_ledger_names_exists():
    for limit, _number, _where, tests, _docs in rows():
        for named in re.findall(r"(tests/[\w/]+\.py)::(\w+)", tests):
            path, name = named
            assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), (limit, path, name)
