"""JSettlers2's games as SGN: `sgn convert --from jsettlers GAME.soclog`.

A game event log (`sgn/adapters/jsettlers_log.py` reads its format) is the network
messages of a game, which the server sends as each action's sequence
(`doc/Message-Sequences-for-Game-Actions.md` of JSettlers2). The converter follows
the messages the server sends to the players (`all:`, `p3:`, `!p3:`), which say what
happened, and passes over the clients' requests (`f3:`) and what is sent to observers
(`ob:`) alone, which say nothing more. Seats 0..5 become SGN's players 1..N in play
order: the player who places the first settlement is 1, the next seat up 2, and so on
round the table, empty seats left out.

Each action, as the server announces it:

- the board (`SOCBoardLayout`, `SOCBoardLayout2`) is the map (`DM`; the 6-player
  board's two deserts: an `MR` before the setup places the robber where JSettlers put
  it); `SOCPutPiece` a road, settlement or city; `SOCDiceResult` a roll by the player
  whose turn it is (`SOCTurn`);
- `SOCDiscard` with its cards (the one to the discarding player; the others say
  `unknown`) a discard, written as SGN writes it, a trade with the bank;
- `SOCMoveRobber` a robber's move, and the `SOCRobberyResult` that names the resource
  (the one to the thief and the victim) the steal;
- `SOCDevCardAction` DRAW with its card (the one to the buyer) a purchase; PLAY a
  Knight or Road Building card; a Year of Plenty is played with the resources of its
  `SOCPickResources`, a Monopoly with the resource of its `SOCSimpleAction`;
- `SOCBankTrade` a trade with the bank, `SOCAcceptOffer` one between players (its
  offers, refusals and clearings are talk, not moves: SGN records the trade made);
- an undone build (`SOCUndoPutPiece`), a setup settlement taken back
  (`SOCCancelBuildRequest`), a Road Building card cancelled before its first road,
  a bank trade undone by its reverse: the move they undo is taken out, when it is the
  last one written, as if it had not been made; otherwise it stays, with a warning.

The end of each seat's part of a turn, its own or its place in the Special Building Phase
of the 6-player game, is written where JSettlers begins the next (`SOCTurn`), as the
record line `ET` (docs/format.md, "Records"), so that the replay sees a build out of its
phase. What JSettlers sends and SGN infers (production, costs, awards, text for people)
is passed over in silence; a message class the converter does not know is an
`engine-unknown` warning, once per class. Where JSettlers departs from the rulebook,
the converted game shows it to `sgn validate` as it happened (docs/engines.md).

The converter's shape is every converter's (`sgn/adapters/writer.py`): `HANDLERS` names
the function of each message class (those of the board and the pieces are in
`jsettlers_pieces.PIECE_HANDLERS`, those of the turns and the game's end in
`jsettlers_turns.TURN_HANDLERS`), which reads the message into the game under
conversion (`jsettlers_state.Conversion`) and writes SGN to its `Writer`.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterator, List

from .. import messages, rules
from ..diagnostic import make
from ..layers.hidden import HIDDEN
from ..notation.reading import Item, Lines, Where
from . import jsettlers_log as log
from .jsettlers_pieces import PIECE_HANDLERS, coord
from .jsettlers_state import Conversion
from .jsettlers_turns import TURN_HANDLERS, header
from .writer import Unreadable, between, with_bank

CARD = {1: "RB", 2: "YP", 3: "MO", 4: "VP", 5: "VP", 6: "VP", 7: "VP", 8: "VP", 9: "KN"}
# Message classes that say nothing SGN records (or nothing it does not infer).
PASSED_OVER = frozenset(
    """
    Version NewGame NewGameWithOptions GameServerText GameTextMsg BotJoinGameRequest JoinGame JoinGameAuth
    LeaveGame SetSeatLock PotentialSettlements LegalSettlements GameElements GameElementsWithChange
    PlayerElements PlayerElement ChangeFace GameMembers SitDown StartGame ClearOffer
    RollDicePrompt RejectOffer ClearTradeMsg MakeOffer DiceResultResources ChoosePlayerRequest ChoosePlayer
    DiscardRequest ResourceCount LongestRoad LargestArmy PlayerStats SimpleRequest DeclinePlayerRequest
    SetPlayedDevCard DevCardCount SetTurn FirstPlayer LastSettlement RollDice EndTurn BuildRequest
    PlayDevCardRequest PickResourceType BuyDevCardRequest ResetBoardVote ResetBoardVoteRequest RobotDismiss
    BotGameDataCheck Timing DebugFreePlace GameOptionInfo Gamestats AcceptOfferRequest
    """.split()
)


def _letters(counts) -> List[str]:
    """A JSettlers resource set (clay, ore, sheep, wheat, wood, unknown) of a few cards, as SGN
    letters (the caller bounds the count: a count is never expanded as it comes)."""
    return [log.LETTER[t] for t, n in enumerate(counts[:5], 1) for _ in range(n)]


def _resources(counts) -> Dict[str, int]:
    """A JSettlers resource set as SGN's resources and counts (the unknown left out)."""
    return {log.LETTER[t]: n for t, n in enumerate(counts[:5], 1) if n}


