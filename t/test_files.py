"""Folders walked for log files (sgn validate DIR), in a stable order, with excludes and
what git ignores left out; files named on the command line always kept."""

import builtins
import fnmatch
import glob
import io
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import sgn
from sgn.pipeline.files import FOLDER, collect, expand_glob, kind
from test_jobs import GOOD

VALID = ": valid (semantic, a fragment: no map at its start, no game replayed): 1 message, 0 errors, 0 warnings"
BAD_ROLL = '["1","RD",{"result":13}]\n'
GOOD_ROLL = '["1","RD",{"result":8}]\n'
INVALID_ROLL = ": INVALID (semantic, a fragment: no map at its start, no game replayed): 1 message, 1 error, 0 warnings"


def _tree(root, names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")


def test_a_folder_gives_its_logs_sorted(tmp_path):
    _tree(
        tmp_path,
        [
            "b.sgn",
            "a.sgn",
            "sub/c.sgn.gz",
            "sub/d.jsonl",
            "notes.txt",
            "x.json",
            ".venv/e.sgn",
            "node_modules/f.sgn",
            "build/g.sgn",
        ],
    )
    found = [os.path.relpath(p, tmp_path) for p in collect([str(tmp_path)], respect_gitignore=False)]
    assert found == ["a.sgn", "b.sgn", os.path.join("sub", "c.sgn.gz"), os.path.join("sub", "d.jsonl")]


def test_include_and_exclude_patterns(tmp_path):
    _tree(tmp_path, ["a.sgn", "b.log", "old/c.sgn"])
    found = collect([str(tmp_path)], include=("*.sgn", "*.log"), exclude=("old",), respect_gitignore=False)
    assert [os.path.basename(p) for p in found] == ["a.sgn", "b.log"]


def test_named_files_are_kept_whatever_their_name_and_found_ones_once(tmp_path):
    _tree(tmp_path, ["a.txt", "b.sgn", "c.sgn"])
    named = [
        str(tmp_path / "a.txt"),
        str(tmp_path / "b.sgn"),
        str(tmp_path),
        "-",
        str(tmp_path / "none.sgn"),
        str(tmp_path / "b.sgn"),
        str(tmp_path),
    ]
    assert collect(named, respect_gitignore=False) == [
        str(tmp_path / "a.txt"),
        str(tmp_path / "b.sgn"),
        str(tmp_path / "c.sgn"),
        "-",
        str(tmp_path / "none.sgn"),
        str(tmp_path / "b.sgn"),
    ]


def test_a_quoted_glob_is_expanded(tmp_path):
    _tree(tmp_path, ["g/2.sgn", "g/1.sgn", "g/3.txt"])
    assert collect([str(tmp_path / "g" / "*.sgn")], respect_gitignore=False) == [
        str(tmp_path / "g" / "1.sgn"),
        str(tmp_path / "g" / "2.sgn"),
    ]
    assert collect([str(tmp_path / "nothing*.sgn")]) == [str(tmp_path / "nothing*.sgn")]  # reported as missing


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed: what git ignores cannot be known")
def test_what_git_ignores_is_left_out(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _tree(tmp_path, ["kept.sgn", "out/ignored.sgn", "new.sgn"])
    (tmp_path / ".gitignore").write_text("out/\n")
    found = [os.path.basename(p) for p in collect([str(tmp_path)])]
    assert found == ["kept.sgn", "new.sgn"]
    assert len(collect([str(tmp_path)], respect_gitignore=False)) == 3
    assert collect([str(tmp_path / "out" / "ignored.sgn")]) == [str(tmp_path / "out" / "ignored.sgn")]


# Symlinks, FIFOs and other files that are not regular: walks and globs take regular files
# only, enter each folder once, list each file once, and end. A guard runs each of them with a
# generous time limit, so that a regression fails instead of hanging the run (a deadlock
# guard, not a speed assumption).

GUARD = 60
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
needs_symlinks = pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")


def _ends(call, *args, **kwargs):
    """call(*args, **kwargs), which must end within GUARD seconds (in a daemon thread, so
    that one that hangs fails the test and is left behind)."""
    done = []
    thread = threading.Thread(target=lambda: done.append(call(*args, **kwargs)), daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), f"{call.__name__} did not end within {GUARD} s"
    assert done, f"{call.__name__} failed (see the thread's exception above)"
    return done[0]


def _cli(*args, cwd, stdin=None):
    """`python -m sgn ARGS` in a process killed after GUARD seconds (the test then fails)."""
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    try:
        return subprocess.run(
            [sys.executable, "-m", "sgn", *map(str, args)],
            cwd=cwd,
            env=env,
            input=stdin,
            capture_output=True,
            timeout=GUARD,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"sgn {' '.join(map(str, args))} did not end within {GUARD} s")


@pytest.fixture
def game(tmp_path):
    game = tmp_path / "game.sgn"
    game.write_text(GOOD)
    return game


@needs_symlinks
@pytest.mark.parametrize("links", [1, 2])
def test_a_glob_over_a_symlink_loop_ends_and_checks_the_file_once(tmp_path, game, links):
    """`sgn validate 'loop/**/*.sgn'` with links to `.`: one link checked the file 41 times,
    two never ended (Python's glob follows symlinks in `**`)."""
    loop = tmp_path / "loop"
    loop.mkdir()
    shutil.copy(game, loop / "game.sgn")
    for n in range(1, links + 1):
        (loop / f"l{n}").symlink_to(".")
    assert _ends(collect, [str(loop / "**" / "*.sgn")], respect_gitignore=False) == [str(loop / "game.sgn")]
    done = _cli("validate", "loop/**/*.sgn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [os.path.join("loop", "game.sgn") + VALID]
    assert done.stderr == b""


@needs_fifo
def test_a_fifo_in_a_folder_is_skipped_with_a_warning_and_the_others_checked(tmp_path, game):
    """`sgn validate f` with a FIFO named b.sgn in f waited for a writer forever, and a.sgn
    got no verdict."""
    folder = tmp_path / "f"
    folder.mkdir()
    shutil.copy(game, folder / "a.sgn")
    os.mkfifo(folder / "b.sgn")
    told = []
    assert _ends(collect, [str(folder)], respect_gitignore=False, warn=lambda *w: told.append(w)) == [
        str(folder / "a.sgn")
    ]
    assert told == [(str(folder / "b.sgn"), "a FIFO (named pipe), not a regular file")]
    for named in ["f", "f/*.sgn", "f/**"]:
        done = _cli("validate", named, cwd=tmp_path)
        assert done.returncode == 0, (named, done.stderr)
        assert done.stdout.decode().splitlines() == [os.path.join("f", "a.sgn") + VALID]
        assert done.stderr.decode() == (
            f"sgn validate: warning: {os.path.join('f', 'b.sgn')} skipped: a FIFO (named pipe), not a regular file\n"
        )


@needs_fifo
def test_a_fifo_named_on_the_command_line_is_still_read(tmp_path, game):
    """What the command line names is taken as given: a FIFO (`<(...)` is one) is read."""
    fifo = tmp_path / "named.sgn"
    os.mkfifo(fifo)
    assert collect([str(fifo)]) == [str(fifo)]

    def feed():
        with open(fifo, "w") as writer:  # waits for the reader
            writer.write(GOOD)

    threading.Thread(target=feed, daemon=True).start()
    done = _cli("validate", "named.sgn", cwd=tmp_path)
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, "named.sgn" + VALID + "\n", b"")


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="no /dev/stdin on this system")
def test_dev_stdin_named_on_the_command_line_is_still_read(tmp_path):
    done = _cli("validate", "/dev/stdin", cwd=tmp_path, stdin=GOOD.encode())
    assert (done.returncode, done.stdout.decode(), done.stderr) == (0, "/dev/stdin" + VALID + "\n", b"")


@pytest.mark.skipif(shutil.which("bash") is None or not os.path.exists("/dev/fd"), reason="no bash or /dev/fd")
def test_a_process_substitution_is_still_read(tmp_path, game):
    command = f"{shlex.quote(sys.executable)} -m sgn validate <(cat game.sgn)"
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, timeout=GUARD)
    assert done.returncode == 0 and done.stdout.decode().endswith(VALID + "\n"), done


