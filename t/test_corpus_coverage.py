"""Coverage of the corpus (sgn/corpus/coverage.py): the corpus has it, and the check finds
a code without its cases, a spec not of the form, a section without a valid case."""

import base64
import gzip
import json

import pytest

from conftest import CORPUS, corpus_cases, run_cli
from sgn import packaged
from sgn.codes import CODES
from sgn.corpus import coverage as cc
from sgn.corpus.codes_doc import NOT_IN_CORPUS

CASES = corpus_cases()
COVERAGE = cc.load(CORPUS)
GAME = [json.loads(t) for t in (CORPUS / "games" / "game-continued.sgn").read_text().splitlines()]
ROLL_OF_13 = ["1", "RD", {"result": 13}]


def test_the_corpus_covers_what_its_coverage_file_asks():
    assert COVERAGE is not None
    assert cc.check(CASES, CORPUS) == []


def test_installed_coverage_file_is_the_checkout_one():
    assert cc.load(packaged.corpus_dir()) == COVERAGE


def test_the_codes_no_case_shows_are_exempt_and_the_other_way_round():
    """docs/codes.md's list of codes without an example (NOT_IN_CORPUS) and the coverage
    exemptions say the same of the codes a case could show."""
    shown = {e["code"] for c in CASES for e in c["errors"] + c.get("warnings", [])}
    unshowable = {c for c in NOT_IN_CORPUS if CODES[c].layer != "io" and CODES[c].severity != "info"}
    assert unshowable <= set(COVERAGE.exempt)
    assert set(COVERAGE.exempt) - shown == unshowable


def case(cid, valid, errors=(), *, spec="SGN: Actions (RD)", kind="message", value=None, tags=(), warnings=()):
    return {
        "id": cid,
        "description": cid,
        "kind": kind,
        "level": "rules",
        "valid": valid,
        "tags": list(tags),
        "errors": [{"code": c} for c in errors],
        "warnings": [{"code": c} for c in warnings],
        "spec": spec,
        "input": value if value is not None else ROLL_OF_13,
    }


def rules_only(**changes):
    """The corpus's coverage, asking only the rules codes for cases."""
    return COVERAGE._replace(needs={"rules": ("minimal", "in-game")}, **changes)


def lines_for(problems, code):
    return [p for p in problems if p.startswith(f"code {code}:")]


def test_a_code_needs_a_minimal_case_and_one_inside_a_complete_game():
    minimal = case("a", False, ["distance-rule"])
    in_game = case("b", False, ["distance-rule"], kind="log", value=GAME + [ROLL_OF_13])
    assert cc.in_complete_game(in_game, COVERAGE) and not cc.in_complete_game(minimal, COVERAGE)
    only_minimal = cc.problems([minimal, case("v", True)], rules_only())
    assert lines_for(only_minimal, "distance-rule") == [
        "code distance-rule: no case inside a complete game shows it alone (invalid, with that error only)"
    ]
    only_in_game = cc.problems([in_game, case("v", True)], rules_only())
    assert lines_for(only_in_game, "distance-rule") == [
        "code distance-rule: no minimal case shows it alone (invalid, with that error only)"
    ]
    assert lines_for(cc.problems([minimal, in_game], rules_only()), "distance-rule") == []


def test_a_case_of_two_codes_covers_neither_and_a_warning_is_shown_by_a_valid_case():
    both = case("a", False, ["distance-rule", "cannot-afford"])
    assert len(lines_for(cc.problems([both], rules_only()), "distance-rule")) == 2
    warned = case("w", True, warnings=["player-count"])
    assert lines_for(cc.problems([warned], rules_only()), "player-count") == [
        "code player-count: no case inside a complete game shows it alone (valid, with that warning only)"
    ]


def test_an_exemption_is_kept_only_while_no_case_shows_the_code():
    exempt = rules_only(exempt={"distance-rule": "why"}, not_in_game={"cannot-afford": "why"})
    assert lines_for(cc.problems([], exempt), "distance-rule") == []
    assert lines_for(cc.problems([case("m", False, ["cannot-afford"])], exempt), "cannot-afford") == []
    found = cc.problems(
        [
            case("a", False, ["distance-rule"]),
            case("b", False, ["cannot-afford"], kind="log", value=GAME + [ROLL_OF_13]),
        ],
        exempt,
    )
    assert "code distance-rule: exempt, yet a case shows it alone: drop the exemption" in found
    assert "code cannot-afford: exempt from a complete game, yet one shows it: drop the exemption" in found


