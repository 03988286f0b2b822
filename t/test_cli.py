"""The command line as a user runs it: output formats, exit codes, no tracebacks."""

import contextlib
import gzip
import io
import json

import pytest

from conftest import CORPUS, json_report, run_cli
from sgn import cli
from sgn.cli import main

GOOD = '["1","RD",{"result":8}]\n'
BAD = '["1","RD",{"result":13}]\n'


def test_text_output_is_a_line_per_diagnostic_like_a_compiler_then_its_source_with_a_caret(write):
    path = write(GOOD + BAD)
    result = run_cli("validate", path)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == f"{path}:2:21: /2/result: 13 is greater than the maximum 12 [schema-maximum]"
    assert lines[1:4] == ["  |", '2 | ["1","RD",{"result":13}]', "  |" + " " * 21 + "^^"]
    concise = run_cli("validate", "-o", "concise", path).stdout.decode().splitlines()
    assert concise[0] == lines[0] and concise[1].endswith(lines[-1][-40:]) and len(concise) == 2
    assert lines[-1].endswith(
        "INVALID (semantic, a fragment: no map at its start, no game replayed): 2 messages, 1 error, 0 warnings"
    )
    assert result.returncode == 1 and result.stderr == b""


def test_valid_file_exits_0_with_a_summary(write):
    result = run_cli("validate", write(GOOD * 3))
    assert result.returncode == 0
    assert result.stdout.decode().endswith(
        "valid (semantic, a fragment: no map at its start, no game replayed): 3 messages, 0 errors, 0 warnings\n"
    )


def test_json_output(write):
    path = write(GOOD + BAD + "\n")
    report = json_report(run_cli("validate", "-o", "json", path))
    assert report["valid"] is False and report["exit_code"] == 1
    first = report["diagnostics"][0]
    assert {k: first[k] for k in ("code", "layer", "severity", "file", "line", "pointer")} == {
        "code": "schema-maximum",
        "layer": "schema",
        "severity": "error",
        "file": str(path),
        "line": 2,
        "pointer": "/2/result",
    }
    assert isinstance(first["message"], str)
    assert report["diagnostics"][1]["code"] == "blank-line"
    assert report["files"] == [
        {
            "file": str(path),
            "level": "semantic",
            "messages": 2,
            "errors": 1,
            "warnings": 1,
            "valid": False,
            "verdict": "invalid",
            "fragment": True,
            "games": [],
            "game_count": 0,
        }
    ]


def test_json_output_when_valid_and_empty_list(write):
    report = json_report(run_cli("validate", "-o", "json", write(GOOD)))
    assert report["valid"] is True and report["diagnostics"] == []


def test_github_output(write):
    path = write(GOOD + BAD)
    out = run_cli("validate", "-o", "github", path).stdout.decode()
    assert (
        out == f"::error title=sgn (schema-maximum),file={path},line=2,col=21,endLine=2,endColumn=23::"
        f"{path}:2:21: schema-maximum /2/result: 13 is greater than the maximum 12\n"
    )


def test_quiet_prints_errors_only(write):
    result = run_cli("validate", "-q", "-o", "concise", write(GOOD + "\n" + BAD))
    assert result.stdout.decode().count("\n") == 1 and "schema-maximum" in result.stdout.decode()


def test_stdin_and_dash(write):
    assert run_cli("validate", "-", stdin=(GOOD + BAD).encode()).returncode == 1
    result = run_cli("validate", stdin=GOOD.encode())
    assert result.returncode == 0 and result.stdout.decode().startswith(
        "<stdin>: valid (semantic, a fragment: no map at its start, no game replayed)"
    )


def test_gzip_from_stdin_and_file(write):
    data = gzip.compress((GOOD + BAD).encode())
    assert "<stdin>:2:" in run_cli("validate", "-", stdin=data).stdout.decode()
    assert run_cli("validate", write(data, "game.sgn.gz")).returncode == 1


def test_many_files_keep_going_and_unreadable_ones_exit_2(write, tmp_path):
    good = write(GOOD, "good.sgn")
    bad = write(BAD, "bad.sgn")
    result = run_cli("validate", good, tmp_path / "missing.sgn", bad, tmp_path)
    out = result.stdout.decode()
    assert result.returncode == 2
    assert "no such file [file-not-found]" in out
    # the folder is walked for logs; the two it holds are checked once, where first named
    assert "is-a-directory" not in out and out.count(f"{bad}:1:21: /2/result") == 1
    assert "3 files:" in out


def test_an_empty_file_is_invalid_data_exit_1_as_the_corpus_says(write):
    result = run_cli("validate", write(""))
    assert result.returncode == 1 and "[empty-file]" in result.stdout.decode()
    both = run_cli("validate", write(""), write('["1","RD",{"result":8}]\n', "good.sgn"))
    assert both.returncode == 1


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--level", "nope"],
        ["validate", "--profile", "x"],
        ["validate", "-o", "xml"],
        ["nope"],
        [],
        ["validate", "--max-line-bytes", "0"],
    ],
)
def test_usage_errors_exit_2_without_traceback(args):
    result = run_cli(*args)
    assert result.returncode == 2 and b"Traceback" not in result.stderr


