"""The layers of checks that each line goes through before the rules replay: reading the
bytes into lines (`reader`), the JSON syntax (`jsontext`, `jsonline`, `multiline`), the
schema (`schema`), the meaning of one message (`semantic`), the fast path of the compiled
libraries (`fastpath`), and the evident repair of a refused message (`repairs`).
`stages` composes them for one message (`sgn.validate_message`)."""
