"""The Python example (examples/python/sgn_jsonschema.py) under the conformance harness: its
figures are the ones docs/conformance.md quotes, and it reports the codes sgn does."""

import importlib.util
import json
import sys

from hypothesis import given, strategies as st

from conftest import CHECKOUT, corpus_cases
from sgn import conformance, strategies as sgs
from sgn.harness import check as sgn_check

SCRIPT = CHECKOUT / "examples" / "python" / "sgn_jsonschema.py"
IMPL = [sys.executable, str(SCRIPT)]
CASES = conformance.select(corpus_cases())
DECLARED = [
    c
    for c in CASES
    if c["level"] in ("syntax", "schema") and c.get("profile", "strict") == "strict" and "extension" not in c
]
# The figures docs/conformance.md shows: a change of the corpus or of the example that moves
# them is seen here, and the docs are updated with it.
EXPECTED = {"passed": 316, "failed": 0, "errored": 0, "skipped": 0, "undeclared": 450}
WITH_CODES = {"passed": 263, "failed": 53, "errored": 0, "skipped": 0, "undeclared": 450}


def _example():
    spec = importlib.util.spec_from_file_location("sgn_jsonschema", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _example()


def totals(run):
    return conformance.summary(run)["totals"]


def test_it_passes_every_case_it_declares():
    run = conformance.run_cases(IMPL, CASES, mode="persistent")
    assert run.info["name"] == "sgn-jsonschema-example" and run.info["levels"] == ["syntax", "schema"]
    assert totals(run) == EXPECTED and run.ok, [o.detail for o in run.outcomes if o.status == "failed"]
    assert EXPECTED["passed"] == len(DECLARED) and EXPECTED["undeclared"] == len(CASES) - len(DECLARED)
    assert not (SCRIPT.parent / "conformance.skip").exists()  # it needs none


def test_with_codes_it_has_every_code_right_and_fails_only_on_places():
    run = conformance.run_cases(IMPL, CASES, mode="persistent", codes=True)
    assert totals(run) == WITH_CODES
    for o in run.outcomes:
        if o.status == "failed":
            assert list(o.got_codes) == sorted({e["code"] for e in o.case["errors"]}), o.case["id"]
            assert o.detail.startswith("expected error "), o.detail


def test_the_docs_quote_its_figures():
    docs = (CHECKOUT / "docs" / "conformance.md").read_text(encoding="utf-8")
    section = docs.split("## A second example: Python with jsonschema", 1)[1].split("\n## ", 1)[0]
    line = ", ".join(f"{n} {status}" for status, n in EXPECTED.items())
    assert f"{len(CASES)} cases in" in section and line in section
    assert f"{WITH_CODES['passed']} passed, {WITH_CODES['failed']} failed" in " ".join(section.split())


def test_in_simple_mode_on_a_few_cases_and_no_verdict_where_it_does_not_check():
    """Its simple mode's wiring (a case is a process, 0.4 s): its verdicts are its persistent
    mode's (one check), asked every case above."""
    chosen = conformance.select(
        DECLARED,
        run=[
            "syntax-gzip*",
            "syntax-nan",
            "syntax-duplicate-key",
            "syntax-pretty-printed-message",
            "schema-rd-result-1*",
        ],
    )
    beyond = [c for c in CASES if c["level"] == "semantic"][:1] + [c for c in CASES if c.get("profile") == "compat"][:1]
    run = conformance.run_cases(IMPL + ["--simple"], chosen + beyond, mode="simple")
    assert len(chosen) > 15 and totals(run)["passed"] == len(chosen) and totals(run)["errored"] == len(beyond) == 2
    assert all("exit code 3 this example checks" in o.detail for o in run.outcomes if o.status == "errored")


# No form feed: where a line ends, sgn's test of a value written over several lines strips
# Python's whitespace (a form feed too), the example JSON's only; either way the line is invalid.
RAW_PIECES = st.sampled_from(["[", "]", "{", "}", ",", ":", '"', "1", "8.0", "\n", " ", "\t", '"RD"', "\\", "\r\n"])


@given(
    st.one_of(
        sgs.messages().map(json.dumps),
        sgs.invalid_messages().map(lambda case: json.dumps(case[0])),
        st.lists(RAW_PIECES, max_size=20).map("".join),
    ),
    st.sampled_from(["syntax", "schema"]),
)
def test_it_reports_the_codes_sgn_does(text, level):
    data = text.encode("utf-8")
    codes = {e["code"] for e in EXAMPLE.check(data, level)["errors"]}
    assert codes == {e["code"] for e in sgn_check(data, level, "strict")["errors"]}
