"""Colours and labels, as data: terrain, players, harbors (what a picture uses, in one place)."""

from __future__ import annotations

from typing import Dict, Mapping, Optional

TERRAIN: Dict[str, str] = {  # tCode -> fill
    "FO": "#2e7d32",  # forest: lumber
    "P": "#9ccc65",  # pasture: wool
    "F": "#f9d648",  # fields: grain
    "H": "#c8663c",  # hills: brick
    "M": "#8d8d94",  # mountains: ore
    "D": "#e6d3a3",  # desert
    "S": "#4f8fc9",  # sea
}
UNKNOWN_TERRAIN = "#cccccc"
HEX_EDGE = "#5d4a2e"
# Players 1 to 6: the base game's red, blue, white and orange, the extension's green and brown.
PLAYERS: Dict[str, str] = {
    "1": "#d32f2f",
    "2": "#1e63c4",
    "3": "#f4f4f4",
    "4": "#f08a1c",
    "5": "#2f9e44",
    "6": "#7b4a2a",
}
UNKNOWN_PLAYER = "#888888"
# The colours an engine gives its seats (catanatron's, by name), drawn in the same shades.
ENGINE_COLORS: Dict[str, str] = {
    "RED": PLAYERS["1"],
    "BLUE": PLAYERS["2"],
    "WHITE": PLAYERS["3"],
    "ORANGE": PLAYERS["4"],
    "GREEN": PLAYERS["5"],
    "BROWN": PLAYERS["6"],
}
PIECE_EDGE = "#1b1b1b"
TOKEN = "#f7ecd0"
HOT_NUMBER = "#c62828"  # 6 and 8, the likeliest
NUMBER = "#1b1b1b"
ROBBER = "#2b2b2b"
HIGHLIGHT = "#ff00d4"
COORDINATES = "#1b1b1b"  # coordinates written on the board
COORDINATES_HALO = "#ffffff"
HARBOR_LABELS = {"HR": "3:1", "HRB": "2:1 B", "HRG": "2:1 G", "HRL": "2:1 L", "HRO": "2:1 O", "HRW": "2:1 W"}


def player_color(name: str, palette: Optional[Mapping[str, str]] = None) -> str:
    return (palette or PLAYERS).get(name, UNKNOWN_PLAYER)


def palette(colors: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """Each seat's colour: the engine's, where the game's header gives one of
    ENGINE_COLORS (docs/format.md, "Records"), drawn as the engine drew it; else sgn's own,
    by number. A colour is only ever one of these: no text of a log reaches a style."""
    out = dict(PLAYERS)
    for seat, name in (colors or {}).items():
        shade = ENGINE_COLORS.get(str(name).upper())
        if shade is not None and seat in out:
            out[seat] = shade
    return out


def pips(number: int) -> int:
    """Dots under a number token: the ways two dice make it."""
    return 6 - abs(7 - number)
