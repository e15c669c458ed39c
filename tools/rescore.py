#!/usr/bin/env python3
"""Rescore a datagen file with a deeper search: the same positions and game results, each score replaced by our
engine's score after `go nodes N`.

A held-out set labelled deeper than any training data compares nets whose data were labelled at different depths
(docs/nets.md, experiment (a)) against what a longer search of the same positions says; it still favours nets
trained on its labeller's own scores, so only a match ranks nets trained on different data. Each position is searched from a fresh game (`ucinewgame`,
one thread, 16 MB of hash), so the same file, net and node count give the same bytes. A position whose score is a
mate or lies beyond `--score-limit` is dropped, as datagen drops it.

    python3 tools/rescore.py --binary target/release/janggi --nodes 40000 --procs 2 held.bin --out held-40k.bin
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
import threading

from nnue_speed import finished_iterations, search_lines, start_with


def final_score(lines):
    """The centipawn score of the last finished iteration in an engine's `lines` (None for a mate or none)."""
    done = finished_iterations(lines)
    words = done[-1][4].split() if done else []
    i = words.index("score") if "score" in words else -1
    return int(words[i + 2]) if i >= 0 and words[i + 1] == "cp" else None


def rescore(binary, net, nodes, lines, first, step, out):
    """Search `lines[first::step]` with one engine, into `out[i]` as (new score or None, the line's fields)."""
    options = [("Threads", "1"), ("Hash", "16")] + ([("EvalFile", str(net))] if net else [])
    engine = start_with(binary, options)
    variant = "janggi"
    for i in range(first, len(lines), step):
        fields = lines[i].split(";")
        fen = fields[0]
        wanted = fields[3] if len(fields) > 3 else "janggi"
        if wanted != variant:
            engine.send(f"setoption name UCI_Variant value {wanted}")
            variant = wanted
        _, _, found = search_lines(engine, fen, 0, limit=f"nodes {nodes}")
        out[i] = (final_score(found), fields)
    engine.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="target/release/janggi", help="our engine (also reads and packs the files)")
    ap.add_argument("--net", help="EvalFile for the searches (the embedded default net without it)")
    ap.add_argument("--nodes", type=int, default=40000, help="nodes a search (1..)")
    ap.add_argument("--procs", type=int, default=2, help="engines searching at once (1..)")
    ap.add_argument("--score-limit", type=int, default=3000, help="drop positions scored beyond this (centipawns)")
    ap.add_argument("--out", required=True, help="the rescored datagen file")
    ap.add_argument("input", help="a datagen file")
    args = ap.parse_args()
    if args.nodes < 1 or args.procs < 1:
        sys.exit("--nodes and --procs must be at least 1")

    text = subprocess.run([args.binary, "datagen", "text", args.input], capture_output=True, text=True)
    if text.returncode != 0:
        sys.exit(text.stderr.strip() or f"{args.input}: unreadable")
    lines = [l for l in text.stdout.splitlines() if l.strip()]
    results = [None] * len(lines)
    workers = [threading.Thread(target=rescore, args=(args.binary, args.net, args.nodes, lines, k, args.procs, results))
               for k in range(args.procs)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if any(r is None for r in results):
        sys.exit("an engine stopped before every position was searched")

    kept, moved = [], 0
    for score, fields in results:
        if score is None or abs(score) > args.score_limit:
            continue
        moved += abs(score - int(fields[1]))
        kept.append(";".join([fields[0], str(score)] + fields[2:]))
    with tempfile.TemporaryDirectory() as tmp:
        packed = pathlib.Path(tmp) / "rescored.txt"
        packed.write_text("".join(l + "\n" for l in kept))
        pack = subprocess.run([args.binary, "datagen", "pack", str(packed), "--out", args.out],
                              capture_output=True, text=True)
        if pack.returncode != 0:
            sys.exit(f"pack: {pack.stderr.strip()}")
    mean = moved / len(kept) if kept else 0.0
    print(f"{len(kept)} of {len(lines)} positions rescored at {args.nodes} nodes into {args.out} "
          f"({len(lines) - len(kept)} dropped: mate or beyond {args.score_limit}); "
          f"mean |new - old| {mean:.1f} cp")


if __name__ == "__main__":
    main()
