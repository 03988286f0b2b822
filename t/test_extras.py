"""The first hour: `pip install -e ".[test]"` installs what most tests need, quickly; the
heavier dependencies are extras of their own (tox and CI install them all), and every
test that needs one skips without it, saying which extra brings it."""

import configparser
import subprocess
import sys

import pytest

from conftest import CHECKOUT

HEAVY = {"catanatron": "test-engines", "playwright": "test-browser", "dask": "dask", "pyarrow": "parquet"}
HEAVY_MODULES = ("catanatron", "dask", "distributed", "pyarrow", "playwright", "cairosvg")
SUITE_ENVS = ("testenv", "testenv:fuzz")


def _extras():
    config = configparser.ConfigParser()
    config.read(CHECKOUT / "setup.cfg", encoding="utf-8")
    section = config["options.extras_require"]
    return {
        name: [line.strip() for line in section[name].splitlines() if line.strip() and not line.startswith("#")]
        for name in section
    }


def test_the_test_extra_installs_none_of_the_heavy_dependencies_and_each_has_its_extra():
    extras = _extras()
    test = " ".join(extras["test"])
    for package, extra in HEAVY.items():
        assert package not in test, package
        assert any(line.startswith(package) for line in extras[extra]), (package, extra)
    assert "cairosvg" not in test and any(line.startswith("cairosvg") for line in extras["png"])


def test_tox_installs_every_extra_the_whole_suite_needs():
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(CHECKOUT / "tox.ini", encoding="utf-8")
    for env in SUITE_ENVS:
        extras = {e.strip() for e in tox[env]["extras"].replace("\n", ",").split(",") if e.strip()}
        assert extras >= {"test", *HEAVY.values(), "png"}, env


def test_the_pure_environment_s_files_need_none_of_the_heavy_extras():
    """`pure` installs the test extra only: none of the files it runs by default names a
    heavy module (they would skip there, unseen), nor do the helpers they import."""
    import re

    tox = configparser.ConfigParser(interpolation=None)
    tox.read(CHECKOUT / "tox.ini", encoding="utf-8")
    pure = tox["testenv:pure"]
    assert {e.strip() for e in pure["extras"].split(",") if e.strip()} == {"test"}
    files = re.findall(r"t/(\w+)\.py", re.search(r"\{posargs:([^}]*)\}", pure["commands"])[1])
    assert "test_fastpath" in files and len(files) >= 6
    seen, todo = set(), list(files)
    while todo:
        name = todo.pop()
        if name in seen or not (CHECKOUT / "t" / f"{name}.py").is_file():
            continue
        if name == "chromium":  # the `browser` fixture's, which these files do not ask for
            assert not any(re.search(r"\bbrowser\b", (CHECKOUT / "t" / f"{f}.py").read_text()) for f in files)
            continue
        seen.add(name)
        text = (CHECKOUT / "t" / f"{name}.py").read_text(encoding="utf-8")
        assert not any(re.search(rf"\b(import|from) {m}\b", text) for m in HEAVY_MODULES), name
        todo += re.findall(r"^(?:from|import) (\w+)", text, re.M)
    assert "conftest" in seen


# --assert=plain: only collected, the tests need not have their assertions rewritten (half the work)
BLOCKED = """
import sys
for name in {modules!r}:
    sys.modules[name] = None  # as if not installed: `import` fails, find_spec says None
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "--assert=plain", "-rs", {folder!r}]))
"""


@pytest.mark.slow
def test_without_the_heavy_dependencies_the_suite_collects_and_says_why_it_skips():
    program = BLOCKED.format(modules=HEAVY_MODULES, folder=str(CHECKOUT / "t"))
    done = subprocess.run([sys.executable, "-c", program], cwd=CHECKOUT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("extra" in line for line in skipped), skipped
