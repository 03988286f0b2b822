"""The commands beside `validate`, one module each: `add_parser` adds its parser to
`sgn`'s, and the run function it sets does the work (`sgn.cli` calls it)."""
