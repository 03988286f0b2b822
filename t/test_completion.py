"""`sgn completion bash|zsh|fish`: a script each shell accepts, made from the parser, that
completes commands, options, their choices and paths."""

import shutil
import subprocess

import pytest

from conftest import run_cli
from sgn.cli import build_parser
from sgn.cli.completion import SHELLS, _path_kind

SYNTAX_CHECK = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}


def script(shell, tmp_path):
    result = run_cli("completion", shell)
    assert result.returncode == 0 and result.stderr == b"" and result.stdout
    path = tmp_path / f"sgn.{shell}"
    path.write_bytes(result.stdout)
    return path


@pytest.mark.parametrize("shell", SHELLS)
def test_each_shell_accepts_its_script(tmp_path, shell):
    path = script(shell, tmp_path)
    text = path.read_text()
    for command in ("validate", "convert", "completion", "codes", "corpus"):
        assert command in text
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed, so its syntax check cannot run (Debian: apt-get install {shell})")
    checked = subprocess.run([*SYNTAX_CHECK[shell], str(path)], capture_output=True, timeout=60)
    assert checked.returncode == 0, checked.stderr.decode()


BASH_COMPLETE = """
source "$1"
complete_words() {{ COMP_WORDS=("$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMPREPLY=();
                    _shtab_sgn; printf '%s\\n' "${{COMPREPLY[@]}}"; }}
{calls}
"""


def bash_completions(path, *words):
    call = "complete_words " + " ".join(f"'{w}'" for w in words)
    program = BASH_COMPLETE.format(calls=call)
    result = subprocess.run(
        ["bash", "-c", program, "bash", str(path)], capture_output=True, timeout=60, cwd=path.parent
    )
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode().split()


def test_bash_completes_commands_options_choices_and_files(tmp_path):
    path = script("bash", tmp_path)
    (tmp_path / "log-one.sgn").write_text("")
    assert bash_completions(path, "sgn", "va") == ["validate"]
    assert "--level" in bash_completions(path, "sgn", "validate", "--le")
    assert bash_completions(path, "sgn", "validate", "--level", "") == ["syntax", "schema", "semantic", "rules", "auto"]
    assert bash_completions(path, "sgn", "completion", "") == list(SHELLS)
    assert bash_completions(path, "sgn", "validate", "log-") == ["log-one.sgn"]
    assert bash_completions(path, "sgn", "conformance", "d") == ["diff"]


def test_paths_are_found_by_their_metavar():
    parser = build_parser()
    marked = {}

    def walk(p, name):
        for action in p._actions:
            if getattr(action, "choices", None) and isinstance(action.choices, dict):
                for sub_name, sub in action.choices.items():
                    walk(sub, f"{name} {sub_name}")
            elif _path_kind(action):
                marked[f"{name} {action.dest}"] = _path_kind(action)

    walk(parser, "sgn")
    for expected in (
        "sgn validate files",
        "sgn replay file",
        "sgn render output",
        "sgn convert file",
        "sgn generate output",
        "sgn conformance diff old",
    ):
        assert marked.get(expected) == "file", expected
    assert marked["sgn corpus root"] == "directory"
    assert "sgn validate level" not in marked


def test_a_copy_without_shtab_says_how_to_get_it(monkeypatch, capsys):
    import builtins

    from sgn.cli import main

    real_import = builtins.__import__

    def without_shtab(name, *args, **kwargs):
        if name == "shtab":
            raise ImportError("No module named 'shtab'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_shtab)
    assert main(["completion", "bash"]) == 2
    assert (
        capsys.readouterr().err
        == "sgn completion: needs shtab, which this copy of sgn lacks: pip install 'shtab>=1.9'\n"
    )


def test_codes_complete_for_select_ignore_and_sgn_codes(tmp_path):
    path = script("bash", tmp_path)
    assert bash_completions(path, "sgn", "validate", "--select", "trade-ra") == ["trade-rate"]
    assert bash_completions(path, "sgn", "validate", "--ignore", "blank-l") == ["blank-line"]
    assert bash_completions(path, "sgn", "validate", "--select", "blank-line,trade-ra") == ["blank-line,trade-rate"]
    assert bash_completions(path, "sgn", "codes", "card-bought") == ["card-bought-this-turn"]
    assert "ALL" in bash_completions(path, "sgn", "validate", "--extend-select", "")
    for shell in ("zsh", "fish"):
        assert "card-bought-this-turn" in script(shell, tmp_path).read_text()
