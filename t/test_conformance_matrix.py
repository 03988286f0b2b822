"""Several implementations side by side (the matrix, in text, JSON, JUnit and HTML), and
the difference between two runs (`sgn conformance diff`)."""

import json
import sys
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest

from conftest import CHECKOUT, CORPUS, bundle_of, corpus_cases, run_cli
from sgn import corpus
from sgn.conformance.selection import select
from sgn.corpus import source as corpus_source

PY = sys.executable
TWISTED = str(CHECKOUT / "t" / "impls" / "twisted.py")
CASES = [c for c in corpus_cases() if c["kind"] not in corpus.NOTATIONS]
SELECTION = ["--run", "schema-rd-*", "--run", "valid-r*"]
CHOSEN = [c for c in CASES if c["id"].startswith(("schema-rd-", "valid-r"))]
SGN, CHATTY = f"{PY} -m sgn.harness", f"{PY} {TWISTED} chatty"  # chatty calls everything valid


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """`--cases FILE` of the cases SELECTION selects (conftest.bundle_of): the runs select none other."""
    path = tmp_path_factory.mktemp("bundle") / "cases.json"
    path.write_text(bundle_of(select(corpus_cases(), run=SELECTION[1::2])), encoding="utf-8")
    return ["--cases", path]


def conformance(bundle, *args):
    return run_cli("conformance", "--mode", "persistent", *bundle, *SELECTION, *args)


@pytest.fixture(scope="module")
def sgn_and_chatty(bundle):
    """The JSON report of SGN and CHATTY side by side: one run, which two tests read."""
    return conformance(bundle, "--impl", SGN, "--impl", CHATTY, "-o", "json")


def test_the_matrix_leads_with_the_cases_of_disagreement(bundle, sgn_and_chatty):
    result = sgn_and_chatty
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [i["column"] for i in report["implementations"]] == ["sgn", "sgn #2"]
    invalid = [c["id"] for c in CHOSEN if not c["valid"]]
    assert invalid and report["disagreements"] == invalid
    assert [row["id"] for row in report["matrix"]] == [c["id"] for c in CHOSEN]
    row = next(r for r in report["matrix"] if r["id"] == invalid[0])
    assert row["results"]["sgn"]["answer"] == "invalid" and row["results"]["sgn #2"]["status"] == "failed"
    assert report["metadata"]["corpus"]["version"] == corpus_source.version(CORPUS)

    text = conformance(bundle, "--impl", SGN, "--impl", CHATTY).stdout.decode()
    head, every = text.split("\nevery case:\n")
    assert f"{len(invalid)} cases where the implementations disagree" in head
    assert all(f"\n{case}" in head for case in invalid) and all(f"\n{c['id']} " in every for c in CHOSEN)
    assert "!valid" in head and text.rstrip().endswith("NOT ALL CONFORM: sgn #2 do not")
    assert f"\nsgn #2 does not conform: {len(invalid)} failed\n" in text


def test_implementations_that_agree_with_the_corpus_conform_together(bundle):
    result = conformance(bundle, "--impl", SGN, "--impl", f"{PY} {TWISTED} shuffled")
    assert result.returncode == 0 and "no case where the implementations disagree" in result.stdout.decode()


