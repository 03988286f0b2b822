"""The code registry: every code is unique, well formed, and its example raises it."""
import io
import re

import pytest

import sgn
from sgn.codes import CODES, LAYERS

VALID_LINE = '["1","RD",{"result":8}]'


def test_codes_are_well_formed():
    for code in CODES.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", code.name)
        assert code.layer in LAYERS and code.severity in ("error", "warning", "info")
        assert code.summary.endswith(".")


EXAMPLES = [c for c in CODES.values() if c.example is not None]


@pytest.mark.parametrize("code", EXAMPLES, ids=[c.name for c in EXAMPLES])
def test_each_example_raises_its_code(code):
    data = (code.example + "\n" + VALID_LINE + "\n").encode("utf-8", "surrogatepass")
    profile = "compat" if code.name.startswith("legacy-") else "strict"
    found = {d.code for d in sgn.iter_diagnostics(io.BytesIO(data), profile=profile)}
    assert code.name in found
