#!/usr/bin/env python3
"""Writes N distinct opening positions (FEN lines) for `janggi match --openings FILE`: each is one of the 25
setups followed by a few random legal moves (no passes), asked of our own binary's `janggi status`. Depth- or
nodes-limited games between deterministic engines repeat exactly from the same opening, so a long match of such
games needs as many openings as it has game pairs.

    python3 tools/random_openings.py --count 500 --plies 4 --seed 1 > openings.epd
"""

import argparse
import json
import random
import subprocess
import sys


def status(binary, queries):
    """One `janggi status` run over many positions: a JSON answer per query."""
    text = "".join(json.dumps(q) + "\n" for q in queries)
    out = subprocess.run([binary, "status"], input=text, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/janggi")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--plies", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    setups = subprocess.run([args.binary, "setups"], capture_output=True, text=True, check=True).stdout.split("\n")
    setups = [s for s in setups if s.strip()]
    seen, result = set(), []
    while len(result) < args.count:
        games = [{"variant": "janggi", "fen": rng.choice(setups), "moves": []} for _ in range(args.count)]
        for _ in range(args.plies):
            for game, answer in zip(games, status(args.binary, games)):
                moves = [m for m in answer.get("legal", []) if m[:2] != m[2:]]
                if moves and not answer.get("immediate"):
                    game["moves"].append(rng.choice(sorted(moves)))
        for answer in status(args.binary, games):
            fen = answer.get("fen")
            if fen and answer.get("legal") and fen not in seen and len(result) < args.count:
                seen.add(fen)
                result.append(fen)
    sys.stdout.write("".join(f + "\n" for f in result))


if __name__ == "__main__":
    main()
