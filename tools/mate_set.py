#!/usr/bin/env python3
"""Builds a set of forced mates for the mate-finding test (tests/data/mates.tsv): positions taken from the last
plies of games that ended in checkmate (match PGNs), each kept when pyffish (the reference's rules) proves a mate in
at most --max moves for the side to move: an exhaustive AND-OR search in which every defence is tried, the
attacker's checks are tried first, and a mate is a position in check without a legal move. A proof that needs more
than --budget move generations is given up (the position is left out). Writes `fen<TAB>moves to mate` lines, the
shortest count proved. With --propose DEPTH only the positions where our binary's analysis to that depth reports a
mate in at most --max moves are tried (far fewer proofs; the proofs stay pyffish's).

    janggi match --engines janggi,janggi-skill5 --depth 5 --games 300 --seed 99 --pgn mates.pgn
    python3 tools/mate_set.py mates.pgn --max 3 --propose 16 > tests/data/mates.tsv
"""

import argparse
import json
import re
import subprocess
import sys

import pyffish

VARIANT = "janggi"


def games(text):
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', chunk, re.M))
        body = re.sub(r"\{[^}]*\}", " ", re.sub(r"^\[.*\]\s*$", "", chunk, flags=re.M))
        yield tags, re.findall(r"\b([a-i]\d+[a-i]\d+)\b", body), "mates" in chunk


def mated(fen, moves):
    return not pyffish.legal_moves(VARIANT, fen, moves) and pyffish.gives_check(VARIANT, fen, moves)


class OutOfBudget(Exception):
    pass


def mate_in(fen, moves, n, budget):
    """Whether the side to move after `moves` mates in at most `n` moves, whatever the defence. `budget` is a
    one-element list counting the move generations left."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OutOfBudget
    ours = pyffish.legal_moves(VARIANT, fen, moves)
    ours.sort(key=lambda m: not pyffish.gives_check(VARIANT, fen, moves + [m]))
    for m in ours:
        line = moves + [m]
        replies = pyffish.legal_moves(VARIANT, fen, line)
        if not replies:
            if pyffish.gives_check(VARIANT, fen, line):
                return True
            continue
        if n > 1 and all(mate_in(fen, line + [r], n - 1, budget) for r in replies):
            return True
    return False


def shortest_mate(fen, most, budget):
    try:
        return next((k for k in range(1, most + 1) if mate_in(fen, [], k, [budget])), None)
    except OutOfBudget:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--max", type=int, default=3, help="longest mate kept, in moves of the side to move")
    parser.add_argument("--plies", type=int, default=6, help="positions taken from the end of each mated game")
    parser.add_argument("--budget", type=int, default=1500, help="move generations a proof may take")
    parser.add_argument("--propose", type=int, help="try only what our analysis to this depth calls a short mate")
    parser.add_argument("--binary", default="target/release/janggi")
    args = parser.parse_args()
    candidates = []
    for path in args.pgn:
        with open(path, encoding="utf-8") as f:
            for tags, moves, mate in games(f.read()):
                if not mate or tags.get("Variant", "Janggi").lower() != "janggi":
                    continue
                start = tags.get("FEN") or pyffish.start_fen(VARIANT)
                for back in range(1, min(args.plies, len(moves)) + 1):
                    candidates.append(pyffish.get_fen(VARIANT, start, moves[: len(moves) - back]))
    candidates = sorted(set(candidates))
    tried = candidates
    if args.propose:
        out = subprocess.run([args.binary, "analyze", "--depth", str(args.propose), "--threads", "2"],
                             input="\n".join(candidates) + "\n", capture_output=True, text=True, check=True).stdout
        results = [json.loads(line) for line in out.splitlines()]
        tried = [r["fen"] for r in results if 0 < (r.get("score") or {}).get("mate", 0) <= args.max]
    kept = 0
    for fen in tried:
        n = shortest_mate(fen, args.max, args.budget)
        if n is not None:
            print(f"{fen}\t{n}", flush=True)
            kept += 1
    print(f"mate_set: {kept} mates proved of {len(tried)} tried among {len(candidates)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