@needs_symlinks
def test_a_file_reached_through_links_is_listed_once_by_its_own_name(tmp_path):
    _tree(tmp_path, ["games/b.sgn", "other/c.sgn"])
    (tmp_path / "games" / "a.sgn").symlink_to("b.sgn")  # sorted first, but a link
    (tmp_path / "games" / "z.sgn").symlink_to(tmp_path / "games" / "b.sgn")
    (tmp_path / "games" / "c.sgn").symlink_to(tmp_path / "other" / "c.sgn")
    games = tmp_path / "games"
    assert collect([str(games)], respect_gitignore=False) == [str(games / "b.sgn"), str(games / "c.sgn")]
    # a glob too: a.sgn, sorted first, is a link to b.sgn, which the glob also matches
    assert collect([str(games / "*.sgn")], respect_gitignore=False) == [str(games / "b.sgn"), str(games / "c.sgn")]
    assert collect([str(games / "[ac].sgn")], respect_gitignore=False) == [str(games / "a.sgn"), str(games / "c.sgn")]
    # across the names of the command line too, but for a file named twice
    assert collect([str(tmp_path / "other"), str(games)], respect_gitignore=False) == [
        str(tmp_path / "other" / "c.sgn"),
        str(games / "b.sgn"),
    ]
    assert collect([str(games / "a.sgn"), str(games / "a.sgn")]) == [str(games / "a.sgn")] * 2


