"""No command writes over one of its inputs, and a usage error writes nothing: an output
that is, or resolves to, an input is refused (exit 2) before anything is opened for writing
(sgn/cli/output_file.py)."""

import functools
import importlib.util
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sgn
from conftest import bundle_of, corpus_cases, run_cli, scaled
from sgn import conformance, packaged
from sgn.cli import main


@functools.lru_cache(maxsize=None)
def example_game():
    return run_cli("example", "game").stdout


def small_bundle():
    """A bundle of a few syntax cases: the tests of what a report may be written over need one
    to read, of any size (the packaged one, 800-odd cases, takes 0.4 s to read, in each run)."""
    return bundle_of(conformance.select(corpus_cases(), level="syntax")[:3])


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """`--cases FILE` of `small_bundle()`, FILE outside the folders the tests look at."""
    path = tmp_path_factory.mktemp("bundle") / "cases.json"
    path.write_text(small_bundle(), encoding="utf-8")
    return ["--cases", path]


@pytest.fixture
def log(tmp_path):
    game = example_game()
    path = tmp_path / "ow.sgn"
    path.write_bytes(game)
    return path, game


def _aliases(path):
    """Ways of naming `path` again: itself, relative, through a symlink, a hard link."""
    folder = path.parent
    (folder / "link.out").symlink_to(path.name)
    os.link(path, folder / "hard.out")
    (folder / "sub").mkdir()
    return [path.name, "./" + path.name, "sub/../" + path.name, "link.out", "hard.out", str(path)]


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--isolated", "{log}", "--output-file", "{out}"],
        pytest.param(
            ["validate", "--isolated", "-o", "parquet", "{log}", "--output-file", "{out}"],
            marks=pytest.mark.skipif(
                importlib.util.find_spec("pyarrow") is None,
                reason="pyarrow is not installed (the extra 'parquet'): -o parquet stops first to say so",
            ),
        ),
        ["validate", "--isolated", "-j", "2", "{log}", "{log}", "{log}", "--output-file", "{out}"],
        ["validate", "--isolated", ".", "--output-file", "{out}"],  # a walked folder
        ["validate", "--isolated", "*.sgn", "--output-file", "{out}"],  # a glob
        ["report", "{log}", "-o", "{out}"],
        ["render", "{log}", "-o", "{out}"],
        ["render", "{log}", "-o", "{out}", "--at", "3"],
    ],
)
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(log, command):
    path, game = log
    for alias in _aliases(path):
        args = [a.format(log=path.name, out=alias) for a in command]
        result = run_cli(*args, cwd=path.parent)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert b"is the input" in result.stderr and b"internal error" not in result.stderr
        assert path.read_bytes() == game, args
        for name in ("link.out", "hard.out"):
            assert (path.parent / name).read_bytes() == game


def test_standard_input_redirected_from_the_output_is_refused(log):
    path, game = log
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    with open(path, "rb") as stdin:  # sgn validate - --output-file ow.sgn < ow.sgn
        result = subprocess.run(
            [sys.executable, "-m", "sgn", "validate", "--isolated", "-", "--output-file", path.name],
            stdin=stdin,
            env=env,
            cwd=path.parent,
            capture_output=True,
            timeout=120,
        )
    assert result.returncode == 2 and b"standard input" in result.stderr
    assert path.read_bytes() == game


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("report, named", [("report.jsonl", "."), ("report.jsonl", "*.jsonl"), ("ow.sgn", "ow.sgn")])
def test_standard_output_redirected_to_a_file_checked_is_refused(log, jobs, report, named):
    """`sgn validate . > report.jsonl` in the folder it walks read its own report as it grew,
    for ever (2.8 GB in 13 minutes); `sgn validate ow.sgn >> ow.sgn` read what it wrote."""
    path, game = log
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    with open(path.parent / report, "ab") as stdout:  # sgn validate NAMED >> REPORT
        result = subprocess.run(
            [sys.executable, "-m", "sgn", "validate", "--isolated", "-o", "jsonl", "-j", jobs, named],
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=env,
            cwd=path.parent,
            timeout=120,  # a guard against the loop it was, not a measure of speed
        )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(b"sgn validate: standard output is redirected to ")
    assert b"one of the files checked" in result.stderr and b"Traceback" not in result.stderr
    assert path.read_bytes() == game
    assert (path.parent / report).stat().st_size == (len(game) if report == "ow.sgn" else 0)


