"""Selection, ignores and `--max-errors`, applied in one place (sgn/pipeline/policy.py): no option
hides an error it does not name, and a selector that names nothing is a usage error."""

import io
import json
import re

import pytest

from conftest import CHECKOUT, json_report, run_cli
from outputs_read import read
from sgn.codes import CODES
from sgn.diagnostic import make
from sgn.pipeline.policy import Policy, check_selectors, unknown_selector

THREE = '["1","RD",{"result":13}]\n["1","RD",{"result":14}]\n["1","XX",{}]\n'


def test_max_errors_counts_only_what_is_reported(write):
    """The reproducer: two ignored errors used to exhaust --max-errors 2 and hide line 3."""
    result = run_cli("validate", "--isolated", "--ignore", "schema-maximum", "--max-errors", "2", write(THREE))
    assert result.returncode == 1, result.stdout
    assert b":3:6: " in result.stdout and b"unknown-action" in result.stdout
    assert b"max-errors-reached" not in result.stdout  # only one selected error: no limit reached


def test_max_errors_shows_the_first_n_selected_errors_in_line_order(write):
    path = write(THREE * 3)
    report = json_report(
        run_cli(
            "validate",
            "--isolated",
            "-o",
            "json",
            "--select",
            "unknown-action,schema-max*",
            "--ignore",
            "schema-maximum",
            "--max-errors",
            "2",
            path,
        )
    )
    shown = [(d["code"], d["line"]) for d in report["diagnostics"]]
    assert shown == [("unknown-action", 3), ("unknown-action", 6), ("max-errors-reached", 6)]
    assert report["valid"] is False and report["exit_code"] == 1


@pytest.mark.parametrize(
    "options",
    [
        ["--select", "nonexistent-code"],
        ["--select", "rules"],
        ["--select", ""],
        ["--ignore", "schema-maximun"],
        ["--extend-select", "zz-*"],
        ["--extend-ignore", ""],
        ["--per-file-ignores", "*.sgn:no-such-code"],
        ["--per-file-ignores", "*.sgn:"],
    ],
)
def test_a_selector_that_names_nothing_is_a_usage_error(write, options):
    result = run_cli("validate", "--isolated", *options, write(THREE))
    assert result.returncode == 2 and result.stdout == b""
    assert options[0].encode() in result.stderr and b"internal error" not in result.stderr
    if options[1] == "schema-maximun":
        assert b"did you mean schema-maximum" in result.stderr


