"""Hidden values: the `?` a log writes where a card or a roll was not seen (docs/hidden.md).

An extension of SGN v1.0 (schema/ERRATA.md): `"?"` as a resource code in a trade's or a
steal's resources, its count the cards of kinds not shown; `"?"` as the card a `BD`
draws; `"?"` as a roll's result. The schema file describes SGN v1.0 without it; the
schema layer checks a message that holds hidden values against the schema extended
here (`extended`), so that a log without them gets exactly the verdicts of v1.0.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List

from ..messages import HIDDEN as HIDDEN  # (kept with the forms of the messages that write it)

ALLOW: str = "allow"  # (typed: mypyc reads this module inside an import cycle)
REFUSE: str = "refuse"
CHOICES = (ALLOW, REFUSE)  # the setting `hidden`: refuse makes every hidden value an error
# The actions whose value may hold a hidden value.
ACTIONS = frozenset({"TR", "ST", "BD", "RD"})


def places(message: Any) -> List[str]:
    """The JSON pointers of the hidden values of a message (where the extension allows them)."""
    if not (isinstance(message, list) and len(message) == 3 and isinstance(message[2], (dict, list))):
        return []
    action, value = message[1], message[2]
    if action in ("TR", "ST") and isinstance(value, list):
        return [
            f"/2/{i}/resources/{HIDDEN}"
            for i, side in enumerate(value)
            if isinstance(side, dict) and isinstance(side.get("resources"), dict) and HIDDEN in side["resources"]
        ]
    if action == "BD" and isinstance(value, dict) and value.get("cCode") == HIDDEN:
        return ["/2/cCode"]
    if action == "RD" and isinstance(value, dict) and value.get("result") == HIDDEN:
        return ["/2/result"]
    return []


def extended(root: Dict[str, Any]) -> Dict[str, Any]:
    """The schema with hidden values: `?` a resource of `resources`, a card `BD` may draw,
    a roll's result."""
    out = copy.deepcopy(root)
    definitions = out["definitions"]
    definitions["resources"]["properties"][HIDDEN] = {"$ref": "#/definitions/quantity"}
    values = definitions["values"]
    values["BD"]["properties"]["cCode"] = {
        "title": "development card code, or ? (not seen)",
        "enum": definitions["cCode"]["enum"] + [HIDDEN],
    }
    result = values["RD"]["properties"]["result"]
    values["RD"]["properties"]["result"] = {"anyOf": [result, {"title": "a roll not seen", "enum": [HIDDEN]}]}
    return out


def hidden_count(resources: Dict[str, int]) -> int:
    """The cards of kinds not shown that a side of a trade or steal gives (> 0) or gets (< 0)."""
    return -resources.get(HIDDEN, 0)


def shown(resources: Dict[str, int]) -> Dict[str, int]:
    """The resources of a side whose kinds are shown."""
    return {r: n for r, n in resources.items() if r != HIDDEN} if HIDDEN in resources else resources
