"""What the conformance harness promises whatever the implementation does: a crash is never
scored as a verdict, however it is reported (in colour included); nothing an implementation
says of itself or prints, nor a case id of a bundle, reaches the terminal or a report raw;
the HTML page runs nothing but its own script; and a time-out that no time can be is a usage
error. Each in every output format and both modes."""

import json
import math
import re
import sys
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pytest
from hypothesis import given, strategies as st

from conftest import bundle_of, corpus_cases, run_cli
from sgn import conformance, corpus

PY = sys.executable
CASES = [c for c in corpus_cases() if c["kind"] not in corpus.NOTATIONS]
VALID = [c for c in CASES if c["valid"] and c.get("profile", "strict") == "strict"]
INVALID = [c for c in CASES if not c["valid"] and c.get("profile", "strict") == "strict"]
FEW = ["--run", "schema-rd-result-1*", "--run", "valid-rd*"]  # a handful of cases, valid and invalid
GUARD = 60  # a time-out that only guards against a deadlock: every case ends long before it


def _bundle(folder, cases):
    """`--cases FILE` of these cases (conftest.bundle_of)."""
    path = folder / "cases.json"
    path.write_text(bundle_of(cases), encoding="utf-8")
    return ["--cases", path]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """`--cases FILE` of the cases MIXED selects (FEW's among them): the runs select none other."""
    return _bundle(tmp_path_factory.mktemp("mixed"), conformance.select(corpus_cases(), run=MIXED[1::2]))


@pytest.fixture(scope="module")
def smoke_bundle(tmp_path_factory):
    """`--cases FILE` of the cases sgn smoke picks from the packaged bundle: it picks the same."""
    return _bundle(tmp_path_factory.mktemp("smoke"), conformance.smoke_cases(corpus_cases()))


# -- a time-out is a finite number of seconds greater than 0 -----------------------------------------------


@pytest.mark.parametrize("command", ["conformance", "smoke"])
@pytest.mark.parametrize("mode", ["simple", "persistent"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "0", "-5", "-0.0", "abc", ""])
def test_a_time_out_no_time_can_be_is_a_usage_error(command, mode, value):
    result = run_cli(command, "--impl", "true", "--mode", mode, f"--timeout={value}")
    said = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"" and "internal error" not in said
    assert said.splitlines()[-1].startswith(f"sgn {command}: error: argument --timeout: ")
    assert "seconds" in said.splitlines()[-1]


@pytest.mark.parametrize("value", [math.nan, math.inf, 0, -5.0])
def test_run_cases_refuses_a_time_out_no_time_can_be(value):
    with pytest.raises(ValueError, match="finite number of seconds greater than 0"):
        conformance.run_cases("true", VALID[:1], timeout=value)


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_a_time_out_of_any_finite_length_is_taken(bundle, mode):
    impl = "true" if mode == "simple" else f"{PY} -m sgn.harness"
    code, report = conformance_json("--impl", impl, "--mode", mode, *bundle, *FEW, "--timeout", "1e300")
    assert report["totals"]["errored"] == 0 and report["totals"]["passed"] > 0


def conformance_json(*args):
    result = run_cli("conformance", "-o", "json", *args)
    return result.returncode, json.loads(result.stdout)


# -- a crash is a crash in colour too, and the implementation runs with colour off -----------------------

