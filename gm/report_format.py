"""The JSON report as a versioned format (issue 30): what a client (a map viewer, an order
editor, a bot) may rely on in the `.json` twin of every PDF gm writes.

Every JSON report carries `schema_version` (this module's SCHEMA_VERSION) and `report`, which
of the three kinds it is: "turn" (a seat's report of one turn, reports/<game>/<turn>/<seat>.json),
"standings" (the game's final standings, reports/<game>/final.json) or "endgame" (a seat's
end-of-game report, reports/<game>/endgame/<seat>.json). Their JSON Schemas are in
docs/report-format/, the ruleset's own `view` of a turn report in
docs/report-format/views/<ruleset>.schema.json; docs/report-format.md says what may change
without a new version: a field may be added (a client ignores what it does not know); a field
removed or renamed, or its type changed, is a new SCHEMA_VERSION.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

SCHEMA_VERSION = 1

Kind = Literal["turn", "standings", "endgame"]
KINDS: tuple[Kind, ...] = ("turn", "standings", "endgame")


def stamped(context: Mapping[str, Any], kind: Kind) -> dict[str, Any]:
    """The report's context as its JSON twin holds it: the format's version and kind first."""
    return {"schema_version": SCHEMA_VERSION, "report": kind, **context}
