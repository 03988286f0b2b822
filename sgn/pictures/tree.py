"""SVG built as an ElementTree, never as text: the serializer escapes every attribute value
and every text (quotes included), so that a player named `x" onload="...` stays a value, and
what XML cannot hold (a control character) is replaced. Attribute names are the code's own,
and none of them can run or fetch anything."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Dict, Optional

SVG_NS = "http://www.w3.org/2000/svg"
Element = ET.Element
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# names that run script (on...), fetch (href, src) or style by text: never written
_REFUSED = re.compile(r"on|(xlink:)?href$|src$|style$", re.I)


def clean(value: Any) -> str:
    """`value` as text that XML can hold (a character it cannot: U+FFFD)."""
    return _NOT_XML.sub("\ufffd", str(value))


def el(
    tag: str, attrs: Optional[Dict[str, Any]] = None, text: Any = None, parent: Optional[ET.Element] = None
) -> ET.Element:
    """A new element (in `parent`, if given); attributes whose value is None are left out."""
    attrib = {}
    for name, value in (attrs or {}).items():
        if _REFUSED.match(name):
            raise ValueError(f"attribute {name!r} is not drawn")
        if value is not None:
            attrib[name] = clean(value)
    node = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    if text is not None:
        node.text = clean(text)
    return node


def svg(attrs: Dict[str, Any]) -> ET.Element:
    """The root of a picture."""
    return el("svg", {"xmlns": SVG_NS, **attrs})


def text_of(node: ET.Element) -> str:
    return ET.tostring(node, encoding="unicode")