ESC = "\x1b"
PAINT = f"{ESC}[1;35m"  # what a runtime paints with, and then resets
RESET = f"{ESC}[0m"
COLOURED_CRASHES = [  # as each runtime reports a crash, painted as it paints it on a terminal
    (  # Python 3.13, FORCE_COLOR=1 or PYTHON_COLORS=1: a syntax error of the main script
        f'  File {ESC}[35m"/a/impl.py"{RESET}, line {ESC}[35m2{RESET}\n    if True\n'
        f"           {ESC}[1;31m^{RESET}\n{PAINT}SyntaxError{RESET}: {ESC}[35mexpected ':'{RESET}\n",
        "Python",
    ),
    (  # Python 3.13: an uncaught exception, its frames painted
        f'Traceback (most recent call last):\n  File {ESC}[35m"/a/impl.py"{RESET}, line {ESC}[35m3{RESET}, in '
        f"{ESC}[35m<module>{RESET}\n{PAINT}ValueError{RESET}: {ESC}[35mboom{RESET}\n",
        "Python",
    ),
    (  # Deno: an uncaught error in colour
        f"{RESET}{ESC}[1m{ESC}[31merror{RESET}: Uncaught (in promise) SyntaxError: Unexpected token 'x'\n"
        f"    at {RESET}{ESC}[1m{ESC}[3mJSON.parse{RESET} (<anonymous>)\n"
        f"    at {RESET}{ESC}[36mfile:///home/u/impl.ts{RESET}:{ESC}[33m3{RESET}:{ESC}[33m8{RESET}\n",
        "Deno",
    ),
    (  # a window's title set, and the screen cleared, before a Rust panic
        f"{ESC}]0;impl{chr(7)}{ESC}[2J{ESC}[Hthread 'main' panicked at src/main.rs:3:5:\nboom\n",
        "Rust",
    ),
]
PLAIN_CRASHES = [
    # what tests elsewhere (test_conformance.py) see recognised, here to be painted
    ('  File "/a/impl.py", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax\n', "Python"),
    ('Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nRuntimeError: boom\n', "Python"),
    ("panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n", "Go"),
    ("/a/impl.js:1\nthrow {a: 1};\n^\n{ a: 1 }\n\nNode.js v20.20.2\n", "Node.js"),
    # Deno, as it reports an uncaught error, with a stack or none
    (
        "error: Uncaught (in promise) SyntaxError: Unexpected token 'x', \"x\" is not valid JSON\n"
        "    at JSON.parse (<anonymous>)\n    at file:///home/u/impl.ts:3:8\n",
        "Deno",
    ),
    ('error: Uncaught "boom"\n', "Deno"),
    ("error: Uncaught Error: boom\nthrow new Error('boom');\n      ^\n    at file:///a/impl.js:1:7\n", "Deno"),
    # Node.js with no version line after a stack whose first frame has no place
    (
        "SyntaxError: Unexpected token x in JSON at position 0\n    at JSON.parse (<anonymous>)\n"
        "    at Object.<anonymous> (/a/impl.js:3:8)\n",
        "Node.js",
    ),
    # Bun: the line, a caret, the error, its stack, the version
    (
        '1 | const e = new Error("oh no");\n                  ^\nerror: oh no\n      at /home/u/impl.js:1:15\n\n'
        "Bun v1.1.30 (Linux x64)\n",
        "Bun",
    ),
]
VERDICTS = [  # what deliberate verdicts print, in colour or not: never a crash
    "invalid: line 3: /2/result: 13 is greater than 12\n",
    "error: the log is not valid (3 errors)\n",
    '  File "game.sgn", line 3\n    ["1","RD",{"result":13}]\n',
    "error: line 3 is not JSON\nerror count: 1\n",
    "Uncaught errors: none; invalid: line 2\n",
]
PAINTED_VERDICTS = [
    f"{ESC}[31minvalid{RESET}: line 3\n",
    f"{ESC}[1merror{RESET}: not valid\n",
    f"{ESC}]0;t{chr(7)}bad\n",
]


@pytest.mark.parametrize("report, runtime", COLOURED_CRASHES + PLAIN_CRASHES)
def test_a_crash_is_recognised_in_colour_and_in_each_runtime_s_words(report, runtime):
    from sgn.conformance.crash import crash_signature

    assert crash_signature(report) == runtime


@pytest.mark.parametrize("report", VERDICTS + PAINTED_VERDICTS)
def test_a_verdict_in_colour_is_no_crash(report):
    from sgn.conformance.crash import crash_signature

    assert crash_signature(report) is None


SGR = st.sampled_from([f"{ESC}[0m", f"{ESC}[1;31m", f"{ESC}[35m", f"{ESC}[38;5;208m", f"{ESC}]0;t{chr(7)}", f"{ESC}(B"])


@given(st.sampled_from(PLAIN_CRASHES + [(v, None) for v in VERDICTS]), st.data())
def test_colour_anywhere_changes_no_verdict_and_no_crash(sample, data):
    """Escape sequences put between any two characters (but a CR and its LF) of a crash's
    report, or of a verdict's: the scan finds what it finds in the plain text."""
    from sgn.conformance.crash import crash_signature

    report, runtime = sample
    cuts = sorted(data.draw(st.lists(st.integers(0, len(report)), max_size=12)))
    painted, last = [], 0
    for cut in cuts:
        if report[cut - 1 : cut + 1] == "\r\n":
            continue
        painted += [report[last:cut], data.draw(SGR)]
        last = cut
    painted.append(report[last:])
    assert crash_signature("".join(painted)) == runtime


