"""`sgn codes [CODE] [-o text|json|markdown]`: the diagnostic codes, listed or explained one
at a time (`sgn.corpus.explain`), as `ruff rule` explains a rule."""

from __future__ import annotations

import argparse
import json
import sys

from ..words import printable
from .exits import EXIT_OK, EXIT_USAGE


def add_parser(commands) -> None:
    codes = commands.add_parser(
        "codes",
        help="list the diagnostic codes, or explain one",
        description="With no CODE, list every diagnostic code: layer, severity, what triggers it. "
        "With a CODE, explain it: its layer, severity, sentence, the hint sgn gives, the "
        "section of the specification it rests on, where it is documented, and an example "
        "case from the corpus with what sgn says about it.",
    )
    codes.add_argument("code", nargs="?", metavar="CODE", help="the code to explain (e.g. trade-rate)")
    codes.add_argument(
        "-o",
        "--output",
        choices=("text", "json", "markdown"),
        default="text",
        help="text (default); json: the explanation as an object, or with no CODE a list "
        "of one object per code; markdown: docs/codes.md (the whole table)",
    )
    codes.add_argument(
        "--markdown",
        dest="output",
        action="store_const",
        const="markdown",
        help="the same as -o markdown: print docs/codes.md",
    )
    codes.set_defaults(run=run_codes)


def run_codes(args: argparse.Namespace, out) -> int:
    from ..codes import CODES
    from ..corpus import CorpusError, codes_doc, explain as codes_explain, load_cases

    if args.code is not None and args.code not in CODES:
        near = codes_explain.close_matches(args.code)
        hint = f"did you mean {', '.join(near)}?" if near else "`sgn codes` lists them"
        sys.stderr.write(printable(f"sgn codes: no code named {args.code!r}; {hint}\n"))
        return EXIT_USAGE
    if args.code is not None and args.output == "markdown":
        sys.stderr.write("sgn codes: markdown is the whole table (docs/codes.md): give no CODE\n")
        return EXIT_USAGE
    if args.code is None and args.output == "text":
        out.write(codes_doc.codes_text())
        return EXIT_OK
    try:
        cases = load_cases()
    except CorpusError as error:
        sys.stderr.write(f"sgn codes: {error}\n")
        return EXIT_USAGE
    if args.output == "markdown":
        out.write(codes_doc.codes_markdown(cases))
    elif args.code is None:
        out.write(json.dumps(codes_explain.explain_all(cases), indent=1) + "\n")
    else:
        data = codes_explain.explain(args.code, cases)
        out.write(json.dumps(data, indent=1) + "\n" if args.output == "json" else codes_explain.explanation_text(data))
    return EXIT_OK