@needs_symlinks
def test_a_glob_names_a_file_as_a_walk_does_so_the_verdict_is_the_same(tmp_path):
    """`'*.sgn'` named z.sgn by its link a.sgn (sorted first), so that a per-file ignore of
    z.sgn did not apply to it: "a.sgn: INVALID", where the walk of `.` said "./z.sgn: valid"."""
    (tmp_path / "z.sgn").write_text(BAD_ROLL)
    (tmp_path / "a.sgn").symlink_to("z.sgn")
    ignore = ["--per-file-ignores", "z.sgn:schema-maximum"]
    done = _cli("validate", "--isolated", "*.sgn", *ignore, cwd=tmp_path)
    walked = _cli("validate", "--isolated", ".", *ignore, cwd=tmp_path)
    assert (done.returncode, walked.returncode) == (0, 0), (done.stdout, walked.stdout)
    assert done.stdout.decode().splitlines()[0].startswith("z.sgn: valid")
    assert walked.stdout.decode().splitlines()[0].startswith(os.path.join(".", "z.sgn") + ": valid")


needs_hard_links = pytest.mark.skipif(not hasattr(os, "link"), reason="no hard links on this system")


@needs_hard_links
def test_hard_links_are_checked_once_under_their_first_name(tmp_path, monkeypatch):
    """Files were told apart by real path, and each hard link has its own: `sgn validate .`
    checked a file and its hard link twice. Walks and globs know a file by (st_dev, st_ino)
    and list it once, under the first of its names in sorted order (a name of its own before
    a symlink's); files named on the command line are taken as given."""
    monkeypatch.chdir(tmp_path)
    _tree(tmp_path, ["sub/c.sgn"])
    Path("sub", "c.sgn").write_text(GOOD_ROLL)
    Path("b.sgn").write_text(BAD_ROLL)
    os.link("b.sgn", "a.sgn")
    os.link("b.sgn", os.path.join("sub", "b.sgn"))
    os.link(os.path.join("sub", "c.sgn"), "d.sgn")
    if os.name != "nt":
        Path("0.sgn").symlink_to("b.sgn")  # sorted first, but a symlink
    dot = os.path.join(".", "")
    assert collect(["."], respect_gitignore=False) == [dot + "a.sgn", dot + "d.sgn"]
    assert collect(["*.sgn"], respect_gitignore=False) == ["a.sgn", "d.sgn"]
    assert collect(["**/*.sgn"], respect_gitignore=False) == ["a.sgn", "d.sgn"]
    assert collect(["sub", "."], respect_gitignore=False) == [os.path.join("sub", n) for n in ("b.sgn", "c.sgn")]
    assert collect(["[bd].sgn", "sub/*"], respect_gitignore=False) == ["b.sgn", "d.sgn"]
    # named: as given, twice if named twice, and not again in a walk after
    assert collect(["b.sgn", "a.sgn", "b.sgn", "."], respect_gitignore=False) == [
        "b.sgn",
        "a.sgn",
        "b.sgn",
        dot + "d.sgn",
    ]
    done = _cli("validate", "--isolated", "-o", "concise", ".", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    verdicts = [line.split(": ")[:2] for line in done.stdout.decode().splitlines() if ":1:" not in line]
    assert [(name, verdict.split()[0]) for name, verdict in verdicts] == [
        (dot + "a.sgn", "INVALID"),
        (dot + "d.sgn", "valid"),
        ("2 files", "INVALID"),
    ]


@pytest.mark.skipif(shutil.which("git") is None or not hasattr(os, "link"), reason="no git, or no hard links")
def test_a_hard_link_that_git_ignores_leaves_its_other_names_checked(tmp_path):
    """What git ignores is left out before the names of a file are merged: a file is not
    lost because the name it would be listed under is ignored."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.sgn").write_text(GOOD)
    os.link(tmp_path / "a.sgn", tmp_path / "b.sgn")
    (tmp_path / ".gitignore").write_text("a.sgn\n")
    assert collect([str(tmp_path)]) == [str(tmp_path / "b.sgn")]
    assert collect([str(tmp_path)], respect_gitignore=False) == [str(tmp_path / "a.sgn")]


@needs_symlinks
def test_a_symlink_to_a_folder_is_not_followed_inside_a_walk_but_is_when_named(tmp_path):
    """As ruff, `git ls-files` and bash's globstar leave them, a walk and `**` pass over a
    symlink to a folder; one named on the command line is walked, and so is one that a `*`
    of a glob matches, as the shell would have named it."""
    _tree(tmp_path, ["games/a.sgn", "elsewhere/b.sgn", "elsewhere/deep/c.sgn"])
    (tmp_path / "games" / "linked").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "games" / "up").symlink_to("..")
    games = tmp_path / "games"
    found = [str(games / "a.sgn")]
    assert collect([str(games)], respect_gitignore=False) == found
    assert collect([str(games / "**" / "*.sgn")], respect_gitignore=False) == found
    assert collect([str(games / "**")], respect_gitignore=False) == found
    through = [str(games / "linked" / "b.sgn"), str(games / "linked" / "deep" / "c.sgn")]
    assert collect([str(games / "linked")], respect_gitignore=False) == through
    assert collect([str(games / "link*")], respect_gitignore=False) == through
    assert collect([str(games / "*" / "*.sgn")], respect_gitignore=False) == through[:1]
    assert collect([str(games / "linked" / "**" / "*.sgn")], respect_gitignore=False) == through
    # through `up`, games/ is met again, and its file is not listed twice
    assert collect([str(games / "*" / "games" / "*.sgn"), str(games)], respect_gitignore=False) == [
        str(games / "up" / "games" / "a.sgn")
    ]


@needs_symlinks
def test_what_is_not_a_regular_file_is_skipped_with_a_warning_in_the_order_of_paths(tmp_path):
    _tree(tmp_path, ["d/ok.sgn", "d/target.txt"])
    folder = tmp_path / "d"
    (folder / "dangling.sgn").symlink_to("nowhere")
    (folder / "loop.sgn").symlink_to("loop.sgn")
    (folder / "text.sgn").symlink_to("target.txt")  # a link to a regular file: taken
    (folder / "notes").symlink_to("nowhere")  # not a log: not looked at
    kinds = {"dangling.sgn": "a dangling symlink", "loop.sgn": "a symlink loop"}
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.sgn")
        (folder / "to-pipe.sgn").symlink_to("pipe.sgn")
        kinds.update(
            {
                "pipe.sgn": "a FIFO (named pipe), not a regular file",
                "to-pipe.sgn": "a symlink to a FIFO (named pipe), not a regular file",
            }
        )
    for named in [str(folder), str(folder / "*.sgn")]:
        told = []
        found = _ends(collect, [named], respect_gitignore=False, warn=lambda *w: told.append(w))
        assert found == [str(folder / "ok.sgn"), str(folder / "text.sgn")]
        assert told == [(str(folder / name), why) for name, why in sorted(kinds.items())]


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets on this system")
def test_a_socket_is_named_as_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short path: a socket's path has a small limit
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind("s.sgn")
        assert kind("s.sgn") == "a socket, not a regular file"
        told = []
        assert collect(["."], respect_gitignore=False, warn=lambda *w: told.append(w)) == []
        assert told == [(os.path.join(".", "s.sgn"), "a socket, not a regular file")]
    finally:
        server.close()
    assert kind(str(tmp_path)) == FOLDER and kind(os.devnull) == "a character device, not a regular file"


def test_a_folder_that_cannot_be_read_is_named_in_a_warning(tmp_path, monkeypatch):
    _tree(tmp_path, ["a.sgn", "closed/b.sgn"])
    listing = os.scandir

    def scandir(path="."):  # as for a folder without permission (the superuser has it)
        if os.path.basename(path) == "closed":
            raise PermissionError(13, "Permission denied", path)
        return listing(path)

    monkeypatch.setattr(os, "scandir", scandir)
    told = []
    assert collect([str(tmp_path)], respect_gitignore=False, warn=lambda *w: told.append(w)) == [
        str(tmp_path / "a.sgn")
    ]
    assert told == [(str(tmp_path / "closed"), "a folder that cannot be read (Permission denied)")]


# Properties over random small trees: folders, files, hard links, symlinks to files and to
# folders (loops among them: `.`, `..`, a link to itself), dangling symlinks and FIFOs.

NAMES = ["a", "b", "c.sgn", "d.sgn", "e.sgn", "f.txt"]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "folder",
                "file",
                "link",
                "fifo" if hasattr(os, "mkfifo") else "file",
                "hard" if hasattr(os, "link") else "file",
            ]
        ),
        st.integers(0, 9),
        st.sampled_from(NAMES),
        st.integers(0, 30),
        st.booleans(),
    ),
    max_size=24,
)


def _build(root, steps, folder_links=True):
    """The tree the steps make under `root`: each step adds a folder, a file, a FIFO, a hard
    link to a file made before, or a symlink (relative or absolute, to a node made before, to
    itself, to nowhere) to a folder made before."""
    folders, nodes = [root], [root]
    for what, parent, name, target, absolute in steps:
        path = folders[parent % len(folders)] / name
        if os.path.lexists(path):
            continue
        if what == "folder":
            path.mkdir()
            folders.append(path)
        elif what == "file":
            path.write_text(GOOD)
        elif what == "fifo":
            os.mkfifo(path)
        elif what == "hard":
            files = [node for node in nodes if node.is_file() and not node.is_symlink()]
            if not files:
                continue
            os.link(files[target % len(files)], path)
        else:
            choices = nodes + [path.parent / "missing", path, path.parent, path.parent.parent]
            to = choices[target % len(choices)]
            if not folder_links and to.is_dir():
                continue
            path.symlink_to(to if absolute else os.path.relpath(to, path.parent))
        nodes.append(path)


def _identity(path):
    info = os.stat(path)
    return info.st_dev, info.st_ino


def _regular_reachable(root, pattern="*.sgn"):
    """The oracle: the regular files named `pattern` in the folders that are reached from
    `root` without following a symlink to a folder, known by (st_dev, st_ino)."""
    found = set()
    for folder, _, names in os.walk(root):  # followlinks=False: links to folders not entered
        for name in fnmatch.filter(names, pattern):
            path = os.path.join(folder, name)
            if os.path.isfile(path):  # a regular file, through symlinks
                found.add(_identity(path))
    return found


def _best_names(root, pattern="*.sgn"):
    """The oracle of names: for each of those files, the name a walk lists it under, of
    those that reach it there: one of its own before a symlink, then the first in sorted
    order."""
    best = {}
    for folder, _, names in os.walk(root):
        for name in fnmatch.filter(names, pattern):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                key, name = _identity(path), (os.path.islink(path), path)
                best[key] = min(best.get(key, name), name)
    return sorted(path for _, path in best.values())


class _Opened:
    """Records what is opened (builtins.open, io.open, os.open) while it is in force."""

    def __init__(self, monkeypatch):
        self.paths = []
        for owner, name in [(builtins, "open"), (io, "open"), (os, "open")]:
            original = getattr(owner, name)
            monkeypatch.setattr(owner, name, self._recording(original))

    def _recording(self, original):
        def opening(path, *args, **kwargs):
            self.paths.append(path)
            return original(path, *args, **kwargs)

        return opening


@needs_symlinks
@given(STEPS)
def test_walks_and_globs_end_list_each_regular_file_once_and_open_nothing(steps):
    with tempfile.TemporaryDirectory() as temporary, pytest.MonkeyPatch.context() as patch:
        root = Path(temporary) / "root"
        root.mkdir()
        _build(root, steps)
        expected, regular = _regular_reachable(root), _regular_reachable(root, "*")
        best = _best_names(root)
        opened = _Opened(patch)
        for names in (
            [str(root)],
            [str(root / "**" / "*.sgn")],
            [str(root), str(root / "**" / "*.sgn")],
            [str(root / "**")],
            [str(root / "*" / "*.sgn")],
            [str(root / "**" / "*" / "**" / "*.sgn")],
        ):
            found = _ends(collect, names, include=("*.sgn",), respect_gitignore=False, warn=lambda *w: None)
            found = [path for path in found if path not in names]  # a glob that matched nothing
            files = [_identity(path) for path in found]
            assert len(files) == len(set(files)), (names, found)  # each file once
            assert all(os.path.isfile(path) for path in found), (names, found)  # regular files only
            assert set(files) <= regular, (names, found)
            if names[-1] in (str(root), str(root / "**" / "*.sgn")):  # every one reachable
                assert set(files) == expected, (names, found)
            if len(names) == 1 and names[-1] in (str(root), str(root / "**" / "*.sgn")):  # by its best name
                assert found == best, (names, found)
            again = collect(names, include=("*.sgn",), respect_gitignore=False, warn=lambda *w: None)
            assert [path for path in again if path not in names] == found  # the same order
        assert [path for path in opened.paths if not os.path.isfile(path)] == []


@needs_symlinks
@given(STEPS)
def test_a_glob_matches_what_pythons_does_where_no_link_to_a_folder_is_met(steps):
    """Without symlinks to folders (the one thing `**` leaves, where Python's follows them),
    the glob is Python's, hidden names and trailing slashes included."""
    with tempfile.TemporaryDirectory() as temporary, pytest.MonkeyPatch.context() as patch:
        root = Path(temporary)
        (root / ".hidden").mkdir()
        (root / ".hidden" / "h.sgn").write_text("")
        (root / ".h.sgn").write_text("")
        _build(root, steps, folder_links=False)
        patch.chdir(root)
        for pattern in [
            "**",
            "**/*.sgn",
            "*/",
            "**/",
            "*",
            ".*",
            "**/.*",
            "*/**/*.sgn",
            "a/**",
            "**/a/**/*.sgn",
            "[ab]/*",
            "?.sgn",
            "a/../**/*.sgn",
            "./**/c.sgn",
            ".hidden/**",
            "nothing*",
        ]:
            for written in [pattern, str(root / pattern)]:
                assert expand_glob(written) == sorted({m for m in glob.glob(written, recursive=True) if m}), written


# What a walk or a glob finds is a local path, whatever its name: nothing downstream may read
# it as standard input (`-`) or as a URL (`proto::...`).


@pytest.mark.skipif(os.name == "nt", reason="`:` is no file name character on Windows")
def test_glob_matches_with_special_names_are_local_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ["-", "ok.sgn", "simplecache::ok.sgn", "x::y.sgn", "proto::d/in.sgn"]:
        _tree(tmp_path, [name])
    local = os.curdir + os.sep
    assert collect(["*"], respect_gitignore=False) == [
        local + "-",
        "ok.sgn",
        local + os.path.join("proto::d", "in.sgn"),
        local + "simplecache::ok.sgn",
        local + "x::y.sgn",
    ]
    assert collect(["s*.sgn", "x*"], respect_gitignore=False) == [local + "simplecache::ok.sgn", local + "x::y.sgn"]
    assert collect(["."], respect_gitignore=False) == [
        os.path.join(".", n) for n in ["ok.sgn", "proto::d/in.sgn", "simplecache::ok.sgn", "x::y.sgn"]
    ]
    # named on the command line, `-` and URLs are read as given, never globbed here
    assert collect(["-", "simplecache::*.sgn", "x::y.sgn"]) == ["-", "simplecache::*.sgn", "x::y.sgn"]


@pytest.mark.skipif(os.name == "nt", reason="`:` is no file name character on Windows")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_glob_never_reads_standard_input_or_a_url_for_a_file_it_matches(tmp_path, jobs):
    """`sgn validate '*'` over a file named `-` read standard input ("<stdin>: valid", exit 0)
    and gave the file no verdict; `s*.sgn` over `simplecache::ok.sgn` checked ok.sgn through
    fsspec instead; `*.sgn` over `x::y.sgn` ended the run: "Protocol not known: x"."""
    dash, colon = tmp_path / "dash", tmp_path / "colon"
    dash.mkdir()
    colon.mkdir()
    (dash / "-").write_text(BAD_ROLL)
    done = _cli("validate", "--isolated", "-j", jobs, "*", cwd=dash, stdin=GOOD_ROLL.encode())
    assert (done.returncode, done.stderr) == (1, b""), done.stderr
    assert done.stdout.decode().splitlines()[-1] == os.path.join(".", "-") + INVALID_ROLL
    assert b"<stdin>" not in done.stdout
    (colon / "simplecache::ok.sgn").write_text(BAD_ROLL)
    (colon / "ok.sgn").write_text(GOOD_ROLL)
    done = _cli("validate", "--isolated", "-j", jobs, "s*.sgn", cwd=colon)
    assert (done.returncode, done.stderr) == (1, b""), done.stderr
    assert done.stdout.decode().splitlines()[-1] == os.path.join(".", "simplecache::ok.sgn") + INVALID_ROLL
    (colon / "x::y.sgn").write_text("x\n")
    done = _cli("validate", "--isolated", "-j", jobs, "-q", "-o", "concise", "*.sgn", cwd=colon)
    assert (done.returncode, done.stderr) == (1, b""), done.stderr
    names = [line.split(":1:")[0] for line in done.stdout.decode().splitlines()]
    assert names == [os.path.join(".", "simplecache::ok.sgn"), os.path.join(".", "x::y.sgn")]
    # named as the walk of the folder names them
    walked = _cli("validate", "--isolated", "-j", jobs, "-q", "-o", "concise", ".", cwd=colon)
    assert walked.stdout == done.stdout
