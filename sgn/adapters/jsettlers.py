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

The Special Building Phase of the 6-player game needs nothing of its own: its builds
are builds by other players after a turn, as SGN's replay reads them. What JSettlers
sends and SGN infers (production, costs, awards, the end of a turn, text for people)
is passed over in silence; a message class the converter does not know is an
`engine-unknown` warning, once per class. Where JSettlers departs from the rulebook,
the converted game shows it to `sgn validate` as it happened (docs/engines.md).
"""

from __future__ import annotations

from typing import Dict, Iterator, List

from .. import rules
from ..diagnostic import make
from ..layers.hidden import HIDDEN
from ..notation.reading import Item, Lines, Source
from . import jsettlers_log as log
from .common import Unreadable, between, steal, with_bank
from .jsettlers_pieces import Pieces

CARD = {1: "RB", 2: "YP", 3: "MO", 4: "VP", 5: "VP", 6: "VP", 7: "VP", 8: "VP", 9: "KN"}
# Message classes that say nothing SGN records (or nothing it does not infer).
PASSED_OVER = frozenset(
    """
    Version NewGame NewGameWithOptions GameServerText GameTextMsg BotJoinGameRequest JoinGame JoinGameAuth
    LeaveGame SetSeatLock PotentialSettlements LegalSettlements GameElements GameElementsWithChange
    PlayerElements PlayerElement ChangeFace GameStats GameMembers GameState SitDown StartGame ClearOffer
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


def _tally(counts) -> Dict[str, int]:
    return {log.LETTER[t]: n for t, n in enumerate(counts[:5], 1) if n}


