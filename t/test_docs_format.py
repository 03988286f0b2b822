"""docs/format.md, SGN in our own words: every code of the schema is explained there, every
example line is a valid message, and the standard map it gives to copy is the corpus's."""

import json
import re
from pathlib import Path

import pytest

from sgn.api import validate_message

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "schema" / "v1.0" / "message.json").read_text(encoding="utf-8"))
EXAMPLES = sorted(
    set(re.findall(r'^\s*(\["[1-6B]","[A-Z]{2}",.*\])\s*$|`(\["[1-6B]","[A-Z]{2}",[^`]*\])`', PAGE, re.M))
)
LINES = sorted({a or b for a, b in EXAMPLES})


@pytest.mark.parametrize("kind", ["aCode", "tCode", "hCode", "rCode", "cCode"])
def test_every_code_of_the_schema_is_in_a_table_of_the_page(kind):
    for code in SCHEMA["definitions"][kind]["enum"]:
        assert re.search(rf"^\| `{code}` \|", PAGE, re.M), (kind, code)


def test_every_action_has_an_example_line():
    shown = {json.loads(line)[1] for line in LINES}
    records = json.loads((ROOT / "schema" / "v1.0" / "records.json").read_text(encoding="utf-8"))
    assert shown == set(SCHEMA["definitions"]["aCode"]["enum"]) | set(records["definitions"]["values"])
    assert {json.loads(line)[2]["cCode"] for line in LINES if json.loads(line)[1] == "PD"} >= {"KN", "MO", "YP", "RB"}


@pytest.mark.parametrize("line", LINES)
def test_every_example_line_is_a_valid_message(line):
    assert validate_message(json.loads(line)) == []


def test_the_standard_map_to_copy_is_the_corpus_map():
    standard = (ROOT / "test-corpus" / "maps" / "standard.sgn").read_text(encoding="utf-8").strip()
    assert f"```\n{standard}\n```" in PAGE


def test_the_page_names_the_published_text_and_links_the_errata():
    assert "dnmfarrell/Settlers-Game-Notation" in PAGE and "schema/ERRATA.md" in PAGE
    # (the word names a game's random seed here, in a header's key, and nothing else)
    assert "seed" not in PAGE.lower().replace("`seed`", "").replace("seed a number", "")
    assert "docs/format.md" in (ROOT / "README.md").read_text(encoding="utf-8")
