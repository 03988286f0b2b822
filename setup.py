"""Build: the modules on the hot path of `sgn validate` compiled with mypyc where possible.

The compiled modules are the same source as the pure-Python ones, which stay in
the package and are used wherever the compiled ones are missing. The build falls
back to pure Python, with a warning, when compiling fails (no C compiler, an
unsupported Python). `SGN_COMPILE=0` in the environment builds pure Python on
purpose; an editable install is always pure Python, so that edits take effect.
Everything else (metadata, packages, data) is in setup.cfg.
"""
import glob
import os
import shutil
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The modules a validation runs line by line (docs/performance.md).
COMPILED = ["sgn/board.py", "sgn/rules.py", "sgn/game/pieces.py", "sgn/game/doubt.py", "sgn/game/state.py", "sgn/game/ledger.py", "sgn/game/placing.py", "sgn/game/robber.py", "sgn/game/building.py",
            "sgn/game/cards.py", "sgn/game/trades.py", "sgn/game/turns.py", "sgn/game/setup.py", "sgn/game/core.py",
            "sgn/game/readings.py", "sgn/game/lost.py", "sgn/game/unseen_cards.py", "sgn/game/fork.py", "sgn/game/recovery.py", "sgn/layers/multiline.py", "sgn/layers/places.py", "sgn/layers/maps.py", "sgn/layers/semantic.py", "sgn/layers/fastpath.py", "sgn/layers/gunzip.py", "sgn/layers/reader.py",
            "sgn/pipeline/engine.py", "sgn/pipeline/held.py"]


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or none of them: a failure leaves pure Python."""

    def run(self):
        try:
            super().run()
        except Exception as error:      # the compiler is missing or fails: pure Python it is
            self._warn(error)
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []

    @staticmethod
    def _warn(error):
        sys.stderr.write(f"sgn: building without the compiled modules (pure Python): {error}\n")


class FreshBuildPy(build_py):
    """Copy the package into a build folder emptied of it first: a module the checkout no
    longer has (moved, renamed), or a compiled module of an earlier build, must not ship
    from the leftovers of `build/` (pip builds in the checkout, and setuptools reuses it)."""

    def run(self):
        shutil.rmtree(os.path.join(self.build_lib, "sgn"), ignore_errors=True)
        for leftover in glob.glob(os.path.join(self.build_lib, "*__mypyc*")):
            os.remove(leftover)
        super().run()


def _wanted() -> bool:
    editable = any(command in sys.argv for command in ("editable_wheel", "develop"))
    return os.environ.get("SGN_COMPILE", "1") != "0" and not editable


def _ext_modules():
    if not _wanted():
        return []
    try:
        from mypyc.build import mypycify
        return mypycify(COMPILED, opt_level="3", group_name="sgn_compiled")
    except (Exception, SystemExit) as error:     # mypy missing, or the type check fails
        OptionalBuildExt._warn(error)
        return []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt, "build_py": FreshBuildPy})
