"""The code registry: unique, well formed, each shown by the corpus, and docs/codes.md current."""

import json
import re

import pytest

from conftest import CHECKOUT, corpus_cases, run_cli
from sgn.codes import CODES, LAYERS
from sgn.corpus.codes_doc import NOT_IN_CORPUS, codes_markdown, example_cases
from sgn.corpus.explain import LAYER_DOCS

CASES = corpus_cases()


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


def test_one_code_explained():
    result = run_cli("codes", "trade-rate")
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    case = example_cases(CASES)["trade-rate"]
    assert text.startswith("trade-rate: error, rules layer\n")
    for part in (
        CODES["trade-rate"].summary,
        "hint: the bank trades 4:1",
        f"spec: {case['spec']}",
        "rules layer: the game is replayed from its map",
        f"example: corpus case {case['id']}: {case['description']}",
        "sgn says: line ",
    ):
        assert part in text, part
    assert "docs:" not in text and ".md" not in text  # no file that is not installed


def test_a_code_no_case_shows_says_why():
    text = run_cli("codes", "is-a-directory").stdout.decode()
    assert f"example: none in the corpus: it would take {NOT_IN_CORPUS['is-a-directory']}" in text


@pytest.mark.parametrize(
    "name, near",
    [("robber-of-map", "robber-off-map"), ("trade_rate", "trade-rate"), ("TRADE-RATE", "trade-rate"), ("zzz", None)],
)
def test_an_unknown_code_is_one_line_with_the_nearest(name, near):
    result = run_cli("codes", name)
    assert result.returncode == 2 and result.stdout == b"" and len(result.stderr.splitlines()) == 1
    said = result.stderr.decode()
    assert said.startswith(f"sgn codes: no code named {name!r}; ")
    assert (f"did you mean {near}" in said) if near else ("did you mean" in said or "`sgn codes` lists them" in said)


def test_every_code_as_json():
    result = run_cli("codes", "-o", "json")
    assert result.returncode == 0
    listed = json.loads(result.stdout)
    assert [entry["code"] for entry in listed] == list(CODES)
    examples = example_cases(CASES)
    for entry in listed:
        code = CODES[entry["code"]]
        assert (entry["layer"], entry["severity"], entry["summary"]) == (code.layer, code.severity, code.summary)
        if entry["code"] in examples:
            assert entry["example"]["case"] == examples[entry["code"]]["id"]
            assert entry["example"]["diagnostic"]["code"] == entry["code"]  # the case really raises it
            assert entry["hint"] == entry["example"]["diagnostic"].get("hint")
            assert entry["spec"] == examples[entry["code"]]["spec"]
        else:
            assert entry["example"] is None and entry["not_in_corpus"] == NOT_IN_CORPUS[entry["code"]]
    one = json.loads(run_cli("codes", "map-shape", "-o", "json").stdout)
    assert one == next(entry for entry in listed if entry["code"] == "map-shape")


def test_every_layer_says_where_it_is_documented():
    for layer in LAYERS:
        for path in re.findall(r"[\w/.-]+\.(?:md|json)", LAYER_DOCS[layer]):
            assert (CHECKOUT / path).is_file(), path
    assert "## Decisions about input" in (CHECKOUT / "docs" / "checks.md").read_text(encoding="utf-8")


def test_markdown_is_the_whole_table():
    assert run_cli("codes", "--markdown").stdout.decode() == (CHECKOUT / "docs" / "codes.md").read_text(
        encoding="utf-8"
    )
    assert run_cli("codes", "-o", "markdown").stdout == run_cli("codes", "--markdown").stdout
    assert run_cli("codes", "trade-rate", "--markdown").returncode == 2
