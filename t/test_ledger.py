"""The ledger's ways for hands all known, against a plain model of them."""

from hypothesis import given, strategies as st

from sgn.game import ledger
from sgn.game.state import State
from sgn.rules import RESOURCES

HANDS = st.fixed_dictionaries({r: st.integers(0, 4) for r in RESOURCES})
DELTAS = st.dictionaries(st.sampled_from(RESOURCES), st.integers(-4, 4), max_size=5)
SIDES = st.sampled_from(["1", "2", "B"])


def model_swap(ha, ra, hb, rb, same):
    """A trade's two sides made at once, as the rules read it: each side judged on the hands
    before either, nothing changed where a side does not hold what it gives."""
    if any(n < 0 and ha[r] + n < 0 for r, n in ra.items()) or any(n < 0 and hb[r] + n < 0 for r, n in rb.items()):
        return False, ha, hb
    ha = dict(ha)
    hb = ha if same else dict(hb)
    for r, n in ra.items():
        ha[r] += n
    for r, n in rb.items():
        hb[r] += n
    return True, ha, hb


@given(SIDES, HANDS, DELTAS, SIDES, HANDS, DELTAS)
def test_a_trade_between_known_hands_is_the_model_s(a, hand_a, ra, b, hand_b, rb):
    """Made as it is checked and undone where a side falls short, it leaves the hands as the
    model does, and says the same; one hand on both sides is judged as the model judges it."""
    g = State()
    ledger.cards_of(g, a).update(hand_a)
    ledger.cards_of(g, b).update(hand_b)  # (the same hand when a == b: the second wins)
    before_a, before_b = dict(ledger.cards_of(g, a)), dict(ledger.cards_of(g, b))
    made = ledger.swap_known(g, a, ra, b, rb)
    expected, after_a, after_b = model_swap(before_a, ra, before_b, rb, a == b)
    assert made == expected
    assert ledger.cards_of(g, a) == after_a and ledger.cards_of(g, b) == after_b
