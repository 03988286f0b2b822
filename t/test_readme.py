"""The README's first log: each command of "Your first log" runs as written, and what its
comment says it prints is what it prints (a first-time user copies these lines)."""

import os
import re
import subprocess
import sys

from conftest import CHECKOUT

README = (CHECKOUT / "README.md").read_text(encoding="utf-8")
SHOWN = re.compile(r"^\w[\w.-]*\.sgn(:\d+){0,2}: ")  # a comment that shows the output


def commands():
    """(command, what its comment says it prints, or None) of the section's shell blocks."""
    section = README[README.index("## Your first log") :]
    section = section[: section.index("\n## ")]
    out = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            command, _, comment = line.partition("  # ")
            comment = comment.strip()
            out.append((command.strip(), comment.rstrip(". ") if SHOWN.match(comment) else None))
    return out


def test_the_first_log_commands_print_what_the_readme_says(tmp_path):
    found = commands()
    assert len(found) >= 6 and sum(shown is not None for _, shown in found) >= 3
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "sgn").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sgn "$@"\n')
    (shim / "sgn").chmod(0o755)
    env = dict(os.environ, PATH=f"{shim}{os.pathsep}{os.environ['PATH']}", NO_COLOR="1")
    for command, shown in found:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode in (0, 1), (command, done.stderr)
        if shown is not None:
            assert shown in done.stdout, (command, done.stdout)
    assert (tmp_path / "first.html").stat().st_size > 10_000
