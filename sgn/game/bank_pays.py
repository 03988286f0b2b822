"""What a roll pays of one resource when the bank may not hold enough: the one place the
rule is written (the rulebook's, and the profiles' departure `SHORT_BANK_PAYS_NOBODY`),
read by the production of known hands, of hands in doubt with the bank known, and of each
world where the bank itself is in doubt (`ledger.py`, `doubt.py`)."""

from __future__ import annotations

from typing import Sequence, Tuple


def paid(stock: int, owed: Sequence[int], rest_to_one: bool = True) -> Tuple[int, ...]:
    """What each player owed `owed[i]` cards gets from a bank holding `stock` of them: all
    they are owed where it holds enough; where it is short, what is left to a single player
    owed (unless not `rest_to_one`: a profile's bank that pays nobody then); else nothing."""
    if sum(owed) <= stock:
        return tuple(owed)
    if len(owed) == 1 and rest_to_one:
        return (stock,)
    return (0,) * len(owed)


__all__ = ["paid"]
