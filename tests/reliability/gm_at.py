"""The gm command at a fixed moment: python gm_at.py ISO-TIME ARGS... runs `gm ARGS...`.

The crash battery compares the PDFs of a killed-and-recovered run with those of an uninterrupted
one; a report carries the moment its turn was resolved, so every run must see the same clock.
"""

from __future__ import annotations

import sys
from datetime import datetime

import gm.cli.common
from gm.clock import FixedClock

if __name__ == "__main__":
    gm.cli.common.CLOCK = FixedClock(datetime.fromisoformat(sys.argv.pop(1)))
    sys.argv[0] = "gm"
    from gm.cli import main

    main()