# -- the conversion: each message by the handler of its class --------------------------------


def _messages(c: Conversion) -> List[Item]:
    """The items of the log of `c`, in the order read; the warnings of message classes not
    known (one per class) at the end."""
    entries = list(log.entries(c.lines))
    good = [e for e in entries if isinstance(e, log.Entry)]
    c.seat_names(good)
    opts = log.options(c.lines)
    _points(c, opts.get("VP", ""))
    c.view = log.client_view(c.lines)
    for e in entries:
        where = Where(c.name, e.line)
        if isinstance(e, log.BadLine):
            c.writer.report(where, "engine-input", e.reason)
            continue
        if e.audience[0] in "fou" or (e.audience[0] == "!" and e.kind not in _seen_unseen(c)):
            continue  # requests; what observers alone are sent; the view of those not told
            # (but for a robbery: if only that view is there, the resource is unknown; in a
            # client's view, the others' draws and discards are seen so too)
        if not c.names and e.kind in ("PutPiece", "DiceResult"):
            c.writer.report(
                where, "engine-input", "no player placed a settlement in the setup: the seats cannot be told"
            )
            break
        try:
            _entry(c, e, where)
        except (Unreadable, log.BadField) as error:
            c.writer.report(where, "engine-input", f"SOC{e.kind}: {error}")
    c.flush(Where(c.name, len(c.lines)))
    for kind, lines in c.unknown.items():
        where = Where(c.name, lines[0])
        more = f" (and {len(lines) - 1} more lines of it)" if len(lines) > 1 else ""
        c.writer.report(where, "engine-unknown", f"SOC{kind}: a message the converter does not know, left out{more}")
    out = c.writer.out
    if c.names:
        out.insert(0, (Where(c.name, 1), header(c, _nicknames(good, c.names)), []))
    if c.board is None and not any(d.is_error for _, _, found in out for d in found):
        c.writer.report(
            Where(c.name, 1), "engine-input", "the log has no board (SOCBoardLayout): the game never started"
        )
    return out


def _points(c: Conversion, option: str) -> None:
    """The game option VP (`t12`: played to 12 points): a note when it is not SGN's 10."""
    if option[:1] != "t":
        return
    points = log.number(option[1:])
    where = Where(c.name, 1)
    if points is None or points < 1:
        c.writer.report(where, "engine-input", f"the game option VP={log.cut(option)} names no number of points")
    elif points != 10:
        c.writer.report(
            where,
            "no-counterpart",
            f"the game is played to {points} points; SGN's rules end it at 10, so the "
            "replay reports what follows the 10th point",
            severity="info",  # a note on the game: no action is left out
        )


def _entry(c: Conversion, e: log.Entry, where: Where) -> None:
    handler = HANDLERS.get(e.kind)
    if handler is not None:
        handler(c, e, log.fields(e.text), where)
    elif e.kind not in PASSED_OVER:
        c.unknown.setdefault(e.kind, []).append(e.line)


def _seen_unseen(c: Conversion) -> tuple:
    """The messages to the others (`!p3:`) read: a robbery's (its resource unknown when
    only that view is there); in a client's view, the others' draws and discards too."""
    return ("RobberyResult", "DevCardAction", "Discard") if c.view else ("RobberyResult",)


# -- the handlers of the turns, the robber, the cards and the trades -------------------------


