"""A game played in a worker of `sgn play -j N` comes back to its parent as its text
(`protocol.Lines`): the record read back is the game played, line for line, and is written
byte for byte as the game played would be."""

import pickle

from sgn.referee import protocol
from sgn.referee.match import BotSpec, Settings, run, schedule


def _records():
    bots = [BotSpec.parse("random")]
    return list(run(bots, schedule(bots, 4, 4), Settings(seed=5), 1))


def test_a_record_crosses_to_another_process_as_its_text_and_is_the_same_game():
    for record in _records():
        assert isinstance(record.log, list)
        again = pickle.loads(pickle.dumps(record))
        assert isinstance(again.log, protocol.Lines)
        assert again == record and record == again  # (either side: a list and its text agree)
        assert len(again.log) == len(record.log) and list(again.log) == record.log
        assert again.log[0] == record.log[0] and again.log[-1] == record.log[-1]
        assert protocol.encode(again.log) == protocol.encode(record.log)
        twice = pickle.loads(pickle.dumps(again))  # (sent on again: the same text, not re-encoded)
        assert twice.log.text is not None and twice == record


def test_lines_of_another_game_are_not_equal():
    first, second = _records()[:2]
    a = pickle.loads(pickle.dumps(first)).log
    b = pickle.loads(pickle.dumps(second)).log
    assert a != b and a != second.log and a == first.log and not a == "text"
