"""For testing SGN software: faults put into a game at a known line (`faults`) and a game's
first fault (`as_it_stands`). The random player is `sgn.play`, the Hypothesis strategies
`sgn.strategies`."""
