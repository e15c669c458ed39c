#!/usr/bin/env python3
"""Compare the evaluation our search starts from with Fairy-Stockfish's `Final evaluation`, position by position.

Both engines load the same net. Fairy-Stockfish's final evaluation is the net's output scaled by the material
and then bent by the move-count rule (faded as the plies without a capture near the limit, plus a pull toward
the side that would win the count); ours is what `eval` prints on its `Final evaluation` line. Positions come
from the random games of `nnue_compare.py` in the four host rule sets, each also given a random halfmove clock
below its rule set's limit, so that the rule's whole range is covered. Positions in check have no evaluation in
either engine and must agree on that.

    cargo build --release
    python3 tools/final_eval_compare.py --fs /path/to/fairy-stockfish --net nets/janggi-….nnue --positions 2000

With --write-data FILE, the first --data-count positions are written with Fairy-Stockfish's value, for
tests/default_net.rs. Exit status 1 if any position differs by more than --tolerance soldiers.
"""

import argparse
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnue_compare  # noqa: E402

LIMITS = {"janggi": 100, "janggitraditional": 100, "janggimodern": 200, "janggicasual": 100}


def final(engine, variant, fen):
    """The value of the engine's `Final evaluation` line in soldiers (Cho's side), or None (in check)."""
    line = next(l for l in engine.eval(variant, fen) if l.startswith("Final evaluation"))
    return None if "none" in line else float(line.split()[2])


def with_clock(fen, halfmove):
    fields = fen.split()
    fields[4] = str(halfmove)
    return " ".join(fields)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fs", required=True, help="the Fairy-Stockfish binary (largeboards build)")
    ap.add_argument("--janggi", default="target/release/janggi")
    ap.add_argument("--net", required=True, help="the net both engines load")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tolerance", type=float, default=0.02,
                    help="largest difference allowed, in soldiers (the engines round centipawns differently)")
    ap.add_argument("--write-data", help="write the first --data-count positions' expected values here")
    ap.add_argument("--data-count", type=int, default=200)
    args = ap.parse_args()

    nnue_compare.JANGGI = args.janggi
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="final_eval_compare_")
    try:
        # Fairy-Stockfish applies a net only when the file name starts with the variant's name.
        net = os.path.join(tmp, "janggi-compare.nnue")
        shutil.copyfile(args.net, net)
        # Both speak UCI; the helper sets the variant and the net before the first position of a rule set.
        fs, ours = nnue_compare.FairyStockfish(args.fs, net), nnue_compare.FairyStockfish(args.janggi, net)
        compared = in_check = mismatches = 0
        worst = 0.0
        step = max(1, args.positions // args.data_count)
        data = []
        while compared < args.positions:
            variant = rng.choice(list(LIMITS))
            for fen, _ in nnue_compare.random_game(rng, variant):
                if compared >= args.positions:
                    break
                if rng.random() < 0.7:
                    fen = with_clock(fen, rng.randrange(LIMITS[variant]))
                theirs, mine = final(fs, variant, fen), final(ours, variant, fen)
                if theirs is None and mine is None:
                    in_check += 1
                    continue
                compared += 1
                diff = abs(theirs - mine) if theirs is not None and mine is not None else float("inf")
                worst = max(worst, diff)
                if diff > args.tolerance + 1e-9:
                    mismatches += 1
                    print(f"MISMATCH {variant} {fen}: fs {theirs} ours {mine}", file=sys.stderr)
                if compared % step == 0 and len(data) < args.data_count:
                    data.append(f"{variant}\t{fen}\t{theirs:+.2f}")
        fs.close()
        ours.close()
        print(f"positions compared: {compared} (both in check: {in_check}); largest difference: {worst:.2f}; "
              f"beyond {args.tolerance}: {mismatches}")
        if args.write_data:
            with open(args.write_data, "w") as f:
                f.write("# variant<TAB>fen<TAB>Fairy-Stockfish's Final evaluation (soldiers, Cho's side)\n")
                f.write("\n".join(data) + "\n")
        sys.exit(1 if mismatches else 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
