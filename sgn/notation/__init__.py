"""The neighbouring notations of SGN: HAN (actions), and later HSN and HSGN."""
