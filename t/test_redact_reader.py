"""`sgn redact` reads a line exactly as `sgn validate` does (one reader: sgn/notation/redact.py,
`read_message`): in every form the validator accepts (a JSON escape in a code, a byte-order
mark on the first line, CRLF, whitespace, the published text's legacy forms read under
`--profile compat`: an object message, numbers written as strings), the view shows no card
its seat may not see."""

import json

from hypothesis import given, settings, strategies as st

import sgn
from conftest import run_cli, scaled
from sgn.notation.redact import hide, read_message, redact
from sgn.play import random_game

GAME = random_game(21, 4)
SEATS = [None, "1", "2", "3", "4"]


def escaped(text: str, rng) -> str:
    """A JSON string's letters, some written as \\u escapes."""
    return "".join(f"\\u{ord(c):04x}" if rng.random() < 0.5 else c for c in text)


def written(message, form, rng) -> bytes:
    """A message written in one of the forms the validator reads."""
    player, action, value = message
    if form == "object":  # compat: {"player":..,"aCode":..,"value":..}
        return json.dumps({"player": player, "aCode": action, "value": value}).encode()
    if form == "string counts" and action in ("ST", "TR"):  # compat: numbers as strings
        value = [dict(s, resources={r: str(n) for r, n in s["resources"].items()}) for s in value]
    text = json.dumps([player, action, value], separators=(",", ":"))
    if form == "escapes":
        text = text.replace(f'"{action}"', f'"{escaped(action, rng)}"')
        if action == "BD":
            text = text.replace(f'"{value["cCode"]}"', f'"{escaped(value["cCode"], rng)}"')
    if form == "spaced":
        text = text.replace(",", " , ").replace(":", " : ")
    return text.encode()


@settings(max_examples=scaled(60), deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(SEATS), st.booleans(), st.booleans())
def test_in_every_form_the_validator_reads_the_view_shows_no_hidden_card(rng, seat, bom, crlf):
    forms = ["plain", "escapes", "object", "string counts", "spaced"]
    lines = []
    for message in GAME:
        form = rng.choice(forms) if message[1] in ("ST", "BD") else "plain"
        lines.append(written(message, form, rng) + (b"\r" if crlf else b""))
    if bom:
        lines[0] = b"\xef\xbb\xbf" + lines[0]
    view = list(redact(lines, seat))
    assert len(view) == len(lines)
    for number, line in enumerate(view):
        body = line.rstrip(b"\r")
        if number == 0 and bom:
            assert body.startswith(b"\xef\xbb\xbf")
            body = body[3:]
        message = read_message(body)
        assert message is not None
        assert hide(message, seat) is message, (number + 1, line)  # nothing left to hide
    # and the validator reads the view as it reads the log (compat: the legacy forms)
    data = b"\n".join(view) + b"\n"
    assert sgn.check(data, profile="compat").verdict == "valid"


def test_the_command_hides_what_an_escape_a_mark_or_a_legacy_form_wrote(tmp_path):
    path = tmp_path / "forms.sgn"
    path.write_bytes(
        b'\xef\xbb\xbf["1","B\\u0044",{"cCode":"VP"}]\r\n'
        b'{"player":"2","aCode":"ST","value":[{"player":"2","resources":{"B":"1"}},'
        b'{"player":"1","resources":{"B":"-1"}}]}\n'
        b'["2","S\\u0054",[{"player":"2","resources":{"O":1}},{"player":"3","resources":{"O":-1}}]]\n'
    )
    out = run_cli("redact", "--public", str(path)).stdout
    assert b"VP" not in out and b'"B"' not in out and b'"O"' not in out
    assert out.count(b'"?"') == 5 and out.startswith(b"\xef\xbb\xbf") and b"\r\n" in out
