"""The corpus: in sync with its sources, sound, and every case passes through the API and the CLI."""

import json
import re
import sys
from collections import defaultdict
from types import SimpleNamespace

import pytest
from jsonschema import Draft4Validator

from conftest import CORPUS, corpus_cases, json_report, run_cli
from sgn import corpus, packaged
from sgn.corpus import source as corpus_source

CASES = corpus_cases()


def test_bundle_is_in_sync_with_sources():
    built = corpus_source.dump_bundle(corpus_source.build_bundle(CORPUS))
    assert (CORPUS / corpus.BUNDLE).read_text(encoding="utf-8") == built, (
        "test-corpus/cases.json is stale: run `sgn corpus build`"
    )


def test_installed_bundle_is_the_committed_one():
    assert corpus.load_cases() == CASES


def test_bundle_matches_its_schema():
    schema = packaged.load_json(corpus.CASE_SCHEMA)
    Draft4Validator.check_schema(schema)
    bundle = json.loads((CORPUS / corpus.BUNDLE).read_text(encoding="utf-8"))
    errors = [e.message for e in Draft4Validator(schema).iter_errors(bundle)]
    assert errors == []


def test_corpus_is_sound():
    assert corpus.self_check(CASES, CORPUS) == []


def test_self_check_finds_faults():
    case = dict(CASES[0])
    broken = [case, dict(case), dict(case, id="x", description="y", valid=False, errors=[])]
    problems = corpus.self_check(broken)
    assert any("id used 2 times" in p for p in problems)
    assert any("must name the code" in p for p in problems)


def test_every_code_in_the_corpus_exists_and_each_action_has_a_valid_case():
    actions = {
        c["input"][1] for c in CASES if c["kind"] == "message" and c["valid"] and c.get("profile", "strict") == "strict"
    }
    assert actions >= {"BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_through_the_api(case):
    assert corpus.compare(case, corpus.check_case(case)) == []


def test_every_case_through_the_cli(tmp_path):
    groups = defaultdict(list)
    for number, case in enumerate(c for c in CASES if c["kind"] not in corpus.NOTATIONS):
        path = tmp_path / f"{number:04d}-{case['id']}.sgn"
        path.write_bytes(corpus.case_bytes(case))
        groups[(case["level"], case.get("profile", "strict"))].append((case, path))
    failures = {}
    for (level, profile), members in groups.items():
        result = run_cli("validate", "-o", "json", "--level", level, "--profile", profile, *[p for _, p in members])
        report = json_report(result)
        by_file = defaultdict(list)
        for d in report["diagnostics"]:
            by_file[d["file"]].append(SimpleNamespace(**{"hint": None, "column": None, **d}))
        for case, path in members:
            problems = corpus.compare(case, by_file[str(path)])
            if problems:
                failures[case["id"]] = problems
    assert failures == {}


def test_every_notation_case_through_the_cli():
    cases = [c for c in CASES if c["kind"] in corpus.NOTATIONS]
    assert {c["kind"] for c in cases} == set(corpus.NOTATIONS)
    for case in cases:
        result = run_cli("parse", "--notation", case["kind"], stdin=corpus.case_bytes(case))
        found = [
            SimpleNamespace(
                code=m.group(4),
                line=int(m.group(1)),
                column=int(m.group(2)),
                severity="warning" if m.group(3) else "error",
                pointer="",
                hint=None,
            )
            for m in re.finditer(r"<stdin>:(\d+):(\d+): (warning: )?.*\[([a-z0-9-]+)\]", result.stderr.decode())
        ]
        assert corpus.compare(case, found) == [], case["id"]
        assert result.returncode == (0 if case["valid"] else 1)


GOOD_CASE = {
    "id": "x",
    "description": "d",
    "kind": "han",
    "han": "R(2+3)",
    "level": "notation",
    "valid": True,
    "spec": "s",
}
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "source, says",
    [
        ("42\n", "a.yaml: a source is a list of cases, not a number"),
        ("a: 1\n", "a.yaml: a source is a list of cases, not a mapping"),
        (DEEP + "\n", "a.yaml: nested too deep to read"),
        ("- 5\n", "a.yaml case 1: a case is a mapping of its fields, not a number"),
        (
            json.dumps([{k: v for k, v in GOOD_CASE.items() if k != "level"}]),
            "a.yaml case 1 (x): 'level' is a required property",
        ),
        (json.dumps([dict(GOOD_CASE, han=5)]), "a.yaml case 1 (x): han is a string, not a number"),
        (json.dumps([dict(GOOD_CASE, valid="yes")]), "a.yaml case 1 (x): valid: 'yes' is not of type 'boolean'"),
        (json.dumps([dict(GOOD_CASE, kind=["han"])]), "a.yaml case 1 (x): kind is one of message, log, raw"),
        (json.dumps([dict(GOOD_CASE, kind="message", json=DEEP)]), "a.yaml case 1 (x): nested too deep to read"),
        (
            json.dumps([dict(GOOD_CASE, kind="message", json="[" * 200 + "]" * 200)]),
            "a.yaml case 1 (x): input: nested more than 100 deep",
        ),
        (json.dumps([dict(GOOD_CASE, kind="log", lines=[{"include": "none.sgn"}])]), "a.yaml case 1 (x): cannot read "),
        (json.dumps([dict(GOOD_CASE, kind="raw", base64="a")]), "a.yaml case 1 (x): input: not base64"),
        (
            json.dumps([dict(GOOD_CASE, kind="raw", text=["a", 5])]),
            "a.yaml case 1 (x): a piece of text is a string or {include: PATH}, not a number",
        ),
        (json.dumps([dict(GOOD_CASE, kind="raw", text=[{"include": "none.sgn"}])]), "a.yaml case 1 (x): cannot read "),
    ],
)
def test_a_bad_source_is_a_clear_error_naming_the_file_and_case(tmp_path, source, says):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.yaml").write_text(source, encoding="utf-8")
    with pytest.raises(corpus.CorpusError) as error:
        corpus_source.build_bundle(tmp_path)
    assert str(error.value).startswith(says)
    result = run_cli("corpus", "build", "--root", tmp_path)
    assert result.returncode == 1 and result.stderr.decode() == f"sgn corpus: {error.value}\n"