def test_standard_output_elsewhere_is_written(log, tmp_path_factory):
    path, game = log
    out = tmp_path_factory.mktemp("elsewhere") / "report.jsonl"
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    with open(out, "wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "sgn", "validate", "--isolated", "-o", "jsonl", "."],
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=env,
            cwd=path.parent,
            timeout=120,
        )
    assert result.returncode == 0 and result.stderr == b"" and out.read_bytes() == b""


def test_the_configuration_file_is_an_input_too(log):
    path, game = log
    config = path.parent / "sgn.toml"
    config.write_text('level = "rules"\n')
    result = run_cli("validate", path.name, "--output-file", "sgn.toml", cwd=path.parent)
    assert result.returncode == 2 and config.read_text() == 'level = "rules"\n'


@pytest.mark.parametrize(
    "usage_error",
    [
        ["--select", "no-such-code"],
        ["--jobs", "2", "--dask", "local:1"],
        ["--config", "missing.toml"],
        ["--output", "nonsense"],
        ["--dask", "nonsense-address-without-scheme:0"],
    ],
)
def test_a_usage_error_writes_nothing(log, usage_error):
    path, game = log
    target = path.parent / "report.txt"
    target.write_text("an earlier report\n")
    result = run_cli(
        "validate",
        "--isolated" if "--config" not in usage_error else "-q",
        path.name,
        *usage_error,
        "--output-file",
        target.name,
        cwd=path.parent,
    )
    assert result.returncode == 2, result.stderr
    assert target.read_text() == "an earlier report\n"


def test_a_new_output_beside_its_input_is_written(log):
    path, game = log
    result = run_cli("validate", "--isolated", path.name, "--output-file", "out.txt", cwd=path.parent)
    assert result.returncode == 0 and b"valid" in (path.parent / "out.txt").read_bytes()
    assert path.read_bytes() == game


COMMANDS = [
    ["validate", "--isolated", "{log}", "--output-file", "{out}"],
    ["validate", "--isolated", "-o", "{format}", "{log}", "other.sgn", "--output-file", "{out}"],
    [
        "validate",
        "--isolated",
        "-j",
        "2",
        "-o",
        "{format}",
        "other.sgn",
        "{log}",
        "other.sgn",
        "--output-file",
        "{out}",
    ],
    ["validate", "--isolated", ".", "--output-file", "{out}"],
    ["report", "{log}", "-o", "{out}"],
    ["render", "{log}", "-o", "{out}"],
    ["render", "{log}", "--at", "2", "-o", "{out}"],
]


@settings(max_examples=scaled(30), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(COMMANDS),
    alias=st.integers(0, 5),
    output=st.sampled_from(["text", "json", "jsonl", "github", "junit", "sarif", "parquet"]),
    extra=st.sampled_from([[], ["--select", "schema-*"], ["--max-errors", "1"], ["--color", "always"], ["-q"]]),
)
def test_no_command_ever_writes_to_an_input(tmp_path_factory, command, alias, output, extra):
    folder = tmp_path_factory.mktemp("inputs")
    game = example_game()
    (folder / "ow.sgn").write_bytes(game)
    (folder / "other.sgn").write_bytes(game[:200].rsplit(b"\n", 1)[0] + b"\n")
    names = _aliases(folder / "ow.sgn")
    args = [a.format(log="ow.sgn", out=names[alias], format=output) for a in command]
    if args[0] == "validate":
        args += extra
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}
    here = os.getcwd()
    os.chdir(folder)
    try:
        code = main(args, out=io.StringIO())
    finally:
        os.chdir(here)
    assert code == 2
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}
    assert after == before


