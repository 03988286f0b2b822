"""Finding and reading the configuration file of `sgn validate`, as ruff finds its own.

The file is the first found from the current folder upwards: `sgn.toml` or `.sgn.toml` (the
whole file is the settings), or `pyproject.toml` with a `[tool.sgn]` table (one without the
table is passed over). `--config FILE` names one; `--isolated` reads none. Each key is
checked against the table of options (sgn/cli/options.py): an unknown key or a value of the
wrong kind is a usage error that names the file and the key. What is in force, and where
each value came from, is the merge's (sgn/cli/settings.py).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

if TYPE_CHECKING:
    from pathlib import Path

from . import options

CONFIG_NAMES = ("sgn.toml", ".sgn.toml", "pyproject.toml")


class ConfigError(Exception):
    """A configuration that cannot be used: the message names the file and the key."""


def find_config(start: "Union[str, os.PathLike[str]]") -> Optional[Path]:
    """The first configuration file from the folder `start` upwards (a pyproject.toml counts
    only with a [tool.sgn] table, or a `sgn` key under a `tool` table, whatever its value:
    that one is ours, and load_file says what is wrong with it). Walked with `os.path`:
    `pathlib` is loaded only when a file is found (most runs find none, and start-up counts)."""
    folder = os.path.abspath(os.fspath(start))
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                if name != "pyproject.toml" or _tool_sgn(_read(candidate)) is not _NONE:
                    from pathlib import Path

                    return Path(candidate)
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


_NONE = object()  # a pyproject.toml without [tool.sgn]


def _tool_sgn(data: Dict[str, Any]) -> Any:
    """What a pyproject.toml holds under `tool.sgn`, or _NONE. A `tool` that is not a table
    (`tool = "sgn"`, `[[tool]]`) is another tool's mistake, not ours: no [tool.sgn]."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return _NONE
    return tool.get("sgn", _NONE)


def _read(path: "Union[str, Path]") -> Dict[str, Any]:
    # imported when a file is read: most runs have none, and start-up counts
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.9 and 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML: the file is not UTF-8") from None
    except RecursionError:  # tomllib nests a call per level of [[[...]]] or {a={...}}
        raise ConfigError(f"{path}: arrays or tables nested too deeply to be read") from None


def load_file(path: Path) -> Dict[str, Any]:
    """The checked settings of one configuration file."""
    data: Any = _read(path)
    if path.name == "pyproject.toml":  # without [tool.sgn] (named by --config): no settings
        data = _tool_sgn(data)
        data = {} if data is _NONE else data
        where = "[tool.sgn]"
    else:
        where = ""
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: {where or 'the file'} must be a table")
    out = {}
    for key, value in data.items():
        option = options.BY_NAME.get(key)
        if option is None:
            import difflib

            known = ", ".join(sorted(options.BY_NAME))
            close = difflib.get_close_matches(str(key), list(options.BY_NAME), n=1)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            raise ConfigError(f"{path}: unknown setting {where + ' ' if where else ''}{key!r}{guess} (known: {known})")
        try:
            out[key] = option.check(value)
        except ValueError as error:
            raise ConfigError(f"{path}: {where + ' ' if where else ''}{key} {error}") from None
    return out


def named(config: str) -> Path:
    """The file `--config` names, which must be a file (ConfigError: what is there instead)."""
    from pathlib import Path

    path = Path(config)
    if not path.is_file():
        from ..pipeline.files import kind

        what = kind(config)  # a folder, a FIFO (named pipe)...; None when there is nothing there
        if what:
            raise ConfigError(f"{config} is {what.replace(', not a regular file', '')}, not a configuration file")
        raise ConfigError(f"{config}: no such configuration file")
    return path