def bundle_of(*cases, **top):
    return json.dumps(dict({"format": 1, "cases": list(cases)}, **top))


BUNDLED = dict({k: v for k, v in GOOD_CASE.items() if k != "han"}, input="R(2+3)", errors=[], tags=[])


@pytest.mark.parametrize(
    "text, says",
    [
        ("[1]", "a bundle is a mapping with format and cases (a list), not a list"),
        ('"x"', "a bundle is a mapping with format and cases (a list), not a string"),
        (
            '{"format": 1, "cases": {}}',
            "a bundle is a mapping with format and cases (a list), not a mapping whose cases",
        ),
        (DEEP, "nested too deep to read"),
        ('{"format": 1, "cases": [' + DEEP + "]}", "nested too deep to read"),
        ("{", "not JSON"),
        (bundle_of(5), "case 1: a case is a mapping of its fields, not a number"),
        (
            bundle_of(BUNDLED, {k: v for k, v in BUNDLED.items() if k != "level"}),
            "case 2 (x): 'level' is a required property",
        ),
        (bundle_of(dict(BUNDLED, input=["R(2+3)"])), "case 1 (x): input: the input of a case of kind han is a string"),
        (bundle_of(dict(BUNDLED, kind="log", input=[[[1]]] * 2, level="rules")), None),
        (
            bundle_of(dict(BUNDLED, kind="message", input=json.loads("[" * 150 + "]" * 150))),
            "case 1 (x): input: nested more than 100 deep",
        ),
        (
            bundle_of(dict(BUNDLED, kind="raw", input="a", input_encoding="base64", level="syntax")),
            "case 1 (x): input: not base64",
        ),
        (
            bundle_of(dict(BUNDLED, errors=[{"code": "x", "line": "1"}])),
            "case 1 (x): errors/0/line: '1' is not of type",
        ),
        (bundle_of(BUNDLED, format=2), "format: 2 is not one of [1]"),
    ],
)
def test_a_bad_bundle_is_a_clear_error_naming_the_file_and_case(tmp_path, text, says):
    path = tmp_path / "cases.json"
    path.write_text(text, encoding="utf-8")
    if says is None:  # a control: a sound bundle loads
        assert corpus.load_cases(path)[0]["id"] == "x"
        return
    with pytest.raises(corpus.CorpusError) as error:
        corpus.load_cases(path)
    assert str(error.value).startswith(f"{path}: {says}")
    result = run_cli("conformance", "--impl", "true", "--cases", path)
    assert result.returncode == 2 and result.stderr.decode() == f"sgn conformance: {error.value}\n"


