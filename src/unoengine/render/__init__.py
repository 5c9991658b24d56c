"""Pictures of the game: a table as SVG (render/svg.py), standard library only."""