class _Converter(Pieces):
    """A log's messages, each by the method of its class's name (`_DiceResult`, ...): the turns,
    the robber, the cards and the trades here, the board and the pieces in `Pieces`."""

    def convert(self) -> List[Item]:
        entries = list(log.entries(self.lines))
        good = [e for e in entries if isinstance(e, log.Entry)]
        self.seat_names(good)
        opts = log.options(self.lines)
        self.points(opts.get("VP", ""))
        self.view = log.client_view(self.lines)
        for e in entries:
            where = Source(self.name, e.line)
            if isinstance(e, log.BadLine):
                self.report(where, "engine-input", e.reason)
                continue
            if e.audience[0] in "fou" or (e.audience[0] == "!" and e.kind not in self._seen_unseen()):
                continue  # requests; what observers alone are sent; the view of those not told
                # (but for a robbery: if only that view is there, the resource is unknown; in a
                # client's view, the others' draws and discards are seen so too)
            if not self.names and e.kind in ("PutPiece", "DiceResult"):
                self.report(
                    where, "engine-input", "no player placed a settlement in the setup: the seats cannot be told"
                )
                break
            try:
                self.entry(e, where)
            except (Unreadable, log.BadField) as error:
                self.report(where, "engine-input", f"SOC{e.kind}: {error}")
        self.flush(Source(self.name, len(self.lines)))
        for kind, lines in self.unknown.items():
            where = Source(self.name, lines[0])
            more = f" (and {len(lines) - 1} more lines of it)" if len(lines) > 1 else ""
            self.report(where, "engine-unknown", f"SOC{kind}: a message the converter does not know, left out{more}")
        if self.board is None and not any(d.is_error for _, _, found in self.out for d in found):
            self.out.append(
                (
                    Source(self.name, 1),
                    None,
                    [
                        make(
                            "engine-input",
                            "the log has no board (SOCBoardLayout): the game never started",
                            file=self.name,
                            line=1,
                        )
                    ],
                )
            )
        return self.out

    def points(self, option: str) -> None:
        """The game option VP (`t12`: played to 12 points): a note when it is not SGN's 10."""
        if option[:1] != "t":
            return
        points = log.number(option[1:])
        if points is None or points < 1:
            self.report(
                Source(self.name, 1), "engine-input", f"the game option VP={log.cut(option)} names no number of points"
            )
        elif points != 10:
            self.out.append(
                (
                    Source(self.name, 1),
                    None,
                    [
                        make(
                            "no-counterpart",
                            f"the game is played to {points} points; SGN's rules end it at 10, so the "
                            "replay reports what follows the 10th point",
                            file=self.name,
                            line=1,
                            severity="info",  # a note on the game: no action is left out
                        )
                    ],
                )
            )

    def entry(self, e: log.Entry, where: Source) -> None:
        handler = getattr(self, "_" + e.kind, None) if e.kind in HANDLED else None
        if handler is not None:
            handler(e, log.fields(e.text), where)
        elif e.kind not in PASSED_OVER:
            self.unknown.setdefault(e.kind, []).append(e.line)

    def _Turn(self, e, f, where) -> None:
        seat = log.number(f.get("playerNumber"))
        if seat in self.names:
            self.current = seat

    def _DiceResult(self, e, f, where) -> None:
        total = log.number(f.get("param"))
        if total == -1:
            return  # no roll yet (sent to players joining)
        if total is None or not 2 <= total <= 12:
            raise Unreadable(f"a roll of {log.cut(str(f.get('param')))}: two dice make 2 to 12", "param")
        if self.current not in self.names:
            raise Unreadable("a roll before any player's turn", "param")
        self.rolled = True
        self.emit(where, [self.names[self.current], "RD", {"result": total}])

    def _seen_unseen(self) -> tuple:
        """The messages to the others (`!p3:`) read: a robbery's (its resource unknown when
        only that view is there); in a client's view, the others' draws and discards too."""
        return ("RobberyResult", "DevCardAction", "Discard") if self.view else ("RobberyResult",)

    def _Discard(self, e, f, where) -> None:
        counts = log.resource_sets(e.text).get("resources")
        if counts is None:
            raise Unreadable("a discard without its resources", "resources")
        if counts[5] and not self.view:
            return  # the others' view: how many, not which
        name = self.player(f.get("playerNum"), "playerNum")
        given = _tally(counts)
        if counts[5]:  # a client's view of another's discard: the cards not shown (docs/hidden.md)
            given[HIDDEN] = counts[5]
        self.emit(where, with_bank(name, given))

    def _MoveRobber(self, e, f, where) -> None:
        text = f.get("coord", "")
        if text.startswith("-"):
            raise Unreadable("the pirate moves: the pirate is of the sea board, which SGN has no form for", "coord")
        name = self.player(f.get("playerNumber"))
        self.emit(where, [name, "MR", {"tile": list(self._need_board().tile(self._coord(f)))}])
        self.robbery = [name, where, False]

    def _RobberyResult(self, e, f, where) -> None:
        if self.robbery is None:
            return  # the same robbery, to another of its players
        kind = log.number(f.get("resType"))
        if kind == 6 or kind is None:
            if self.view:  # a client's view of a robbery between others: one card not shown
                thief, victim = self.player(f.get("perp"), "perp"), self.player(f.get("victim"), "victim")
                self.emit(where, steal(thief, victim, HIDDEN))
                self.robbery = None
                return
            self.robbery[2] = True
            return
        if kind not in log.LETTER or log.number(f.get("amount")) != 1:
            raise Unreadable(
                f"a robbery of {f.get('amount')} of resource type {f.get('resType')}: "
                "SGN's steal is one card of a resource",
                "resType",
            )
        thief, victim = self.player(f.get("perp"), "perp"), self.player(f.get("victim"), "victim")
        self.emit(where, steal(thief, victim, log.LETTER[kind]))
        self.robbery = None

    def _DevCardAction(self, e, f, where) -> None:
        action, card = f.get("actionType"), log.number(f.get("cardType"))
        if action == "DRAW" and (card in CARD or (card == 0 and self.view)):
            name = self.player(f.get("playerNum"), "playerNum")
            self.drawn[name] = self.drawn.get(name, 0) + 1
            # (card 0: a client's view of another's draw, the card not shown: docs/hidden.md)
            self.emit(where, [name, "BD", {"cCode": CARD.get(card, HIDDEN)}])
        elif action == "PLAY" and card == 9:
            self.emit(where, [self.player(f.get("playerNum"), "playerNum"), "PD", {"cCode": "KN"}])
        elif action == "PLAY" and card == 1:
            self.flush(where)
            self.road_card, self.road_card_player = where, self.player(f.get("playerNum"), "playerNum")
        elif action == "ADD_OLD" and card == 1 and self.road_card is not None:
            self.road_card = None  # cancelled before its first road: the card is back in the hand

    def _SimpleAction(self, e, f, where) -> None:
        kind = log.number(f.get("actType"))
        if kind == 1:  # DEVCARD_BOUGHT: its card was drawn above
            name = self.player(f.get("pn"), "pn")
            if self.drawn.get(name, 0):
                self.drawn[name] -= 1
            else:
                self.report(
                    where,
                    "engine-input",
                    "a development card is bought and the card drawn is not in the log: SGN names it",
                )
        elif kind == 3:  # RSRC_TYPE_MONOPOLIZED: v2 the resource
            resource = log.number(f.get("v2"))
            if resource not in log.LETTER:
                raise Unreadable(f"a Monopoly on resource type {f.get('v2')}", "v2")
            self.emit(where, [self.player(f.get("pn"), "pn"), "PD", {"cCode": "MO", "rCodes": [log.LETTER[resource]]}])

    def _PickResources(self, e, f, where) -> None:
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
        self.emit(where, [self.player(f.get("pn"), "pn"), "PD", {"cCode": "YP", "rCodes": _letters(counts)}])

    def _BankTrade(self, e, f, where) -> None:
        sets = log.resource_sets(e.text)
        if "give" not in sets or "get" not in sets:
            raise Unreadable("a bank trade without what is given and got", "give")
        name = self.player(f.get("pn"), "pn")
        trade = with_bank(name, _tally(sets["give"]), _tally(sets["get"]))
        undone = with_bank(name, _tally(sets["get"]), _tally(sets["give"]))
        if self.last() == undone:  # the trade before, undone
            self.take_back(where, undone, "a bank trade")
            return
        self.emit(where, trade)

    def _AcceptOffer(self, e, f, where) -> None:
        sets = log.resource_sets(e.text)
        if "toAccepting" not in sets or "toOffering" not in sets:
            return  # a request from a client: the server's answer follows
        offering = self.player(f.get("offering"), "offering")
        accepting = self.player(f.get("accepting"), "accepting")
        self.emit(
            where, between(offering, offering, _tally(sets["toAccepting"]), accepting, _tally(sets["toOffering"]))
        )


HANDLED = frozenset(name[1:] for name in dir(_Converter) if name[1:2].isupper() and name.startswith("_"))


def read(lines: Lines, name: str, **_) -> Iterator[Item]:
    """`sgn convert --from jsettlers`: the SGN messages of a full game event log."""
    where = Source(name, 1)
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
    yield from sorted(_Converter(name, lines).convert(), key=lambda item: item[0].line)


def player_names(lines: Lines) -> Dict[str, str]:
    """SGN's player -> the nickname JSettlers gave its seat (`SOCSitDown`), for those it
    names (docs/format.md, "Players' names"); {} for a log that names none."""
    good = [e for e in log.entries(lines) if isinstance(e, log.Entry)]
    converter = _Converter("", lines)
    converter.seat_names(good)
    nicknames: Dict[int, str] = {}
    for e in good:
        if e.audience == "all" and e.kind == "SitDown":
            fields = log.fields(e.text)
            seat, nickname = log.number(fields.get("playerNumber")), fields.get("nickname")
            if seat is not None and nickname:
                nicknames[seat] = nickname
    return {player: nicknames[seat] for seat, player in converter.names.items() if seat in nicknames}
