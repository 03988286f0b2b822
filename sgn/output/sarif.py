"""`sgn validate -o sarif`: SARIF 2.1.0, as ruff writes it, for code scanning (GitHub's and
others'): one run, the tool with every diagnostic code as a rule, and a result for each
diagnostic, streamed as found.

A result's location is the file (a relative path as given, or made relative to the current
folder; a file outside it as a file: URI), its line and character column where known
(columnKind unicodeCodePoints: the columns are characters), and the JSON pointer, as a
logical location and in the result's properties, with the layer and the hint.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any, Dict, List, Optional
from urllib.parse import quote

from ..codes import CODES, LAYER_ABOUT
from ..diagnostic import ERROR, WARNING, Diagnostic
from ..packaged import DISTRIBUTION, VERSION as __version__
from ..words import printable
from .reporters import Reporter, Tally, one_line

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {ERROR: "error", WARNING: "warning"}  # and info is a note
RULE_INDEX = {name: i for i, name in enumerate(CODES)}


def level(severity: str) -> str:
    return LEVELS.get(severity, "note")


def information_uri() -> Optional[str]:
    """The home page the installed distribution declares (its Home-page or first
    Project-URL), or None: informationUri is optional, and none is made up. Read from the
    distribution by its name (a search of every installed one, as by the package's import
    name, took a fifth of a second a run)."""
    from importlib import metadata

    try:
        meta = metadata.metadata(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        return None
    urls = (meta.get_all("Home-page") or []) + [u.split(",", 1)[-1].strip() for u in meta.get_all("Project-URL") or []]
    return next((url for url in urls if url.startswith(("https://", "http://"))), None)


def driver() -> Dict[str, Any]:
    """The tool, with a rule for every code: its summary, help, layer and default level.
    informationUri is left out, not null, unless the installed distribution declares a home
    page: the explanation is in each rule's help, which points to no file that is not installed."""
    rules = [
        {
            "id": c.name,
            "shortDescription": {"text": c.summary},
            "help": {
                "text": f"{c.summary} The {c.layer} layer checks {LAYER_ABOUT[c.layer]} More: `sgn codes {c.name}`."
            },
            "defaultConfiguration": {"level": level(c.severity)},
            "properties": {"layer": c.layer},
        }
        for c in CODES.values()
    ]
    tool: Dict[str, Any] = {"name": "sgn", "version": __version__}
    uri = information_uri()
    if uri:
        tool["informationUri"] = uri
    tool["rules"] = rules
    return tool


def artifact_uri(file: str) -> str:
    """The file as a URI reference: relative as given, or relative to the current folder when
    inside it, else a file: URI."""
    path = pathlib.Path(file)
    if path.is_absolute():
        try:
            path = path.relative_to(pathlib.Path.cwd())
        except (ValueError, OSError):  # outside it, or the current folder is gone
            return path.as_uri()
    return quote(path.as_posix(), safe="/")


def result(d: Diagnostic) -> Dict[str, Any]:
    location: Dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(d.file)}}
    if d.line:
        region = {"startLine": d.line, **({"startColumn": d.column} if d.column else {})}
        if d.column and d.end_column:
            region["endColumn"] = d.end_column
        location["region"] = region
    where: Dict[str, Any] = {"physicalLocation": location}
    if d.pointer:
        where["logicalLocations"] = [{"fullyQualifiedName": d.pointer}]
    properties: Dict[str, Any] = {"layer": d.layer, "pointer": d.pointer}
    if d.hint:
        properties["hint"] = d.hint
    found: Dict[str, Any] = {
        "ruleId": d.code,
        "level": level(d.severity),
        "message": {"text": one_line(d)},
        "locations": [where],
        "properties": properties,
    }
    if d.occurrences != 1:  # a list of one code cut short: how many this result stands for
        found["occurrenceCount"] = d.occurrences
    if d.code in RULE_INDEX:
        found["ruleIndex"] = RULE_INDEX[d.code]
    return found


class SarifReporter(Reporter):
    def start(self) -> None:
        self.first = True
        head = {"$schema": SCHEMA, "version": "2.1.0"}
        run = {"tool": {"driver": driver()}, "columnKind": "unicodeCodePoints"}
        self.out.write(json.dumps(head)[:-1] + ', "runs": [' + json.dumps(run)[:-1] + ', "results": [')

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(("\n  " if self.first else ",\n  ") + printable(json.dumps(result(d), ensure_ascii=False)))
        self.first = False

    def finish(self, tally: Tally) -> None:
        invocations: List[Dict[str, Any]] = [{"executionSuccessful": True, "exitCode": tally.exit_code}]
        self.out.write(("\n" if not self.first else "") + '], "invocations": ' + json.dumps(invocations) + "}]}\n")
