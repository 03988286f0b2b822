"""`sgn corpus build|check`: the YAML sources of the test corpus bundled into cases.json,
and the bundle checked current and sound.

The sources (test-corpus/src) live in a source checkout only: the installed package
carries the bundle, not them. So the corpus is found as ruff finds its configuration,
from where the command runs: `--root DIR` when given, else the test-corpus folder of
the current folder or the nearest parent that has one with its sources, else the
package's own when it runs from a checkout (`python -m sgn`, an editable install).
An installed package run outside a checkout says so in one line, and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from ..layers.reader import describe
from ..words import count
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE

FOLDER = "test-corpus"


def add_parser(commands) -> None:
    corpus = commands.add_parser(
        "corpus",
        help="build or check the test corpus bundle",
        description="build: write test-corpus/cases.json from the YAML sources in test-corpus/src; "
        "check: fail when the bundle is stale or the corpus is unsound; show ID: a case's input "
        "and what it expects (from the bundle, installed with the package). The sources are "
        "in a source checkout: the test-corpus folder of the current folder or a parent "
        "is used, or the one --root names.",
    )
    corpus.add_argument(
        "action",
        choices=("build", "check", "show"),
        help="build the bundle, check it, or show one case (its input and what it expects)",
    )
    corpus.add_argument("case", nargs="?", metavar="ID", help="show: the id of the case")
    corpus.add_argument(
        "--input", action="store_true", help="show: only the case's input, byte for byte (to pipe into sgn validate -)"
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
    from .. import corpus
    from ..corpus import source as corpus_source
    from .output_file import OutputError, written

    if args.action == "show":
        return show(args, out)
    if args.case is not None or args.input:
        sys.stderr.write("sgn corpus: a case id and --input go with `show` only\n")
        return EXIT_USAGE
    root = Path(args.root) if args.root else find_root()
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
    except corpus.CorpusError as error:
        sys.stderr.write(f"sgn corpus: {error}\n")
        return EXIT_INVALID
    text = corpus_source.dump_bundle(bundle)
    target = root / corpus.BUNDLE
    problems = corpus.self_check(bundle["cases"], root)
    try:
        if args.action == "build":
            with written(str(target)) as bundled:  # the earlier bundle stays if this one fails
                bundled.write(text)
            out.write(f"wrote {describe(target)}: {count(len(bundle['cases']), 'case')}\n")
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
