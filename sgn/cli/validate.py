"""`sgn validate`: its options, and the run: the files collected, the output judged (never
an input) and opened last, each file checked by an executor (this process, `--jobs`
workers, a Dask cluster) and reported as its diagnostics stream by."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import List

from ..layers.reader import STDIN_NAME, describe
from ..output import REPORTERS, colour
from ..output.reporters import ReportError, Tally
from ..words import printable, visible
from . import options
from .exits import EXIT_OK, EXIT_USAGE, job_count, nonempty
from .streams import standard_input


def add_validate_parser(commands) -> None:
    """`sgn validate`, on the subcommands of `sgn`."""
    validate = commands.add_parser(
        "validate",
        help="check SGN logs and report every problem, line by line",
        description="Check SGN logs (newline-delimited JSON, plain or gzip) and report every "
        "problem with its line and JSON pointer. Exit 0 when valid, 1 when any "
        "error is found, 2 on a usage error or a file that cannot be read.",
    )
    validate.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help="log files, folders (walked for *.sgn, *.sgn.gz, *.jsonl, *.ndjson) or "
        "quoted globs; '-' or nothing reads standard input",
    )
    options.add(validate, "level", "profile", "hidden", "rules", "output-format")
    validate.add_argument(
        "--statistics",
        action="store_true",
        help="print how many diagnostics of each code were found, instead of the diagnostics "
        "(text, or json with -o json); the exit status is unchanged",
    )
    validate.add_argument("-q", "--quiet", action="store_true", help="print errors only: no warnings, no summary")
    validate.add_argument(
        "--color",
        choices=colour.CHOICES,
        default="auto",
        help="colour the text output: auto (the default) on a terminal, unless "
        "NO_COLOR is set or TERM is dumb; always; never",
    )
    validate.add_argument(
        "--stdin-filename",
        type=nonempty,
        metavar="NAME",
        default=STDIN_NAME,
        help=f"the name of standard input in diagnostics (default: {STDIN_NAME})",
    )
    validate.add_argument(
        "-j",
        "--jobs",
        type=job_count,
        default=1,
        metavar="N",
        help="check files in N processes (the output keeps the files' order); 0 or auto: one per core",
    )
    options.add(validate, "max-line-bytes", "max-errors")
    validate.add_argument(
        "--output-file",
        metavar="FILE",
        help="write the report to FILE instead of standard output (-o parquet needs one)",
    )
    validate.add_argument(
        "--dask",
        metavar="ADDRESS|local[:N]",
        help="check the files on a Dask cluster: a scheduler's address (tcp://host:8786), "
        "or local[:N] for N workers on this machine (needs the extra 'dask')",
    )
    group = validate.add_argument_group(
        "settings (also in sgn.toml or pyproject.toml [tool.sgn]; docs/configuration.md)"
    )
    group.add_argument("--config", metavar="FILE", help="read the settings from FILE, not the one found upwards")
    group.add_argument("--isolated", action="store_true", help="read no configuration file")
    group.add_argument(
        "--show-settings", action="store_true", help="print the settings in force, and where each comes from, and exit"
    )
    options.add(group, "select", "ignore", "extend-select", "extend-ignore", "per-file-ignores", "per-file-rules")
    options.add(group, "fail-on", "extend-include", "exclude", "extend-exclude", "respect-gitignore")
    validate.set_defaults(run=run_validate)


def run_validate(args: argparse.Namespace, out) -> int:
    """Every usage check first, the output file opened last (sgn/cli/output_file.py): a usage
    error writes nothing, and an output that is an input is refused before it is opened."""
    from .. import cluster
    from ..packaged import SetupError
    from ..pipeline import files, remote
    from . import settings as validate_settings
    from .config import ConfigError
    from .output_file import OutputError, refuse_inputs, refuse_standard_output, written

    try:
        settings = validate_settings.resolve(args)
    except ConfigError as error:
        sys.stderr.write(printable(f"sgn validate: {visible(str(error))}\n"))
        return EXIT_USAGE
    if args.show_settings:
        return _show_settings(args, settings, out)
    output = settings.get("output-format")
    if (args.files or []).count("-") > 1:
        sys.stderr.write("sgn validate: standard input ('-') is named twice: it can be read once\n")
        return EXIT_USAGE
    if output not in REPORTERS:
        sys.stderr.write(
            f"sgn validate: output format {output!r} is not known here (known: {', '.join(sorted(REPORTERS))})\n"
        )
        return EXIT_USAGE
    if not args.files and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write("sgn validate: no input: give log files, or pipe a log into `sgn validate -`\n")
        return EXIT_USAGE
    if args.statistics and output == "parquet":
        sys.stderr.write("sgn validate: --statistics prints a table of text or JSON, not -o parquet\n")
        return EXIT_USAGE
    binary = output == "parquet"
    if binary and args.output_file is None and not isinstance(out, (io.RawIOBase, io.BufferedIOBase)):
        sys.stderr.write("sgn validate: -o parquet writes a binary table: name its file with --output-file FILE\n")
        return EXIT_USAGE
    if args.dask is not None and args.jobs != 1:
        sys.stderr.write(
            "sgn validate: --jobs and --dask cannot be used together: the cluster's workers are the jobs\n"
        )
        return EXIT_USAGE
    paths = files.collect(
        args.files or ["-"],
        include=validate_settings.include(settings),
        exclude=validate_settings.exclude(settings),
        respect_gitignore=bool(settings.get("respect-gitignore")),
    )
    if not paths:
        sys.stderr.write("sgn validate: no log files found in " + ", ".join(args.files) + "\n")
        return EXIT_USAGE
    try:
        if output == "parquet":  # its extra, before anything is checked
            from ..output.parquet import require

            require()
        paths = remote.expand(paths)  # URLs' globs too, before the output is judged
        stdin_name = describe(args.stdin_filename)
        nothing = validate_settings.nothing_left_in(settings, [stdin_name if p == "-" else describe(p) for p in paths])
        if nothing:
            sys.stderr.write(f"sgn validate: {nothing}\n")
            return EXIT_USAGE
        read = paths + ([str(settings.file)] if settings.file is not None else [])  # (the configuration too)
        if args.output_file is not None:
            refuse_inputs(args.output_file, read, urls=True)
        else:
            refuse_standard_output(out, read, urls=True)
        runner = cluster.connect(args.dask, stdin=standard_input(), stdin_name=stdin_name)
    except (OutputError, SetupError) as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    if runner is not None and runner.without_workers:
        sys.stderr.write(
            f"sgn validate: the Dask scheduler at {args.dask} has no worker yet: "
            "the files wait for one (Ctrl-C to stop)\n"
        )
    from ..pipeline.executors import JobsError

    try:
        if args.output_file is None:
            return _validate(args, settings, paths, runner, out)
        # the report goes to a temporary file, renamed over the output once whole: a run
        # cut short (a full disk, a spool that cannot be read) leaves the earlier report
        with written(args.output_file, binary=binary) as target:
            return _validate(args, settings, paths, runner, target)
    except (OutputError, JobsError, ReportError) as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    finally:
        if runner is not None:
            runner.close()


def _show_settings(args: argparse.Namespace, settings, out) -> int:
    """--show-settings: to standard output, or to --output-file (never over the configuration)."""
    from .output_file import OutputError, refuse_inputs, written

    if args.output_file is None:
        out.write(settings.show())
        return EXIT_OK
    try:
        refuse_inputs(args.output_file, [str(settings.file)] if settings.file is not None else [])
        with written(args.output_file) as target:
            target.write(settings.show())
    except OutputError as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    return EXIT_OK


def _validate(args: argparse.Namespace, settings, paths: List[str], runner, out) -> int:
    """Check the files and report them on `out`; the exit status."""
    from ..output.reporters import Progress
    from ..pipeline import executors as jobs
    from . import settings as validate_settings

    color = colour.wanted(args.color, out, os.environ)
    # what is reported, what is shown (-q: not under --statistics, which counts all that is
    # reported), what fails the run: one policy, the workers' and the tally's
    policy = validate_settings.policy(settings, quiet=args.quiet and not args.statistics)
    reporter = _reporter(args, settings.get("output-format"), out, color)
    progress = Progress.for_terminal(sys.stderr, len(paths))
    tally = Tally(policy)
    reporter.start()
    options = jobs.Options(validate_settings.checking(settings), policy)
    executor: jobs.Executor = (
        runner
        if runner is not None
        else jobs.Pool(args.jobs, stdin=standard_input(), stdin_name=describe(args.stdin_filename))
    )
    results = executor.results(paths, options)
    try:
        for result in results:
            tally.start(result)
            for diagnostic in result.diagnostics:  # (what the policy reports: sgn/pipeline/policy.py)
                if policy.shows(diagnostic):
                    progress.clear()
                    reporter.diagnostic(diagnostic)
            tally.done(result)
            reporter.file_done(result)
            progress.advance(tally)
    finally:
        results.close()  # the workers and their spools go now, whatever happened (its caller says what)
        progress.clear()
    reporter.finish(tally)
    return tally.exit_code


def _reporter(args: argparse.Namespace, output: str, out, color: bool):
    """The reporter of `-o`, or the count per code of `--statistics`."""
    if args.statistics:
        from ..output.statistics import StatisticsReporter

        return StatisticsReporter(out, as_json=output in ("json", "jsonl"))
    return REPORTERS[output](out, color=color)
