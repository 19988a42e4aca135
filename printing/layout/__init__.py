"""Layout shared by every product: what goes where on a face, before anything is drawn.

- `rows`: a face's body cut into rows, each as tall as its text needs at the largest size
  where all fit (`plan_rows`, `sizes_from`, `text_height`, `fitting_size`);
- `flow`: pieces of text set left to right and wrapped (`flow`), or in a grid of equal
  columns (`grid`);
- `tables`: ruled tables of columns for score sheets and pads: planned (`rule_table`),
  then drawn with the Pen (`table`).

Plans are computed from sizes and text metrics alone, so the same plan serves measuring
(validation) and printing; products draw what it says. Import from the submodules.
"""
