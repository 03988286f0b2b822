"""`sgn validate`'s outputs for programs and CI (-o jsonl, junit, sarif), colour on a terminal,
--stdin-filename, -j 0/auto, the verdict of each file in the summary, and JSON's null level:
each checked for what its consumers rely on, with names and messages built to break them."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import example, given, strategies as st

from conftest import run_cli
from sgn.cli import main
from sgn.cli.exits import cores, job_count
from sgn.codes import CODES
from sgn.output import colour, xml as junit
from sgn.words import visible

GOOD = '["1","RD",{"result":8}]\n'
BAD = '["1","RD",{"result":13}]\n'
HOSTILE_KEY = '"\\u0007]]>\\u0000\\"<&x\\r\\n\\ud800\\uffff"'  # a key that becomes a pointer
HOSTILE = '["1","RD",{"result":8,' + HOSTILE_KEY + ":1}]\n"
HOSTILE_NAME = 'a"<&]]>\x1b[2J\n\t.sgn'
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
ANSI = re.compile("\x1b\\[[0-9;]*m")


def validate(*args):
    """`sgn validate ARGS` in this process: (exit status, standard output)."""
    out = io.StringIO()
    code = main(["validate", *map(str, args)], out=out)
    return code, out.getvalue()


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Logs of every verdict, in the current folder: valid, invalid, warnings only, an info
    only, hostile (a pointer and a file name full of what breaks XML and terminals),
    unreadable."""
    monkeypatch.chdir(tmp_path)
    logs = {
        "good.sgn": GOOD,
        "bad.sgn": GOOD + BAD + "\n",
        "warned.sgn": GOOD + "\n" + GOOD,
        "unended.sgn": GOOD.rstrip("\n"),
        HOSTILE_NAME: HOSTILE + BAD,
    }
    for name, text in logs.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return list(logs) + ["missing.sgn"]


# -o jsonl


def test_jsonl_is_the_diagnostics_of_json_one_a_line_and_nothing_else(files):
    code, lines = validate("-o", "jsonl", *files)
    json_code, whole = validate("-o", "json", *files)
    assert code == json_code == 2 and lines.endswith("\n")
    assert [json.loads(line) for line in lines.splitlines()] == json.loads(whole)["diagnostics"]
    assert all(line.startswith('{"code": ') for line in lines.splitlines())


def test_jsonl_of_a_valid_file_is_empty(files):
    assert validate("-o", "jsonl", "good.sgn") == (0, "")


def test_jsonl_quiet_is_the_errors_only(files):
    code, lines = validate("-o", "jsonl", "-q", *files)
    assert {json.loads(line)["severity"] for line in lines.splitlines()} == {"error"}


# -o junit


def junit_cases(text):
    root = ElementTree.fromstring(text.encode("utf-8"))  # expat: any character XML forbids fails
    suites = root.findall("testsuite")
    assert root.tag == "testsuites" and len(suites) == 1
    return root, suites[0], suites[0].findall("testcase")


def test_junit_a_case_per_file_a_failure_per_invalid_file_an_error_per_unreadable(files):
    code, text = validate("-o", "junit", *files)
    root, suite, cases = junit_cases(text)
    assert code == 2 and [c.get("name") for c in cases] == [f.replace("\x1b", "\\x1b") for f in files]
    outcome = {c.get("name"): [child.tag for child in c] for c in cases}
    assert outcome == {
        "good.sgn": [],
        "bad.sgn": ["failure"],
        "warned.sgn": ["system-out"],
        "unended.sgn": ["system-out"],
        HOSTILE_NAME.replace("\x1b", "\\x1b"): ["failure"],
        "missing.sgn": ["error"],
    }
    for element in (root, suite):
        assert {k: element.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
            "tests": "6",
            "failures": "2",
            "errors": "1",
            "skipped": "0",
        }
    bad = cases[1].find("failure")
    assert bad.get("message") == "INVALID: 1 error, 1 warning"
    assert bad.text == validate("-o", "concise", "bad.sgn")[1].rsplit("\n", 2)[0] + "\n"  # the concise report's lines


def test_junit_lists_the_same_file_twice_as_two_cases_and_warnings_do_not_fail(files):
    code, text = validate("-o", "junit", "warned.sgn", "warned.sgn")
    _, suite, cases = junit_cases(text)
    assert code == 0 and suite.get("failures") == suite.get("errors") == "0" and len(cases) == 2
    assert "[blank-line]" in cases[0].find("system-out").text