def test_a_bundle_that_cannot_be_read_is_a_clear_error(tmp_path):
    result = run_cli("smoke", "--impl", "true", "--cases", tmp_path / "none.json")
    assert (
        result.returncode == 2
        and result.stderr.decode() == f"sgn smoke: cannot read {tmp_path / 'none.json'}: No such file or directory\n"
    )
    (tmp_path / "bad.json").write_bytes(b'{"format": 1, "cases": ["\xff"]}')
    with pytest.raises(corpus.CorpusError, match="bad.json: not UTF-8"):
        corpus.load_cases(tmp_path / "bad.json")


# -- the exact bytes, the version ----------------------------------------------------------------


def build_one(tmp_path, **case):
    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "CHANGELOG.md").write_text("# changes\n\n## 2.3.4\n\n- a change\n\n## 2.3.3\n", encoding="utf-8")
    source = dict(
        {"id": "x", "description": "d", "kind": "message", "level": "schema", "valid": True, "spec": "s"}, **case
    )
    (tmp_path / "src" / "a.yaml").write_text(json.dumps([source]), encoding="utf-8")
    return corpus_source.build_bundle(tmp_path)


def test_every_message_and_log_case_carries_its_exact_text():
    for case in CASES:
        assert ("text" in case) == (case["kind"] in ("message", "log")), case["id"]
        if "text" in case:
            assert corpus.case_bytes(case) == case["text"].encode("utf-8", "surrogatepass")
            assert corpus.bundle_problems({"format": 1, "cases": [case]}) == []


@pytest.mark.parametrize(
    "written",
    [
        '["1","RD",{"result":8e0}]',
        '["1","RD",{"result":-0.0}]',
        '["1","RD",{"result":12.0000000000000001}]',
        '["1", "RD", {"result": 8.0}]',
    ],
)
def test_the_text_keeps_the_spelling_a_serializer_would_lose(tmp_path, written):
    case = build_one(tmp_path, json=written)["cases"][0]
    assert case["text"] == written + "\n" and corpus.case_bytes(case) == (written + "\n").encode()
    assert json.loads(written) == case["input"]


def test_a_number_no_double_holds_must_be_raw(tmp_path):
    with pytest.raises(corpus.CorpusError, match="1e400 reads as infinity"):
        build_one(tmp_path, json='["1","RD",{"result":1e400}]')


def test_a_bundle_whose_text_says_another_thing_than_its_input_is_refused():
    case = dict(next(c for c in CASES if c["kind"] == "message"))
    case["text"] = '["9","RD",{"result":8}]\n'
    assert corpus.bundle_problems({"format": 1, "cases": [case]}) == [
        f"case 1 ({case['id']}): text: its lines do not read as the input"
    ]


def test_the_version_is_the_changelog_s_newest(tmp_path):
    assert build_one(tmp_path, json='["1","RD",{"result":8}]')["version"] == "2.3.4"
    bundle = json.loads((CORPUS / corpus.BUNDLE).read_text(encoding="utf-8"))
    assert bundle["version"] == corpus_source.version(CORPUS)
    assert f"## {bundle['version']}" in (CORPUS / corpus.CHANGELOG).read_text(encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text("# no version yet\n", encoding="utf-8")
    with pytest.raises(corpus.CorpusError, match="no version heading"):
        corpus_source.build_bundle(tmp_path)


def test_reports_name_the_corpus_by_version_and_hash():
    import hashlib

    result = run_cli(
        "conformance", "--impl", f"{sys.executable} -m sgn.harness --simple", "--run", "valid-bc", "-o", "json"
    )
    meta = json.loads(result.stdout)["metadata"]
    assert meta["corpus"] == {
        "version": corpus_source.version(CORPUS),
        "cases": len(CASES),
        "sha256": hashlib.sha256(corpus.packaged.corpus_dir().joinpath(corpus.BUNDLE).read_bytes()).hexdigest(),
    }
    assert meta["harness"]["name"] == "sgn" and re.match(r"\d{4}-\d\d-\d\dT", meta["date"])


def test_a_raw_text_of_pieces_is_the_strings_and_the_included_lines(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "g.sgn").write_text("[1]\n[2]\n[3]\n", encoding="utf-8")
    pieces = ["\ufeff", {"include": "g.sgn", "first": 1}, "x\r\n", {"include": "g.sgn", "after": 2}]
    raw = dict({k: v for k, v in GOOD_CASE.items() if k != "han"}, kind="raw", level="syntax", text=pieces)
    (tmp_path / "src" / "a.yaml").write_text(json.dumps([raw]), encoding="utf-8")
    [case] = corpus_source.build_bundle(tmp_path)["cases"]
    assert case["input"] == "\ufeff[1]\nx\r\n[3]\n" and case["input_encoding"] == "text"
