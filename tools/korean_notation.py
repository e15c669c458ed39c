"""Prints pyffish's Janggi notation (Fairy-Stockfish's NOTATION_JANGGI, e.g. P79-78, R32x31, R32-22+) for games
read from stdin, one per line: `variant<TAB>fen<TAB>move move ...` (UCI). One output line per game, the moves'
notations separated by spaces. Used by tests/korean_notation.rs as an independent reference."""

import sys

import pyffish as sf

for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        continue
    variant, fen, moves = line.split("\t")
    moves = moves.split()
    print(" ".join(sf.get_san_moves(variant, fen, moves, False, sf.NOTATION_JANGGI)))
    sys.stdout.flush()
