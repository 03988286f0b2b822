"""`sgn generate -o`: standard output, one file (its name has a suffix; .gz compresses),
or a folder of game-NNNNN.sgn, where a new run leaves no game of an earlier one."""

import argparse
import gzip

import pytest

from conftest import run_cli
from sgn.cli import build_parser, generate

TWO = ("generate", "--games", "2", "--seed", "5", "--players", "3")


@pytest.fixture(scope="module")
def stream():
    """The two games on standard output: what every other target must hold."""
    result = run_cli(*TWO)
    assert result.returncode == 0 and result.stdout.count(b'"DM"') == 2
    return result.stdout


@pytest.mark.parametrize(
    "output, kind",
    [
        ("-", generate.STDOUT),
        ("new.sgn", generate.FILE),
        ("games.txt", generate.FILE),
        ("g.sgn.gz", generate.FILE),
        ("out", generate.FOLDER),
        ("out.d/", generate.FOLDER),
        ("deep/er/new.sgn", generate.FILE),
    ],
)
def test_target_of_a_path_that_does_not_exist(tmp_path, monkeypatch, output, kind):
    monkeypatch.chdir(tmp_path)
    assert generate.target(output)[0] == kind


def test_an_existing_folder_or_file_is_what_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.sgn").mkdir()
    (tmp_path / "plain").write_text("")
    assert generate.target("games.sgn")[0] == generate.FOLDER and generate.target("plain")[0] == generate.FILE


def test_a_name_with_a_suffix_is_one_file_of_the_games(tmp_path, stream):
    result = run_cli(*TWO, "-o", tmp_path / "sub" / "new.sgn")
    assert result.returncode == 0 and (tmp_path / "sub" / "new.sgn").read_bytes() == stream
    assert result.stderr.decode() == f"wrote 2 games to {tmp_path / 'sub' / 'new.sgn'}\n"
    packed = run_cli(*TWO, "-o", tmp_path / "new.sgn.gz", "-j", "2")
    assert packed.returncode == 0 and gzip.decompress((tmp_path / "new.sgn.gz").read_bytes()) == stream
    checked = run_cli("validate", tmp_path / "new.sgn.gz")
    assert checked.returncode == 0 and b"valid (rules, 2 games)" in checked.stdout


def test_a_folder_keeps_the_games_of_the_last_run_only(tmp_path, stream):
    folder = tmp_path / "out"
    assert run_cli("generate", "--games", "4", "-o", folder).returncode == 0
    (folder / "notes.txt").write_text("mine")
    (folder / "game-7.sgn").write_text("not a name sgn writes")
    result = run_cli(*TWO, "-o", folder)
    assert result.returncode == 0
    assert sorted(p.name for p in folder.iterdir()) == ["game-00001.sgn", "game-00002.sgn", "game-7.sgn", "notes.txt"]
    assert (folder / "game-00001.sgn").read_bytes() + (folder / "game-00002.sgn").read_bytes() == stream
    assert result.stderr.decode() == (
        f"wrote 2 games to {folder}; removed 2 games an earlier run left there (game-00003.sgn to game-00004.sgn)\n"
    )


def test_what_cannot_be_written_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "file.sgn").write_text("")
    result = run_cli("generate", "-o", tmp_path / "file.sgn" / "new.sgn")
    assert result.returncode == 2 and result.stderr.decode().startswith("sgn generate: cannot write ")
    assert len(result.stderr.splitlines()) == 1


def test_the_options_say_what_they_do_and_the_default_seed():
    parser = build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    options = {a.dest: a for a in commands.choices["generate"]._actions}
    for name in ("games", "players", "seed", "output", "jobs"):
        assert options[name].help and len(options[name].help) > 20, name
    assert options["seed"].default == 0 and "(default 0)" in options["seed"].help
    assert "(default 0)" in " ".join(run_cli("generate", "--help").stdout.decode().split())


def test_nothing_is_written_outside_the_output_folder(tmp_path, stream):
    """A game-NNNNN.sgn of the folder that is a link (symbolic or hard) to a file elsewhere is
    replaced, or removed when stale: the file it leads to is never written nor removed."""
    outside = tmp_path / "important.sgn"
    outside.write_text("precious\n")
    also = tmp_path / "also.sgn"
    also.write_text("mine too\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "game-00001.sgn").symlink_to("../important.sgn")
    (folder / "game-00002.sgn").hardlink_to(also)
    (folder / "game-00003.sgn").symlink_to(outside)  # stale: the link goes, not the file
    (folder / "game-00004.sgn").symlink_to(tmp_path / "nowhere.sgn")  # a dangling link is stale too
    result = run_cli(*TWO, "-o", f"{folder}/")
    assert result.returncode == 0, result.stderr
    assert outside.read_text() == "precious\n" and also.read_text() == "mine too\n"
    assert not (tmp_path / "nowhere.sgn").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["also.sgn", "important.sgn", "out"]
    written = [folder / "game-00001.sgn", folder / "game-00002.sgn"]
    assert sorted(folder.iterdir()) == written and not any(p.is_symlink() for p in written)
    assert b"".join(p.read_bytes() for p in written) == stream
    (folder / "game-00001.sgn").unlink()
    (folder / "game-00001.sgn").symlink_to("/dev/null")  # a link to a device: the link is replaced too
    assert run_cli(*TWO, "-o", folder).returncode == 0 and not (folder / "game-00001.sgn").is_symlink()
    assert b"".join(p.read_bytes() for p in written) == stream


@pytest.mark.parametrize("in_the_way", ["game-00002.sgn", "game-00006.sgn"])
def test_a_folder_in_the_way_stops_the_run_before_anything_is_written(tmp_path, in_the_way):
    """A folder named as a game to write, or as a stale one to remove, is neither: the run
    stops before it writes anything, and says which (not "Is a directory" once written)."""
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "game-00001.sgn").write_text("an earlier game\n")
    (folder / in_the_way).mkdir()
    result = run_cli(*TWO, "-o", folder)
    said = result.stderr.decode()
    assert result.returncode == 2 and len(said.splitlines()) == 1, said
    assert said.startswith("sgn generate: cannot write ") and f"{folder / in_the_way} is a folder" in said
    assert (folder / "game-00001.sgn").read_text() == "an earlier game\n"
    assert sorted(p.name for p in folder.iterdir()) == ["game-00001.sgn", in_the_way]
