"""The corpus's perft tables: counts of the sequences of legal moves from fixed positions,
which another rules engine reproduces to show that it generates the moves `sgn` does
(docs/moves.md, "Perft tables").

The source `test-corpus/perft.yaml` names each position by a log under test-corpus/ and
a line (`at`); `sgn corpus build` bundles it as `test-corpus/perft.json` (its format:
`schema/corpus/v1/perft.json`), each prefix inlined, with the corpus's version, so that
the table alone is what another engine needs. The counts are written in the source, not
worked out by the build (the deep ones take seconds each): `sgn corpus perft` recounts
them, `t/test_perft_table.py` the cheap ones.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, List, Optional

from .. import packaged
from ..layers.reader import describe
from . import CorpusError, _json, _kind_of, _read, _too_deep

SOURCE = "perft.yaml"
TABLE = "perft.json"
TABLE_SCHEMA = "corpus/v1/perft.json"
FORMAT = 1
HIDDEN_OUTCOMES = "never"  # the tables are of games seen whole: no `?` outcome is a move
METHOD = (
    "perft(0) = 1; perft(d) = the sum over each legal move of perft(d - 1) after it, a "
    "position with no legal move counting 0 beyond it. The legal moves are those of "
    "docs/moves.md: chance moves by outcome (a roll's 11 totals, each kind of card the deck "
    "may give, each resource a steal may take), no trade between players, one lot with the "
    "bank at each rate; players: the number playing in the setup's first round; no ? outcome."
)
_FIELDS = ("id", "description", "file", "at", "players", "counts", "comment")


def _source(root: Path) -> List[Any]:
    import yaml

    name = describe(SOURCE)
    try:
        entries = yaml.safe_load(_read(root / SOURCE))
    except yaml.YAMLError as error:
        raise CorpusError(f"{name}: not valid YAML: {error}") from None
    if not isinstance(entries, list) or _too_deep(entries):
        raise CorpusError(f"{name}: a list of positions, not {_kind_of(entries)}")
    return entries


def build_table(root: Optional[Path] = None, version: Optional[str] = None) -> dict:
    """The table of the source under `root`, each position's prefix read from its file
    (its first `at` lines, all when `at` is left out); CorpusError for what is not sound."""
    root = root or packaged.corpus_dir()
    positions = []
    for number, entry in enumerate(_source(root), 1):
        where = f"{SOURCE} position {number}"
        if not isinstance(entry, dict) or not {"id", "description", "file", "counts"} <= set(entry):
            raise CorpusError(f"{where}: a mapping with id, description, file and counts")
        unknown = sorted(set(entry) - set(_FIELDS))
        if unknown:
            raise CorpusError(f"{where}: unknown field {unknown[0]}")
        lines = _read(root / str(entry["file"]), f"{where}: ").splitlines()
        at = entry.get("at", len(lines))
        if not isinstance(at, int) or not 1 <= at <= len(lines):
            raise CorpusError(f"{where}: at is a line of {entry['file']} (1 to {len(lines)}), not {at!r}")
        position = {key: entry[key] for key in ("id", "description") if key in entry}
        position.update(
            source=f"{entry['file']}:{at}",
            players=entry.get("players"),
            hidden=HIDDEN_OUTCOMES,
            prefix="".join(line + "\n" for line in lines[:at]),
            counts=entry["counts"],
        )
        if "comment" in entry:
            position["comment"] = " ".join(str(entry["comment"]).split())
        positions.append(position)
    table = {"format": FORMAT, **({"version": version} if version else {}), "method": METHOD, "positions": positions}
    problems = table_problems(table)
    if problems:
        raise CorpusError(f"{SOURCE}: {problems[0]}")
    return table


def dump_table(table: dict) -> str:
    """The table as committed: one position a line."""
    head = {key: table[key] for key in ("format", "version", "method") if key in table}
    lines = [json.dumps(p, ensure_ascii=False) for p in table["positions"]]
    return json.dumps(head, ensure_ascii=False)[:-1] + ', "positions": [\n' + ",\n".join(lines) + "\n]}\n"


@lru_cache(maxsize=None)
def _validator():
    from jsonschema import Draft4Validator

    return Draft4Validator(packaged.load_json(TABLE_SCHEMA))


def table_problems(table: Any) -> List[str]:
    """What makes `table` no table of the format: the schema's first finding, ids twice."""
    error = next(iter(_validator().iter_errors(table)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        return [f"{where or 'the table'}: {error.message}"]
    ids = [p["id"] for p in table["positions"]]
    return [f"the id {i} is given twice" for i in sorted({i for i in ids if ids.count(i) > 1})]


def load_table(path: Optional[Path] = None) -> dict:
    """The committed (or installed) table, or the one at `path`, checked against its format."""
    path = path or packaged.corpus_dir() / TABLE
    table = _json(_read(path), describe(path))
    problems = table_problems(table)
    if problems:
        raise CorpusError(f"{describe(path)}: {problems[0]}")
    return table


def position(entry: dict):
    """The game at a position of the table: its prefix replayed (CorpusError if the rules
    refuse a line of it: a table's position is a legal one)."""
    from ..game.errors import IllegalMove
    from ..game.position import from_messages

    try:
        return from_messages(entry["prefix"].splitlines(), strict=True)
    except IllegalMove as refused:
        raise CorpusError(f"{entry['id']}: line {refused.line} of its prefix breaks a rule") from None


def recount(
    table: dict, deepest: Optional[int] = None, done: Optional[Callable[[str, int, int, int], None]] = None
) -> List[str]:
    """Each count of the table (to `deepest`, all by default) worked out again with
    `sgn.game.perft`; the differences. `done(id, depth, expected, counted)` follows progress."""
    from ..game.perft import perft

    problems = []
    for entry in table["positions"]:
        game = position(entry)
        for depth, expected in enumerate(entry["counts"][:deepest], 1):
            counted = perft(game, depth, entry.get("players"), entry.get("hidden", HIDDEN_OUTCOMES))
            if done is not None:
                done(entry["id"], depth, expected, counted)
            if counted != expected:
                problems.append(f"{entry['id']}: perft({depth}) is {counted:,}, the table says {expected:,}")
    return problems


__all__ = ["METHOD", "TABLE", "build_table", "dump_table", "load_table", "position", "recount", "table_problems"]
