"""The line in every diagnostic: the column of the value a pointer names, one function for
every output (sgn/layers/columns.py), the excerpt under a text diagnostic with its caret,
`-o concise`, and `--statistics`."""

import io
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import run_cli, scaled
from sgn.cli import main
from sgn.layers.columns import EXCERPT_WIDTH, KEPT_BYTES, KEPT_LINES, KeptLines, place

CORPUS = json.loads((Path(__file__).parent.parent / "test-corpus" / "cases.json").read_text("utf-8"))["cases"]
TEXTS = sorted({c["text"] for c in CORPUS if c["kind"] in ("message", "log", "raw") and c.get("text")})
FIRST = re.compile(r"^case\.sgn:(\d+)(?::(\d+))?: .*\[([a-z0-9-]+)\]$")
GITHUB = re.compile(r"^::\w+ title=sgn \(([a-z0-9-]+)\),file=case\.sgn(?:,line=(\d+))?(?:,col=(\d+))?[^:]*::")


def validate(folder: Path, *args: str):
    """`sgn validate ARGS case.sgn` in `folder`: (exit status, output)."""
    out = io.StringIO()
    before = os.getcwd()
    os.chdir(folder)
    try:
        code = main(["validate", *args, "case.sgn"], out=out)
    finally:
        os.chdir(before)
    return code, out.getvalue()


def resolve(value, pointer: str):
    """The value `pointer` names in `value` (KeyError, IndexError or TypeError if none)."""
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                raise IndexError(token)
            value = value[int(token)]
        elif isinstance(value, dict):
            value = value[token]
        else:
            raise TypeError(token)
    return value


def named_value(line: str, pointer: str):
    """(True, the value) when `pointer` names a value of the JSON line `line`, else (False, None)."""
    try:
        return True, resolve(json.loads(line), pointer)
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):
        return False, None


# place: the one function that gives a pointer its columns


@pytest.mark.parametrize(
    "text, pointer, marked",
    [
        ('["1","RD",{"result":13}]', "/2/result", "13"),
        ('["1","RD",{"result":13}]', "", '["1","RD",{"result":13}]'),
        ('["1","RD",{"result":13}]', "/1", '"RD"'),
        ('  [ "1" , "RD" , { "result" : 13 } ]', "/2/result", "13"),
        ('["1","BR",{"path":[[0,1],[1,0]],"x":"]}"}]', "/2/path/1", "[1,0]"),
        ('["1","BR",{"a/b":{"c~d":[true]}}]', "/2/a~1b/c~0d/0", "true"),
        ('["1","BR",{"\\"k":"v"}]', '/2/"k', '"v"'),
        ('["é","RD",{"result":13}]', "/2/result", "13"),
        ('["1","RD",{"result":13}]', "/2/missing", '{"result":13}'),  # the nearest on its way
        ('["1","RD",{"result":13}]', "/7", '["1","RD",{"result":13}]'),
    ],
)
def test_a_pointer_is_placed_on_the_value_it_names_or_the_nearest_on_its_way(text, pointer, marked):
    column, end = place(text, pointer)
    assert text[column - 1 : end - 1] == marked


@pytest.mark.parametrize("text", ["", "   ", "not json at all]", "]"])
def test_a_line_with_no_value_has_no_column(text):
    assert place(text, "/2/result") is None or text.strip().startswith("not")


# the text report: the line, shortened around the fault, with a caret under the value


def test_text_diagnostics_show_the_line_with_a_caret_under_the_value(tmp_path):
    (tmp_path / "case.sgn").write_text('["1","RD",{"result":8}]\n["1","RD",{"result":13}]\n')
    code, text = validate(tmp_path)
    assert code == 1
    assert text.splitlines()[:4] == [
        "case.sgn:2:21: /2/result: 13 is greater than the maximum 12 [schema-maximum]",
        "  |",
        '2 | ["1","RD",{"result":13}]',
        "  |                     ^^",
    ]


