#!/usr/bin/env python3
"""Cross-check janggi's rules against the reference implementation (pyffish, the Python binding of
Fairy-Stockfish) over random games in the four rule sets both implement.

For every position of every game it compares the set of legal moves and the game status: ends that happen at
once (two passes, bikjang answered by a pass), the result when no move is left, and the ends that hosts adjudicate
(repetition, perpetual check, the move-count rule, the shuttle rule). Games start from random setups, sometimes
with the halfmove clock close to the move-count limit, and the random mover favours passes, captures and moves that
undo the previous one, so that repetitions, shuttles and bikjang happen often.

Needs `pip install pyffish` (this script installs nothing) and a built engine:
    cargo build --release && python3 tools/crosscheck.py --games 60
Exit status 1 if any position disagrees.
"""

import argparse
import json
import random
import subprocess
import sys

try:
    import pyffish
except ImportError:
    sys.exit("crosscheck: pyffish is not installed (pip install pyffish)")

VARIANTS = ["janggi", "janggitraditional", "janggimodern", "janggicasual"]
BACK_RANKS = ["rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr", "bnra1arnb"]
MOVE_LIMIT = {"janggi": 100, "janggitraditional": 100, "janggimodern": 200, "janggicasual": 100}
MATE = 32000
# Endgames where a chariot can check back and forth: perpetual checks, mutual checks and shuttles.
CHECKING_ENDGAMES = [
    "3k5/R8/9/9/9/9/9/9/4K4/9 w - - 0 1",
    "3k5/R8/9/9/9/9/9/8r/4K4/1N7 w - - 0 1",
    "3rr4/3k5/9/9/9/9/9/9/4K4/3CC4 w - - 0 1",
    "4k4/9/4a4/9/9/9/9/9/3K5/R7r b - - 0 1",
    "5k3/9/9/9/2R6/9/9/9/4K4/2r6 w - - 0 1",
]


def setup_fen(han, cho, halfmove=0):
    return f"{han}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{cho.upper()} w - - {halfmove} 1"


def sign(value):
    return (value > 0) - (value < 0)


def reference(variant, fen, moves):
    """What pyffish says about the position after `moves`."""
    legal = sorted(pyffish.legal_moves(variant, fen, moves))
    immediate, ivalue = pyffish.is_immediate_game_end(variant, fen, moves)
    optional, ovalue = pyffish.is_optional_game_end(variant, fen, moves)
    answer = {
        "legal": legal,
        "immediate": sign(ivalue) if immediate else None,
        "no_move": None,
        "adjudicated": None,
    }
    if not immediate and not legal:
        answer["no_move"] = sign(pyffish.game_result(variant, fen, moves))
    if not immediate and legal and optional:
        answer["adjudicated"] = sign(ovalue)
    return answer


def occupied_squares(board_fen):
    """The occupied squares (UCI names) of a FEN's board field."""
    squares = set()
    for i, row in enumerate(board_fen.split("/")):
        rank = 10 - i
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                squares.add(f"{'abcdefghi'[file]}{rank}")
                file += 1
    return squares


def split_move(move):
    """(from, to) of a UCI move whose squares may have two or three characters."""
    for i in range(2, len(move) - 1):
        a, b = move[:i], move[i:]
        if a[0].isalpha() and b[0].isalpha():
            return a, b
    return move, ""


def pick_move(rng, variant, fen, moves, legal):
    """A random move, biased towards passes, checks, captures and undoing the side's previous move."""
    roll = rng.random()
    passes = [m for m in legal if split_move(m)[0] == split_move(m)[1]]
    if passes and roll < 0.08:
        return passes[0]
    if len(moves) >= 2 and roll < 0.45:
        a, b = split_move(moves[-2])
        if b + a in legal and a != b:
            return b + a
    if roll < 0.6:
        sample = rng.sample(legal, min(6, len(legal)))
        checks = [m for m in sample if pyffish.gives_check(variant, fen, moves + [m])]
        if checks:
            return rng.choice(checks)
    if roll < 0.8:
        board = pyffish.get_fen(variant, fen, moves).split()[0]
        occupied = occupied_squares(board)
        captures = [m for m in legal if split_move(m)[1] in occupied and not m in passes]
        if captures:
            return rng.choice(captures)
    return rng.choice(legal)


# Move sequences that reach perpetual checks (one side, or both sides, checking throughout a cycle), replayed at
# the start of some games in every rule set.
PERPETUAL_A = "a9a10 d10d9 b1c3 i5i4 a10a9 d9d10 c3b1 i4i5".split()
PERPETUAL_B = "a9a10 d10d9 a10a9 d9d10".split()
SCRIPTS = [
    ("3k5/R8/9/9/9/9/9/9/4K4/9 w - - 0 1", PERPETUAL_B * 4),
    ("3k5/R8/9/9/9/8r/9/9/4K4/1N7 w - - 0 1", PERPETUAL_A + PERPETUAL_A + PERPETUAL_B),
    ("3k5/R8/9/9/9/8r/9/9/4K4/1N7 w - - 0 1", PERPETUAL_A + PERPETUAL_B + PERPETUAL_B + PERPETUAL_B),
    ("3k5/R8/9/9/9/8r/9/9/4K4/1N7 w - - 0 1", PERPETUAL_B + PERPETUAL_A + PERPETUAL_B + PERPETUAL_B),
    ("3rr4/3k5/9/9/9/9/9/9/4K4/3CC4 w - - 0 1", "e2d2 d9e9 d2e2 e9d9".split() * 4),
    ("3k5/R8/9/9/9/9/9/9/4K4/9 w - - 95 1", PERPETUAL_B * 3),
]


