"""Games of other engines as SGN: `sgn convert --from catanatron|jsettlers`.

People who would use `sgn` play and write bots on existing engines; this is their
bridge from "my engine's game" to a verdict and a picture:

    sgn convert --from catanatron game.json --to sgn > game.sgn
    sgn report game.sgn -o game.html        # or sgn validate game.sgn

Each engine has its module (`catanatron`, `jsettlers`), which reads the engine's own
record of a game and yields SGN messages as the readers of `sgn.notation.convert` do (an
`Item` each: where it was read, the message, what was found), so the writers of
`sgn convert` write them in SGN, HAN or HSGN like any other input. Both have one shape:
a table of handlers, one function per kind of entry of the record, writing to one
`Writer` (`writer.py`; docs/architecture.md, "The converters").

This module stays light (the command line imports it to build its options): the
converters are imported when one runs. docs/engines.md says how to record, convert,
validate and draw each engine's games, and what departures from the rulebook the
replay finds in them.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional

from .jsettlers_log import HEADER as JSETTLERS_HEADER  # (re alone: light)

ENGINES = ("catanatron", "jsettlers")

# How big one line of an engine's record may be: catanatron writes a whole game on one line
# (about 70 KB for a game of 500 actions; its turn limit allows a few times that).
MAX_LINE_BYTES = 16 * 1024 * 1024


def read_catanatron(lines, name: str, **_) -> Iterator:
    from .catanatron import read

    return read(lines, name)


def read_jsettlers(lines, name: str, **_) -> Iterator:
    from .jsettlers import read

    return read(lines, name)


READERS = {"catanatron": read_catanatron, "jsettlers": read_jsettlers}


def _first(lines: List[Optional[str]], count: int = 1) -> str:
    """The first `count` non-blank lines, stripped and joined."""
    found: List[str] = []
    for line in lines:
        if line and line.strip():
            found.append(line.strip())
            if len(found) == count:
                break
    return "".join(found)


def engine_of(lines: List[Optional[str]]) -> Optional[str]:
    """The engine whose record the input is, from its start, or None: catanatron's JSON of a
    game is an object whose first key is `tiles` (as its encoder writes it, on one line or
    laid out on many: `json.dump(..., indent=2)` puts the brace alone on the first); a
    JSettlers game event log starts with its header, `SOC game event log: type=F, ...`. An
    SGN log starts with `[`, or with `{"player"` (a pre-1.0 message): neither is taken."""
    if _first(lines).startswith(JSETTLERS_HEADER):
        return "jsettlers"
    start = _first(lines, 2)
    if start.startswith("{") and start[1:].lstrip().startswith('"tiles"'):
        return "catanatron"
    return None


def player_names(source: str, lines: List[Optional[str]]) -> Dict[str, str]:
    """SGN's player -> the engine's name for it (catanatron's colour, JSettlers' nickname),
    as `sgn convert` keeps them (docs/format.md, "Players' names")."""
    if source == "catanatron":
        from .catanatron import player_names as names_of
    else:
        from .jsettlers import player_names as names_of
    return names_of(lines)


def refusal(source: str, text) -> str:
    """Why a record of an engine cannot be converted at all, or "" when it can be tried
    (`sgn convert` says so in one line and exits 2, as it does for an HSN state). `text` is
    the input as `sgn.notation.convert.read_input` read it (its name and lines): a JSettlers client's
    log, a game on JSettlers' sea board."""
    if source == "jsettlers":
        from .jsettlers_log import refusal as jsettlers_refusal

        why = jsettlers_refusal(text.lines)
        return f"{text.name}: {why}" if why else ""
    return ""