@pytest.mark.parametrize("report", ["impl.py", "cases.json", "skip.txt"])
def test_the_conformance_report_is_never_written_over_an_input(tmp_path, report):
    (tmp_path / "impl.py").write_text("import sys\nsys.exit(0)\n")
    (tmp_path / "skip.txt").write_text("nothing-*\n")
    (tmp_path / "cases.json").write_text(small_bundle(), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = run_cli(
        "conformance",
        "--impl",
        f"{sys.executable} impl.py",
        "--cases",
        "cases.json",
        "--skip-file",
        "skip.txt",
        "--report",
        report,
        cwd=tmp_path,
    )
    assert result.returncode == 2 and b"is the input" in result.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("command", [["report", "{fifo}", "-o", "page.html"], ["render", "{fifo}", "-o", "b.svg"]])
def test_a_pipe_named_as_a_file_is_read_once_as_its_content(log, command):
    """`sgn report <(cat game.sgn)`: a path that is no regular file is read once into memory,
    so that the second reading does not find it empty."""
    import threading

    path, game = log
    fifo = path.parent / "pipe.sgn"
    os.mkfifo(fifo)
    feeder = threading.Thread(target=lambda: fifo.write_bytes(game))
    feeder.start()
    result = run_cli(*[a.format(fifo=fifo.name) for a in command], cwd=path.parent)
    feeder.join(60)
    direct = run_cli(
        *[a.format(fifo=path.name) for a in command[:2]], "-o", "direct" + command[-1][-5:], cwd=path.parent
    )
    assert result.returncode == direct.returncode == 0, result.stderr
    assert b"empty-file" not in result.stderr
    written = (path.parent / command[-1]).read_bytes()
    assert written.replace(b"pipe.sgn", b"ow.sgn") == (path.parent / ("direct" + command[-1][-5:])).read_bytes()


def test_a_png_too_large_to_draw_is_a_usage_error(log):
    pytest.importorskip("cairosvg", reason="cairosvg is not installed (the extra 'png')")
    path, game = log
    result = run_cli("render", path.name, "--size", "40000", "-o", "big.png", cwd=path.parent)
    assert result.returncode == 2 and b"at most" in result.stderr and b"internal error" not in result.stderr


# URLs that read a local file: sgn validate reads them through fsspec, and the file they end at
# is an input like any other (`file://`, `local://`, a `::` chain ending at a local path).

needs_fsspec = pytest.mark.skipif(
    importlib.util.find_spec("fsspec") is None, reason="fsspec is not installed (the extra 'remote')"
)


@pytest.fixture
def logs(tmp_path):
    """ow.sgn, and games.zip holding it as ow.sgn and as games/ow.sgn."""
    game = example_game()
    (tmp_path / "ow.sgn").write_bytes(game)
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as packed:
        packed.writestr("ow.sgn", game)
        packed.writestr("games/ow.sgn", game)
    return tmp_path


def _validate_here(folder, *args):
    """`sgn validate ARGS` in this process (fsspec's caches are this process's), in `folder`:
    the exit status."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        code = main(["validate", "--isolated", *args], out=io.StringIO())
    finally:
        os.chdir(here)
    return code


@needs_fsspec
@pytest.mark.parametrize(
    "url, target",
    [
        ("file://{folder}/ow.sgn", "ow.sgn"),
        ("file://ow.sgn", "ow.sgn"),  # fsspec reads it from the working folder
        ("local://{folder}/ow.sgn", "ow.sgn"),
        ("file://{folder}/*.sgn", "ow.sgn"),  # a glob: the files it matches
        ("simplecache::ow.sgn", "ow.sgn"),
        ("simplecache::file://{folder}/ow.sgn", "ow.sgn"),
        ("filecache::{folder}/ow.sgn", "ow.sgn"),
        ("zip://ow.sgn::games.zip", "games.zip"),
        ("zip://*.sgn::games.zip", "games.zip"),
        ("zip://games/ow.sgn::file://{folder}/games.zip", "games.zip"),
        ("simplecache::zip://ow.sgn::games.zip", "games.zip"),
    ],
)
def test_an_output_that_a_url_reads_is_refused_and_the_input_kept(logs, url, target):
    """`sgn validate file://$PWD/g.sgn --output-file g.sgn` wrote the report over g.sgn, and
    `zip://g.sgn::games.zip --output-file games.zip` destroyed the archive: a URL was never
    taken for a local file. One whose chain ends at a local file is, however the output names it."""
    name = url.format(folder=logs)
    for alias in _aliases(logs / target):
        before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in logs.iterdir() if p.is_file()}
        code = _validate_here(logs, name, "--output-file", alias)
        assert code == 2, (name, alias)
        assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in logs.iterdir() if p.is_file()} == before


@needs_fsspec
def test_the_message_names_the_url_and_other_outputs_are_written(logs):
    done = run_cli("validate", "--isolated", "zip://ow.sgn::games.zip", "--output-file", "games.zip", cwd=logs)
    assert done.returncode == 2 and done.stderr.decode() == (
        "sgn validate: the output games.zip is the input zip://ow.sgn::games.zip: writing it would destroy that "
        "input before it is read; name another output\n"
    )
    # the member is no local file: a report named like it is written
    done = run_cli("validate", "--isolated", "zip://games/ow.sgn::games.zip", "--output-file", "games", cwd=logs)
    assert done.returncode == 0 and (logs / "games").read_bytes().startswith(b"zip://games/ow.sgn::games.zip: valid")


@needs_fsspec
@pytest.mark.parametrize("chains", ["fsspec's", "the last part's"])
def test_a_url_that_reads_no_local_file_is_never_the_output(logs, monkeypatch, chains):
    """fsspec's own reading of a chain is private (fsspec.core._un_chain): without it, the
    last part of the chain is read with fsspec's public helpers, to the same end."""
    from sgn.cli.output_file import refuse_inputs
    from sgn.pipeline.remote import local_target

    if chains != "fsspec's":
        import fsspec.core

        monkeypatch.delattr(fsspec.core, "_un_chain")
    remote = [
        "https://example.org/ow.sgn",
        "s3://bucket/ow.sgn",
        "gs://bucket/ow.sgn",
        "memory://ow.sgn",
        f"memory://{logs}/ow.sgn",
        "zip://ow.sgn::https://example.org/games.zip",
        "simplecache::s3://b/ow.sgn",
        "nope://ow.sgn",
    ]
    here = os.getcwd()
    os.chdir(logs)
    try:
        for url in remote:
            assert local_target(url) is None, url
        refuse_inputs("ow.sgn", remote, urls=True)
        refuse_inputs(str(logs / "games.zip"), remote, urls=True)
        assert local_target("zip://ow.sgn::games.zip") == str(logs / "games.zip")
        assert local_target("simplecache::ow.sgn") == local_target(f"file://{logs}/ow.sgn") == str(logs / "ow.sgn")
    finally:
        os.chdir(here)


@pytest.mark.skipif(os.name == "nt", reason="`:` is no file name character on Windows")
@pytest.mark.parametrize("command", [["report", "{log}", "-o", "{out}"], ["render", "{log}", "-o", "{out}"]])
def test_a_command_that_reads_no_url_takes_a_url_like_name_as_a_local_path(tmp_path, command):
    """`sgn report` and `sgn render` open their input with open(): `simplecache::ow.sgn` is a
    file of that name, and its own output must not be written over it (names that looked
    like URLs were never compared)."""
    log = tmp_path / "simplecache::ow.sgn"
    log.write_bytes(example_game())
    result = run_cli(*[a.format(log=log.name, out=log.name) for a in command], cwd=tmp_path)
    assert result.returncode == 2 and b"is the input" in result.stderr
    assert log.read_bytes() == example_game()


def test_the_conformance_report_is_never_written_over_the_packaged_corpus(tmp_path):
    """Without --cases the bundle read is the package's own (here an installed package's
    `sgn/_corpus/cases.json`, in a copy of the package, a small one): it is an input too."""
    import shutil

    site = tmp_path / "site"
    package = Path(sgn.__file__).resolve().parent
    # (pure Python: a compiled module of the copy would look for the compiled group beside it)
    shutil.copytree(package, site / "sgn", ignore=shutil.ignore_patterns("__pycache__", "_corpus", "_schema", "*.so"))
    shutil.copytree(packaged.schema_dir(), site / "sgn" / "_schema")
    (site / "sgn" / "_corpus").mkdir()
    bundle = site / "sgn" / "_corpus" / "cases.json"
    bundle.write_text(small_bundle(), encoding="utf-8")
    (tmp_path / "impl.sh").write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    (tmp_path / "impl.sh").chmod(0o755)
    (tmp_path / "link.json").symlink_to(bundle)
    before = bundle.read_bytes()
    env = dict(os.environ, PYTHONPATH=str(site))
    for report in (str(bundle), "link.json"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "sgn",
                "conformance",
                "--impl",
                "./impl.sh",
                "--level",
                "syntax",
                "--report",
                report,
            ],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            timeout=600,
        )
        assert result.returncode == 2 and b"is the input" in result.stderr, result.stderr
        assert bundle.read_bytes() == before