@pytest.mark.parametrize(
    "setting",
    [
        'select = ["nonexistent-code"]',
        'ignore = ["rules"]',
        "select = []",
        'extend-ignore = ["x*y"]',
        '[per-file-ignores]\n"a/*" = ["nope"]',
    ],
)
@pytest.mark.parametrize("file", ["sgn.toml", "pyproject.toml"])
def test_a_configured_selector_that_names_nothing_is_a_usage_error_naming_file_and_key(tmp_path, setting, file):
    text = (
        "[tool.sgn]\n" + setting.replace("[per-file-ignores]", "[tool.sgn.per-file-ignores]")
        if file == "pyproject.toml"
        else setting
    )
    (tmp_path / file).write_text(text + "\n")
    (tmp_path / "m.sgn").write_text(THREE)
    result = run_cli("validate", "m.sgn", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == b"", result.stdout
    key = re.match(r"\[?([a-z-]+)", setting).group(1)
    assert file.encode() in result.stderr and key.encode() in result.stderr, result.stderr


def test_an_empty_ignore_list_in_a_file_is_allowed(tmp_path):
    (tmp_path / "sgn.toml").write_text("ignore = []\n")
    (tmp_path / "m.sgn").write_text(THREE)
    assert run_cli("validate", "m.sgn", cwd=tmp_path).returncode == 1


def test_every_toml_example_in_the_docs_is_a_valid_configuration(tmp_path):
    """docs/configuration.md once ignored a code that does not exist."""
    for page in [CHECKOUT / "README.md", *sorted((CHECKOUT / "docs").glob("*.md"))]:
        for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            if "[tool.sgn" not in block:
                continue
            (tmp_path / "pyproject.toml").write_text(block)
            result = run_cli("validate", "--show-settings", cwd=tmp_path)
            assert result.returncode == 0, (page.name, block, result.stderr)


def test_unknown_selectors():
    assert unknown_selector("ALL") is None and unknown_selector("schema-*") is None
    assert unknown_selector("read-error") is None
    assert "no diagnostic code" in unknown_selector("rules")
    assert "matches no" in unknown_selector("rules-*")
    assert check_selectors([], "--select") == ["--select names no code"]
    assert check_selectors([], "ignore", may_be_empty=True) == []


def _found(codes):
    return iter([make(code, "m", file="f.sgn", line=n) for n, code in enumerate(codes, 1)])


def test_the_policy_never_hides_a_file_that_was_not_checked():
    policy = Policy(select=("blank-line",), ignore=("read-error", "internal-error"), max_errors=1)
    kept = [d.code for d in policy.apply("f.sgn", _found(["schema-maximum", "read-error", "internal-error"]))]
    assert kept == ["read-error", "max-errors-reached"]
    assert all(policy.keeps("f.sgn", code) for code in CODES if CODES[code].layer == "io")


def test_the_policy_closes_the_check_it_stops():
    closed = []

    def found():
        try:
            for n in range(1, 100):
                yield make("schema-maximum", "m", file="f.sgn", line=n)
        finally:
            closed.append(True)

    out = list(Policy(max_errors=3).apply("f.sgn", found()))
    assert [d.line for d in out] == [1, 2, 3, 3] and out[-1].code == "max-errors-reached" and closed


def test_the_counts_of_each_game_are_of_what_is_reported(tmp_path):
    """A log of two games, an ignored error in the second: each game's verdict follows the policy."""
    from sgn.play import random_game

    games = [random_game(1, 3), random_game(2, 3)]
    lines = [json.dumps(m, separators=(",", ":")) for game in games for m in game]
    second = next(i for i in range(len(games[0]) + 20, len(lines)) if '"RD"' in lines[i])
    lines[second] = lines[second].replace(lines[second][lines[second].index('"result":') :], '"result":13}]')
    (tmp_path / "two.sgn").write_text("\n".join(lines) + "\n")
    for options in (["--ignore", "schema-maximum"], ["--select", "map-*"]):
        report = json_report(run_cli("validate", "--isolated", "-o", "json", *options, "two.sgn", cwd=tmp_path))
        assert report["valid"] is True
        assert [g["errors"] for g in report["files"][0]["games"]] == [0, 0], options
    report = json_report(run_cli("validate", "--isolated", "-o", "json", "two.sgn", cwd=tmp_path))
    assert [g["errors"] for g in report["files"][0]["games"]][1] >= 1


@pytest.mark.parametrize("output", ["text", "json", "jsonl", "github", "sarif", "junit"])
def test_quiet_shows_the_warnings_that_fail_the_run(write, output):
    path = write('["1","RD",{"result":8}]\n\n')
    shown = b'"ruleId": "blank-line"' if output == "sarif" else b"blank-line"
    result = run_cli("validate", "--isolated", "-q", "--fail-on", "warning", "-o", output, path)
    assert result.returncode == 1 and shown in result.stdout
    assert shown not in run_cli("validate", "--isolated", "-q", "-o", output, path).stdout


@pytest.mark.parametrize("options", [["--ignore", "*"], ["--select", "schema-*", "--ignore", "schema-*"]])
def test_a_selection_that_ignores_everything_is_a_usage_error(write, options):
    result = run_cli("validate", "--isolated", *options, write(THREE))
    assert result.returncode == 2 and b"leave none" in result.stderr and result.stdout == b""


def test_standard_input_named_twice_is_a_usage_error():
    result = run_cli("validate", "--isolated", "-", "-", stdin=THREE.encode())
    assert result.returncode == 2 and b"named twice" in result.stderr and result.stdout == b""


def test_show_settings_writes_to_the_output_file(tmp_path):
    result = run_cli("validate", "--isolated", "--show-settings", "--output-file", "s.txt", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == b""
    assert (tmp_path / "s.txt").read_text().startswith("configuration file: none")


@pytest.mark.parametrize("glob", ["*", "?*", "*.sgn", "g.sgn", "[g]*", "*g*", "**", "*.[s]gn"])
@pytest.mark.parametrize("given", ["command line", "sgn.toml", "pyproject.toml"])
def test_per_file_ignores_that_leave_every_file_nothing_are_refused_however_spelt(tmp_path, glob, given):
    """The guard asked whether a pattern matched the empty name: `*:ALL` was refused, `*.sgn:ALL`
    and `?*:ALL` passed a file of errors as valid, and the configuration and the command line
    disagreed on `?*`. It is decided by what the patterns match, the files of the run, as
    the check matches them: each pattern above matches g.sgn, from wherever it is given."""
    (tmp_path / "g.sgn").write_text(THREE)
    (tmp_path / "h.jsonl").write_text(THREE)
    option = []
    if given == "command line":
        option = ["--per-file-ignores", f"{glob}:ALL"]
    else:
        table = "[tool.sgn.per-file-ignores]" if given == "pyproject.toml" else "[per-file-ignores]"
        (tmp_path / given).write_text(f'{table}\n"{glob}" = ["ALL"]\n')
    alone = run_cli("validate", "g.sgn", *option, cwd=tmp_path)
    assert alone.returncode == 2 and alone.stdout == b"", alone.stderr
    said = alone.stderr.decode()
    assert "leave no code to report in any file checked" in said and len(said.splitlines()) == 1
    assert ("--per-file-ignores" if given == "command line" else f"{given}: ") in said
    piped = run_cli("validate", "-", "--stdin-filename", "g.sgn", *option, stdin=THREE.encode(), cwd=tmp_path)
    assert piped.returncode == 2 and b"leave no code to report" in piped.stderr
    if glob not in ("*", "?*", "**", "*g*"):  # a file the pattern does not match has its errors
        both = run_cli("validate", "g.sgn", "h.jsonl", "-o", "json", *option, cwd=tmp_path)
        assert both.returncode == 1 and {d["file"] for d in json_report(both)["diagnostics"]} == {"h.jsonl"}


def test_per_file_ignores_that_leave_a_code_or_a_file_are_allowed(tmp_path):
    (tmp_path / "g.sgn").write_text(THREE)
    some = run_cli("validate", "g.sgn", "--isolated", "--per-file-ignores", "*:schema-*", cwd=tmp_path)
    assert some.returncode == 1 and b"unknown-action" in some.stdout  # the rest of the codes is checked
    policy = Policy(per_file=(("*.sgn", ("ALL",)), ("old/*", ("schema-*",))))
    assert policy.reports_nothing(["g.sgn", "old/h.sgn"]) and not policy.reports_nothing(["g.sgn", "h.jsonl"])
    assert not policy.reports_nothing()  # the files aside, the per-file ignores leave every code
    assert Policy(ignore=("*",)).reports_nothing() and Policy(ignore=("*",)).reports_nothing(["h.jsonl"])


GOOD_LINE, BAD_LINE = '["1","RD",{"result":8}]\n', '["1","RD",{"result":13}]\n'
# 270 blank lines, 2 errors, 4 messages; 130 warnings of another code (under --profile compat)
CAPPED = GOOD_LINE + "\n" * 150 + BAD_LINE + "  \n" * 120 + BAD_LINE + GOOD_LINE
LEGACY = '["1","RD",{"result":"8"}]\n' * 130
EXPECTED = {  # options -> (exit status, errors, warnings) of capped.sgn, legacy.sgn and good.sgn together
    (): (1, 2, 400),
    ("-j", "2"): (1, 2, 400),
    ("--select", "blank-line"): (0, 0, 270),
    ("--ignore", "blank-line"): (1, 2, 130),
    ("--select", "legacy-*,schema-*"): (1, 2, 130),
    ("--max-errors", "1"): (1, 1, 280),  # capped.sgn stops at line 152: its first 150 blank lines
    ("--fail-on", "warning"): (1, 2, 400),
}


def _counts(output, data):
    """(errors, warnings) as an output tells them, each diagnostic as many as it stands for."""
    if output == "text":
        match = re.search(rb"(\d+) errors?, (\d+) warnings?\n$", data)
        return int(match[1]), int(match[2])
    if output == "json":
        report = json.loads(data)
        return report["errors"], report["warnings"]
    if output == "jsonl":
        rows = [json.loads(line) for line in data.splitlines()]
        return tuple(sum(r.get("occurrences", 1) for r in rows if r["severity"] == s) for s in ("error", "warning"))
    if output == "sarif":
        results = json.loads(data)["runs"][0]["results"]
        return tuple(sum(r.get("occurrenceCount", 1) for r in results if r["level"] == s) for s in ("error", "warning"))
    if output == "parquet":
        from pyarrow import parquet

        rows = [r for r in parquet.read_table(io.BytesIO(data)).to_pylist() if r["kind"] == "file"]
        return sum(r["errors"] for r in rows), sum(r["warnings"] for r in rows)
    return None  # github, junit: the diagnostics, not the counts


@pytest.mark.parametrize("options", list(EXPECTED))
@pytest.mark.parametrize("output", ["text", "json", "jsonl", "github", "junit", "sarif", "parquet"])
def test_warnings_of_one_code_are_capped_without_changing_the_verdict_or_the_counts(tmp_path, output, options):
    """A file lists at most 100 warnings of one code, then one that stands for the rest
    ("... and 170 more like these"): 10 million blank lines wrote 589 MB of warnings. The
    exit status and the counts are those of the whole list, in every format, with -j 2,
    --select, --ignore, --max-errors, and from standard input."""
    if output == "parquet":
        pytest.importorskip("pyarrow", reason="pyarrow is not installed (the extra 'parquet')")
    (tmp_path / "capped.sgn").write_text(CAPPED)
    (tmp_path / "legacy.sgn").write_text(LEGACY)
    (tmp_path / "good.sgn").write_text(GOOD_LINE)
    status, errors, warnings = EXPECTED[options]
    common = ["validate", "--isolated", "--profile", "compat", "-o", output, *options]
    for files, stdin in [(["capped.sgn", "legacy.sgn", "good.sgn"], None), (["-", "legacy.sgn"], CAPPED)]:
        out = tmp_path / "report.out"
        if stdin is not None and (options[:1] == ("-j",) or options == ("--select", "blank-line")):
            continue  # (standard input is read here, -j or not; a file of no warning of its own)
        result = run_cli(*common, *files, "--output-file", out, cwd=tmp_path, stdin=(stdin or "").encode())
        assert result.returncode == status, (files, result.stderr)
        data = out.read_bytes()
        told = _counts(output, data)
        if told is not None:
            assert told == (errors, warnings), (files, output)
        names = ["<stdin>" if f == "-" else f for f in files]
        listed = read(output, data, names).found
        for name in names:
            for code in ("blank-line", "legacy-numeric-string"):
                assert sum(1 for f in listed if f[0] == name and f[2] == code) <= 101
        if "blank-line" in data.decode("utf-8", "replace") and output in ("text", "json", "junit", "jsonl"):
            assert "more like these" in data.decode()


# One policy (sgn/pipeline/policy.py) decides what is reported (select, ignore, the limit), what
# is shown of it (-q) and what fails the run (--fail-on): the reporters are handed what to show,
# and the exit status is computed in one place from the diagnostics kept.


def test_the_policy_decides_what_is_shown_and_what_fails():
    from sgn.diagnostic import ERROR, INFO, WARNING
    from sgn.pipeline.result import Result

    kinds = ("unknown-action", "blank-line", "no-final-newline")
    error, warning, info = (make(code, "x", file="f", line=1) for code in kinds)
    assert (error.severity, warning.severity, info.severity) == (ERROR, WARNING, INFO)
    assert all(Policy().shows(d) for d in (error, warning, info))
    assert [Policy(quiet=True).shows(d) for d in (error, warning, info)] == [True, False, False]
    assert [Policy(quiet=True, fail_on="warning").shows(d) for d in (error, warning, info)] == [True, True, False]
    for fail_on, verdict in (("error", "valid"), ("warning", "invalid")):
        warned = Result("valid", "f", "rules", messages=1, warnings=1)
        Policy(fail_on=fail_on).settle(warned)
        assert warned.verdict == verdict
        assert Policy(fail_on=fail_on).exit_code([warned, Result("valid", "g", "rules")]) == ["valid", "invalid"].index(
            verdict
        )
    assert Policy().exit_code([]) == 0
    assert Policy().exit_code([Result("invalid", "f", None), Result("unreadable", "g", None)]) == 2


def test_no_reporter_nor_executor_decides_what_is_shown_or_what_fails():
    """-q and --fail-on are the policy's: the outputs and the pipeline ask it (`policy.quiet`),
    never keep a copy of their own to judge by (names in the code, not in its prose)."""
    import tokenize

    judged = {"quiet", "fail_on", "fail_on_warnings", "failing", "wants"}
    package = CHECKOUT / "sgn"
    for path in [*sorted((package / "output").glob("*.py")), *sorted((package / "pipeline").glob("*.py"))]:
        if path.name == "policy.py":
            continue
        with open(path, "rb") as handle:
            names = [t.string for t in tokenize.tokenize(handle.readline) if t.type in (tokenize.NAME, tokenize.OP)]
        found = [name for at, name in enumerate(names) if name in judged and names[at - 2 : at] != ["policy", "."]]
        assert found == [], path


WARNED = '["1","RD",{"result":8}]\n\n'  # a blank line: one warning, no error


def _in_process(folder, monkeypatch, *args):
    import contextlib

    from sgn.cli import main

    monkeypatch.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["validate", "--isolated", *args], out=out)
    assert err.getvalue() == "", err.getvalue()
    return code, out.getvalue()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("output", ["text", "concise", "json", "jsonl", "github", "junit", "sarif"])
def test_fail_on_gives_one_verdict_in_every_output_and_executor(tmp_path, monkeypatch, output, jobs):
    (tmp_path / "w.sgn").write_text(WARNED)
    (tmp_path / "v.sgn").write_text(WARNED.rstrip("\n") + "\n")
    run = ["-o", output, "-j", jobs, "w.sgn", "v.sgn"]
    assert _in_process(tmp_path, monkeypatch, *run)[0] == 0
    for extra in ([], ["-q"], ["--statistics"], ["-q", "--statistics"]):
        if extra and "--statistics" in extra and output not in ("text", "json", "jsonl"):
            continue
        code, report = _in_process(tmp_path, monkeypatch, "--fail-on", "warning", *extra, *run)
        assert code == 1, (extra, report)
        if output == "json" and "--statistics" not in extra:
            parsed = json.loads(report)
            assert (parsed["valid"], parsed["exit_code"]) == (False, 1)
            assert [f["verdict"] for f in parsed["files"]] == ["invalid", "valid"]
        if "--statistics" not in extra:
            assert "blank-line" in report  # -q shows what fails the run


def test_fail_on_gives_the_same_verdict_on_standard_input():
    for options, code in (([], 0), (["--fail-on", "warning"], 1), (["-q", "--fail-on", "warning"], 1)):
        result = run_cli("validate", "--isolated", *options, "-o", "json", "-", stdin=WARNED.encode())
        assert result.returncode == code, result.stderr
        assert json.loads(result.stdout)["exit_code"] == code
