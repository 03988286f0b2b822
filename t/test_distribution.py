"""The distribution's name: `settlers-game-notation` (the index's `sgn` is another project),
used by the metadata, every install instruction and every error message that advises one."""

import configparser
import fnmatch
import importlib.metadata
import os
import pathlib
import re
import subprocess
import sys

import pytest

import sgn

ROOT = pathlib.Path(__file__).resolve().parent.parent
DISTRIBUTION = "settlers-game-notation"
# what a user reads: the docs, the examples, the package's own messages
READ = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "sgn").rglob("*.py")),
    *sorted((ROOT / "examples").rglob("*.md")),
    ROOT / "tox.ini",
]
# `pip install sgn`, `pip install "sgn[png]"`, `sgn[hypothesis]`: the name of the other project
WRONG_NAME = re.compile(r"""pip install\s+['"]?sgn\b(?!\.)|\bsgn\[\w+\]""")


def test_setup_cfg_names_the_distribution():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    assert config["metadata"]["name"] == DISTRIBUTION


def test_the_installed_distribution_has_the_name_and_the_version():
    try:
        version = importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip(f"{DISTRIBUTION} is not installed (the tests run on the sources): nothing to look up")
    assert version == sgn.__version__
    entry_points = importlib.metadata.distribution(DISTRIBUTION).entry_points
    assert [(e.name, e.value) for e in entry_points if e.group == "console_scripts"] == [("sgn", "sgn.cli:main")]


def test_no_instruction_installs_the_other_projects_sgn():
    wrong = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in READ
        if path.is_file()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WRONG_NAME.search(line)
    ]
    assert wrong == []


def test_the_pattern_finds_the_wrong_name():
    """The check above could pass by matching nothing: it must catch each way of writing it."""
    for line in ['pip install "sgn[hypothesis]"', "pip install 'sgn[png]'", "pip install sgn", "install `sgn[png]`"]:
        assert WRONG_NAME.search(line), line
    for line in ['pip install "settlers-game-notation[png]"', 'pip install ".[test]"', "pip install sgn.whl"]:
        assert not WRONG_NAME.search(line), line


def test_the_readme_says_how_to_install_from_the_checkout_and_that_the_index_lacks_it():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    head = readme[: readme.index("\n## ")]
    assert "pip install ." in head and 'pip install ".[test]"' in head
    assert f"`{DISTRIBUTION}` is not yet on the package index" in head


def test_a_missing_extra_names_the_distribution():
    """Importing the strategies without Hypothesis says what to install, by the right name."""
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "try:\n    import sgn.strategies\nexcept ImportError as error:\n    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install hypothesis" in out and f"pip install '{DISTRIBUTION}[hypothesis]'" in out


def test_a_build_ships_no_leftover_of_an_earlier_build(tmp_path):
    """pip builds in the checkout, and setuptools reuses `build/`: a module the package no
    longer has (moved in a restructure) or a compiled module of an earlier build must not
    reach the next wheel. The build's copy step empties the package's folder first."""
    build_lib = tmp_path / "lib"
    stale = build_lib / "sgn" / "game_setup.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("raise ImportError('a leftover')\n")
    compiled = build_lib / "sgn_compiled__mypyc.cpython-311-x86_64-linux-gnu.so"
    compiled.write_bytes(b"\0")
    env = dict(os.environ, SGN_COMPILE="0")
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build_lib)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert not stale.exists() and not compiled.exists()
    assert (build_lib / "sgn" / "game" / "core.py").is_file() and (build_lib / "sgn" / "api.py").is_file()


def test_setup_cfg_ships_every_package_and_its_data():
    """A package moved or added (as `sgn/page/` was, its templates from `sgn/pictures/`) is in
    the wheel: setup.cfg lists every sub-package of `sgn/`, and every file in them that is not
    Python matches a pattern of its package's `package_data`."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    listed = set(config["options"]["packages"].split())
    data = {
        package: [p.strip() for p in patterns.split(",") if p.strip()]
        for package, patterns in config["options.package_data"].items()
    }
    for init in sorted((ROOT / "sgn").rglob("__init__.py")):
        folder = init.parent
        package = ".".join(folder.relative_to(ROOT).parts)
        assert package in listed, f"{package} is not in setup.cfg's packages: the wheel would lack it"
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix not in (".py", ".pyc"):
                assert any(fnmatch.fnmatch(path.name, p) for p in data.get(package, [])), (
                    f"{path.relative_to(ROOT)} matches no package_data of {package} in setup.cfg"
                )
