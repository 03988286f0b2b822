"""Settings of `sgn validate`, from a configuration file and the command line, as ruff finds
and merges its own.

The file is the first found from the current folder upwards: `sgn.toml` or `.sgn.toml` (the
whole file is the settings), or `pyproject.toml` with a `[tool.sgn]` table (one without the
table is passed over). `--config FILE` names one; `--isolated` reads none. The command line
wins over the file, the file over the defaults; `--show-settings` prints each setting with
where it came from. An unknown key or a value of the wrong kind is a usage error that names
the file and the key.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..game.profiles import CHOICES as RULES_CHOICES
from ..layers.hidden import CHOICES as HIDDEN_CHOICES
from ..layers.schema import PROFILES
from ..layers.stages import LEVEL_CHOICES

CONFIG_NAMES = ("sgn.toml", ".sgn.toml", "pyproject.toml")
FAIL_ON = ("error", "warning")


class ConfigError(Exception):
    """A configuration that cannot be used: the message names the file and the key."""


def _choice(options: Sequence[str]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in options:
            raise ValueError(f"must be one of {', '.join(options)}")
        return value

    return check


def _positive(value: Any) -> int:
    if type(value) is not int or value < 1:
        raise ValueError("must be a whole number of at least 1")
    return value


def _codes(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError('must be a list of codes or patterns ("schema-*")')
    return list(value)


def _globs(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a list of glob patterns")
    return list(value)


def _per_file(value: Any) -> Dict[str, List[str]]:
    if not isinstance(value, dict):
        raise ValueError("must be a table of glob = [codes]")
    return {str(k): _codes(v) for k, v in value.items()}


def _per_file_rules(value: Any) -> Dict[str, str]:
    if not isinstance(value, dict):
        raise ValueError("must be a table of glob = rules")
    check = _choice(RULES_CHOICES)
    out = {}
    for glob, name in value.items():
        try:
            out[str(glob)] = check(name)
        except ValueError as error:
            raise ValueError(f"{str(glob)!r} {error}") from None
    return out


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


# key in the file (and, with - for _, the option's name) -> the check of its value
KEYS: Dict[str, Callable[[Any], Any]] = {
    "level": _choice(LEVEL_CHOICES),
    "profile": _choice(PROFILES),
    "hidden": _choice(HIDDEN_CHOICES),
    "rules": _choice(RULES_CHOICES),
    "per-file-rules": _per_file_rules,
    "select": _codes,
    "ignore": _codes,
    "extend-select": _codes,
    "extend-ignore": _codes,
    "per-file-ignores": _per_file,
    "fail-on": _choice(FAIL_ON),
    "max-line-bytes": _positive,
    "max-errors": _positive,
    "output-format": _choice(("text", "concise", "json", "jsonl", "github", "junit", "sarif", "parquet")),
    "include": _globs,
    "extend-include": _globs,
    "exclude": _globs,
    "extend-exclude": _globs,
    "respect-gitignore": _bool,
}


class Settings:
    """What is in force, and where each value came from ("default", a file, "command line")."""

    def __init__(
        self,
        values: Optional[Dict[str, Any]] = None,
        sources: Optional[Dict[str, str]] = None,
        file: Optional[Path] = None,
    ):
        self.values: Dict[str, Any] = values if values is not None else {}
        self.sources: Dict[str, str] = sources if sources is not None else {}
        self.file = file

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def show(self) -> str:
        """The settings as `--show-settings` prints them: one per line, with their source."""
        lines = [f"configuration file: {self.file if self.file else 'none'}"]
        for key in sorted(self.values):
            lines.append(f"{key} = {_toml(self.values[key])}    # {self.sources.get(key, 'default')}")
        return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    return str(value)


def find_config(start: Path) -> Optional[Path]:
    """The first configuration file from `start` upwards (a pyproject.toml counts only with
    a [tool.sgn] table, or a `sgn` key under a `tool` table, whatever its value: that one is
    ours, and load_file says what is wrong with it)."""
    for folder in [start, *start.parents]:
        for name in CONFIG_NAMES:
            candidate = folder / name
            if candidate.is_file():
                if name != "pyproject.toml" or _tool_sgn(_read(candidate)) is not _NONE:
                    return candidate
    return None


_NONE = object()  # a pyproject.toml without [tool.sgn]


def _tool_sgn(data: Dict[str, Any]) -> Any:
    """What a pyproject.toml holds under `tool.sgn`, or _NONE. A `tool` that is not a table
    (`tool = "sgn"`, `[[tool]]`) is another tool's mistake, not ours: no [tool.sgn]."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return _NONE
    return tool.get("sgn", _NONE)


def _read(path: Path) -> Dict[str, Any]:
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
        check = KEYS.get(key)
        if check is None:
            known = ", ".join(sorted(KEYS))
            raise ConfigError(f"{path}: unknown setting {where + ' ' if where else ''}{key!r} (known: {known})")
        try:
            out[key] = check(value)
        except ValueError as error:
            raise ConfigError(f"{path}: {where + ' ' if where else ''}{key} {error}") from None
    return out


def resolve(
    defaults: Dict[str, Any],
    command_line: Dict[str, Any],
    *,
    config: Optional[str] = None,
    isolated: bool = False,
    cwd: Optional[Path] = None,
) -> Settings:
    """Defaults, then the file's settings, then the command line's (the options given)."""
    settings = Settings(dict(defaults), dict.fromkeys(defaults, "default"))
    path: Optional[Path] = None
    if config is not None:
        path = Path(config)
        if not path.is_file():
            from ..pipeline.files import kind

            what = kind(config)  # a folder, a FIFO (named pipe)...; None when there is nothing there
            if what:
                raise ConfigError(f"{config} is {what.replace(', not a regular file', '')}, not a configuration file")
            raise ConfigError(f"{config}: no such configuration file")
    elif not isolated:
        path = find_config((cwd or Path.cwd()).resolve())
    if path is not None:
        settings.file = path
        for key, value in load_file(path).items():
            settings.values[key] = value
            settings.sources[key] = str(path)
    for key, value in command_line.items():
        if value is not None:
            settings.values[key] = value
            settings.sources[key] = "command line"
    return settings


def split_codes(text: str) -> List[str]:
    """`--select a,b --select c` as ruff reads it: commas and repeats."""
    return [c.strip() for c in text.split(",") if c.strip()]


def per_file_rules_option(text: str) -> Tuple[str, str]:
    """`--per-file-rules 'GLOB:RULES'`."""
    glob, sep, name = text.rpartition(":")
    if not sep or not glob:
        raise ValueError("expected GLOB:RULES")
    _choice(RULES_CHOICES)(name)
    return glob, name


def per_file_option(text: str) -> Tuple[str, List[str]]:
    """`--per-file-ignores 'GLOB:code,code'`."""
    glob, sep, codes = text.rpartition(":")
    if not sep or not glob:
        raise ValueError("expected GLOB:CODE[,CODE...]")
    return glob, split_codes(codes)
