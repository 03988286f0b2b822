"""Where a match writes what it played (`sgn play --out DIR`): each game as an SGN file
(`game-00001.sgn`, written whole or not at all) and one line per game in `results.jsonl`,
after a first line that names the match. A match started again on the same folder with the
same settings plays only the games it lacks (an interrupted tournament resumes); one with
other settings is refused, so that two matches never mix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional

from .protocol import encode
from .referee import Record

RESULTS = "results.jsonl"


class StoreError(Exception):
    """The folder cannot hold this match (the message says why)."""


def game_file(index: int) -> str:
    return f"game-{index + 1:05d}.sgn"


class Store:
    def __init__(self, folder: str, match: Dict[str, Any]):
        self.folder = Path(folder)
        self.match = json.loads(json.dumps(match))  # (as its first line reads back: lists, not tuples)
        self.done: Dict[int, Record] = {}
        self.handle: Any = None

    def open(self) -> Dict[int, Record]:
        """The games already played for this match (by index); StoreError for another match's folder."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the folder {self.folder}: {error.strerror}") from None
        path = self.folder / RESULTS
        if path.exists():
            self._read(path)
        try:
            self.handle = open(path, "a", encoding="utf-8")
            if not self.done and path.stat().st_size == 0:
                self._line({"match": self.match})
        except OSError as error:
            raise StoreError(f"cannot write {path}: {error.strerror}") from None
        return self.done

    def _read(self, path: Path) -> None:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        if not lines:
            return
        try:
            first = json.loads(lines[0])
        except ValueError:
            first = None
        if not isinstance(first, dict) or first.get("match") != self.match:
            raise StoreError(
                f"{path} holds another match's games (its first line names its settings): "
                "choose another --out folder, or remove it"
            )
        for line in lines[1:]:
            try:
                row = json.loads(line)
                index = row["index"]
                log = _log(self.folder / game_file(index))
                if log is not None:
                    self.done[index] = Record(**{k: row[k] for k in Record._fields if k != "log"}, log=log)
            except (ValueError, KeyError, TypeError):
                continue  # (a line cut short by the interruption: that game is played again)

    def add(self, index: int, record: Record) -> None:
        text = encode(record.log).decode("utf-8")  # (the referee's one writing of a line)
        path = self.folder / game_file(index)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)  # (whole or not at all)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise StoreError(f"cannot write {path}: {error.strerror}") from None
        row = {k: v for k, v in record._asdict().items() if k != "log"}
        self._line({"index": index, **row})

    def _line(self, value: Dict[str, Any]) -> None:
        self.handle.write(json.dumps(value, separators=(",", ":")) + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


def _log(path: Path) -> Optional[List[Any]]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, ValueError):
        return None
