"""The pre-commit hook `sgn-validate` (.pre-commit-hooks.yaml), run as a user sets it up:
the configuration of docs/configuration.md, in a repository of logs."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

from sgn.packaged import example_games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKS = os.path.join(ROOT, ".pre-commit-hooks.yaml")
# the log extensions the hook takes (docs/configuration.md, "The pre-commit hook"): .sgn, .jsonl,
# .ndjson, each plain or gzip
LOGS = ["a.sgn", "a.sgn.gz", "a.jsonl", "a.jsonl.gz", "a.ndjson", "a.ndjson.gz", "dir/b.sgn.gz"]
NOT_LOGS = ["a.json", "a.txt", "a.gz", "a.sgn.bak", "sgn", "a.sgn.gz.txt", "a.sgnx"]
GIT_IDENTITY = ["-c", "user.name=sgn tests", "-c", "user.email=tests@sgn.invalid", "-c", "commit.gpgsign=false"]


def _hook() -> dict:
    yaml = pytest.importorskip("yaml")
    with open(HOOKS, encoding="utf-8") as file:
        hooks = yaml.safe_load(file)
    assert [h["id"] for h in hooks] == ["sgn-validate"]
    return hooks[0]


# a section named beside its file: docs/configuration.md, "The pre-commit hook" (quoted or not)
SECTION_REFERENCE = re.compile(r"`?((?:docs/)?[\w.-]+\.md)`?,? \"([^\"]+)\"")


@pytest.mark.parametrize("name", [".pre-commit-hooks.yaml", "CONTRIBUTING.md", "README.md", "docs/commands.md"])
def test_the_hook_s_documentation_is_where_its_references_say(name):
    """Every section named with its file (the hooks file's pointer to its documentation
    among them) is a heading of that file."""
    with open(os.path.join(ROOT, name), encoding="utf-8") as file:
        text = file.read()
    found = SECTION_REFERENCE.findall(text.replace("\n# ", " ").replace("\n", " "))
    if name == ".pre-commit-hooks.yaml":
        assert ("docs/configuration.md", "The pre-commit hook") in found
    for doc, section in found:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as file:
            headings = [line.lstrip("#").strip() for line in file if line.startswith("#")]
        assert section in headings, (name, doc, section)


def test_the_hook_runs_sgn_validate_on_the_log_files():
    hook = _hook()
    assert (hook["entry"], hook["language"], hook["pass_filenames"], hook["require_serial"]) == (
        "sgn validate",
        "python",
        True,
        False,
    )
    files = re.compile(hook["files"])  # pre-commit searches the path with this regex
    assert [name for name in LOGS if not files.search(name)] == []
    assert [name for name in NOT_LOGS if files.search(name)] == []


def test_the_hook_takes_what_a_folder_is_searched_for():
    """The same set as `sgn validate DIR` (sgn/pipeline/files.py), where that exists."""
    try:
        from sgn.pipeline.files import DEFAULT_INCLUDE
    except ImportError:
        pytest.skip("sgn.pipeline.files (folders of logs) is not in this build: nothing to compare with")
    files = re.compile(_hook()["files"])
    assert sorted("x" + glob.lstrip("*") for glob in DEFAULT_INCLUDE if not files.search("x" + glob.lstrip("*"))) == []


def _git(*args, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", *GIT_IDENTITY, *args], cwd=cwd, env=env, check=True, capture_output=True)


def _repository_of_the_checkout(target) -> None:
    """A git repository holding the checkout as it is on disk, committed: pre-commit clones
    a commit, so the files of the checkout, new and changed ones too, are copied first."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True
    )
    if listed.returncode != 0:
        pytest.skip(f"the tests do not run from a git checkout ({ROOT}): no repository for try-repo")
    for name in filter(None, listed.stdout.decode("utf-8", "surrogateescape").split("\0")):
        source = os.path.join(ROOT, name)
        if os.path.isfile(source):  # listed but deleted on disk: not in the copy
            os.makedirs(os.path.join(target, os.path.dirname(name)), exist_ok=True)
            shutil.copy2(source, os.path.join(target, name))
    _git("init", "-q", ".", cwd=target)
    _git("add", "-A", cwd=target)
    _git("commit", "-q", "-m", "the checkout", cwd=target)


@pytest.mark.slow
def test_pre_commit_with_the_documented_configuration_passes_a_valid_log_and_fails_an_invalid_one(tmp_path):
    """The `.pre-commit-config.yaml` of docs/configuration.md, naming a repository of the
    checkout by its commit; pre-commit installs the package into its own environment once
    (pip, from the package index and pip's cache), and both runs use it."""
    if shutil.which("git") is None:
        pytest.skip("git is not on the PATH: pre-commit needs it")
    if importlib.util.find_spec("pre_commit") is None:
        pytest.skip("pre-commit is not installed (it is in the extra 'test')")
    source, logs = tmp_path / "checkout", tmp_path / "logs"
    source.mkdir()
    logs.mkdir()
    _repository_of_the_checkout(source)
    revision = _git("rev-parse", "HEAD", cwd=source).stdout.decode().strip()
    shutil.copy(example_games()["game"], logs / "valid.sgn")
    (logs / "invalid.sgn").write_bytes(b'["1","RD",{"result":13}]\n')
    (logs / "notes.txt").write_bytes(b"not a log\n")
    (logs / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {source}\n    rev: {revision}\n    hooks:\n      - id: sgn-validate\n", encoding="utf-8"
    )
    _git("init", "-q", ".", cwd=logs)
    _git("add", "-A", cwd=logs)
    _git("commit", "-q", "-m", "logs", cwd=logs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    # pure Python in the hook's environment: the install takes seconds, not a minute of compiling
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), SGN_COMPILE="0", NO_COLOR="1")

    def run_hook(*files):
        run = subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "sgn-validate", "--color", "never", "--files", *files],
            cwd=logs,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
        return run.returncode, run.stdout + run.stderr

    status, out = run_hook("valid.sgn", "notes.txt")
    assert status == 0 and re.search(r"^sgn validate\.+Passed$", out, re.M), out
    status, out = run_hook("valid.sgn", "invalid.sgn", "notes.txt")
    assert status == 1 and re.search(r"^sgn validate\.+Failed$", out, re.M), out
    assert "invalid.sgn:1:21: /2/result: 13 is greater than the maximum 12 [schema-maximum]" in out
    assert not re.search(r"^(valid\.sgn|notes\.txt):\d", out, re.M), out