def dice_result(c: Conversion, e: log.Entry, f, where: Where) -> None:
    total = log.number(f.get("param"))
    if total == -1:
        return  # no roll yet (sent to players joining)
    if total is None or not 2 <= total <= 12:
        raise Unreadable(f"a roll of {log.cut(str(f.get('param')))}: two dice make 2 to 12", "param")
    if c.current not in c.names:
        raise Unreadable("a roll before any player's turn", "param")
    c.rolled = c.slot_rolled = True
    c.emit(where, messages.roll(c.names[c.current], total))


def discard(c: Conversion, e: log.Entry, f, where: Where) -> None:
    counts = log.resource_sets(e.text).get("resources")
    if counts is None:
        raise Unreadable("a discard without its resources", "resources")
    if counts[5] and not c.view:
        return  # the others' view: how many, not which
    name = c.player(f.get("playerNum"), "playerNum")
    given = _resources(counts)
    if counts[5]:  # a client's view of another's discard: the cards not shown (docs/hidden.md)
        given[HIDDEN] = counts[5]
    c.emit(where, with_bank(name, given))


def move_robber(c: Conversion, e: log.Entry, f, where: Where) -> None:
    text = f.get("coord", "")
    if text.startswith("-"):
        raise Unreadable("the pirate moves: the pirate is of the sea board, which SGN has no form for", "coord")
    name = c.player(f.get("playerNumber"))
    c.emit(where, messages.move_robber(name, c.need_board().tile(coord(f))))
    c.robbery = [name, where, False]


def robbery_result(c: Conversion, e: log.Entry, f, where: Where) -> None:
    if c.robbery is None:
        return  # the same robbery, to another of its players
    kind = log.number(f.get("resType"))
    if kind == 6 or kind is None:
        if c.view:  # a client's view of a robbery between others: one card not shown
            thief, victim = c.player(f.get("perp"), "perp"), c.player(f.get("victim"), "victim")
            c.emit(where, messages.steal(thief, victim, HIDDEN))
            c.robbery = None
            return
        c.robbery[2] = True
        return
    if kind not in log.LETTER or log.number(f.get("amount")) != 1:
        raise Unreadable(
            f"a robbery of {f.get('amount')} of resource type {f.get('resType')}: "
            "SGN's steal is one card of a resource",
            "resType",
        )
    thief, victim = c.player(f.get("perp"), "perp"), c.player(f.get("victim"), "victim")
    c.emit(where, messages.steal(thief, victim, log.LETTER[kind]))
    c.robbery = None


def dev_card_action(c: Conversion, e: log.Entry, f, where: Where) -> None:
    action, card = f.get("actionType"), log.number(f.get("cardType"))
    if action == "DRAW" and (card in CARD or (card == 0 and c.view)):
        name = c.player(f.get("playerNum"), "playerNum")
        c.drawn[name] = c.drawn.get(name, 0) + 1
        # (card 0: a client's view of another's draw, the card not shown: docs/hidden.md)
        c.emit(where, messages.buy_card(name, CARD.get(card, HIDDEN)))
    elif action == "PLAY" and card == 9:
        c.emit(where, messages.play_knight(c.player(f.get("playerNum"), "playerNum")))
    elif action == "PLAY" and card == 1:
        c.flush(where)
        c.road_card, c.road_card_player = where, c.player(f.get("playerNum"), "playerNum")
    elif action == "ADD_OLD" and card == 1 and c.road_card is not None:
        c.road_card = None  # cancelled before its first road: the card is back in the hand


def simple_action(c: Conversion, e: log.Entry, f, where: Where) -> None:
    kind = log.number(f.get("actType"))
    if kind == 1:  # DEVCARD_BOUGHT: its card was drawn above
        name = c.player(f.get("pn"), "pn")
        if c.drawn.get(name, 0):
            c.drawn[name] -= 1
        else:
            c.writer.report(
                where,
                "engine-input",
                "a development card is bought and the card drawn is not in the log: SGN names it",
            )
    elif kind == 3:  # RSRC_TYPE_MONOPOLIZED: v2 the resource
        resource = log.number(f.get("v2"))
        if resource not in log.LETTER:
            raise Unreadable(f"a Monopoly on resource type {f.get('v2')}", "v2")
        c.emit(where, messages.play_monopoly(c.player(f.get("pn"), "pn"), log.LETTER[resource]))