def test_junit_of_several_implementations_names_each(bundle):
    root = ElementTree.fromstring(conformance(bundle, "--impl", SGN, "--impl", CHATTY, "-o", "junit").stdout)
    names = {suite.get("name") for suite in root.iter("testsuite")}
    assert names == {"sgn: schema", "sgn #2: schema"}
    assert sum(int(s.get("failures")) for s in root.iter("testsuite")) == sum(not c["valid"] for c in CHOSEN)


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.cells, self.rows, self.links = [], [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.links += [attrs[k] for k in ("src", "href") if k in attrs]
        if tag == "td" and attrs.get("class"):
            self.cells.append(attrs["class"])
        if tag == "tr" and attrs.get("class"):
            self.rows.append(attrs["class"])


def test_the_html_page_is_self_contained_and_shows_every_cell(tmp_path, bundle):
    out = tmp_path / "matrix.html"
    assert conformance(bundle, "--impl", SGN, "--impl", CHATTY, "-o", "html", "--report", out).returncode == 1
    page = Page()
    page.feed(out.read_text(encoding="utf-8"))
    assert page.links == [] and "link" not in page.tags  # nothing fetched from anywhere
    invalid = sum(not c["valid"] for c in CHOSEN)
    assert page.cells.count("failed") == invalid and page.cells.count("passed") == 2 * len(CHOSEN) - invalid
    assert page.rows.count("disagree") == invalid and len(page.rows) == len(CHOSEN)


def test_diff_lists_the_cases_whose_outcome_changed(tmp_path, bundle):
    old, new, same = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "same.json"
    conformance(bundle, "--impl", SGN, "-o", "json", "--report", old)
    conformance(bundle, "--impl", CHATTY, "-o", "json", "--report", new)
    conformance(bundle, "--impl", SGN, "-o", "json", "--report", same)
    result = run_cli("conformance", "diff", old, new)
    invalid = [c["id"] for c in CHOSEN if not c["valid"]]
    assert result.returncode == 1
    text = result.stdout.decode()
    assert all(f" {case} " in text for case in invalid) and "passed -> failed" in text
    assert text.endswith(f"{len(invalid)} changed: 0 now pass, {len(invalid)} no longer pass\n")
    assert run_cli("conformance", "diff", old, same).stdout == b"no case changed its outcome\n"
    assert run_cli("conformance", "diff", old, same).returncode == 0
    changed = json.loads(run_cli("conformance", "diff", new, old, "-o", "json").stdout)
    assert {c["id"] for c in changed} == set(invalid) and {c["new"] for c in changed} == {"passed"}


def test_diff_of_matrices_compares_each_implementation(tmp_path, bundle, sgn_and_chatty):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    conformance(bundle, "--impl", SGN, "--impl", SGN, "-o", "json", "--report", old)
    new.write_bytes(sgn_and_chatty.stdout)  # what --report writes: the report on standard output
    changed = json.loads(run_cli("conformance", "diff", old, new, "-o", "json").stdout)
    assert {c["implementation"] for c in changed} == {"sgn #2"} and len(changed) == sum(not c["valid"] for c in CHOSEN)


@pytest.mark.parametrize(
    "content, says",
    [
        ("[1, 2]", "not a JSON report of sgn conformance"),
        ("{", "not JSON"),
        ("[" * 100_000, "not JSON"),
        ('{"matrix": [1]}', "matrix row 1 is not a case"),
        ('{"matrix": [{"id": "x", "results": [1]}]}', "matrix row 1 is not a case"),
        ('{"matrix": [{"id": "x", "results": {"a": 5}}]}', "matrix row 1 is not a case"),
        ('{"cases": [{"id": "x"}], "implementation": "zz"}', "its implementation and each of its cases are objects"),
        ('{"cases": ["x"], "implementation": {}}', "its implementation and each of its cases are objects"),
    ],
)
def test_diff_of_what_is_not_a_report_is_exit_2(tmp_path, content, says):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    (tmp_path / "bytes.json").write_bytes(b"\xff\xfe{")
    assert run_cli("conformance", "diff", tmp_path / "bytes.json", bad).returncode == 2
    result = run_cli("conformance", "diff", bad, bad)
    assert result.returncode == 2 and says in result.stderr.decode() and result.stdout == b""
    assert run_cli("conformance", "diff", tmp_path / "none.json", bad).returncode == 2


def test_an_implementation_is_required():
    result = run_cli("conformance")
    assert result.returncode == 2 and "--impl CMD is required" in result.stderr.decode()


def test_the_expected_matrix_of_ci_covers_the_corpus():
    """tox -e matrix checks three implementations against examples/conformance-matrix.json;
    a case added or removed without updating it (examples/update_matrix.py) shows here first."""
    expected = json.loads((CHECKOUT / "examples" / "conformance-matrix.json").read_text(encoding="utf-8"))
    assert [row["id"] for row in expected["matrix"]] == [c["id"] for c in CASES]
    assert expected["metadata"]["corpus"]["version"] == corpus_source.version(CORPUS)
    sgn = {row["id"]: row["results"]["sgn"]["status"] for row in expected["matrix"]}
    assert set(sgn.values()) == {"passed"}