def _refused(tmp_path, bundle, impl, report, cwd=None):
    """Whether `sgn conformance --impl IMPL --report REPORT` is refused, leaving every file
    under tmp_path as it was."""
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = run_cli(
        "conformance", "--impl", impl, "--level", "syntax", *bundle, "--report", report, cwd=cwd or tmp_path
    )
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    return result.returncode == 2 and b"is the input" in result.stderr


def test_the_conformance_report_is_never_written_over_a_program_found_on_the_path(tmp_path, monkeypatch, bundle):
    (tmp_path / "bin").mkdir()
    (tmp_path / "elsewhere").mkdir()
    program = tmp_path / "bin" / "myimpl"
    program.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', os.defpath)}")
    assert _refused(tmp_path, bundle, "myimpl", "../bin/myimpl", cwd=tmp_path / "elsewhere")
    assert _refused(tmp_path, bundle, "myimpl --quiet", str(program), cwd=tmp_path / "elsewhere")


@pytest.mark.parametrize(
    "impl, report",
    [
        ("{py} -m modimpl", "modimpl.py"),
        ("{py} -mmodimpl", "modimpl.py"),
        ("{py} -u -m modimpl --strict", "./modimpl.py"),
        ("{py} -um modimpl", "modimpl.py"),
        ("{py} -m modpkg", "modpkg/__main__.py"),
        ("{py} -m modpkg", "modpkg/__init__.py"),
        ("{py} -m outer.inner", "outer/inner.py"),
        ("{py} -m outer.inner", "outer/__init__.py"),
        ("{py} {folder}/modimpl.py", "modimpl.py"),  # a script named by its absolute path
        ("{py} modimpl.py --config=impl.json", "impl.json"),  # a file an option names
    ],
)
def test_the_conformance_report_is_never_written_over_a_python_implementation_s_files(tmp_path, bundle, impl, report):
    for name in (
        "modimpl.py",
        "modpkg/__init__.py",
        "modpkg/__main__.py",
        "outer/__init__.py",
        "outer/inner.py",
        "impl.json",
    ):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("import sys\nsys.exit(0)\n" if name.endswith(".py") else "{}\n")
    assert _refused(tmp_path, bundle, impl.format(py=sys.executable, folder=tmp_path), report)