def test_a_long_map_line_is_shortened_around_the_fault(tmp_path):
    game = Path(__file__).parent.parent / "test-corpus" / "games" / "game.sgn"
    lines = game.read_text("utf-8").splitlines(keepends=True)
    assert len(lines[0]) > 1000  # the map
    broken = lines[0].replace('"hexes"', '"hexes"', 1)[:-3] + ',"x":1}]\n'
    (tmp_path / "case.sgn").write_text(broken + "".join(lines[1:5]))
    code, text = validate(tmp_path, "--level", "schema")
    first, gutter, source, carets = text.splitlines()[:4]
    assert code == 1 and first.startswith("case.sgn:1:") and "[schema-unknown-property]" in first
    assert len(source) <= EXCERPT_WIDTH + 10 and source.startswith("1 | …")
    column = int(first.split(":")[2])
    shown = source[len("1 | ") :]
    at = carets.index("^") - len("  | ")
    assert shown[at : at + 1] == "1" and broken[column - 1] == "1"


def test_control_characters_in_the_line_are_escaped_and_the_caret_stays_under_the_value(tmp_path):
    (tmp_path / "case.sgn").write_text('["1","RD",{"a\\u0007":"\x1b","result":13}]\n'.replace("\x1b", "\\u001b"))
    raw = '["1","RD",{"\x07":1,"result":13}]\n'
    (tmp_path / "case.sgn").write_text(raw)
    code, text = validate(tmp_path, "--level", "syntax")
    assert "\x07" not in text
    code, text = validate(tmp_path)
    lines = text.splitlines()
    source = next(line for line in lines if line.startswith("1 | "))
    carets = lines[lines.index(source) + 1]
    assert "\x07" not in source and "\\x07" in source
    assert "^" in carets


def test_standard_input_shows_its_line_too():
    result = run_cli("validate", "-", stdin=b'["1","RD",{"result":13}]\n')
    assert result.stdout.decode().splitlines()[2] == '1 | ["1","RD",{"result":13}]'


def test_concise_is_one_line_a_diagnostic(tmp_path):
    (tmp_path / "case.sgn").write_text('["1","RD",{"result":13}]\n["1","MR",{"tile":[9,9]}]\n')
    code, text = validate(tmp_path, "-o", "concise", "--level", "semantic")
    lines = text.splitlines()
    assert code == 1 and "|" not in text and "hint:" not in text and lines[0].startswith("case.sgn:1:21: /2/result")
    assert all(line.startswith("case.sgn:") for line in lines[:-1])


def test_the_lines_kept_for_diagnostics_are_bounded():
    kept = KeptLines()
    for number in range(1, 10 * KEPT_LINES):
        kept.keep(number, b"x" * 100)
    assert len(kept) == KEPT_LINES
    for number in range(1, 10):
        kept.keep(10 * KEPT_LINES + number, b"x" * KEPT_BYTES)
    assert len(kept) == 1 and kept.size <= KEPT_BYTES


def test_a_verdict_held_past_the_lines_kept_still_has_its_column(tmp_path):
    """A log whose fault (line 60) is reported only when a later fork is decided, more than
    KEPT_LINES lines after it (found by the property below): its column was lost with its
    line. A diagnostic is placed when it is found, not when it is reported."""
    import gzip

    text = gzip.decompress((Path(__file__).parent / "data" / "held-past-kept-lines.sgn.gz").read_bytes())
    (tmp_path / "case.sgn").write_bytes(text)
    _, out = validate(tmp_path, "-o", "json")
    report = json.loads(out)
    late = [d for d in report["diagnostics"] if d["code"] == "cannot-afford"]
    assert late and late[0]["line"] == 60 and max(d["line"] for d in report["diagnostics"]) - 60 > KEPT_LINES // 2
    columns_hold(text.decode("utf-8", "replace"), report)


# --statistics


def test_statistics_count_each_code_the_most_frequent_first_and_keep_the_exit_status(tmp_path):
    (tmp_path / "case.sgn").write_text('["1","RD",{"result":13}]\n' * 3 + '["9","RD",{"result":8}]\n')
    code, text = validate(tmp_path, "--statistics")
    assert code == validate(tmp_path)[0] == 1
    assert [line.split()[:3] for line in text.splitlines()] == [
        ["3", "schema-maximum", "error"],
        ["1", "unknown-player", "error"],
    ]
    code, text = validate(tmp_path, "--statistics", "-o", "json")
    assert code == 1 and json.loads(text)[0]["count"] == 3
    result = run_cli("validate", "--statistics", "-o", "parquet", "--output-file", tmp_path / "t.parquet", "-")
    assert result.returncode == 2 and result.stderr.count(b"\n") == 1 and b"--statistics" in result.stderr


