"""The corpus: in sync with its sources, sound, and every case passes through the API and the CLI."""
import json
import re
from collections import defaultdict
from types import SimpleNamespace

import pytest
from jsonschema import Draft4Validator

from sgn import corpus, packaged
from conftest import CORPUS, json_report, run_cli

CASES = corpus.load_cases(CORPUS / corpus.BUNDLE)


def test_bundle_is_in_sync_with_sources():
    built = corpus.dump_bundle(corpus.build_bundle(CORPUS))
    assert (CORPUS / corpus.BUNDLE).read_text(encoding="utf-8") == built, \
        "test-corpus/cases.json is stale: run `sgn corpus build`"


def test_installed_bundle_is_the_committed_one():
    assert corpus.load_cases() == CASES


def test_bundle_matches_its_schema():
    schema = packaged.load_json(corpus.CASE_SCHEMA)
    Draft4Validator.check_schema(schema)
    bundle = json.loads((CORPUS / corpus.BUNDLE).read_text(encoding="utf-8"))
    errors = [e.message for e in Draft4Validator(schema).iter_errors(bundle)]
    assert errors == []


def test_corpus_is_sound():
    assert corpus.self_check(CASES) == []


def test_self_check_finds_faults():
    case = dict(CASES[0])
    broken = [case, dict(case), dict(case, id="x", description="y", valid=False, errors=[])]
    problems = corpus.self_check(broken)
    assert any("id used 2 times" in p for p in problems)
    assert any("must name the code" in p for p in problems)


def test_every_code_in_the_corpus_exists_and_each_action_has_a_valid_case():
    actions = {c["input"][1] for c in CASES
               if c["kind"] == "message" and c["valid"] and c.get("profile", "strict") == "strict"}
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
        result = run_cli("validate", "-o", "json", "--level", level, "--profile", profile,
                         *[p for _, p in members])
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
        found = [SimpleNamespace(code=m.group(4), line=int(m.group(1)), column=int(m.group(2)),
                                 severity="warning" if m.group(3) else "error", pointer="", hint=None)
                 for m in re.finditer(r"<stdin>:(\d+):(\d+): (warning: )?.*\[([a-z0-9-]+)\]", result.stderr.decode())]
        assert corpus.compare(case, found) == [], case["id"]
        assert result.returncode == (0 if case["valid"] else 1)
