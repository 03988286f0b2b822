"""`sgn completion bash|zsh|fish`: the shell completion script, made from the command
line's own parser by shtab, so that it never falls behind a new command or option.

Completion is part of the command line, so shtab (small, pure Python, no dependencies)
is a dependency of the package, not an extra; a copy of sgn without it (installed by
hand, say) says how to get it. Arguments that name files or folders complete as paths:
they are found by their metavar (FILE, DIR, OUT.svg, ...), so a new one needs no
marking here; arguments that name diagnostic codes (CODES, GLOB:CODES, CODE: `--select`,
`--ignore`, `sgn codes CODE`) complete as the codes of the table (`sgn.codes.CODES`) and
ALL, in bash and zsh after a comma too, the list written into the script.
"""

from __future__ import annotations

import argparse
import sys

from .exits import EXIT_OK, EXIT_USAGE

SHELLS = ("bash", "zsh", "fish")
SHTAB_MISSING = "sgn completion: needs shtab, which this copy of sgn lacks: pip install 'shtab>=1.9'"


def add_parser(commands, whole: argparse.ArgumentParser) -> None:
    """`sgn completion`, on the subcommands of `whole`, the command line it completes."""
    completion = commands.add_parser(
        "completion",
        help="print the shell completion script for bash, zsh or fish",
        description='Print the completion script of sgn for a shell; docs/commands.md ("Shell completion") '
        "says where each shell reads it from.",
    )
    completion.add_argument("shell", choices=SHELLS, help="the shell to complete sgn in")
    completion.set_defaults(run=run_completion, whole=whole)


def _path_kind(action: argparse.Action) -> str:
    """'file', 'directory' or '' for an argument, from its metavar: FILE or PATH (a file or a
    folder), or a name with a suffix (OUT.svg, OLD.json), is a file; DIR a folder (FILE|DIR|-:
    either, so a file)."""
    words = str(action.metavar or "").split("|")
    if any(word in ("FILE", "PATH") or "." in word for word in words):
        return "file"
    return "directory" if "DIR" in words else ""


def codes_completion() -> dict:
    """shtab's completion of a list of codes, for each shell: the words of the table."""
    from ..codes import CODES

    words = " ".join(["ALL", *sorted(CODES)])
    bash = (
        "\n_sgn_codes() {\n"
        '  local head="" word="$1"\n'
        '  case "$word" in *,*) head="${word%,*},"; word="${word##*,}";; esac\n'
        f'  compgen -P "$head" -W "{words}" -- "$word"\n'
        "}\n"
    )
    return {
        "bash": "_sgn_codes",
        "zsh": f"_values -s , code {words}",
        "fish": f"(printf '%s\\n' {words})",
        "preamble": {"bash": bash},
    }


def _codes_kind(action: argparse.Action) -> bool:
    """Whether an argument names diagnostic codes, by its metavar: CODES, CODE, GLOB:CODES."""
    return str(action.metavar or "").split(":")[-1] in ("CODES", "CODE")


def _mark_paths(parser: argparse.ArgumentParser, shtab) -> None:
    """Tell shtab which arguments of the parser and its subcommands name paths or codes."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_paths(sub, shtab)
            continue
        kind = _path_kind(action)
        if _codes_kind(action) and not action.option_strings == ["--per-file-ignores"]:
            action.complete = codes_completion()  # type: ignore[attr-defined]
        elif kind:
            action.complete = shtab.FILE if kind == "file" else shtab.DIRECTORY  # type: ignore[attr-defined]


def run_completion(args: argparse.Namespace, out) -> int:
    try:
        import shtab
    except ImportError:
        sys.stderr.write(SHTAB_MISSING + "\n")
        return EXIT_USAGE
    parser = args.whole
    _mark_paths(parser, shtab)
    out.write(shtab.complete(parser, shell=args.shell))
    return EXIT_OK