# the properties: the verdict, the (code, line) and the columns are the same in every format


def by_format(folder: Path):
    """{format: (exit, [(code, line, column)])} for each output."""
    found = {}
    code, text = validate(folder, "-o", "json")
    report = json.loads(text)
    found["json"] = (code, [(d["code"], d["line"], d.get("column")) for d in report["diagnostics"]])
    for name in ("text", "concise"):
        code, text = validate(folder, "-o", name)
        rows = [FIRST.match(line) for line in text.splitlines()]
        found[name] = (code, [(m[3], int(m[1]), int(m[2]) if m[2] else None) for m in rows if m])
    code, text = validate(folder, "-o", "github")
    rows = [GITHUB.match(line) for line in text.splitlines()]
    found["github"] = (code, [(m[1], int(m[2] or 0), int(m[3]) if m[3] else None) for m in rows if m])
    code, text = validate(folder, "-o", "sarif")
    results = json.loads(text)["runs"][0]["results"]
    rows = []
    for r in results:
        region = r["locations"][0]["physicalLocation"].get("region", {})
        rows.append((r["ruleId"], region.get("startLine", 0), region.get("startColumn")))
    found["sarif"] = (code, rows)
    code, _ = validate(folder, "-o", "junit")
    found["junit"] = (code, found["json"][1])  # (its text is the concise lines, checked above)
    return found, report


def columns_hold(text: str, report) -> None:
    """Each diagnostic whose pointer names a value of its line has the columns of that value."""
    lines = text.split("\n")
    for d in report["diagnostics"]:
        if not d["line"] or d["line"] > len(lines) or d["layer"] in ("io", "syntax"):
            continue
        line = lines[d["line"] - 1].rstrip("\r").lstrip("\ufeff")
        names, value = named_value(line, d["pointer"])
        if names:
            assert "column" in d and "end_column" in d, d
            assert json.loads(line[d["column"] - 1 : d["end_column"] - 1]) == value


def test_every_corpus_case_has_the_columns_of_each_value_its_diagnostics_name(tmp_path):
    """Every case as it is, the end of a log included (what an unfinished log owes is placed on
    its last line): the property below samples the cases, this reads them all."""
    for text in TEXTS:
        (tmp_path / "case.sgn").write_bytes(text.encode("utf-8", "surrogatepass"))
        _, out = validate(tmp_path, "-o", "json")
        columns_hold(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"), json.loads(out))


@settings(max_examples=scaled(30), suppress_health_check=[HealthCheck.function_scoped_fixture])  # every format each
@given(text=st.sampled_from(TEXTS), at=st.integers(0, 10_000), char=st.sampled_from(list('0129"[]{},: xRD')))
def test_every_format_gives_the_same_verdict_codes_lines_and_columns_and_the_caret_is_under_the_value(
    tmp_path_factory, text, at, char
):
    folder = tmp_path_factory.mktemp("case")
    if at % 3:  # a mutation of a corpus case, or the case as it is
        at = at % max(1, len(text))
        text = text[:at] + char + text[at + 1 :]
    (folder / "case.sgn").write_bytes(text.encode("utf-8", "surrogatepass"))
    found, report = by_format(folder)
    assert len({str(v) for v in found.values()}) == 1, found
    columns_hold((folder / "case.sgn").read_bytes().decode("utf-8", "replace"), report)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(0, KEPT_BYTES // 3)), max_size=3 * KEPT_LINES))
def test_the_lines_kept_are_the_newest_within_the_bounds(steps):
    """The ring keeps what a plain model keeps: the newest lines, at most KEPT_LINES of them
    and KEPT_BYTES of text (the newest kept whatever its size), a line kept twice once."""
    kept, model, number = KeptLines(), {}, 0
    for gap, size in steps:
        number += gap - 1 if gap == 1 and number else gap  # (now and then the same line again)
        raw = bytes([65 + number % 26]) * size
        kept.keep(number, raw)
        if number not in model:
            model[number] = raw
            while len(model) > KEPT_LINES or (sum(map(len, model.values())) > KEPT_BYTES and len(model) > 1):
                del model[min(model)]
    assert len(kept) == len(model) and kept.size == sum(map(len, model.values()))
    for n in range(1, number + 1):
        assert kept.line(n) == model.get(n)
