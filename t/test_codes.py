"""The code registry: unique, well formed, each shown by the corpus, and docs/codes.md current."""
import re

from sgn import corpus
from sgn.codes import CODES, LAYERS
from sgn.codes_doc import NOT_IN_CORPUS, codes_markdown, example_cases
from conftest import CHECKOUT, CORPUS, run_cli

CASES = corpus.load_cases(CORPUS / corpus.BUNDLE)


def test_codes_are_well_formed():
    for code in CODES.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", code.name)
        assert code.layer in LAYERS and code.severity in ("error", "warning", "info")
        assert code.summary.endswith(".")


def test_every_code_is_raised_by_a_corpus_case_or_says_why_not():
    shown = set(example_cases(CASES))
    assert set(CODES) - shown == set(NOT_IN_CORPUS)
    assert shown <= set(CODES)


def test_docs_codes_md_is_current():
    text = (CHECKOUT / "docs" / "codes.md").read_text(encoding="utf-8")
    assert text == codes_markdown(CASES), "docs/codes.md is stale: run `sgn codes --markdown > docs/codes.md`"


def test_docs_list_every_code():
    text = codes_markdown(CASES)
    for name in CODES:
        assert f"| `{name}` |" in text


def test_codes_command():
    out = run_cli("codes").stdout.decode()
    assert all(name in out for name in CODES)