def _impl(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return f"{PY} {path}"


PY313_SYNTAX_ERROR = (  # what Python 3.13 prints in colour for a syntax error of the main script
    f"import sys\nsys.stdin.buffer.read()\nsys.stderr.write({COLOURED_CRASHES[0][0]!r})\nsys.exit(1)\n"
)


@pytest.mark.parametrize("output", ["text", "json", "junit", "html"])
def test_a_crash_in_colour_scores_nothing_in_simple_mode(tmp_path, monkeypatch, bundle, output):
    """Colour forced on for the harness (as CI does), and a crash reported in colour whatever
    the environment says (as `env FORCE_COLOR=1 python3.13 impl.py` would): every case errored."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("PYTHON_COLORS", "1")
    impl = _impl(tmp_path, "painted.py", PY313_SYNTAX_ERROR)
    result = run_cli("conformance", "--impl", impl, *bundle, *FEW, "-o", output)
    assert result.returncode == 1
    assert errored(output, result.stdout.decode()) == len(conformance.select(CASES, run=FEW[1::2])) > 0


def errored(output, text):
    """How many cases a report says errored."""
    if output == "json":
        report = json.loads(text)
        assert report["totals"]["passed"] == report["totals"]["failed"] == 0
        assert all(c["detail"].startswith("crashed: a Python syntax error") for c in report["cases"])
        return report["totals"]["errored"]
    if output == "junit":
        suites = ElementTree.fromstring(text).findall("testsuite")
        assert sum(int(s.get("failures")) for s in suites) == 0
        return sum(int(s.get("errors")) for s in suites)
    if output == "html":
        assert 'class="passed"' not in text and 'class="failed"' not in text
        return text.count('<td class="errored"')
    first = text.splitlines()[0]
    assert ": 0 passed, 0 failed, " in first
    return int(first.split(" failed, ")[1].split(" errored")[0])


def test_a_crash_in_colour_is_named_in_persistent_mode(tmp_path):
    deno = COLOURED_CRASHES[2][0]
    impl = _impl(
        tmp_path,
        "painted.py",
        "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    if r['cmd'] == 'stop':\n        break\n"
        "    if r['cmd'] == 'run':\n"
        f"        sys.stderr.write({deno!r}); sys.exit(1)\n"
        "    print(json.dumps({'ready': True, 'version': 1, 'implementation': {'name': 'x', 'language': 'python'}}), flush=True)\n",
    )
    run = conformance.run_cases(impl, VALID[:1] + INVALID[:1], mode="persistent", timeout=GUARD)
    assert [o.detail for o in run.outcomes] == [
        "the process ended (exit code 1); its standard error shows an uncaught Deno exception"
    ] * 2


ENV_SHOWN = "import json, os\nshown = {k: os.environ.get(k) for k in ('NO_COLOR', 'PYTHON_COLORS', 'FORCE_COLOR')}\n"


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_an_implementation_runs_with_colour_off_unless_its_command_says_otherwise(tmp_path, monkeypatch, mode):
    """The implementation says, as its verdict or its name, what its environment asked of colour."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("PYTHON_COLORS", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    if mode == "simple":
        script = _impl(tmp_path, "env.py", ENV_SHOWN + "import sys\nsys.stderr.write(json.dumps(shown))\nsys.exit(3)\n")
    else:
        script = _impl(
            tmp_path,
            "env.py",
            ENV_SHOWN + "import sys\nfor line in sys.stdin:\n"
            "    r = json.loads(line)\n"
            "    if r['cmd'] != 'start': break\n"
            "    print(json.dumps({'ready': True, 'version': 1, 'implementation': "
            "{'name': json.dumps(shown), 'language': 'python'}}), flush=True)\n",
        )

    def seen(impl):
        run = conformance.run_cases(impl, VALID[:1], mode=mode, timeout=GUARD)
        return json.loads(run.outcomes[0].stderr if mode == "simple" else run.info["name"])

    assert seen(script) == {"NO_COLOR": "1", "PYTHON_COLORS": "0", "FORCE_COLOR": None}
    assert seen(f"env FORCE_COLOR=1 PYTHON_COLORS=1 {script}") == {
        "NO_COLOR": "1",
        "PYTHON_COLORS": "1",
        "FORCE_COLOR": "1",
    }


# -- nothing of an implementation's, nor of a bundle's, reaches the terminal raw ----------------------------

# what would clear the screen, set the window's title, ring, cut a line, and start a C1 sequence
HOSTILE = "x\x1b[2J\x1b]0;pwned\x07\x00\x9b31m\x7f\u2028y\u2029\r\tz\x85<b onclick=alert(1)>&"
RAW_TEXT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # in a text: nothing but its line ends
RAW_XML = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # in XML: a tab and a line break may stay
HOSTILE_IMPL = f"""import json, sys
HOSTILE = {HOSTILE!r}
if "--simple" in sys.argv:
    sys.stdin.buffer.read()
    print(HOSTILE)
    sys.stderr.write(HOSTILE + "\\n" + HOSTILE)
    sys.exit(3)
if "--no-start" in sys.argv:
    sys.stderr.write("cannot start: " + HOSTILE)
    sys.exit(1)
for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "start":
        described = dict.fromkeys(("name", "language", "version", "homepage"), HOSTILE)
        print(json.dumps({{"ready": True, "version": 1, "implementation": described}}), flush=True)
        continue
    if request["cmd"] != "run":
        break
    seq = request["seq"]
    sys.stderr.write(HOSTILE + "\\n")
    sys.stderr.flush()
    reply = [
        {{"seq": seq, "valid": True}},
        {{"seq": seq, "skipped": True, "reason": HOSTILE}},
        {{"seq": seq, "errored": True, "message": HOSTILE}},
    ][seq % 3]
    print(json.dumps(reply), flush=True)
"""
MIXED = FEW + ["--run", "schema-rd-result-float"]  # valid and invalid cases, several of each


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.py"
    path.write_text(HOSTILE_IMPL)
    return f"{PY} {path}"


def shows_nothing_raw(output, data):
    """Whether a report holds no control character of theirs: text and HTML none but their
    line ends (and an HTML page no markup of theirs), JSON none at all, JUnit none XML would not."""
    text = data.decode("utf-8")
    if output == "json":
        json.loads(text)
        return text.isascii() and not RAW_TEXT.search(text)
    if output == "junit":
        ElementTree.fromstring(data)
        return not RAW_XML.search(text)
    if output == "html":
        return not RAW_TEXT.search(text) and "<b onclick" not in text
    return not RAW_TEXT.search(text)


@pytest.mark.parametrize("output", ["text", "json", "junit", "html"])
@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_nothing_an_implementation_says_or_prints_reaches_the_terminal_raw(tmp_path, hostile, bundle, mode, output):
    impl = f"{hostile} --simple" if mode == "simple" else hostile
    report = tmp_path / f"report.{output}"
    result = run_cli("conformance", "--impl", impl, "--mode", mode, *bundle, *MIXED, "-o", output, "--report", report)
    assert result.returncode == 1, result.stderr
    assert shows_nothing_raw(output, result.stdout) and shows_nothing_raw(output, report.read_bytes())
    assert shows_nothing_raw("text", result.stderr)
    if output == "text":  # what it said, escaped as sgn validate escapes a file name
        shown = result.stdout.decode()
        assert "x\\x1b[2J\\x1b]0;pwned\\x07\\x00\\x9b31m\\x7f" in shown
        assert (mode == "persistent") == shown.startswith("conformance of x\\x1b[2J")
    if output == "json":  # the report keeps their words as they were
        said = json.loads(result.stdout)
        assert mode == "simple" or said["implementation"]["name"] == HOSTILE
        assert any(HOSTILE.split("\r")[0] in c.get("stderr", "") for c in said["cases"])


def _side_by_side(hostile, bundle, output):
    return run_cli(
        "conformance",
        "--impl",
        hostile,
        "--impl",
        f"{PY} -m sgn.harness",
        "--mode",
        "persistent",
        *bundle,
        *MIXED,
        "-o",
        output,
    )


@pytest.fixture(scope="module")
def matrix_page(hostile, bundle):
    """The run of `_side_by_side` in HTML, which the tests of the page read (the same run each)."""
    return _side_by_side(hostile, bundle, "html")


@pytest.mark.parametrize("output", ["text", "json", "junit", "html"])
def test_nothing_of_several_implementations_reaches_the_terminal_raw(request, hostile, bundle, output):
    result = request.getfixturevalue("matrix_page") if output == "html" else _side_by_side(hostile, bundle, output)
    assert (
        result.returncode == 1 and shows_nothing_raw(output, result.stdout) and shows_nothing_raw("text", result.stderr)
    )


@pytest.mark.parametrize("output", ["text", "json", "junit"])
def test_nothing_an_implementation_says_reaches_the_terminal_raw_in_smoke(hostile, smoke_bundle, output):
    result = run_cli("smoke", "--impl", hostile, "--mode", "persistent", "-o", output, *smoke_bundle)
    assert (
        result.returncode == 1 and shows_nothing_raw(output, result.stdout) and shows_nothing_raw("text", result.stderr)
    )


def test_a_diff_of_their_reports_shows_nothing_raw(tmp_path, hostile, bundle):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    for impl, report in ((f"{PY} -m sgn.harness", old), (hostile, new)):
        run_cli(
            "conformance", "--impl", impl, "--mode", "persistent", *bundle, *MIXED, "-o", "json", "--report", report
        )
    result = run_cli("conformance", "diff", old, new)
    assert (
        result.returncode == 1 and not RAW_TEXT.search(result.stdout.decode()) and "\\x1b[2J" in result.stdout.decode()
    )


def test_an_implementation_that_cannot_start_shows_its_standard_error_escaped(hostile, bundle):
    result = run_cli("conformance", "--impl", f"{hostile} --no-start", "--mode", "persistent", *bundle, *FEW)
    said = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"" and not RAW_TEXT.search(said)
    assert "did not start" in said and "  | cannot start: x\\x1b[2J" in said


def test_a_bundle_s_case_id_is_shown_escaped(tmp_path):
    (tmp_path / "cases.json").write_text(bundle_of([dict(corpus_cases()[0], id=HOSTILE)]), encoding="utf-8")
    for command in ("conformance", "smoke"):
        result = run_cli(command, "--impl", "true", "--cases", tmp_path / "cases.json")
        said = result.stderr.decode()
        assert result.returncode == 2 and not RAW_TEXT.search(said) and "case 1 (x\\x1b[2J" in said, said


@pytest.mark.parametrize("output", ["text", "json", "junit", "html"])
def test_a_bundle_s_descriptions_are_shown_escaped(tmp_path, output):
    cases = [dict(c, description=HOSTILE) for c in corpus_cases() if c["id"].startswith("schema-rd-")]
    (tmp_path / "cases.json").write_text(bundle_of(cases), encoding="utf-8")
    result = run_cli("conformance", "--impl", "true", "--cases", tmp_path / "cases.json", "-o", output)
    assert result.returncode == 1 and shows_nothing_raw(output, result.stdout)


# -- the HTML page runs its own script and style only, as the sgn report page ------------------------------


class _Parts(HTMLParser):
    """The page's policy (and whether anything but the charset comes before it), its script and style."""

    def __init__(self):
        super().__init__()
        self.policy, self.before, self.texts, self.inside = None, [], {"script": [], "style": []}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
            self.policy = attrs["content"]
        elif self.policy is None and tag not in ("html", "head", "meta"):
            self.before.append(tag)
        self.inside = tag if tag in self.texts else None

    def handle_data(self, data):
        if self.inside:
            self.texts[self.inside].append(data)

    def handle_endtag(self, tag):
        self.inside = None


def _page(matrix_page):
    assert matrix_page.returncode == 1
    return matrix_page.stdout.decode("utf-8")


def test_the_html_page_has_the_report_page_s_policy_for_its_own_script_and_style(matrix_page):
    from sgn.page import policy

    parts = _Parts()
    parts.feed(_page(matrix_page))
    [script], [style] = parts.texts["script"], parts.texts["style"]
    assert parts.policy == policy(script, style) and parts.before == []
    assert parts.policy.startswith("default-src 'none'; ") and "require-trusted-types-for 'script'" in parts.policy


def test_in_a_browser_the_html_page_runs_its_script_and_nothing_else(browser, tmp_path_factory, matrix_page):
    from chromium import open_page

    html = _page(matrix_page)
    slipped = '<img src="http://127.0.0.1:9/a.png" onerror="document.body.dataset.ran=1"><script>document.body.dataset.ran=2</script>'
    tab = open_page(browser, tmp_path_factory, html.replace("</body>", slipped + "</body>"), "matrix.html")
    try:
        hidden = tab.locator("tr.agree.hidden").count()
        assert hidden > 0
        tab.locator("#only").click()  # the page's own script shows every case
        assert tab.locator("tr.agree.hidden").count() == 0
        assert tab.evaluate("document.body.dataset.ran") is None and tab.errors == []
        assert tab.requests == [tab.url_of_file] and tab.blocked == ["http://127.0.0.1:9/a.png"]
        assert tab.evaluate("getComputedStyle(document.querySelector('th')).position") == "sticky"  # styled
    finally:
        tab.close()
