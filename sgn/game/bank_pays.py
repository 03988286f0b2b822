"""What a roll pays of one resource when the bank may not hold enough: the one place the
rule is written (the rulebook's, and the profiles' departures `SHORT_BANK_PAYS_NOBODY` and
`UNLIMITED_BANK`), read by the production of known hands, of hands in doubt with the bank
known, and of each world where the bank itself is in doubt (`ledger.py`, `doubt.py`).

Under a profile whose bank pays otherwise than the rulebook's, a roll the two banks pay
differently may have paid either way (`ways`): a profile only removes errors, so that a
game of the rulebook is a game of every profile (docs/engines.md, "Rule profiles")."""

from __future__ import annotations

from typing import Final, FrozenSet, List, Sequence, Tuple

from .rule_profiles import SHORT_BANK_PAYS_NOBODY, UNLIMITED_BANK, UNLIMITED_EXTRA

# Not a departure: among a state's bank flags (`State.bank_flags`), a game being played,
# whose bank pays the profile's way alone (the referee's: it is the engine).
AS_PLAYED: Final = "as-played"


def paid(stock: int, owed: Sequence[int], rest_to_one: bool = True) -> Tuple[int, ...]:
    """What each player owed `owed[i]` cards gets from a bank holding `stock` of them: all
    they are owed where it holds enough; where it is short, what is left to a single player
    owed (unless not `rest_to_one`: a profile's bank that pays nobody then); else nothing."""
    if sum(owed) <= stock:
        return tuple(owed)
    if len(owed) == 1 and rest_to_one:
        return (max(0, stock),)
    return (0,) * len(owed)


def ways(stock: int, owed: Sequence[int], flags: FrozenSet[str]) -> List[Tuple[int, ...]]:
    """Each payment a bank holding `stock` may have made to players owed `owed` under the
    departures `flags`: the engine's, and the rulebook's where it differs (a bank without
    limit holds UNLIMITED_EXTRA more than the rulebook's, `rule_profiles.bank_stock`)."""
    if UNLIMITED_BANK in flags:
        engine, rulebook = tuple(owed), paid(stock - UNLIMITED_EXTRA, owed)
    elif SHORT_BANK_PAYS_NOBODY in flags:
        engine, rulebook = paid(stock, owed, False), paid(stock, owed)
    else:
        return [paid(stock, owed)]
    return [engine] if engine == rulebook or AS_PLAYED in flags else [engine, rulebook]


def bank_more(flags: FrozenSet[str]) -> int:
    """What a bank under the departures `flags` holds more than the rulebook's: a count at
    least this much more than what a roll owes pays it under the profile and the rulebook alike."""
    return UNLIMITED_EXTRA if UNLIMITED_BANK in flags else 0


def pays_as_rulebook(flags: FrozenSet[str]) -> bool:
    """Whether a bank under the departures `flags` pays every roll as the rulebook's does."""
    return UNLIMITED_BANK not in flags and SHORT_BANK_PAYS_NOBODY not in flags


def pays_otherwise(flags: FrozenSet[str]) -> bool:
    """Whether a bank under the departures `flags` may pay a roll otherwise than the rulebook's
    (not in a game being played: its one way is the profile's)."""
    return not pays_as_rulebook(flags) and AS_PLAYED not in flags


__all__ = ["AS_PLAYED", "bank_more", "paid", "pays_as_rulebook", "pays_otherwise", "ways"]
