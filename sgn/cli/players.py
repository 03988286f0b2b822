"""Players' names beside a log: SGN v1.0 has no place for them (every message value is
closed), so `sgn convert` keeps an engine's names in a file beside the log it writes,
`LOG.players.json`, and `sgn replay`, `render` and `report` show them where that file is
(docs/format.md, "Players' names"). The log itself stays what any v1.0 validator accepts.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Dict, Optional, Tuple

SUFFIX = ".players.json"
FORMAT = "sgn-players 1"  # the file's `format`, so that a reader knows what it holds
MAX_BYTES = 64 * 1024  # a few names: anything larger is no such file
_PLAYER = re.compile(r"[1-6]\Z")


def beside(log: str) -> str:
    """The file of the players' names beside the log `log`."""
    return log + SUFFIX


def document(names: Dict[str, str], engine: str, rules: str) -> str:
    """The file's text: its format, the engine, the rules its games need and the names."""
    value = {"format": FORMAT, "engine": engine, "rules": rules, "players": dict(sorted(names.items()))}
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def mapping(names: Dict[str, str]) -> str:
    """The names in one line, as `sgn convert` says them: `1 = RED, 2 = BLUE`."""
    from ..words import visible

    return ", ".join(f"{player} = {visible(name)}" for player, name in sorted(names.items()))


def read_beside(log: Optional[str]) -> Tuple[Dict[str, str], Optional[str]]:
    """The names kept beside the log `log` ({} when there is no such file, or the log is
    standard input), and why the file was passed over, when it was (a warning to print:
    a file that is not what `sgn convert` writes never stops a command)."""
    if not log or log == "-":
        return {}, None
    path = beside(log)
    if not os.path.isfile(path):
        return {}, None
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return {}, f"{path}: larger than {MAX_BYTES // 1024} KiB, not a file of players' names; passed over"
        value: Any = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        return {}, f"{path}: not a file of players' names ({type(error).__name__}); passed over"
    players = value.get("players") if isinstance(value, dict) else None
    if (
        not isinstance(players, dict)
        or value.get("format") != FORMAT
        or not all(_PLAYER.match(str(k)) and isinstance(v, str) and v for k, v in players.items())
    ):
        return (
            {},
            f'{path}: not a file of players\' names ({{"format": "{FORMAT}", "players": {{"1": NAME}}}}); passed over',
        )
    return {str(k): v[:64] for k, v in players.items()}, None


def known_names(log: str, command: str) -> Dict[str, str]:
    """The players' names kept beside the log, if any, for `sgn COMMAND`; a file that is
    not what `sgn convert` writes is passed over with a warning on standard error."""
    from ..words import printable

    names, why = read_beside(log)
    if why:
        sys.stderr.write(printable(f"sgn {command}: warning: {why}\n"))
    return names