def test_the_files_of_a_python_module_are_looked_for_in_the_current_folder_and_pythonpath(tmp_path, monkeypatch):
    from sgn.conformance.selection import command_files

    (tmp_path / "lib" / "pkg").mkdir(parents=True)
    for name in ("lib/pkg/__init__.py", "lib/pkg/__main__.py", "lib/single.py", "here.py"):
        (tmp_path / name).write_text("")
    monkeypatch.chdir(tmp_path)
    environ = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": str(tmp_path / "lib")}
    found = {os.path.realpath(p) for p in command_files(f"{sys.executable} -m pkg", environ)}
    assert {str(tmp_path / "lib/pkg/__init__.py"), str(tmp_path / "lib/pkg/__main__.py")} <= found
    assert str(tmp_path / "lib/single.py") in {os.path.realpath(p) for p in command_files("python3 -m single", environ)}
    assert os.path.realpath("here.py") in {os.path.realpath(p) for p in command_files("python3 -m here", environ)}
    assert os.path.realpath(sys.executable) in {os.path.realpath(p) for p in command_files(sys.executable, environ)}
    assert command_files("no-such-program -m no_such_module", environ) == []


def _bad_game():
    """The example game with errors after it: every command has something to say of it."""
    return example_game() + b'["1","RD",{"result":13}]\n' * 20


