"""Layout shared by every product: what goes where on a face, before anything is drawn.

- `rows`: row planning, a face's body split into rows that each fit their text;
- `flow`: pieces placed left to right and wrapped, and grids of equal cells;
- `tables`: ruled tables of columns, for score sheets and pads.

A layout is computed from sizes and text metrics alone (no pen), so the same plan serves
measuring and drawing; products only draw what it says.
"""