def pick_resources(c: Conversion, e: log.Entry, f, where: Where) -> None:
    reason = log.number(f.get("reason"))
    counts = log.resource_sets(e.text).get("resources")
    if reason != 2 or counts is None:
        raise Unreadable(
            f"resources picked for reason {log.cut(str(f.get('reason')))}: SGN knows the Year of Plenty's "
            "(reason 2); gold hexes are of the sea board",
            "reason",
        )
    if sum(counts[:5]) != rules.YEAR_OF_PLENTY_TAKES or counts[5]:
        raise Unreadable(
            f"a Year of Plenty picks {rules.YEAR_OF_PLENTY_TAKES} resources, not {sum(counts[:5])}"
            + (f" and {counts[5]} unknown" if counts[5] else ""),
            "resources",
        )
    c.emit(where, messages.play_year_of_plenty(c.player(f.get("pn"), "pn"), _letters(counts)))


def bank_trade(c: Conversion, e: log.Entry, f, where: Where) -> None:
    sets = log.resource_sets(e.text)
    if "give" not in sets or "get" not in sets:
        raise Unreadable("a bank trade without what is given and got", "give")
    name = c.player(f.get("pn"), "pn")
    trade = with_bank(name, _resources(sets["give"]), _resources(sets["get"]))
    undone = with_bank(name, _resources(sets["get"]), _resources(sets["give"]))
    if c.writer.last() == undone:  # the trade before, undone
        c.writer.take_back(where, undone, "a bank trade")
        return
    c.emit(where, trade)


def accept_offer(c: Conversion, e: log.Entry, f, where: Where) -> None:
    sets = log.resource_sets(e.text)
    if "toAccepting" not in sets or "toOffering" not in sets:
        return  # a request from a client: the server's answer follows
    offering = c.player(f.get("offering"), "offering")
    accepting = c.player(f.get("accepting"), "accepting")
    c.emit(
        where, between(offering, offering, _resources(sets["toAccepting"]), accepting, _resources(sets["toOffering"]))
    )


Handler = Callable[[Conversion, log.Entry, Dict[str, str], Where], None]
# The function of each message class the converter reads (the others: PASSED_OVER, or unknown).
HANDLERS: Dict[str, Handler] = {
    **PIECE_HANDLERS,
    **TURN_HANDLERS,
    "DiceResult": dice_result,
    "Discard": discard,
    "MoveRobber": move_robber,
    "RobberyResult": robbery_result,
    "DevCardAction": dev_card_action,
    "SimpleAction": simple_action,
    "PickResources": pick_resources,
    "BankTrade": bank_trade,
    "AcceptOffer": accept_offer,
}


def read(lines: Lines, name: str, **_) -> Iterator[Item]:
    """`sgn convert --from jsettlers`: the SGN messages of a full game event log."""
    where = Where(name, 1)
    props = log.header(lines)
    if props is None:
        yield (
            where,
            None,
            [
                make(
                    "engine-input",
                    "not a JSettlers game event log: its first line should be its "
                    "header, `SOC game event log: type=F, version=...`",
                    file=name,
                    line=1,
                )
            ],
        )
        return
    refused = log.refusal(lines)
    if refused:
        yield where, None, [make("engine-input", refused, file=name, line=1)]
        return
    # messages come in the order of their lines already; the warnings gathered at the end
    # (a message class not known, once per class) go to their first line
    yield from sorted(_messages(Conversion(name, lines)), key=lambda item: item[0].line)


def player_names(lines: Lines) -> Dict[str, str]:
    """SGN's player -> the nickname JSettlers gave its seat (`SOCSitDown`), for those it
    names (docs/format.md, "Players' names"); {} for a log that names none."""
    good = [e for e in log.entries(lines) if isinstance(e, log.Entry)]
    converter = Conversion("", lines)
    converter.seat_names(good)
    return _nicknames(good, converter.names)


def _nicknames(good: List[log.Entry], names: Dict[int, str]) -> Dict[str, str]:
    nicknames: Dict[int, str] = {}
    for e in good:
        if e.audience == "all" and e.kind == "SitDown":
            fields = log.fields(e.text)
            seat, nickname = log.number(fields.get("playerNumber")), fields.get("nickname")
            if seat is not None and nickname:
                nicknames[seat] = nickname
    return {player: nicknames[seat] for seat, player in names.items() if seat in nicknames}
