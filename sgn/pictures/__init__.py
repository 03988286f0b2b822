"""Pictures of a game: the board at any line as SVG (`sgn.svg.board`, `sgn render`) and a
game as one self-contained HTML page (`sgn report`). Geometry, colours, drawing, the place
a diagnostic names, and the page are each their own module."""
