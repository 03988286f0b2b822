"""Read back every output format of `sgn validate` into one shape, so that tests can say
"the verdict and the diagnostics do not depend on the format": a `Seen` of the files'
verdicts (where the format tells them) and the diagnostics as (file, line, code, severity),
in the order written."""

import io
import json
import re
from typing import List, NamedTuple, Optional, Tuple
from urllib.parse import unquote
from xml.etree import ElementTree

ANSI = re.compile("\x1b\\[[0-9;]*m")
Found = Tuple[str, int, str, str]  # file, line, code, severity
# file[:line[:column]]: [warning: |info: ]... [code]
_TEXT = re.compile(
    r"^(?P<file>[^:\n]+?)(?::(?P<line>\d+))?(?::\d+)?:(?: (?P<sev>warning|info):)? .* "
    r"\[(?P<code>[a-z0-9-]+)\]$"
)
_VERDICT = re.compile(r"^(?P<file>[^:\n]+): (?P<verdict>valid|INVALID|UNREADABLE)\b")


class Seen(NamedTuple):
    found: List[Found]
    verdicts: Optional[List[Tuple[str, str]]]  # (file, valid|invalid|unreadable); None: not told


def text_diagnostics(text: str) -> List[Found]:
    found = []
    for line in ANSI.sub("", text).splitlines():
        match = _TEXT.match(line)
        if match and not line.startswith("    "):
            found.append((match["file"], int(match["line"] or 0), match["code"], match["sev"] or "error"))
    return found


def _text(data: bytes, files: List[str]) -> Seen:
    text = ANSI.sub("", data.decode("utf-8"))
    verdicts = []
    for line in text.splitlines():
        match = _VERDICT.match(line)
        if match and match["file"] in files:
            verdicts.append((match["file"], match["verdict"].lower()))
    if len(files) == 1:
        verdicts = verdicts[-1:]
    return Seen(text_diagnostics(text), verdicts or None)


def _json(data: bytes, files: List[str]) -> Seen:
    report = json.loads(data)
    found = [(d["file"], d["line"], d["code"], d["severity"]) for d in report["diagnostics"]]
    verdicts = [(f["file"], f["verdict"]) for f in report["files"]]
    return Seen(found, verdicts)


def _jsonl(data: bytes, files: List[str]) -> Seen:
    rows = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    return Seen([(d["file"], d["line"], d["code"], d["severity"]) for d in rows], None)


_GITHUB = re.compile(r"^::(?P<cmd>error|warning|notice) (?P<props>[^:]*)::")


def _github(data: bytes, files: List[str]) -> Seen:
    found = []
    for line in data.decode("utf-8").splitlines():
        match = _GITHUB.match(line)
        assert match, line
        props = dict(p.split("=", 1) for p in match["props"].split(","))
        severity = {"notice": "info"}.get(match["cmd"], match["cmd"])
        title = unquote(props["title"])  # "sgn (CODE)", as ruff writes "Ruff (CODE)"
        assert title.startswith("sgn (") and title.endswith(")"), title
        found.append((unquote(props["file"]), int(props.get("line", 0)), title[5:-1], severity))
    return Seen(found, None)


def _junit(data: bytes, files: List[str]) -> Seen:
    root = ElementTree.fromstring(data)
    found, verdicts = [], []
    for case in root.iter("testcase"):
        verdict = "valid"
        for tag, meaning in (("failure", "invalid"), ("error", "unreadable"), ("system-out", "valid")):
            element = case.find(tag)
            if element is not None:
                verdict = meaning
                found += text_diagnostics(element.text or "")
        verdicts.append((case.get("name"), verdict))
    return Seen(found, verdicts)


def _sarif(data: bytes, files: List[str]) -> Seen:
    found = []
    for result in json.loads(data)["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]
        severity = {"note": "info"}.get(result["level"], result["level"])
        found.append(
            (
                unquote(location["artifactLocation"]["uri"]),
                location.get("region", {}).get("startLine", 0),
                result["ruleId"],
                severity,
            )
        )
    return Seen(found, None)


def _parquet(data: bytes, files: List[str]) -> Seen:
    from pyarrow import parquet

    rows = parquet.read_table(io.BytesIO(data)).to_pylist()
    found = [(r["file"], r["line"] or 0, r["code"], r["severity"]) for r in rows if r["kind"] == "diagnostic"]
    return Seen(found, [(r["file"], r["verdict"]) for r in rows if r["kind"] == "file"])


READERS = {
    "text": _text,
    "json": _json,
    "jsonl": _jsonl,
    "github": _github,
    "junit": _junit,
    "sarif": _sarif,
    "parquet": _parquet,
}


def read(output: str, data: bytes, files: List[str]) -> Seen:
    """What an output of format `output` says of `files` (their names as reported)."""
    return READERS[output](data, files)
