"""`sgn corpus build|check|perft`: the YAML sources of the test corpus bundled into
cases.json and perft.json, the bundle checked current and sound, the perft table counted
again (docs/moves.md).

The sources (test-corpus/src) live in a source checkout only: the installed package
carries the bundle, not them. So the corpus is found as ruff finds its configuration,
from where the command runs: `--root DIR` when given, else the test-corpus folder of
the current folder or the nearest parent that has one with its sources, else the
package's own when it runs from a checkout (`python -m sgn`, an editable install).
An installed package run outside a checkout says so in one line, and exits 2; but
`perft`, which reads the installed table, counts that one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from ..layers.reader import describe
from ..words import count
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, positive_int

FOLDER = "test-corpus"


def add_parser(commands) -> None:
    corpus = commands.add_parser(
        "corpus",
        help="build or check the test corpus bundle",
        description="build: write test-corpus/cases.json from the YAML sources in test-corpus/src, and "
        "test-corpus/perft.json from test-corpus/perft.yaml; check: fail when they are stale or the corpus "
        "is unsound; perft: count every perft count of the table again (docs/moves.md), and fail when one "
        "differs; show ID: a case's input and what it expects (from the bundle, installed with the "
        "package). The sources are in a source checkout: the test-corpus folder of the current folder or "
        "a parent is used, or the one --root names.",
    )
    corpus.add_argument(
        "action",
        choices=("build", "check", "perft", "show"),
        help="build the bundle, check it, recount the perft table, or show one case (its input and what it expects)",
    )
    corpus.add_argument("case", nargs="?", metavar="ID", help="show: the id of the case")
    corpus.add_argument(
        "--input", action="store_true", help="show: only the case's input, byte for byte (to pipe into sgn validate -)"
    )
    corpus.add_argument(
        "--depth", type=positive_int, metavar="D", help="perft: recount to this depth only (default: every count)"
    )
    corpus.add_argument(
        "--root", metavar="DIR", help="the test-corpus folder (default: that of the checkout the current folder is in)"
    )
    corpus.set_defaults(run=run_corpus)


def find_root(start: Optional[Path] = None) -> Optional[Path]:
    """The test-corpus folder with its sources: in `start` (the current folder) or the
    nearest parent, else the package's own if it has them; None when there is none."""
    from .. import corpus, packaged

    start = (start or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        if (folder / FOLDER / corpus.SOURCES).is_dir():
            return folder / FOLDER
    own = packaged.corpus_dir()
    return own if (own / corpus.SOURCES).is_dir() else None


def run_corpus(args: argparse.Namespace, out) -> int:
    from .. import corpus, packaged
    from ..corpus import perft, source as corpus_source
    from .output_file import OutputError, written

    if args.action == "show":
        return show(args, out)
    if args.case is not None or args.input:
        sys.stderr.write("sgn corpus: a case id and --input go with `show` only\n")
        return EXIT_USAGE
    root = Path(args.root) if args.root else find_root()
    if args.action == "perft":  # (the table is installed with the package: no sources needed)
        try:
            return _recount(root or packaged.corpus_dir(), args.depth, out)
        except corpus.CorpusError as error:
            sys.stderr.write(f"sgn corpus: {error}\n")
            return EXIT_INVALID
    if root is None:
        sys.stderr.write(
            f"sgn corpus: the corpus sources ({FOLDER}/{corpus.SOURCES}) are not installed with "
            "the package: run this in a source checkout, or name them with --root DIR\n"
        )
        return EXIT_USAGE
    if not (root / corpus.SOURCES).is_dir():
        sys.stderr.write(
            f"sgn corpus: {describe(root / corpus.SOURCES)} not found: --root names the "
            f"{FOLDER} folder of a source checkout\n"
        )
        return EXIT_USAGE
    try:
        bundle = corpus_source.build_bundle(root)
        table = perft.build_table(root, bundle.get("version")) if (root / perft.SOURCE).exists() else None
    except corpus.CorpusError as error:
        sys.stderr.write(f"sgn corpus: {error}\n")
        return EXIT_INVALID
    problems = corpus.self_check(bundle["cases"], root)
    built = [(root / corpus.BUNDLE, corpus_source.dump_bundle(bundle), count(len(bundle["cases"]), "case"))]
    if table is not None:  # (a corpus of one's own may have no perft table)
        built.append((root / perft.TABLE, perft.dump_table(table), count(len(table["positions"]), "position")))
    try:
        for target, text, what in built:
            if args.action == "build":
                with written(str(target)) as bundled:  # the earlier bundle stays if this one fails
                    bundled.write(text)
                out.write(f"wrote {describe(target)}: {what}\n")
            elif not target.exists() or target.read_text(encoding="utf-8", errors="replace") != text:
                problems.append(f"{describe(target)} is out of date: run `sgn corpus build`")
    except OutputError as error:
        sys.stderr.write(f"sgn corpus: {error}\n")
        return EXIT_USAGE
    except OSError as error:
        sys.stderr.write(f"sgn corpus: cannot {args.action} {describe(target)}: {error.strerror or error}\n")
        return EXIT_USAGE
    for problem in problems:
        sys.stderr.write(f"sgn corpus: {problem}\n")
    return EXIT_OK if not problems else EXIT_INVALID


def _recount(root: Path, depth: Optional[int], out) -> int:
    """`sgn corpus perft`: every count of the committed table again, one line each."""
    from ..corpus import perft

    def done(name: str, at: int, expected: int, counted: int) -> None:
        said = "" if counted == expected else f" (the table says {expected:,})"
        out.write(f"{name} perft({at}) = {counted:,}{said}\n")
        out.flush()

    if not (root / perft.TABLE).exists():
        sys.stderr.write(f"sgn corpus: no perft table here ({describe(root / perft.TABLE)})\n")
        return EXIT_USAGE
    problems = perft.recount(perft.load_table(root / perft.TABLE), depth, done)
    for problem in problems:
        sys.stderr.write(f"sgn corpus: {problem}\n")
    return EXIT_OK if not problems else EXIT_INVALID


def show(args: argparse.Namespace, out) -> int:
    """`sgn corpus show ID`: the case as the bundle has it (the checkout's, else the
    package's): what it is, what it expects, and its input, each control character written
    as its escape; `--input`: the input alone, byte for byte."""
    import difflib

    from .. import corpus
    from ..corpus.cases import case_bytes
    from ..words import printable, visible

    if not args.case:
        sys.stderr.write("sgn corpus: show needs the id of a case (sgn corpus show ID)\n")
        return EXIT_USAGE
    root = Path(args.root) if args.root else find_root()
    try:
        cases = corpus.load_cases(root / corpus.BUNDLE if root is not None else None)
    except corpus.CorpusError as error:
        sys.stderr.write(f"sgn corpus: {error}\n")
        return EXIT_USAGE
    by_id = {case["id"]: case for case in cases}
    case = by_id.get(args.case)
    if case is None:
        near = difflib.get_close_matches(args.case, list(by_id), n=1)
        maybe = f" (did you mean {near[0]}?)" if near else ""
        sys.stderr.write(printable(f"sgn corpus: no case {visible(args.case)!r} in the corpus{maybe}\n"))
        return EXIT_USAGE
    data = case_bytes(case)
    if args.input:
        binary = getattr(out, "buffer", None)
        if binary is not None:
            out.flush()
            binary.write(data)
        else:
            out.write(data.decode("utf-8", "surrogateescape"))
        return EXIT_OK
    lines = [f"{key}: {case[key]}" for key in ("id", "description", "kind", "level", "profile") if key in case]
    lines.append(f"valid: {'yes' if case['valid'] else 'no'}")
    for key in ("errors", "warnings"):
        if case.get(key):
            lines.append(f"{key}: " + "; ".join(_expected(e) for e in case[key]))
    lines += [f"{key}: {case[key]}" for key in ("spec", "comment") if key in case]
    text = data.decode("utf-8", "replace")
    lines.append(f"input ({count(len(data), 'byte')}; `--input` writes it as it is):")
    lines += ["    " + line for line in text.splitlines()] or ["    (empty)"]
    out.write(printable("\n".join(visible(line) for line in lines) + "\n"))
    return EXIT_OK


def _expected(error) -> str:
    """One expected diagnostic as the corpus writes it: its code, line and pointer."""
    if not isinstance(error, dict):
        return str(error)
    where = "".join(f" {key} {error[key]}" for key in ("line", "pointer") if error.get(key) not in (None, ""))
    return f"{error.get('code')}{(' at' + where) if where else ''}"
