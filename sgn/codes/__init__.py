"""The registry of diagnostic codes: one row per code, never reused.

A code names a rule, not a place in the program. Its layer says which stage
finds it; its severity is the default one. Examples of each code are the
corpus cases that raise it (docs/codes.md shows them).
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

IO_LAYER = "io"
LAYERS: Tuple[str, ...] = (IO_LAYER, "syntax", "schema", "semantic", "rules", "notation")

# What each layer checks, said where a code is explained (`sgn codes CODE`, SARIF's rule help),
# so that an explanation needs no file that is not installed.
LAYER_ABOUT: Dict[str, str] = {
    "io": "the file as bytes: it exists, can be read, and a gzip stream in it is whole.",
    "syntax": "each line is one JSON value in UTF-8 (RFC 8259), with no key twice in an object; "
              "SGN is one message a line.",
    "schema": "each message has the shape SGN v1.0's JSON Schema gives its action code: its fields, "
              "their types and their ranges.",
    "semantic": "each message holds together by itself: places that exist, trades that balance, "
                "players that differ where they must.",
    "rules": "the game is replayed from its map by the rulebook (the base game, or the 5-6 player "
             "extension): each message must be a legal move in the state the earlier ones left.",
    "notation": "the neighbouring notations (HAN actions, HSN states, HSGN turns) as `sgn parse` and "
                "`sgn convert` read them.",
}


class Code(NamedTuple):
    name: str
    layer: str
    severity: str
    summary: str


_TABLE = [
    # io: the file cannot be read at all; the run exits 2.
    Code("file-not-found", IO_LAYER, "error", "The path does not exist."),
    Code("is-a-directory", IO_LAYER, "error", "The path is a directory, not a log file."),
    Code("read-error", IO_LAYER, "error", "The operating system refused to read the file (permissions, device error)."),
    Code("internal-error", IO_LAYER, "error", "The file could not be checked to its end: sgn itself failed on it (a bug in sgn, to be reported); the other files are checked as usual."),
    Code("worker-lost", IO_LAYER, "error", "The file could not be checked: the Dask worker checking it died, on every try (sgn validate --dask)."),
    # syntax: bytes, lines and JSON.
    Code("empty-file", "syntax", "error", "The file holds no message at all (no bytes, or only blank lines): a verdict on the data, not a file that cannot be read."),
    Code("invalid-utf8", "syntax", "error", "The line is not valid UTF-8."),
    Code("utf8-bom", "syntax", "warning", "The file starts with a UTF-8 byte order mark; it is skipped."),
    Code("crlf-line-ending", "syntax", "warning", "The file uses CRLF line endings (reported once, at the first); they are read as LF."),
    Code("blank-line", "syntax", "warning", "An empty or whitespace-only line; it is skipped."),
    Code("no-final-newline", "syntax", "info", "The last line has no newline; it is read, but the file may have been cut short."),
    Code("line-too-long", "syntax", "error", "The line is longer than the limit (--max-line-bytes, default 256 KiB); it is skipped unread."),
    Code("gzip-truncated", "syntax", "error", "The gzip stream ends before its end marker; the lines before are checked."),
    Code("gzip-corrupt", "syntax", "error", "The gzip stream is damaged (bad header, bad data or checksum)."),
    Code("invalid-json", "syntax", "error", "The line is not one JSON value."),
    Code("json-multiline", "syntax", "error", "A JSON value opens on this line and goes on over the next lines (a pretty-printed log?): SGN is one message per line."),
    Code("json-multiline-rest", "syntax", "info", "The lines that continue a JSON value opened on an earlier line, counted once instead of reported one by one."),
    Code("log-as-array", "syntax", "error", "The line holds several messages in one JSON array: SGN is one message per line."),
    Code("max-errors-reached", "syntax", "info", "The file has as many errors as --max-errors allows; the rest of it is not checked."),
    Code("json-nan-infinity", "syntax", "error", "NaN and Infinity are not JSON."),
    Code("json-duplicate-key", "syntax", "error", "An object has the same key twice; which one counts is undefined."),
    Code("json-number-too-long", "syntax", "error", "A number literal longer than 100 characters; no SGN field holds such a number and interoperable JSON cannot represent it."),
    Code("json-number-out-of-range", "syntax", "error", "A number beyond the range of a double (1e400): interoperable JSON cannot represent it, and no SGN field holds it."),
    Code("json-too-deep", "syntax", "error", "Arrays or objects nested more than 64 deep, counted on the text before parsing (an SGN message is at most 6 deep)."),
    # schema: the shape of one message, checked against schema/v1.0/message.json.
    Code("message-not-array", "schema", "error", "A message must be a JSON array [player, aCode, value]."),
    Code("message-length", "schema", "error", "A message has exactly 3 items: player, aCode, value."),
    Code("unknown-player", "schema", "error", "The acting player is not 1..6 or B."),
    Code("unknown-action", "schema", "error", "The aCode is not one of BC BD BR BS DM MR PD RD ST TR."),
    Code("schema-type", "schema", "error", "A value has the wrong JSON type."),
    Code("schema-enum", "schema", "error", "A value is not one of the allowed codes or numbers."),
    Code("schema-required", "schema", "error", "A required property is missing."),
    Code("schema-unknown-property", "schema", "error", "An object has a property the schema does not define."),
    Code("schema-too-few-items", "schema", "error", "An array has fewer items than the schema requires."),
    Code("schema-too-many-items", "schema", "error", "An array has more items than the schema allows."),
    Code("schema-minimum", "schema", "error", "A number is below the minimum."),
    Code("schema-maximum", "schema", "error", "A number is above the maximum."),
    Code("schema-invalid", "schema", "error", "A value breaks a schema constraint not covered by a more specific code."),
    Code("schema-more-problems", "schema", "info", "The message has more schema problems than the 100 listed; the rest are not listed."),
    Code("legacy-numeric-string", "schema", "warning", "compat profile: numbers written as JSON strings (as in the published SGN text's own examples) are read as integers."),
    Code("legacy-object-message", "schema", "warning", "compat profile: a pre-1.0 object message {player, aCode, value} is read as [player, aCode, value]."),
    # semantic: the meaning of one message, with the last valid map of the log as context.
    Code("bank-acts", "semantic", "error", "The bank (B) is the acting player of an action other than DM."),
    Code("intersection-repeated-tile", "semantic", "error", "An intersection lists the same tile twice."),
    Code("intersection-not-adjacent", "semantic", "error", "The three tiles of an intersection do not all touch each other, so they meet at no corner."),
    Code("intersection-counter-clockwise", "semantic", "warning", "An intersection lists its tiles counter-clockwise; SGN lists them clockwise."),
    Code("intersection-off-map", "semantic", "error", "A tile of an intersection is not on the map."),
    Code("intersection-at-sea", "semantic", "error", "An intersection touches no land: all three tiles are sea."),
    Code("path-same-intersection", "semantic", "error", "Both ends of a path are the same intersection."),
    Code("path-not-adjacent", "semantic", "error", "The two intersections of a path are not neighbours (they do not share exactly two tiles)."),
    Code("path-at-sea", "semantic", "error", "A path runs between two tiles neither of which is land (sea, or not on the map)."),
    Code("robber-off-map", "semantic", "error", "The robber moves to a tile that is not on the map."),
    Code("robber-at-sea", "semantic", "error", "The robber moves to a sea tile."),
    Code("card-resources-missing", "semantic", "error", "Monopoly (MO) or Year of Plenty (YP) is played without rCodes."),
    Code("card-resources-count", "semantic", "error", "Monopoly names other than 1 resource, or Year of Plenty other than 2."),
    Code("card-resources-unexpected", "semantic", "error", "A Knight, Road Building or Victory Point card is played with rCodes."),
    Code("trade-same-player", "semantic", "error", "Both sides of a trade are the same player."),
    Code("trade-actor-not-party", "semantic", "error", "The acting player is neither side of the trade."),
    Code("trade-zero-amount", "semantic", "error", "A trade lists a resource with the amount 0."),
    Code("trade-unbalanced", "semantic", "error", "For some resource the amounts of a trade do not sum to zero: resources appear or vanish."),
    Code("trade-one-sided", "semantic", "error", "One side of a trade gives nothing, and it is not a discard (a player giving to the bank)."),
    Code("steal-same-player", "semantic", "error", "A player steals from themselves."),
    Code("steal-with-bank", "semantic", "error", "The bank takes part in a steal."),
    Code("steal-not-one-card", "semantic", "error", "A steal does not move exactly one card from one player to the other."),
    Code("steal-actor-not-thief", "semantic", "error", "The acting player is not the one who gains the stolen card."),
    Code("map-duplicate-tile", "semantic", "error", "A map defines the same tile twice."),
    Code("semantic-more-problems", "semantic", "info", "The message has more semantic problems than the 100 listed; the rest are not listed."),
    Code("map-shape", "semantic", "error", "The land tiles of a map do not form a known board (standard 19, or 30 for 5-6 players), in any position or rotation."),
    Code("map-sea-ring", "semantic", "error", "The land is not exactly surrounded by a ring of sea tiles."),
    Code("map-number-missing", "semantic", "error", "A producing land tile has no number token (rNumber null)."),
    Code("map-number-on-barren", "semantic", "error", "A desert or sea tile has a number token."),
    Code("map-nonstandard-tiles", "semantic", "warning", "The counts of tile kinds differ from the known board of that shape."),
    Code("map-nonstandard-numbers", "semantic", "warning", "The number tokens differ from the known board of that shape."),
    Code("harbor-not-coastal", "semantic", "error", "A harbor is not on an edge between a land tile and a sea tile."),
    Code("harbors-share-intersection", "semantic", "error", "Two harbors share an intersection."),
    Code("map-nonstandard-harbors", "semantic", "warning", "The harbors differ in kind or number from the known board of that shape."),
    # rules: the replay of the whole game under the base game's rules.
    Code("game-without-map", "rules", "error", "The rules replay needs a map: the log does not start with a valid DM (reported once; the rest is not replayed)."),
    Code("map-redefined", "rules", "error", "A second DM: the map is defined once, at the start of the game."),
    Code("after-game-end", "rules", "error", "A message after the game ended (reported once; what follows is not checked)."),
    Code("robber-start-not-desert", "rules", "error", "The robber is placed before the setup on a tile other than a desert (the 5-6 player board has two)."),
    Code("setup-order", "rules", "error", "The setup is out of order: each player places one settlement then one road touching it, 1..n then n..1."),
    Code("setup-road-not-at-settlement", "rules", "error", "A setup road does not touch the settlement just placed."),
    Code("setup-incomplete", "rules", "error", "The turns begin before every player has placed two settlements and two roads."),
    Code("player-count", "rules", "warning", "The setup shows a number of players the rules the map calls for are not written for: 3 or 4 on the base game's board, 5 or 6 on the 30 land tiles of the 5-6 player extension's."),
    Code("turn-order", "rules", "error", "A player rolls out of turn: turns go 1, 2, ..., n, 1, ..."),
    Code("already-rolled", "rules", "error", "A player rolls twice in one turn."),
    Code("roll-missing", "rules", "error", "A turn has no roll: it ends, or the player builds or trades, and no roll comes."),
    Code("roll-first", "rules", "error", "A build or trade before the dice are rolled."),
    Code("not-your-turn", "rules", "error", "A player acts during another player's turn (other than a discard, or as a trade partner)."),
    Code("special-build-order", "rules", "error", "5-6 players: a build in the Special Build Phase out of order (each other player builds in turn order, from the player after the one whose turn ended, and once)."),
    Code("special-build-trade", "rules", "error", "5-6 players: a trade in the Special Build Phase, where players may only build and buy development cards."),
    Code("special-build-card", "rules", "error", "5-6 players: a development card played or shown in the Special Build Phase: cards are played only in one's own turn."),
    Code("special-build-turn-player", "rules", "error", "5-6 players: the player whose turn just ended builds or buys in the Special Build Phase that follows it."),
    Code("cannot-afford", "rules", "error", "A player builds or buys without the resources it costs."),
    Code("not-held", "rules", "error", "A player gives, discards or loses cards they do not hold."),
    Code("bank-empty", "rules", "error", "The bank does not hold the resources it is to give."),
    Code("piece-limit", "rules", "error", "A player has no piece of that kind left (15 roads, 5 settlements, 4 cities)."),
    Code("site-occupied", "rules", "error", "A settlement goes where a building already stands."),
    Code("distance-rule", "rules", "error", "A settlement is next to another building."),
    Code("settlement-not-connected", "rules", "error", "A settlement (after the setup) touches none of the player's roads."),
    Code("road-occupied", "rules", "error", "A road goes where a road already is."),
    Code("road-not-connected", "rules", "error", "A road touches none of the player's roads or buildings, or only through an opponent's building."),
    Code("city-not-on-settlement", "rules", "error", "A city is built where the player has no settlement."),
    Code("discard-missing", "rules", "error", "A player who held more than 7 cards at a 7 did not discard half."),
    Code("discard-not-owed", "rules", "error", "A discard (a one-sided trade to the bank) when none is owed."),
    Code("discard-wrong-amount", "rules", "error", "A discard of other than half the hand, rounded down."),
    Code("robber-not-moved", "rules", "error", "The robber was not moved after a 7 or a Knight."),
    Code("robber-not-allowed", "rules", "error", "The robber moves without a 7 or a Knight."),
    Code("robber-same-tile", "rules", "error", "The robber stays on its tile; it must move."),
    Code("steal-missing", "rules", "error", "No steal after the robber moved next to another player who holds cards."),
    Code("steal-not-allowed", "rules", "error", "A steal where none is possible: not after a robber move, or no victim there."),
    Code("steal-wrong-victim", "rules", "error", "A steal from a player with no building on the robber's tile or no cards."),
    Code("deck-empty", "rules", "error", "A development card is bought of a kind the deck no longer holds (14 KN, 5 VP, 2 RB, 2 YP, 2 MO; with 5-6 players 20, 5, 3, 3, 3)."),
    Code("card-not-held", "rules", "error", "A development card is played that the player does not hold."),
    Code("card-bought-this-turn", "rules", "error", "A development card is played on the turn it was bought."),
    Code("card-second-play", "rules", "error", "A second development card (other than Victory Point) is played in one turn."),
    Code("trade-rate", "rules", "error", "A bank trade at the wrong rate: 4:1, 3:1 with a generic harbor, 2:1 with the resource's harbor."),
    Code("log-ends-unfinished", "rules", "warning", "The log ends while something is owed (the setup, a discard, the robber, a steal)."),
    # notation: reading and converting the neighbouring notations (sgn parse, sgn convert).
    Code("han-syntax", "notation", "error", "A HAN action does not follow the published HAN grammar; the column is the character at fault."),
    Code("han-place", "notation", "error", "A HAN coordinate names no place of the standard board (HAN has no map: its coordinates are the places of the published HAN text's default setup, d4 its centre)."),
    Code("han-style", "notation", "warning", "A HAN action breaks a SHOULD rule: a count of 1 written, resources or dice out of the standard order."),
    Code("hsn-syntax", "notation", "error", "An HSN state (seed 000, or 002 with --notation hsn-002) does not follow the grammar; the line and column are those of the field at fault."),
    Code("hsgn-syntax", "notation", "error", "A line of HSGN turns (seed 004) does not follow the turn notation; the column is the character at fault."),
    Code("hsgn-name", "notation", "error", "An HSGN hex, crossroad or edge name is no place of the standard board, or fits several (a bare z that could be more than one sea hex)."),
    Code("hsgn-style", "notation", "warning", "An HSGN turn is read, but differs from the notation: a player written as a bare number (as the published HSGN text writes T2), a resource written twice, a count of 0."),
    Code("engine-input", "notation", "error", "sgn convert --from catanatron or jsettlers: the input is not a record of that engine's game, or a value in it is not what the engine writes there (docs/engines.md); the rest is converted where it can be."),
    Code("engine-unknown", "notation", "warning", "sgn convert --from catanatron or jsettlers: an action or message the converter does not know; it is left out, never guessed at, and the rest is converted."),
    Code("no-counterpart", "notation", "warning", "A message or action has no counterpart in the target notation (e.g. HAN's R? in SGN, SGN's DM in HAN or HSGN): it is left out, and the rest is converted."),
]

CODES: Dict[str, Code] = {c.name: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate code name"
assert all(c.layer in LAYERS for c in _TABLE)
