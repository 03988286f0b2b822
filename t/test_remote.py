"""Logs read through fsspec: a URL (HTTP on the loopback address, fsspec's memory file system,
zip and tar archives, globs) gives the report a local copy of the same bytes gives, under
the URL's name; local paths never import fsspec."""

import gzip
import http.server
import io
import os
import subprocess
import sys
import tarfile
import threading
import zipfile
from functools import partial

import pytest

from sgn.cli import main
from test_jobs import BAD, GOOD, PACKAGE_ROOT

fsspec = pytest.importorskip("fsspec", reason="fsspec is not installed (the extra 'remote')")

FILES = {
    "a.sgn": GOOD + BAD,
    "b.sgn": GOOD * 3,
    "c.sgn.gz": gzip.compress((BAD * 2 + GOOD).encode()),
    "d.sgn": GOOD + "[1]\n" + BAD,
}


def validate(*args):
    """`sgn validate ARGS` in this process (the memory file system is this process's): code, output."""
    out = io.StringIO()
    code = main(["validate", *map(str, args)], out=out)
    return code, out.getvalue()


@pytest.fixture
def local(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for name, data in FILES.items():
        (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


def renamed(text, local_prefix, url_prefix):
    return text.replace(str(local_prefix), url_prefix)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served(local):
    """The folder served over HTTP on 127.0.0.1, in a thread: its base URL."""
    handler = partial(_Quiet, directory=str(local))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("output", ["text", "json"])
def test_files_over_http_give_the_report_of_local_copies(local, served, output):
    pytest.importorskip("aiohttp", reason="fsspec reads HTTP with aiohttp, which is not installed")
    names = sorted(FILES)
    code, expected = validate("-o", output, *(local / name for name in names))
    got = validate("-o", output, *(f"{served}/{name}" for name in names))
    assert code == 1 and expected.count("schema-maximum") == 4  # c.sgn.gz's 2 among them: gzip found by its bytes
    assert got == (code, renamed(expected, local, served))


def test_a_missing_url_is_a_file_not_found_and_a_glob_over_http_is_expanded(local, served):
    pytest.importorskip("aiohttp", reason="fsspec reads HTTP with aiohttp, which is not installed")
    code, out = validate(f"{served}/nope.sgn", f"{served}/a.sgn")
    assert code == 2 and out.startswith(
        f"{served}/nope.sgn: cannot read {served}/nope.sgn: no such file [file-not-found]\n"
    )
    code, expected = validate(*(local / name for name in ("a.sgn", "b.sgn", "d.sgn")))
    assert validate(f"{served}/*.sgn") == (code, renamed(expected, local, served))


@pytest.fixture
def memory(local):
    fs = fsspec.filesystem("memory")
    for path in local.iterdir():
        fs.pipe(f"/logs/{path.name}", path.read_bytes())
    fs.mkdir("/logs/folder")
    yield "memory://logs"
    fs.rm("/logs", recursive=True)


def test_the_memory_file_system_and_its_globs(local, memory):
    names = sorted(FILES)
    code, expected = validate(*(local / name for name in names))
    assert validate(*(f"{memory}/{name}" for name in names)) == (code, renamed(expected, local, memory))
    # a glob: the files it matches, sorted (fsspec names them from the root)
    code, out = validate(f"{memory}/*.sgn*")
    assert (code, out) == (1, renamed(expected, local, "memory:///logs"))
    code, out = validate(f"{memory}/folder", f"{memory}/none-*.sgn")
    assert code == 2 and "[is-a-directory]" in out and f"{memory}/none-*.sgn: cannot read" in out


@pytest.mark.parametrize("pack", ["zip", "tar"])
def test_members_of_zip_and_tar_archives(local, tmp_path, pack):
    archive = tmp_path / f"logs.{pack}"
    if pack == "zip":
        with zipfile.ZipFile(archive, "w") as packed:
            for name in FILES:
                packed.write(local / name, f"games/{name}")
    else:
        with tarfile.open(archive, "w") as packed:
            for name in FILES:
                packed.add(local / name, f"games/{name}")
    names = sorted(FILES)
    code, expected = validate(*(local / name for name in names))
    url = f"{pack}://games/*::{archive}"
    assert validate(url) == (
        code,
        renamed(expected, str(local) + "/", f"{pack}://games/")
        .replace(".sgn:", f".sgn::{archive}:")
        .replace(".sgn.gz:", f".sgn.gz::{archive}:"),
    )
    code, out = validate(f"{pack}://games/missing.sgn::{archive}")
    assert code == 2 and "[file-not-found]" in out


@pytest.mark.parametrize("damage", ["garbage", "empty", "cut", "gzip", "tar-garbage"])
def test_an_archive_that_cannot_be_read_is_a_read_error_not_a_bug(local, tmp_path, damage):
    """`zip://game.sgn::bad.zip` over a file that is no zip (or a damaged one) was reported
    as internal-error, "a bug in sgn": fsspec.open() raised BadZipFile outside the guard."""
    pack = "tar" if damage.startswith("tar") else "zip"
    archive = tmp_path / f"bad.{pack}"
    whole = io.BytesIO()
    with zipfile.ZipFile(whole, "w") as packed:
        packed.write(local / "b.sgn", "game.sgn")
    archive.write_bytes(
        {
            "garbage": b"garbage\n",
            "empty": b"",
            "cut": whole.getvalue()[:40],
            "gzip": gzip.compress(b"garbage\n"),
            "tar-garbage": b"garbage\n" * 100,
        }[damage]
    )
    code, out = validate(f"{pack}://game.sgn::{archive}", local / "b.sgn")
    first = out.splitlines()[0]
    assert code == 2 and "internal-error" not in out and "bug in sgn" not in out, out
    assert first.startswith(f"{pack}://game.sgn::{archive}: cannot read {pack}://game.sgn::{archive}: ")
    assert first.endswith(("[read-error]", "[file-not-found]")), first
    assert f"{local / 'b.sgn'}: valid" in out  # the other files are checked all the same


def test_a_member_missing_from_a_sound_archive_is_not_found(local, tmp_path):
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.write(local / "b.sgn", "game.sgn")
    code, out = validate(f"zip://nope.sgn::{archive}", f"zip://game.sgn::{archive}")
    assert code == 2 and "[file-not-found]" in out.splitlines()[0] and "internal-error" not in out
    assert f"zip://game.sgn::{archive}: valid" in out


def test_any_failure_of_opening_a_url_is_a_read_error(monkeypatch):
    """Whatever a storage library raises while a URL is opened (its own exceptions, not
    OSErrors) is a read-error, never an internal error."""

    def refusing(url, mode="rb", **kwargs):
        raise KeyError("There is no item named 'game.sgn' in the archive")

    monkeypatch.setattr(fsspec, "open", refusing)
    code, out = validate("zip://game.sgn::games.zip")
    assert code == 2 and out.startswith(
        "zip://game.sgn::games.zip: cannot read zip://game.sgn::games.zip: "
        "KeyError: \"There is no item named 'game.sgn' in the archive\" "
        "[read-error]\n"
    ), out


def test_a_url_with_jobs_gives_the_report_of_one_job(local, memory):
    """--jobs forks its workers: each reads the URLs through fsspec as this process does."""
    urls = [f"{memory}/{name}" for name in sorted(FILES)] * 2
    assert validate("-j", "2", *urls) == validate(*urls)


def test_an_unknown_protocol_or_a_missing_package_is_a_usage_error(capsys):
    assert validate("nope://x/a.sgn") == (2, "")
    assert "sgn validate: cannot read nope://x/a.sgn: Protocol not known: nope" in capsys.readouterr().err


def test_local_paths_do_not_import_fsspec(local):
    script = (
        "import sys\nfrom sgn.cli import main\ncode = main(['validate', '-j', '2', *sys.argv[1:]])\n"
        "print(code, 'fsspec' in sys.modules, file=sys.stderr)\n"
    )
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    done = subprocess.run(
        [sys.executable, "-c", script, *(str(local / name) for name in sorted(FILES))],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.stderr.decode().split() == ["1", "False"]


@pytest.mark.skipif(not hasattr(os, "mkfifo") or os.name == "nt", reason="no FIFOs or symlinks on this system")
def test_a_local_url_glob_takes_regular_files_only_and_each_once(tmp_path):
    """`file://.../*.sgn` listed a FIFO (fsspec calls it "other"), which was then opened and
    waited on forever; it is passed over with a warning, as a local glob does (sgn.pipeline.files),
    and a file matched through a symlink and by its own name is checked once."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.sgn").write_text(GOOD)
    (folder / "b.sgn").symlink_to("a.sgn")
    os.mkfifo(folder / "c.sgn")
    (folder / "d.sgn").symlink_to("nowhere")
    (folder / "loop").symlink_to(".")
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    url = f"file://{folder}"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sgn", "validate", f"{url}/**/*.sgn"], capture_output=True, env=env, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the glob of a folder holding a FIFO did not end within 60 s")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        f"{url}/a.sgn: valid (semantic, a fragment: no map at its start, no game replayed): 1 message, 0 errors, "
        "0 warnings"
    ]
    assert done.stderr.decode() == (
        f"sgn validate: warning: {url}/c.sgn skipped: a FIFO (named pipe), not a regular "
        f"file\nsgn validate: warning: {url}/d.sgn skipped: a dangling symlink\n"
    )


@pytest.mark.skipif(not hasattr(os, "link") or os.name == "nt", reason="no hard links or symlinks on this system")
def test_a_local_url_glob_checks_a_hard_linked_file_once_under_its_first_own_name(tmp_path):
    """As a local glob: a file is known by (st_dev, st_ino), not by real path (each hard
    link has its own), and listed under the first of its own names, not a symlink's."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "b.sgn").write_text(GOOD)
    os.link(folder / "b.sgn", folder / "c.sgn")
    (folder / "a.sgn").symlink_to("c.sgn")
    code, out = validate(f"file://{folder}/*.sgn")
    assert code == 0 and out.splitlines() == [
        f"file://{folder}/b.sgn: valid (semantic, a fragment: no map at its "
        "start, no game replayed): 1 message, 0 errors, 0 warnings"
    ]


class _Dropping(io.BytesIO):
    """A remote file (seekable, as fsspec's are) whose connection drops after its first line."""

    def __init__(self):
        super().__init__(GOOD.encode())

    def read(self, size=-1):
        data = super().read(size)
        if not data:
            raise RuntimeError("connection reset by peer")
        return data


def test_a_connection_dropped_while_reading_is_a_read_error(monkeypatch):
    from sgn.pipeline import remote

    opened = type("Opened", (), {"__exit__": lambda self, *a: None})()
    monkeypatch.setattr(remote.RemoteFile, "open_binary", lambda self: remote._Guarded(opened, _Dropping()))
    code, out = validate("https://example.org/game.sgn")
    assert code == 2 and out.startswith(
        "https://example.org/game.sgn:2: reading stopped: RuntimeError: connection reset by peer [read-error]\n"
    )