@pytest.mark.parametrize(
    "spec, sections, says",
    [
        (
            "SGN: Actions (TR); Resources notation \u2014 the sides balance",
            ["SGN: Actions (TR)", "SGN: Resources notation"],
            [],
        ),
        (
            "SGN: Trading; Settlers rules: Trade; Domestic trade",
            ["SGN: Trading", "Settlers rules: Trade", "Settlers rules: Domestic trade"],
            [],
        ),
        ("RFC 8259: section 4", ["RFC 8259: section 4"], []),
        ("SGN: Actions (XX)", ["SGN: Actions (XX)"], ["names 'SGN: Actions (XX)', which is not a listed section"]),
        (
            "SGN: Trading, Players",
            ["SGN: Trading, Players"],
            ["names 'SGN: Trading, Players', which is not a listed section"],
        ),
        (
            "Actions",
            [],
            [
                "does not start with a source: SGN, HAN, HSN 000, HSN 002, HSGN, RFC 8259, RFC 7493, "
                "RFC 3629, RFC 1951, RFC 1952, Settlers rules, docs/rules.md, docs/hidden.md, docs/format.md"
            ],
        ),
        ("SGN: Trading \u2014 ", [], ["has nothing after its dash"]),
        ("SGN: Trading; ", ["SGN: Trading", "SGN: "], ["names 'SGN: ', which is not a listed section"]),
    ],
)
def test_a_spec_names_listed_sections_then_free_text(spec, sections, says):
    assert cc.spec_sections(spec, COVERAGE) == (sections, says)


def test_a_bad_spec_is_one_line_naming_the_case():
    found = cc.problems([case("x", True, spec="SGN: Nowhere")], rules_only())
    assert "x: its spec names 'SGN: Nowhere', which is not a listed section" in found


def test_a_section_with_invalid_cases_needs_a_valid_one():
    invalid = case("a", False, ["schema-maximum"], spec="SGN: Actions (RD) \u2014 13 is too high")
    found = cc.problems([invalid], rules_only())
    assert "section SGN: Actions (RD): 1 invalid case(s) and no valid one beside them" in found
    found = cc.problems([invalid, case("b", True, spec="SGN: Players; Actions (RD)")], rules_only())
    assert not [p for p in found if p.startswith("section ")]


def test_the_tag_in_game_is_checked():
    found = cc.problems([case("short", True, tags=["in-game"])], rules_only())
    assert "short: tagged in-game, but its input is no complete game" in found


def test_a_raw_case_is_read_as_its_file_is_even_compressed():
    text = "".join(json.dumps(m) + "\n" for m in GAME)
    packed = base64.b64encode(gzip.compress(text.encode(), mtime=0)[:-8]).decode()  # cut short
    raw = dict(case("g", False, ["gzip-truncated"]), kind="raw", input=packed, input_encoding="base64")
    assert len(cc.messages(raw)) == len(GAME) and cc.in_complete_game(raw, COVERAGE)
    cut = dict(raw, input=text[: len(text) // 10], input_encoding="text")
    assert not cc.in_complete_game(cut, COVERAGE)


@pytest.mark.parametrize(
    "text, says",
    [
        ("sections: [1\n", "cannot read it"),
        ("- 1\n", "a mapping of names to objects"),
        ("sections: {SGN: [Definition]}\n", "needs: a mapping of names to lists"),
        ("sections: {SGN: [Definition, Definition]}\n", "sections: each source lists names (strings), each once"),
        ("sections: {SGN: [Definition]}\nneeds: {moves: [minimal]}\n", "needs: for a layer of io, syntax"),
        (
            "sections: {SGN: [Definition]}\nneeds: {rules: [minimal]}\ncomplete-game: {DM: one}\n",
            "complete-game: a mapping of names to ints",
        ),
        (
            "sections: {SGN: [Definition]}\nneeds: {rules: [minimal]}\ncomplete-game: {DM: 1}\nexempt: {no-such-code: why}\n",
            "exempts a code sgn does not have: no-such-code",
        ),
    ],
)
def test_a_bad_coverage_file_is_one_line_naming_it(tmp_path, text, says):
    (tmp_path / "src").mkdir()
    (tmp_path / cc.COVERAGE).write_text(text, encoding="utf-8")
    [problem] = cc.check([], tmp_path)
    assert problem.startswith(f"{tmp_path / cc.COVERAGE}: ") and says in problem
    result = run_cli("corpus", "check", "--root", tmp_path)
    assert result.returncode == 1 and f"sgn corpus: {problem}\n" in result.stderr.decode()
    assert b"Traceback" not in result.stderr


def test_a_corpus_folder_without_a_coverage_file_asks_for_none(tmp_path):
    assert cc.load(tmp_path) is None and cc.check(CASES, tmp_path) == []


def test_corpus_check_fails_on_a_missing_case_one_line_each(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / cc.COVERAGE).write_text((CORPUS / cc.COVERAGE).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "src" / "a.yaml").write_text(
        '- {id: x, description: d, kind: message, json: \'["1","RD",{"result":13}]\', level: schema, valid: false,\n'
        '   errors: [{code: schema-maximum}], spec: "SGN: Actions (RD)"}\n',
        encoding="utf-8",
    )
    assert run_cli("corpus", "build", "--root", tmp_path).returncode == 1  # written, and not sound
    result = run_cli("corpus", "check", "--root", tmp_path)
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 1
    assert (
        "sgn corpus: code schema-maximum: no case inside a complete game shows it alone "
        "(invalid, with that error only)" in lines
    )
    assert "sgn corpus: section SGN: Actions (RD): 1 invalid case(s) and no valid one beside them" in lines
    assert "sgn corpus: code schema-minimum: no minimal case shows it alone (invalid, with that error only)" in lines
    assert all(line.startswith("sgn corpus: ") for line in lines)
