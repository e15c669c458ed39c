#!/usr/bin/env python3
"""How often each engine of a match was surprised: its own score fell by more than --drop pawns from one of its
moves to its next, the opponent's reply in between having shown what its search had not seen.

Reads the PGN that `janggi match` writes (each move's comment starts with the mover's score and depth, such as
`{+0.04/15 0.412s}`). Only moves within the first --plies plies whose score was within --within pawns of equal
count, so that a game already decided does not. With pyffish installed (`pip install pyffish`), each surprise is
also sorted by the reply that caused it (a capture, a check, both, or a quiet move) and by the surprised engine's
own move before it (a capture or a quiet move), under the rule set of the PGN's Variant tag (or --variant). Prints
one line per engine.

    python3 tools/surprises.py match.pgn
    python3 tools/surprises.py --drop 2 --plies 80 a.pgn b.pgn
"""
import argparse
import collections
import re
import sys

MOVE = r"[a-i](?:10|[1-9])[a-i](?:10|[1-9])"


def score_of(text):
    """Pawns from a comment's score: `+0.25`, `-1.30`, or a mate `+M7` / `-M5` (counted as 99 pawns)."""
    if "M" in text:
        return -99.0 if text.startswith("-") else 99.0
    return float(text)


def tag(block, name):
    """The value of a PGN tag of the game's text, or None."""
    m = re.search(rf'\[{name} "([^"]*)"\]', block)
    return m.group(1) if m else None


def games_of(text):
    """(white, black, start FEN or None, variant or None, [(move, mover's score or None)]) of each game of the
    PGN that names both players."""
    games = []
    for block in re.split(r"\n(?=\[Event )", text):
        if not block.lstrip().startswith("[Event "):
            continue
        white, black = tag(block, "White"), tag(block, "Black")
        if white is None or black is None:
            continue
        body = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        # Comments other than a move's score (a game's end, an illegal move) may name squares: drop them first.
        body = re.sub(r"\{(?![+-]?(?:M\d|\d))[^}]*\}", " ", body)
        moves = []
        for m in re.finditer(rf"({MOVE})(?:\s*\{{([+-]?(?:M\d+|\d+(?:\.\d+)?))/\d+[^}}]*\}})?", body):
            moves.append((m.group(1), score_of(m.group(2)) if m.group(2) else None))
        games.append((white, black, tag(block, "FEN"), tag(block, "Variant"), moves))
    return games


def counted_moves(white, black, fen, moves, drop, within, plies):
    """(ply, mover, surprised) of each move of a game (`games_of`'s `moves`) that counts: its mover's score and
    the mover's next one are both known, the first within `within` pawns of equal, the next move within the first
    `plies` plies; `surprised` where the score fell by more than `drop` pawns between the two."""
    # The first move is Han's where the start position has Han to move.
    first = 1 if fen and fen.split()[1:2] == ["b"] else 0
    for i in range(len(moves) - 2):
        mover = white if (i + first) % 2 == 0 else black
        before, after = moves[i][1], moves[i + 2][1]
        if i + 2 >= plies or before is None or after is None or abs(before) > within:
            continue
        yield i, mover, before - after > drop


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--drop", type=float, default=1.0, help="pawns an own score must fall by to count")
    ap.add_argument("--within", type=float, default=2.0, help="only scores at most this far from equal count")
    ap.add_argument("--plies", type=int, default=100, help="only the first this many plies count")
    ap.add_argument("--variant", help="rule set for pyffish's move tests (default: the PGN's Variant tag, or janggi)")
    args = ap.parse_args()
    try:
        import pyffish
    except ImportError:
        pyffish = None
        print("pyffish not installed: surprises are counted, not sorted by move", file=sys.stderr)
    stats = collections.defaultdict(collections.Counter)
    for path in args.pgn:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as e:
            sys.exit(f"{path}: {e}")
        for white, black, fen, tagged, moves in games_of(text):
            variant = args.variant or (tagged or "janggi").lower()
            if fen is None and pyffish is not None:
                fen = pyffish.start_fen(variant)
            played = [m for m, _ in moves]
            for i, mover, surprised in counted_moves(white, black, fen, moves, args.drop, args.within, args.plies):
                stats[mover]["moves"] += 1
                if not surprised:
                    continue
                stats[mover]["surprises"] += 1
                if pyffish is None:
                    continue
                reply = played[i + 1]
                capture = pyffish.is_capture(variant, fen, played[: i + 1], reply)
                check = pyffish.gives_check(variant, fen, played[: i + 2])
                kind = "capture+check" if capture and check else "capture" if capture else "check" if check else "quiet"
                stats[mover]["reply " + kind] += 1
                own = "capture" if pyffish.is_capture(variant, fen, played[:i], played[i]) else "quiet"
                stats[mover]["own " + own] += 1
    if not stats:
        sys.exit("no scored moves in " + ", ".join(args.pgn))
    for engine, c in sorted(stats.items()):
        rate = 1000.0 * c["surprises"] / max(c["moves"], 1)
        line = f"{engine}: {c['surprises']} surprises in {c['moves']} moves ({rate:.1f} per 1000)"
        if pyffish is not None:
            replies = ", ".join(f"{k} {c['reply ' + k]}" for k in ("quiet", "capture", "check", "capture+check"))
            own = ", ".join(f"{k} {c['own ' + k]}" for k in ("quiet", "capture"))
            line += f"; replies: {replies}; own moves before: {own}"
        print(line)


if __name__ == "__main__":
    main()
