"""The package as interpreted Python, beside the one the tests import (which may be compiled).

The wheel ships each compiled module's source too; Python prefers the compiled file.
`load()` imports the same installed sources as the package `sgn_interpreted`, read from
the `.py` files only, so that a test can run both and compare what they say.
"""

import importlib
import importlib.abc
import importlib.util
import sys
from pathlib import Path

import sgn

NAME = "sgn_interpreted"
FOLDER = Path(sgn.__file__).resolve().parent


class _SourceOnly(importlib.abc.MetaPathFinder):
    """Finds `sgn_interpreted[.x[.y]]` as the source files of `sgn[.x[.y]]`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != NAME and not fullname.startswith(NAME + "."):
            return None
        parts = fullname.split(".")[1:]
        base = FOLDER.joinpath(*parts)
        if base.is_dir():
            return importlib.util.spec_from_file_location(
                fullname, base / "__init__.py", submodule_search_locations=[str(base)]
            )
        source = base.with_suffix(".py")
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() else None


def load():
    """The package `sgn_interpreted`: every module run from its Python source."""
    if not any(isinstance(finder, _SourceOnly) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())
    return importlib.import_module(NAME)