def test_junit_stays_well_formed_whatever_the_names_and_pointers_hold(files):
    _, _, cases = junit_cases(validate("-o", "junit", HOSTILE_NAME)[1])
    failure = cases[0].find("failure").text
    assert '/2/\\x07]]>\\x00"<&x\\r\\n\\ud800\\uffff:' in failure and "[schema-unknown-property]" in failure
    assert cases[0].get("name") == HOSTILE_NAME.replace("\x1b", "\\x1b")


def test_junit_memory_does_not_hold_the_cases(tmp_path, monkeypatch):
    """The test cases of a long run wait on disk, not in memory, and come out whole."""
    from sgn.output import junit as report_junit

    monkeypatch.setattr(report_junit, "_IN_MEMORY", 1000)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "many.sgn").write_text(BAD * 3000)
    rolled = []
    spool = report_junit._spool
    monkeypatch.setattr(report_junit, "_spool", lambda: rolled.append(spool()) or rolled[-1])
    _, suite, cases = junit_cases(validate("-o", "junit", "many.sgn", "many.sgn")[1])
    assert all(s._rolled for s in rolled) and len(rolled) == 2
    assert [c.find("failure").text.count("[schema-maximum]") for c in cases] == [3000, 3000]


def test_junit_on_a_full_disk_says_so_in_a_line(tmp_path, monkeypatch, capsys):
    import errno
    import tempfile

    from sgn.output import junit as report_junit

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report_junit, "_IN_MEMORY", 1000)
    monkeypatch.setattr(tempfile, "TemporaryFile", full)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "many.sgn").write_text(BAD * 100)
    assert validate("-o", "junit", "many.sgn") == (2, "")
    assert capsys.readouterr().err == "sgn validate: -o junit cannot write a temporary file: No space left on device\n"


# the shared XML escapes (also conformance's JUnit)


@given(st.text())
@example("\x1b\x7f\x85\x9b\ud800\uffff\r\t")
def test_xml_escapes_round_trip_what_xml_can_hold_and_escape_the_rest(value):
    document = f"<a b={junit.attribute(value)}>{junit.text(value)}</a>".encode("utf-8", "backslashreplace")
    element = ElementTree.fromstring(document)

    def expected(s):
        return "".join(
            c
            if c in "\t\n\r"
            or "\x20" <= c < "\x7f"
            or "\xa0" <= c <= "\ud7ff"
            or "\ue000" <= c <= "\ufffd"
            or c > "\uffff"
            else c.encode("unicode_escape").decode()
            if c < "\ud800" or c > "\udfff"
            else f"\\u{ord(c):04x}"
            for c in s
        )

    assert element.get("b") == expected(value) and (element.text or "") == expected(value)


def test_conformance_junit_stays_well_formed_when_an_implementation_writes_control_characters(tmp_path):
    noisy = tmp_path / "noisy.py"
    noisy.write_text(
        "import sys\nsys.stdin.buffer.read()\n"
        "sys.stderr.write('\\x1b[31mfailed ]]> <&\\x00\\x07\\ufffe\\n')\nsys.exit(3)\n"
    )
    result = run_cli(
        "conformance", "--impl", f"{sys.executable} {noisy}", "--run", "schema-rd-result-1*", "-o", "junit"
    )
    root = ElementTree.fromstring(result.stdout)
    errors = root.findall(".//system-err")
    assert errors and "\\x1b[31mfailed ]]> <&\\x00\\x07\\ufffe" in errors[0].text


# nothing but a report's own line ends and colours reaches the terminal (sgn.words.visible)

RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # a control or line break but LF


@given(st.text())
@example("a\u2028b\u2029c\x85\x1b[2J\r\n\x00")
def test_visible_leaves_no_control_character_and_no_line_break(text):
    shown = visible(text)
    assert not RAW.search(shown) and "\n" not in shown and len(shown.splitlines()) <= 1
    assert visible(shown) == shown  # nothing is escaped twice


def test_github_annotations_hold_no_control_character_raw(files):
    """GitHub's own escapes (%0A) for a line break, the text report's (\\x1b) for the rest."""
    code, text = validate("-o", "github", *files)
    assert code == 2 and not RAW.search(text)
    assert 'file=a"<&]]>\\x1b[2J%0A\\t.sgn,' in text


