"""The referee: bots play games of Settlers under the rules replay, fairly, in any language
(docs/play.md, docs/protocol.md). `referee` plays one game, `match` many with balanced
seats, `summary` reads their results; a bot is a Python class (`seats.InProcess`, the
shipped ones in `bots`) or a program speaking JSON lines (`program`), one protocol behind
both (`protocol`)."""