def test_levels_and_profiles(write):
    path = write(BAD + '["1","MR",{"tile":["-2","0"]}]\n')
    assert run_cli("validate", "--level", "syntax", path).returncode == 0
    result = run_cli("validate", "--profile", "compat", "-o", "json", path)
    codes = [d["code"] for d in json.loads(result.stdout)["diagnostics"]]
    assert codes == ["schema-maximum", "legacy-numeric-string"]


def test_max_line_bytes_option(write):
    result = run_cli("validate", "--max-line-bytes", "10", write(GOOD))
    assert result.returncode == 1 and "[line-too-long]" in result.stdout.decode()


def test_hostile_bytes_never_produce_a_traceback(write):
    data = b"\x00\xff\xfe[\n" + b"[" * 200_000 + b"\n" + b'{"a":NaN}\n' + b"\x1f\x8b\x08garbage\n"
    result = run_cli("validate", write(data))
    assert result.returncode == 1 and b"Traceback" not in result.stderr + result.stdout


def test_example_lists_prints_and_validates():
    names = run_cli("example").stdout.decode().split()
    assert "game" in names
    game = run_cli("example", "game").stdout
    assert game.count(b"\n") > 10
    result = run_cli("validate", "-", stdin=game)
    assert result.returncode == 0, result.stdout
    path = run_cli("example", "game", "--path").stdout.decode().strip()
    assert open(path, "rb").read() == game
    assert run_cli("example", "nope").returncode == 2


def test_main_in_process(write, capsys):
    assert main(["validate", str(write(GOOD))]) == 0
    assert "valid (semantic, a fragment: no map at its start, no game replayed): 1 message" in capsys.readouterr().out


def test_version():
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.decode().startswith("sgn ")


def test_corpus_check_passes_in_the_checkout():
    result = run_cli("corpus", "check", "--root", CORPUS)
    assert result.returncode == 0, result.stderr.decode()


def test_auto_level_replays_a_log_that_starts_with_a_map(write):
    game = (CORPUS / "games" / "game.sgn").read_text()
    assert "valid (rules)" in run_cli("validate", write(game)).stdout.decode()
    broken = game + '["2","BC",{"intersection":[[1,-2],[2,-2],[1,-1]]}]\n'
    result = run_cli("validate", write(broken))
    assert result.returncode == 1 and "[not-your-turn]" in result.stdout.decode()
    fragment = write(broken.splitlines()[-1] + "\n", "fragment.sgn")  # no map: a fragment
    assert (
        "valid (semantic, a fragment: no map at its start, no game replayed)"
        in run_cli("validate", fragment).stdout.decode()
    )


def test_replay_prints_the_state(write):
    path = CORPUS / "games" / "game.sgn"
    out = run_cli("replay", path, "--at", "14").stdout.decode()
    assert out.startswith("after line 14: turns") and "player 3: 2 points; hand B1 G0 L1 O1 W0" in out
    state = json.loads(run_cli("replay", path, "-o", "json").stdout)
    assert state["line"] == 25 and state["players"]["1"]["points"] == 2
    bad = run_cli("replay", write(path.read_text() + '["2","RD",{"result":8}]\n'))
    assert bad.returncode == 1 and b"[turn-order]" in bad.stderr
    assert run_cli("replay", "/nonexistent.sgn").returncode == 2


def test_replay_at_a_line_checks_nothing_after_it(write):
    lines = (CORPUS / "games" / "game.sgn").read_text().splitlines(keepends=True)
    path = write("".join(lines[:14]) + "not json\n" + "".join(lines[14:]))
    early = run_cli("replay", path, "--at", "14")
    assert early.returncode == 0 and early.stderr == b"" and early.stdout.startswith(b"after line 14:")
    late = run_cli("replay", path, "--at", "15")
    assert late.returncode == 1 and b":15:" in late.stderr


def test_json_output_names_the_tool_and_its_version_first(write):
    import sgn

    result = run_cli("validate", "-o", "json", write(GOOD))
    report = json_report(result)
    assert report["tool"] == {"name": "sgn", "version": sgn.__version__}
    assert list(report)[:2] == ["tool", "diagnostics"] and report["valid"] is True


def _help_of(parser, argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        parser.parse_args(argv)
    return out.getvalue()


@pytest.mark.parametrize("names", cli._COMMANDS, ids=lambda names: names[0])
def test_a_run_declares_its_command_alone_and_it_reads_the_same(names):
    """A run declares only the parser of the command it names (start-up): each command's
    help, and what its arguments parse to, are those of the whole command line."""
    whole = cli.build_parser()
    for name in names:
        alone = cli._parser_for([name])
        declared = alone._subparsers._group_actions[0].choices
        assert set(declared) == ({name} if name != "completion" else set(whole._subparsers._group_actions[0].choices))
        assert _help_of(alone, [name, "--help"]) == _help_of(whole, [name, "--help"])
    assert [n for group in cli._COMMANDS for n in group] == list(whole._subparsers._group_actions[0].choices)


def test_an_unknown_command_is_refused_with_every_command_named(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["valdate", "x.sgn"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'valdate'" in err and "'validate'" in err and "'completion'" in err