def _sgn(args, cwd, *, stdout=subprocess.PIPE, preexec_fn=None):
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    return subprocess.run(
        [sys.executable, "-m", "sgn", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        timeout=300,
        preexec_fn=preexec_fn,
    )


def _files_of_at_most(size):
    """In the child: no file may grow past `size` bytes (RLIMIT_FSIZE): a write past it fails
    with EFBIG, as a full disk fails with ENOSPC (Python ignores the signal that comes with it)."""
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


WRITERS = [
    (["report", "{log}", "-o", "{out}"], "page.html"),
    (["render", "{log}", "-o", "{out}"], "board.svg"),
    (["render", "{log}", "-o", "{out}"], "board.png"),
    (["generate", "--games", "1", "-o", "{out}"], "games.sgn"),
    (["generate", "--games", "1", "-o", "{out}"], "games.sgn.gz"),
    (["generate", "--games", "2", "-o", "{folder}"], "game-00001.sgn"),
    (["validate", "--isolated", "--show-settings", "--output-file", "{out}"], "settings.txt"),
    (["convert", "{log}", "--to", "sgn", "--output-file", "{out}"], "canonical.sgn"),
] + [
    (["validate", "--isolated", "{log}", "-o", output, "--output-file", "{out}"], f"report.{output}")
    for output in ("text", "json", "jsonl", "github", "junit", "sarif", "parquet")
]


@pytest.mark.skipif(importlib.util.find_spec("resource") is None, reason="no RLIMIT_FSIZE on this system")
@pytest.mark.parametrize("command, name", WRITERS)
def test_an_old_output_survives_a_failed_write(tmp_path, command, name):
    """Every writer writes a temporary file beside its output and renames it into place: a
    write that fails (here past a limit on the size of files, as a full disk fails) leaves
    the earlier output whole and no temporary file, and says so in one line, exit 2."""
    if name.endswith(".png") and importlib.util.find_spec("cairosvg") is None:
        pytest.skip("cairosvg is not installed (the extra 'png')")
    if name.endswith(".parquet") and importlib.util.find_spec("pyarrow") is None:
        pytest.skip("pyarrow is not installed (the extra 'parquet')")
    (tmp_path / "g.sgn").write_bytes(_bad_game())
    folder = tmp_path / "out"
    folder.mkdir()
    old = folder / name
    old.write_bytes(b"an earlier output, good\n")
    args = [a.format(log="g.sgn", out=old, folder=folder) for a in command]
    result = _sgn(args, tmp_path, preexec_fn=_files_of_at_most(200))
    said = result.stderr.decode()
    assert result.returncode == 2, (args, said)
    assert said.splitlines()[-1].endswith(f": cannot write {old}: File too large"), (
        said
    )  # (after the log's diagnostics)
    assert said.count("cannot write") == 1 and "internal error" not in said and "Traceback" not in said
    assert old.read_bytes() == b"an earlier output, good\n"
    assert sorted(p.name for p in folder.iterdir()) == [name]  # no temporary file left
    whole = run_cli(*args, cwd=tmp_path)  # and without the limit (in this process), the output is written
    assert whole.returncode in (0, 1), whole.stderr
    assert old.read_bytes() != b"an earlier output, good\n"
    assert sorted(p.name for p in folder.iterdir()) == [name] + (["game-00002.sgn"] if "{folder}" in command else [])


FULL = [
    ["validate", "--isolated", "{log}", "--output-file", "/dev/full"],
    ["validate", "--isolated", "{log}", "-o", "sarif", "--output-file", "/dev/full"],
    ["report", "{log}", "-o", "/dev/full"],
    ["render", "{log}", "-o", "/dev/full"],
    ["generate", "-o", "/dev/full"],
    ["convert", "{log}", "--to", "sgn", "--output-file", "/dev/full"],
    [">", "validate", "--isolated", "{log}"],
    [">", "validate", "--isolated", "-q", "-o", "json", "{log}"],
    [">", "replay", "{log}"],
    [">", "convert", "{log}", "--to", "hsgn"],
    [">", "render", "{log}"],
    [">", "report", "{log}", "-o", "-"],
    [">", "generate"],
    [">", "codes"],
    [">", "example", "game"],
    [">", "example"],
]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", FULL)
def test_a_full_disk_is_one_line_and_exit_2(tmp_path, command):
    """/dev/full fails every write with ENOSPC, as a full disk does: named as the output
    (written in place: it is a device), or behind standard output."""
    (tmp_path / "g.sgn").write_bytes(_bad_game())
    args = [a.format(log="g.sgn") for a in command if a != ">"]
    if command[0] == ">":
        with open("/dev/full", "wb") as full:
            result = _sgn(args, tmp_path, stdout=full)
        where = "standard output"
    else:
        result = _sgn(args, tmp_path)
        where = "/dev/full"
    said = result.stderr.decode()
    lines = [line for line in said.splitlines() if "cannot write" in line]
    assert result.returncode == 2, (args, said)
    assert lines and lines[-1].endswith(f"cannot write {where}: No space left on device"), said
    assert "internal error" not in said and "Traceback" not in said and "Exception ignored" not in said
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


@pytest.mark.parametrize(
    "command",
    [
        ["redact", "--public"],
        ["redact", "--seat", "1"],
        ["replay"],
        ["render"],
        ["moves"],
        ["convert", "--to", "hsgn"],
        ["parse"],
        ["report", "-o", "-"],
    ],
)
@pytest.mark.parametrize("mode", ["ab", "r+b"])  # LOG >> LOG, and LOG 1<> LOG
def test_every_command_that_reads_a_log_refuses_standard_output_redirected_to_it(log, command, mode):
    """`sgn redact LOG >> LOG` grew LOG without end (20 KB to 50 MB in a second), and `1<> LOG`
    wrote over it as it was read: every command that reads a file and writes standard
    output notices that they are one file, before it reads or writes anything."""
    path, game = log
    with open(path, mode) as stdout:
        result = _sgn_into(stdout, [*command, str(path)], path.parent)
    assert result.returncode == 2, result.stderr
    assert b"standard output is redirected to" in result.stderr and b"Traceback" not in result.stderr
    assert path.read_bytes() == game


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system to fill")
def test_redact_says_a_write_that_fails_is_a_write(log):
    path, _ = log
    with open("/dev/full", "wb") as full:
        result = _sgn_into(full, ["redact", "--public", str(path)], path.parent)
    assert result.returncode == 2  # (said where the write fails: in the loop, or at the last flush)
    assert b"cannot write standard output: No space left on device" in result.stderr
    assert b"cannot read" not in result.stderr and b"Traceback" not in result.stderr


def _sgn_into(stdout, args, cwd):
    """`python -m sgn ARGS` with its standard output on the file `stdout` (as a shell's
    redirection would give it)."""
    return subprocess.run(
        [sys.executable, "-m", "sgn", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent)),
        cwd=cwd,
        timeout=120,  # a guard against the loop it was, not a measure of speed
    )
