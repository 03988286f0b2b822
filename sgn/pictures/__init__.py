"""Drawing, below the game and the pipeline: SVG built as an ElementTree (`tree`), the
geometry of the picture (`geometry`), colours (`style`), the shape of each thing (`shapes`) and
the place a diagnostic names (`places`). `sgn.svg` lays them out as a board; the report page
(`sgn.page`, above the pipeline) draws with them too."""