def sparse_fen(rng, variant, halfmove):
    """A random endgame: both generals in their palaces and a few pieces anywhere, with the side not to move
    out of check. Such positions are full of checks, perpetual checks and mates."""
    while True:
        board = [["" for _ in range(9)] for _ in range(10)]
        board[rng.choice([0, 1, 2])][rng.choice([3, 4, 5])] = "K"
        board[rng.choice([7, 8, 9])][rng.choice([3, 4, 5])] = "k"
        for letter in rng.sample("RRCCNNBBAAPPP", rng.randint(1, 4)) + rng.sample("rrccnnbbaappp", rng.randint(1, 4)):
            if letter in "Aa":
                ranks, files = ([0, 1, 2] if letter == "A" else [7, 8, 9]), [3, 4, 5]
            else:
                ranks, files = range(10), range(9)
            r, f = rng.choice(list(ranks)), rng.choice(list(files))
            if not board[r][f]:
                board[r][f] = letter
        rows = []
        for r in range(9, -1, -1):
            row, empty = "", 0
            for f in range(9):
                if board[r][f]:
                    row += (str(empty) if empty else "") + board[r][f]
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        placement = "/".join(rows)
        side = rng.choice("wb")
        other = "b" if side == "w" else "w"
        # The side not to move must not be in check.
        if pyffish.gives_check(variant, f"{placement} {other} - - {halfmove} 1", []):
            continue
        return f"{placement} {side} - - {halfmove} 1"


def play_game(rng, variant, max_plies):
    han = rng.choice(BACK_RANKS)
    cho = rng.choice(BACK_RANKS)
    halfmove = 0
    if rng.random() < 0.2:
        halfmove = MOVE_LIMIT[variant] - rng.randint(1, 12)
    kind = rng.random()
    if kind < 0.55:
        fen = setup_fen(han, cho, halfmove)
    elif kind < 0.85:
        fen = sparse_fen(rng, variant, halfmove)
    else:
        fen = rng.choice(CHECKING_ENDGAMES).replace(" - - 0 1", f" - - {halfmove} 1")
    script = []
    if rng.random() < 0.15:
        fen, script = rng.choice(SCRIPTS)
    moves = []
    positions = []
    for _ in range(max_plies + 1):
        ref = reference(variant, fen, moves)
        positions.append(((variant, fen, list(moves)), ref))
        if not ref["legal"]:
            break
        if len(moves) < len(script) and script[len(moves)] in ref["legal"]:
            moves.append(script[len(moves)])
        else:
            script = []
            moves.append(pick_move(rng, variant, fen, moves, ref["legal"]))
    return positions


def ours(binary, queries):
    lines = "".join(json.dumps({"variant": v, "fen": f, "moves": m}) + "\n" for v, f, m in queries)
    out = subprocess.run([binary, "status"], input=lines, capture_output=True, text=True, check=True)
    return [json.loads(l) for l in out.stdout.splitlines()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--binary", default="target/release/janggi")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    queries, expected = [], []
    ends = {}
    for g in range(args.games):
        variant = VARIANTS[g % len(VARIANTS)]
        for query, ref in play_game(rng, variant, args.max_plies):
            queries.append(query)
            expected.append(ref)
    answers = ours(args.binary, queries)
    if len(answers) != len(queries):
        sys.exit(f"crosscheck: {len(queries)} queries but {len(answers)} answers")

    mismatches = 0
    for (variant, fen, moves), ref, got in zip(queries, expected, answers):
        if "error" in got:
            problems = [f"engine error: {got['error']}"]
        else:
            problems = []
            if got["legal"] != ref["legal"]:
                extra = sorted(set(got["legal"]) - set(ref["legal"]))
                missing = sorted(set(ref["legal"]) - set(got["legal"]))
                problems.append(f"legal moves: extra {extra} missing {missing}")
            for key in ("immediate", "no_move", "adjudicated"):
                if got[key] != ref[key]:
                    problems.append(f"{key}: ours {got[key]} ({got.get('reason')}) reference {ref[key]}")
            reason = got.get("reason")
            if reason:
                ends[(variant, reason)] = ends.get((variant, reason), 0) + 1
        if problems:
            mismatches += 1
            if mismatches <= 20:
                print(f"MISMATCH {variant} fen '{fen}' moves {' '.join(moves)}")
                for p in problems:
                    print(f"    {p}")

    print(f"crosscheck: {len(queries)} positions from {args.games} games, {mismatches} mismatches")
    for (variant, reason), n in sorted(ends.items()):
        print(f"    {variant:18} {reason:28} {n}")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
