"""`sgn corpus build|check` finds the corpus sources as the installed package and the
checkout's sources alike: --root, else the test-corpus folder of the current folder or
a parent, else the package's own when it has them; else one line and exit 2."""

import json

import pytest

from conftest import CHECKOUT, CORPUS, run_cli
from sgn import packaged
from sgn.cli import corpus as corpus_command, main

CASE = {"id": "x", "description": "d", "kind": "han", "han": "R(2+3)", "level": "notation", "valid": True, "spec": "s"}


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The package as pip installs it: its corpus folder holds the bundle, not the sources."""
    folder = tmp_path / "site-packages" / "sgn" / "_corpus"
    folder.mkdir(parents=True)
    (folder / "cases.json").write_text("{}")
    monkeypatch.setattr(packaged, "corpus_dir", lambda: folder)
    return folder


@pytest.fixture
def checkout(tmp_path):
    """A checkout of a project with a small corpus of its own."""
    root = tmp_path / "project"
    (root / "test-corpus" / "src").mkdir(parents=True)
    (root / "test-corpus" / "src" / "a.yaml").write_text(json.dumps([CASE]))
    (root / "docs").mkdir()
    return root


def test_installed_in_a_checkout_uses_the_checkouts_corpus(installed, checkout, monkeypatch, capsys):
    monkeypatch.chdir(checkout / "docs")  # a subfolder: the parent's corpus
    assert main(["corpus", "build"]) == 0
    bundle = checkout / "test-corpus" / "cases.json"
    assert capsys.readouterr().out == f"wrote {bundle}: 1 case\n"
    assert [case["id"] for case in json.loads(bundle.read_text())["cases"]] == ["x"]
    assert main(["corpus", "check"]) == 0
    assert installed.joinpath("cases.json").read_text() == "{}"  # the installed bundle is not touched


def test_installed_outside_a_checkout_says_where_the_sources_are(installed, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for action in ("build", "check"):
        assert main(["corpus", action]) == 2
        assert capsys.readouterr().err == (
            "sgn corpus: the corpus sources (test-corpus/src) are not installed with the package: "
            "run this in a source checkout, or name them with --root DIR\n"
        )


def test_root_wins_and_a_root_without_sources_is_named(installed, checkout, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["corpus", "build", "--root", str(checkout / "test-corpus")]) == 0
    assert main(["corpus", "check", "--root", str(tmp_path)]) == 2
    assert f"{tmp_path / 'src'} not found" in capsys.readouterr().err


def test_the_checkouts_own_sources_when_run_from_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    own = packaged.corpus_dir()
    assert corpus_command.find_root() == (own if (own / "src").is_dir() else None)
    assert corpus_command.find_root(CHECKOUT / "t") == CORPUS


def test_check_in_the_checkout_and_below_it_passes_whichever_sgn_runs():
    # under tox this is the installed wheel, whose own corpus folder has no sources
    for folder in (CHECKOUT / "docs",):
        result = run_cli("corpus", "check", cwd=folder)
        assert result.returncode == 0, result.stderr.decode()


def test_corpus_show_prints_a_case_its_expectation_and_its_input():
    result = run_cli("corpus", "show", "syntax-duplicate-key-nested")
    text = result.stdout.decode()
    assert result.returncode == 0 and "valid: no" in text
    assert "errors: json-duplicate-key at line 1 pointer /2/0/resources/L" in text
    assert '    ["1","TR",[{"player":"1","resources":{"L":-2,"W":1,"L":-1}}' in text


def test_corpus_show_input_is_the_case_byte_for_byte_for_every_case():
    from sgn.corpus import load_cases
    from sgn.corpus.cases import case_bytes

    cases = load_cases()
    for case in (cases[0], next(c for c in cases if c.get("input_encoding") == "base64"), cases[-1]):
        result = run_cli("corpus", "show", case["id"], "--input")
        assert result.returncode == 0 and result.stdout == case_bytes(case), case["id"]


def test_corpus_show_of_an_unknown_case_is_one_line_exit_2():
    result = run_cli("corpus", "show", "syntax-duplicate-key-nestd")
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "sgn corpus: no case 'syntax-duplicate-key-nestd' in the corpus (did you mean syntax-duplicate-key-nested?)"
    ]
    assert run_cli("corpus", "show").returncode == 2
    assert run_cli("corpus", "check", "some-id").returncode == 2
