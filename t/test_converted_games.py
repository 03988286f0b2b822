"""The converters' output stays as it was (docs/engines.md): a recorded game of each engine and
form converts to the same SGN, byte for byte, as when its expected output was written.

The expected outputs (t/data/converted/, gzipped) are `sgn convert --from ENGINE --to sgn`
of one game of each archive of t/data, chosen for holding every kind of message the
converter writes (a client's log of JSettlers too, with its hidden cards). A change of the
converters' output is deliberate or a fault: when deliberate, write them again with
`python t/test_converted_games.py` and say why in the commit."""

import gzip
import io
import sys
import tarfile
from pathlib import Path

import pytest

from sgn.cli import main

DATA = Path(__file__).resolve().parent / "data"
EXPECTED = DATA / "converted"
GAMES = [
    ("catanatron", "catanatron-json.tar.xz", "catanatron-4p-018.json"),
    ("catanatron", "catanatron-3.3-json.tar.xz", "catanatron-3p-302.json"),
    ("jsettlers", "jsettlers-4p.tar.xz", "jsettlers-4p-007.soclog"),
    ("jsettlers", "jsettlers-6p.tar.xz", "jsettlers-6p-026.soclog"),
    ("jsettlers", "jsettlers-refused.tar.xz", "jsettlers-6p-001-client.soclog"),
]


def converted(engine: str, archive: str, member: str, folder: Path) -> str:
    """What `sgn convert` writes of the game (its diagnostics aside)."""
    with tarfile.open(DATA / archive) as tar:
        data = tar.extractfile(member).read()
    path = folder / member
    path.write_bytes(data)
    out = io.StringIO()
    main(["convert", str(path), "--from", engine, "--to", "sgn"], out=out)
    return out.getvalue()


@pytest.mark.parametrize("engine, archive, member", GAMES, ids=[m for _, _, m in GAMES])
def test_a_recorded_game_converts_to_the_same_sgn_byte_for_byte(engine, archive, member, tmp_path, capsys):
    expected = gzip.decompress((EXPECTED / (member + ".sgn.gz")).read_bytes()).decode("utf-8")
    got = converted(engine, archive, member, tmp_path)
    capsys.readouterr()  # (the conversion's notes on stderr)
    if got != expected:
        lines, wanted = got.split("\n"), expected.split("\n")
        at = next((i for i, (a, b) in enumerate(zip(lines, wanted)) if a != b), min(len(lines), len(wanted)))
        got_line = lines[at] if at < len(lines) else "(the end)"
        wanted_line = wanted[at] if at < len(wanted) else "(the end)"
        pytest.fail(f"{member}: line {at + 1} is\n  {got_line}\nnot\n  {wanted_line}")


if __name__ == "__main__":  # write the expected outputs again
    import tempfile

    EXPECTED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for engine, archive, member in GAMES:
            text = converted(engine, archive, member, Path(folder))
            (EXPECTED / (member + ".sgn.gz")).write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
            print(member, len(text.split("\n")) - 1, "lines", file=sys.stderr)
