"""What the reports print when a file name is no UTF-8 text, or a message or pointer holds a
lone surrogate: every report of every command shows a name as its bytes read as UTF-8, a
byte that is not UTF-8 written \\xff, and no output stream fails on what it writes."""

import io
import json
import os

import pytest

from conftest import run_cli
from sgn import corpus
from sgn.cli import main
from sgn.layers.reader import describe

BAD = b'["1","RD",{"result":13}]\n'
SHOWN = "g\\xff.sgn"  # how b"g\xff.sgn" is shown, as text


@pytest.fixture
def odd(tmp_path):
    """A log whose file name is not UTF-8 (b'g\\xff.sgn'), in the current folder of the run."""
    path = tmp_path / os.fsdecode(b"g\xff.sgn")
    path.write_bytes(BAD)
    return path


def run_here(odd, *args):
    return run_cli(*args, odd.name, cwd=odd.parent)


def test_the_rule():
    assert describe(os.fsdecode(b"g\xff.sgn")) == SHOWN and describe("caf\u00e9.sgn") == "caf\u00e9.sgn"
    assert describe("<stdin>") == "<stdin>" and describe("\ud800.sgn") == "\\xed\\xa0\\x80.sgn"


@pytest.mark.parametrize(
    "args",
    [
        ["validate"],
        ["validate", "-o", "github"],
        ["validate", "-q"],
        ["replay"],
        ["parse", "--notation", "han"],
        ["convert", "--to", "han"],
    ],
)
def test_text_reports_show_the_name_by_the_rule(odd, args):
    result = run_here(odd, *args)
    both = result.stdout + result.stderr
    assert SHOWN.encode() in both and b"\\udcff" not in both and b"g\xff" not in both
    assert result.returncode == 1 and b"internal error" not in both


def test_json_names_the_file_by_the_rule(odd):
    result = run_here(odd, "validate", "-o", "json")
    result.stdout.decode("utf-8")  # strict UTF-8: no surrogate escaped into it
    report = json.loads(result.stdout)
    assert report["diagnostics"][0]["file"] == SHOWN and report["files"][0]["file"] == SHOWN


def test_several_jobs_name_files_the_same_way(odd):
    result = run_cli("validate", "-j", "2", "-o", "json", odd.name, odd.name, odd.name, cwd=odd.parent)
    assert {d["file"] for d in json.loads(result.stdout)["diagnostics"]} == {SHOWN}


def test_a_missing_file_is_named_by_the_rule(odd):
    result = run_cli("parse", os.fsdecode(b"none\xfe.han"), cwd=odd.parent)
    assert result.returncode == 2 and b"none\\xfe.han: cannot read none\\xfe.han" in result.stderr


SURROGATES = b'["1","RD",{"\\udcff":1,"\\udcff":2}]\n'  # a key repeated: a pointer to it


@pytest.mark.parametrize("output", ["text", "json", "github"])
def test_a_lone_surrogate_in_a_message_or_pointer_prints_on_a_strict_stream(write, output):
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    assert main(["validate", "-o", output, str(write(SURROGATES))], out=out) == 1
    out.flush()
    text = out.buffer.getvalue().decode("utf-8")
    assert "/2/\\udcff" in text
    if output == "json":
        [d] = json.loads(text)["diagnostics"]
        assert d["pointer"] == "/2/\udcff"  # the escape stands for the same character


def test_a_lone_surrogate_in_the_corpus_is_written_as_its_escape(tmp_path):
    # a raw case's text may hold one (it stands for bytes that are not UTF-8); the bundle,
    # and a conformance report naming the case, hold its JSON escape
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.yaml").write_text(
        '- {id: x, kind: raw, text: "a\\udcff", level: syntax, valid: false, errors: [{code: invalid-utf8}],\n'
        '   description: "d\\udcff", spec: s}\n',
        encoding="utf-8",
    )
    built = run_cli("corpus", "build", "--root", tmp_path)
    assert built.returncode == 0 and b'"input": "a\\udcff"' in (tmp_path / "cases.json").read_bytes()
    [case] = corpus.load_cases(tmp_path / "cases.json")
    assert corpus.case_bytes(case) == b"a\xed\xb3\xbf"
    assert run_cli("corpus", "check", "--root", tmp_path).returncode == 0
    report = tmp_path / "report.txt"
    run = run_cli("conformance", "--impl", "true", "--cases", tmp_path / "cases.json", "--report", report)
    assert run.returncode == 1 and b"internal error" not in run.stderr  # `true` finds it valid
    assert "x [syntax]: d\\udcff" in report.read_text(encoding="utf-8")
