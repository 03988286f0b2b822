"""`sgn generate`: whole legal games, each ending with a winner (`sgn.play`), written to
standard output, to one file, or to a folder of one file per game.

Where `-o` writes (`target`): '-' is standard output; an existing folder, or a path
that ends with a slash or has no suffix, is a folder of game-00001.sgn, ...; any other
path (games.sgn, games.sgn.gz, an existing file) is one file holding the games one
after another, as standard output would, compressed when its name ends with .gz.
A folder written again keeps only the games of the new run: the game-NNNNN.sgn files
an earlier run left beyond the new count are removed, and the command says so (a tool
that writes its output does what it is asked, as ruff and black do, without asking
first; a file of another name is never touched). A game file that is a link is replaced,
or removed, as a link: nothing outside the folder is written; one that is a folder stops
the run before anything is written.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

from ..game.rule_profiles import STANDARD
from ..layers.reader import describe
from ..layers.schema import V1
from ..words import count
from .exits import EXIT_OK, EXIT_USAGE, positive_int
from .options import add_written_profile

STDOUT, FOLDER, FILE = "stdout", "folder", "file"
_GAME_FILE = re.compile(r"game-(\d{5,})\.sgn")


def add_parser(commands) -> None:
    generate = commands.add_parser(
        "generate",
        help="make whole legal games, each ending with a winner",
        description="Make whole legal SGN games by playing random legal moves under the rules "
        "replay. The same seed, player count and number of games give the same games, "
        "whatever --jobs.",
    )
    generate.add_argument(
        "--games", type=positive_int, default=1, metavar="N", help="how many games to make (default 1)"
    )
    generate.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5, 6),
        default=4,
        help="3 or 4 on the standard board, 5 or 6 on the 5-6 player extension's "
        "(with its Special Build Phase); default 4",
    )
    generate.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="the seed of the random moves, any whole number (default 0); the i-th "
        "game depends on the seed, i and --players only",
    )
    generate.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="FILE|DIR|-",
        help="'-' (the default): the games one after another on standard output; "
        "a path with a suffix (games.sgn; .gz compresses): one file of them; "
        "an existing folder, or a path ending in / or without a suffix: a "
        "folder of game-00001.sgn, ... (game-NNNNN.sgn files beyond the new "
        "count are removed)",
    )
    add_written_profile(generate)
    generate.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=1,
        metavar="J",
        help="processes to use (the games are the same for any J)",
    )
    generate.set_defaults(run=run_generate)


def target(output: str) -> Tuple[str, Path]:
    """Where `-o OUTPUT` writes: (STDOUT, FOLDER or FILE, the path)."""
    path = Path(output)
    if output == "-":
        return STDOUT, path
    if path.is_dir() or output.endswith(("/", os.sep)):
        return FOLDER, path
    if path.exists() or path.suffix:
        return FILE, path
    return FOLDER, path


def game_file(index: int) -> str:
    """The name of the index-th game (from 1) in a folder."""
    return f"game-{index:05d}.sgn"


def stale_games(folder: Path, games: int) -> List[Path]:
    """The game files an earlier run left in `folder` beyond the first `games`, in order."""
    found = []
    for path in folder.iterdir():
        match = _GAME_FILE.fullmatch(path.name)
        if match and int(match.group(1)) > games and path.name == game_file(int(match.group(1))):
            found.append(path)
    return sorted(found, key=lambda p: int(p.name[5:-4]))


def _one_game(task) -> str:
    from ..game.position import from_messages
    from ..layers import records
    from ..play import game_seed, random_game

    seed, index, players, header = task
    messages = random_game(game_seed(seed, index), players)
    if header:  # (docs/format.md, "Records")
        end = from_messages(messages, STANDARD).outcome()
        assert end is not None  # (a generated game is won)
        result = {"how": records.WON, "winner": end.winner, "points": end.points}
        seats = {str(n): {"name": "random"} for n in range(1, players + 1)}
        messages = [records.header(seats, STANDARD, result, seed=f"{seed}:{index}")] + messages
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages)


def _games(args: argparse.Namespace) -> Iterable[str]:
    """The text of each game, in order, made in --jobs processes."""
    tasks = [(args.seed, i, args.players, args.profile != V1) for i in range(args.games)]
    if args.jobs == 1:
        yield from map(_one_game, tasks)
        return
    import multiprocessing

    pool = multiprocessing.Pool(args.jobs)
    try:
        yield from pool.imap(_one_game, tasks, chunksize=4)
    finally:
        pool.close()


def run_generate(args: argparse.Namespace, out) -> int:
    from .output_file import OutputError

    kind, path = target(args.output)
    if kind == STDOUT:
        for text in _games(args):
            out.write(text)
        return EXIT_OK
    try:
        if kind == FILE:
            _write_file(path, _games(args), replace_link=False)
            sys.stderr.write(f"wrote {count(args.games, 'game')} to {describe(path)}\n")
        else:
            _write_folder(path, args)
    except OutputError as error:
        sys.stderr.write(f"sgn generate: {error}\n")
        return EXIT_USAGE
    return EXIT_OK


def _write_file(path: Path, games: Iterable[str], *, replace_link: bool) -> None:
    """The games into `path`, through a temporary file renamed into place (`written`): a
    write that fails leaves the earlier file. A link is followed unless `replace_link`."""
    from .output_file import cannot_write, written

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise cannot_write(describe(Path(error.filename) if error.filename else path.parent), error) from None
    packed = path.name.endswith(".gz")
    with written(str(path), binary=packed, replace_link=replace_link) as handle:
        if not packed:
            for text in games:
                handle.write(text)
            return
        # (the name in the gzip header is the file's, not its temporary one's)
        with gzip.GzipFile(filename=path.name, mode="wb", fileobj=handle) as packing:
            for text in games:
                packing.write(text.encode("utf-8"))


def _in_the_way(folder: Path, games: int, stale: List[Path]) -> Optional[Path]:
    """A game-NNNNN.sgn of the folder, among those to write or to remove, that is a folder
    (not a link to one): neither written over nor removed, so the run stops before it
    begins. Links are fine: they are replaced or removed, never what they lead to."""
    names = [folder / game_file(i) for i in range(1, games + 1)] + stale
    return next((p for p in names if p.is_dir() and not p.is_symlink()), None)


def _write_folder(folder: Path, args: argparse.Namespace) -> None:
    from .output_file import OutputError, cannot_write

    try:
        folder.mkdir(parents=True, exist_ok=True)
        stale = stale_games(folder, args.games)
    except OSError as error:
        raise cannot_write(describe(Path(error.filename) if error.filename else folder), error) from None
    blocking = _in_the_way(folder, args.games, stale)
    if blocking is not None:
        raise OutputError(
            f"cannot write {describe(folder)}: {describe(blocking)} is a folder, where a game file "
            "goes; nothing was written (move it away)"
        )
    for i, text in enumerate(_games(args), 1):
        _write_file(folder / game_file(i), [text], replace_link=True)
    try:
        for old in stale:
            old.unlink()  # a link itself, never what it leads to
    except OSError as error:
        raise cannot_write(describe(folder), error) from None
    said = f"wrote {count(args.games, 'game')} to {describe(folder)}"
    if stale:
        said += (
            f"; removed {count(len(stale), 'game')} an earlier run left there "
            f"({stale[0].name}{' to ' + stale[-1].name if len(stale) > 1 else ''})"
        )
    sys.stderr.write(said + "\n")