@pytest.mark.parametrize("output", ["text", "github"])
def test_unicode_line_separators_are_escaped_as_other_line_breaks(write, output):
    log = write('["1\u2028","RD",{"result":8,"x\u2029":1}]\n'.encode("utf-8"), name="sep\u2028.sgn")
    code, text = validate("-o", output, log)
    assert code == 1 and not RAW.search(text) and len(text.splitlines()) == text.count("\n")
    assert "sep\\u2028.sgn" in text and "x\\u2029" in text


@pytest.mark.parametrize("output", ["text", "github", "junit"])
def test_a_name_given_to_standard_input_is_shown_as_a_file_name_is(output):
    name = "b\x1b]0;pwn\x07\u2028.sgn"
    result = run_cli("validate", "-o", output, "--stdin-filename", name, "-", stdin=BAD.encode())
    text = result.stdout.decode()
    assert result.returncode == 1 and "b\\x1b]0;pwn\\x07" in text
    assert not (RAW if output != "junit" else re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")).search(text)


# -o sarif


@pytest.fixture(scope="module")
def sarif_validator():
    import jsonschema

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_sarif_matches_the_published_schema(files, sarif_validator):
    code, text = validate("-o", "sarif", *files)
    log = json.loads(text)
    errors = sorted(sarif_validator.iter_errors(log), key=str)
    assert code == 2 and not errors, errors[0] if errors else None
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1


@pytest.mark.parametrize(
    "declared,uri",
    [
        ({"Project-URL": ["Source, ftp://x", "Homepage, https://example.org/sgn"]}, "https://example.org/sgn"),
        ({"Home-page": ["http://example.org/"]}, "http://example.org/"),
        ({}, None),
    ],
)
def test_sarif_s_information_uri_is_the_home_page_the_distribution_declares(monkeypatch, declared, uri):
    """Read from the installed distribution, by its name (sgn/packaged.py): none made up."""
    from importlib import metadata

    from sgn.output import sarif
    from sgn.packaged import DISTRIBUTION

    class Declared:
        def get_all(self, field):
            return declared.get(field)

    asked = []
    monkeypatch.setattr(metadata, "metadata", lambda name: asked.append(name) or Declared())
    assert sarif.information_uri() == uri and asked == [DISTRIBUTION]
    assert ("informationUri" in sarif.driver()) == (uri is not None)


def test_sarif_rules_are_every_code_and_results_point_to_them(files):
    log = json.loads(validate("-o", "sarif", *files)[1])
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "sgn" and driver["version"] == __import__("sgn").__version__
    assert [(r["id"], r["shortDescription"]["text"]) for r in driver["rules"]] == [
        (c.name, c.summary) for c in CODES.values()
    ]
    assert driver.get("informationUri", "https://").startswith(("https://", "http://"))
    results = run["results"]
    assert len(results) == len(validate("-o", "jsonl", *files)[1].splitlines())
    for result in results:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    assert run["invocations"] == [{"executionSuccessful": True, "exitCode": 2}]


def test_sarif_result_fields(files):
    results = json.loads(validate("-o", "sarif", "bad.sgn", "unended.sgn", "missing.sgn", HOSTILE_NAME)[1])["runs"][0][
        "results"
    ]
    by_code = {r["ruleId"]: r for r in reversed(results)}  # the first of each code
    bad = by_code["schema-maximum"]
    assert bad["level"] == "error" and bad["message"]["text"] == "/2/result: 13 is greater than the maximum 12"
    assert bad["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "bad.sgn"},
        "region": {"startLine": 2, "startColumn": 21, "endColumn": 23},
    }
    assert bad["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": "/2/result"}]
    assert bad["properties"] == {"layer": "schema", "pointer": "/2/result"}
    assert by_code["blank-line"]["level"] == "warning" and by_code["no-final-newline"]["level"] == "note"
    assert "region" not in by_code["file-not-found"]["locations"][0]["physicalLocation"]
    hostile = by_code["schema-unknown-property"]
    assert (
        hostile["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == "a%22%3C%26%5D%5D%3E%1B%5B2J%0A%09.sgn"
    )
    assert hostile["properties"]["pointer"] == json.loads('"/2/' + HOSTILE_KEY[1:])


def test_sarif_columns_are_characters(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "col.sgn").write_text('["é", 1,]\n', encoding="utf-8")
    run = json.loads(validate("-o", "sarif", "col.sgn")[1])["runs"][0]
    text_column = validate("col.sgn")[1].split(":")[2]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"] == int(text_column)


def test_sarif_paths_outside_the_current_folder_are_file_uris(files, tmp_path):
    elsewhere = tmp_path / "sub"
    elsewhere.mkdir()
    os.chdir(elsewhere)
    results = json.loads(validate("-o", "sarif", tmp_path / "bad.sgn", "../bad.sgn")[1])["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris == [(tmp_path / "bad.sgn").as_uri()] * 2 + ["../bad.sgn"] * 2


# colour


class Stream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


@pytest.mark.parametrize(
    "choice, tty, environ, wanted",
    [
        ("always", False, {"NO_COLOR": "1"}, True),
        ("never", True, {"FORCE_COLOR": "1"}, False),
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # set but empty: as if unset
        ("auto", True, {"TERM": "dumb"}, False),
        ("auto", False, {"FORCE_COLOR": "1"}, True),
        ("auto", False, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ("auto", False, {"FORCE_COLOR": ""}, False),
    ],
)
def test_when_colour_is_used(choice, tty, environ, wanted):
    assert colour.wanted(choice, Stream(tty), environ) is wanted


def test_colour_paints_by_the_palette_and_adds_nothing_else(files):
    code, painted = validate("--color", "always", *files)
    assert (code, ANSI.sub("", painted)) == validate("--color", "never", *files)
    p, reset = colour.PALETTE, colour.RESET
    assert (
        f"{p['location']}bad.sgn:2:21:{reset} /2/result: 13 is greater than the maximum 12 [{p['error']}schema-maximum{reset}]"
        in painted
    )
    assert f"{p['warning']}warning:{reset} blank line skipped [{p['warning']}blank-line{reset}]" in painted
    assert f"{p['info']}info:{reset}" in painted
    assert f"good.sgn: {p['valid']}valid{reset}" in painted and f"bad.sgn: {p['error']}INVALID{reset}" in painted
    assert "\x1b[2J" not in painted  # a file name's own escape is shown, not sent


@pytest.mark.parametrize("output", ["json", "jsonl", "github", "junit", "sarif"])
def test_colour_is_for_text_only(files, output):
    assert validate("--color", "always", "-o", output, *files) == validate("--color", "never", "-o", output, *files)


def on_a_terminal(*args, **environ):
    """`sgn validate ARGS` with its standard output on a pseudo-terminal: what it wrote there."""
    pty = pytest.importorskip("pty", reason="pseudo-terminals are a POSIX facility")
    main_end, terminal = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(environ, PYTHONPATH=str(Path(colour.__file__).resolve().parent.parent))
    with subprocess.Popen(
        [sys.executable, "-m", "sgn", "validate", *args], stdout=terminal, stderr=subprocess.DEVNULL, env=env
    ) as process:
        os.close(terminal)
        chunks = []
        while True:
            try:
                chunk = os.read(main_end, 65536)
            except OSError:  # the terminal is closed: all is read
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    os.close(main_end)
    return b"".join(chunks).decode()


def test_auto_colour_on_a_real_terminal(files):
    assert colour.PALETTE["error"] in on_a_terminal("bad.sgn", TERM="xterm")
    assert "\x1b[" not in on_a_terminal("bad.sgn", TERM="xterm", NO_COLOR="1")
    assert "\x1b[" not in on_a_terminal("bad.sgn", TERM="dumb")
    assert "\x1b[" not in run_cli("validate", Path.cwd() / "bad.sgn").stdout.decode()  # a pipe


def test_text_output_shows_control_characters_as_escapes_one_line_a_diagnostic(files):
    code, text = validate("-q", "-o", "concise", HOSTILE_NAME)
    assert code == 1 and text.count("\n") == 2 and "\x1b" not in text and "\x07" not in text
    assert text.startswith('a"<&]]>\\x1b[2J\\n\\t.sgn:1:62: /2/\\x07]]>\\x00"<&x\\r\\n\\ud800\uffff: ')


# --stdin-filename


def test_stdin_filename_names_standard_input():
    result = run_cli("validate", "--stdin-filename", "games/today.sgn", "-o", "jsonl", stdin=BAD.encode())
    assert result.returncode == 1 and json.loads(result.stdout)["file"] == "games/today.sgn"
    assert run_cli("validate", stdin=BAD.encode()).stdout.startswith(b"<stdin>:1:")


def test_stdin_filename_among_files(files):
    result = run_cli("validate", "--stdin-filename", "piped.sgn", "-", Path.cwd() / "good.sgn", stdin=BAD.encode())
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("piped.sgn:1:21: /2/result") and "piped.sgn: INVALID" in lines[-3]


def test_stdin_filename_must_name_something():
    result = run_cli("validate", "--stdin-filename", "", stdin=GOOD.encode())
    assert result.returncode == 2 and b"must not be empty" in result.stderr


# -j 0 / auto


def test_jobs_zero_and_auto_are_one_per_core(monkeypatch):
    assert job_count("0") == job_count("auto") == job_count("AUTO") == cores() >= 1
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5})
        assert job_count("auto") == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert job_count("0") == 1


@pytest.mark.parametrize("jobs", ["0", "auto"])
def test_jobs_per_core_give_the_output_of_one_job(files, jobs):
    many = files * 3
    assert validate("-j", jobs, *many) == validate("-j", "1", *many)


@pytest.mark.parametrize("jobs", ["-1", "x", "1.5", ""])
def test_bad_job_counts_are_usage_errors(jobs):
    result = run_cli("validate", "-j", jobs, "-", stdin=GOOD.encode())
    assert result.returncode == 2 and b"0 or auto" in result.stderr and b"Traceback" not in result.stderr


# the summary of several files; JSON's level


def test_several_files_have_a_verdict_each_then_the_total(files):
    code, text = validate("good.sgn", "bad.sgn", "missing.sgn", "good.sgn")
    tail = text.splitlines()[-5:]
    fragment = " (semantic, a fragment: no map at its start, no game replayed): "
    assert code == 2 and tail == [
        "good.sgn: valid" + fragment + "1 message, 0 errors, 0 warnings",
        "bad.sgn: INVALID" + fragment + "2 messages, 1 error, 1 warning",
        "missing.sgn: UNREADABLE: 0 messages, 1 error, 0 warnings",
        "good.sgn: valid" + fragment + "1 message, 0 errors, 0 warnings",
        "4 files: UNREADABLE" + fragment + "4 messages, 2 errors, 1 warning",
    ]


def test_a_file_of_several_games_lists_its_games_then_its_verdict(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    games = io.StringIO()
    assert main(["generate", "--games", "2"], out=games) == 0
    (tmp_path / "two.sgn").write_text(games.getvalue())
    (tmp_path / "bad.sgn").write_text(BAD)
    lines = validate("two.sgn", "bad.sgn")[1].splitlines()
    assert lines[-5].startswith("two.sgn: game 1 (from line 2): valid")  # (its map, after its header)
    assert lines[-4].startswith("two.sgn: game 2 (from line ") and ": valid" in lines[-4]
    assert lines[-3] == "two.sgn: valid (rules, 2 games): " + lines[-3].split(": ", 2)[2]
    assert lines[-2].startswith("bad.sgn: INVALID") and lines[-1].startswith("2 files: INVALID")


def test_one_file_has_one_summary_line_and_quiet_has_none(files):
    assert validate("bad.sgn")[1].splitlines()[-1].startswith("bad.sgn: INVALID")
    assert validate("missing.sgn")[1].splitlines()[-1] == "missing.sgn: UNREADABLE: 0 messages, 1 error, 0 warnings"
    assert "INVALID" not in validate("-q", "bad.sgn", "good.sgn")[1]


@pytest.mark.parametrize("level", [[], ["--level", "schema"]])
def test_json_level_is_null_for_a_file_not_checked(files, level, tmp_path):
    report = json.loads(validate("-o", "json", *level, "missing.sgn", tmp_path / "none" / "x.sgn", "good.sgn")[1])
    assert [f["level"] for f in report["files"]] == [None, None, "semantic" if not level else "schema"]


def test_the_total_of_several_files_counts_each_kind_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for players in ("3", "5"):
        game = io.StringIO()
        assert main(["generate", "--players", players], out=game) == 0
        (tmp_path / f"p{players}.sgn").write_text(game.getvalue())
    total = validate("p3.sgn", "p5.sgn")[1].splitlines()[-1]
    assert total.startswith("2 files: valid (rules: 1 5-6 player extension game, 1 base game): "), total
    assert validate("p3.sgn", "p3.sgn")[1].splitlines()[-1].startswith("2 files: valid (rules): ")


def test_sarif_explains_each_rule_without_a_null_uri(files):
    driver = json.loads(validate("-o", "sarif", *files)[1])["runs"][0]["tool"]["driver"]
    assert driver.get("informationUri", "https://").startswith(("https://", "http://"))
    for rule in driver["rules"]:
        assert rule["help"]["text"].startswith(rule["shortDescription"]["text"])
        assert f"The {rule['properties']['layer']} layer checks " in rule["help"]["text"]
        assert ".md" not in rule["help"]["text"][len(rule["shortDescription"]["text"]) :]
