"""JUnit XML, as pytest writes it, for `sgn validate -o junit` and `sgn conformance -o junit`:
the text and attribute escapes that keep any message well-formed XML, and the framing.

XML 1.0 cannot hold some characters at all, not even as references: the C0 controls but
tab, newline and carriage return, U+FFFE, U+FFFF and lone surrogates. Each is written as
its Python escape (`\\x1b`, `\\udcff`), as the text report writes a lone surrogate; `]]>`
and markup are escaped as usual. So are DEL and the C1 controls, which XML holds but
discourages, and a terminal obeys (`\\x9b` is an escape sequence's start): a report printed
on a terminal sends it nothing but text. A carriage return is written `&#13;`, so that it
survives the parser's end-of-line handling.
"""

from __future__ import annotations

import re
from typing import Mapping

HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"}
_ATTRIBUTE = dict(_TEXT, **{'"': "&quot;", "\n": "&#10;", "\t": "&#9;"})
_TEXT_SPECIAL = re.compile("[&<>\r]")
_ATTRIBUTE_SPECIAL = re.compile('[&<>\r"\n\t]')


def _xml_chars(text: str) -> str:
    return _NOT_XML.sub(
        lambda m: (
            m.group().encode("unicode_escape", "backslashreplace").decode("ascii")
            if not "\ud800" <= m.group() <= "\udfff"
            else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


def text(value: str) -> str:
    """`value` as XML character data."""
    return _TEXT_SPECIAL.sub(lambda m: _TEXT[m.group()], _xml_chars(value))


def attribute(value: str) -> str:
    """`value` as a double-quoted XML attribute value, quotes included."""
    return '"' + _ATTRIBUTE_SPECIAL.sub(lambda m: _ATTRIBUTE[m.group()], _xml_chars(value)) + '"'


def attributes(values: Mapping[str, object]) -> str:
    """` name="value"` for each item, in the order given."""
    return "".join(f" {name}={attribute(str(value))}" for name, value in values.items())


def counts(tests: int, failures: int, errors: int, skipped: int) -> dict:
    """The counts a <testsuites> or <testsuite> element carries, in pytest's names."""
    return {"tests": tests, "failures": failures, "errors": errors, "skipped": skipped}
