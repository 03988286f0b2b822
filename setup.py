"""Build: the modules on the hot path of `sgn validate` compiled with mypyc where possible.

The compiled modules are the same source as the pure-Python ones, which stay in
the package and are used wherever the compiled ones are missing. The build falls
back to pure Python, with a warning, when compiling fails (no C compiler, an
unsupported Python). `SGN_COMPILE=0` in the environment builds pure Python on
purpose; an editable install is always pure Python, so that edits take effect.
Everything else (metadata, packages, data) is in setup.cfg.
"""
import concurrent.futures
import glob
import os
import shutil
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The modules a validation runs line by line (docs/performance.md).
COMPILED = [
    "sgn/board.py",
    "sgn/rules.py",
    "sgn/messages.py",
    "sgn/game/pieces.py",
    "sgn/game/bank_pays.py",
    "sgn/game/doubt.py",
    "sgn/game/unseen.py",
    "sgn/game/state.py",
    "sgn/game/ledger.py",
    "sgn/game/placing.py",
    "sgn/game/robber.py",
    "sgn/game/building.py",
    "sgn/game/cards.py",
    "sgn/game/trades.py",
    "sgn/game/turns.py",
    "sgn/game/setup.py",
    "sgn/game/core.py",
    "sgn/game/readings.py",
    "sgn/game/lost.py",
    "sgn/game/unseen_cards.py",
    "sgn/game/fork.py",
    "sgn/game/recovery.py",
    "sgn/game/move_forms.py",
    "sgn/game/discard_moves.py",
    "sgn/game/moves.py",
    "sgn/game/decisions.py",
    "sgn/layers/multiline.py",
    "sgn/layers/hidden.py",
    "sgn/layers/blanks.py",
    "sgn/layers/columns.py",
    "sgn/layers/stages.py",
    "sgn/layers/places.py",
    "sgn/layers/maps.py",
    "sgn/layers/semantic.py",
    "sgn/layers/fastpath.py",
    "sgn/layers/gunzip.py",
    "sgn/layers/reader.py",
    "sgn/pipeline/engine.py",
    "sgn/pipeline/file_stages.py",
    "sgn/pipeline/held.py",
    "sgn/pipeline/per_game.py",
]


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

    def build_extension(self, ext):
        """Compile the extension's C files on every core: mypyc writes one file a module
        (`multi_file`), and compiling them one after the other left a core idle for most of the
        build (the test command waits for it). The link still waits for every file."""
        compile_serially = self.compiler.compile

        def compile_in_parallel(sources, *args, **kwargs):
            with concurrent.futures.ThreadPoolExecutor(_cores()) as pool:
                parts = pool.map(lambda source: compile_serially([source], *args, **kwargs), sources)
                return [built for part in parts for built in part]

        self.compiler.compile = compile_in_parallel
        try:
            super().build_extension(ext)
        finally:
            del self.compiler.compile

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


def _cores() -> int:
    """The cores this process may run on (all of the machine's where the system cannot say)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# The commands that build what ships. The others need no C: `egg_info` and `dist_info` (what a
# build frontend asks for before it builds: mypyc's type check and C took 10 s each time),
# `sdist`, and an editable install, always pure Python so that edits take effect.
COMPILING = {"build", "build_ext", "bdist", "bdist_wheel", "bdist_egg", "install"}


def _wanted() -> bool:
    asked = os.environ.get("SGN_COMPILE", "1") != "0"
    return asked and any(word in COMPILING for word in sys.argv[1:])


def _ext_modules():
    if not _wanted():
        return []
    try:
        from mypyc.build import mypycify
        # multi_file: a C file a module, compiled side by side (OptionalBuildExt); one file of
        # 14 MB took 100 s on one core, and the compiled code is as fast either way (measured)
        return mypycify(COMPILED, opt_level="3", group_name="sgn_compiled", multi_file=True)
    except (Exception, SystemExit) as error:     # mypy missing, or the type check fails
        OptionalBuildExt._warn(error)
        return []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt, "build_py": FreshBuildPy})
