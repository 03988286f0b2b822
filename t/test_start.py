"""What a short run of `sgn validate` loads (docs/performance.md, "Start"): the start is
most of a short file's time, so a run loads the modules its file and its output need, and
not those of another format, another command or argparse's help."""

import json
import subprocess
import sys

import pytest

from conftest import CHECKOUT

# modules a validation of a short file in text has no use for, and the reason each costs
NOT_NEEDED = {
    "shutil": "argparse's help width, read without it (sgn.cli._Formatter); brings bz2 and lzma",
    "bz2": "shutil's",
    "lzma": "shutil's",
    "sgn.output.junit": "another output format",
    "sgn.output.sarif": "another output format",
    "sgn.output.xml": "another output format",
    "sgn.output.parquet": "another output format, and pyarrow",
    "sgn.referee": "another command",
    "sgn.conformance": "another command",
    "sgn.page": "another command",
    "sgn.notation": "another command",
    "pathlib": "the configuration is looked for with os.path (sgn.cli.config), the packaged data too",
}


def _loaded(*args, env=None):
    code = (
        "import json, runpy, sys\n"
        f"sys.argv = ['sgn', *{list(args)!r}]\n"
        "try:\n    runpy.run_module('sgn', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=CHECKOUT, env=env)
    return set(json.loads(done.stderr.decode().strip().splitlines()[-1]))


@pytest.mark.parametrize("output", ["text", "json", "concise"])
def test_a_short_run_loads_nothing_it_does_not_need(tmp_path, output):
    log = tmp_path / "ten.sgn"
    log.write_text('["1","RD",{"result":8}]\n' * 10)
    loaded = _loaded("validate", "-q", "-o", output, str(log))
    assert "sgn.layers.semantic" in loaded  # (the run did check the file)
    bare = subprocess.run([sys.executable, "-c", "import sys; print(' '.join(sys.modules))"], capture_output=True)
    ahead = set(
        bare.stdout.decode().split()
    )  # (what the interpreter loads before sgn: an editable install's finder loads pathlib)
    found = {m: why for m, why in NOT_NEEDED.items() if m in loaded and m not in ahead}
    assert not found


def test_the_format_asked_for_is_loaded_and_works(tmp_path):
    log = tmp_path / "ten.sgn"
    log.write_text('["1","RD",{"result":8}]\n' * 10)
    assert "sgn.output.junit" in _loaded("validate", "-o", "junit", str(log))
    done = subprocess.run([sys.executable, "-m", "sgn", "validate", "-o", "sarif", str(log)], capture_output=True)
    assert done.returncode == 0 and json.loads(done.stdout)["runs"][0]["results"] == []
