"""For testing SGN software: a random player that plays whole legal games (`play`), faults put
into a game at a known line (`faults`), and the Hypothesis strategies (`strategies`, public as
`sgn.strategies`)."""
