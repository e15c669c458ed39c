#!/usr/bin/env python3
"""Nodes to a fixed depth along the games of a PGN, searched as a game searches them.

For each game (the first --games of the PGN, every --step-th from --skip), one engine process searches the
positions before every other ply from --from to --to (one side's moves) to --depth, in order, without
`ucinewgame` in between: the hash table and the histories carry from one search to the next, as they do between
one move and the next in a match. With --fresh, `ucinewgame` comes before every search instead, so each starts
from nothing. The difference between the two is what a search gains from the ones before it.

Prints the node and wall-time totals (per search, one line each with --verbose). With --depth-times it also prints,
for every depth, the mean time at which the searches finished it (the `time` of the engine's last report of that
depth with an exact score and a line), so two engines can be compared by the depth a clock buys them. Works with any
UCI engine that plays Janggi (Fairy-Stockfish: give UCI_Variant=janggi and EvalFile=... as options); `janggi` is
started with `--tune`, so search parameters may be given as options too.

    python3 tools/game_nodes.py --pgn match.pgn --depth 13
    python3 tools/game_nodes.py --pgn match.pgn --depth 13 --engine fairy-stockfish UCI_Variant=janggi \\
        EvalFile=nets/janggi-805160284124.nnue
"""
import argparse
import pathlib
import sys

from nnue_speed import finished_iterations, games_of, parse_options, search_lines, start_with


def finished_depths(lines):
    """{depth: milliseconds} of the reports of finished iterations among `lines`; where a depth is reported twice
    (several lines, a re-search) the last report counts."""
    return {depth: ms for depth, _, ms, _, _ in finished_iterations(lines) if ms is not None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--engine", default="target/release/janggi")
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--games", type=int, default=6, help="games searched")
    ap.add_argument("--skip", type=int, default=0, help="games of the PGN passed over first")
    ap.add_argument("--step", type=int, default=2, help="every step-th game of the PGN (2: one per opening pair)")
    ap.add_argument("--from", dest="first", type=int, default=10, help="first ply searched")
    ap.add_argument("--to", dest="last", type=int, default=40, help="last ply searched (every other ply)")
    ap.add_argument("--hash", default="16")
    ap.add_argument("--fresh", action="store_true", help="ucinewgame before every search")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--depth-times", action="store_true", help="mean time at which each depth was finished")
    ap.add_argument("options", nargs="*", help="NAME=VALUE engine options")
    args = ap.parse_args()
    options = parse_options(args.options)
    games = [(fen, moves) for fen, moves in games_of(pathlib.Path(args.pgn).read_text()) if fen and moves]
    games = games[args.skip :: args.step][: args.games]
    if not games:
        sys.exit(f"{args.pgn}: no game with a [FEN] header and moves")
    engine_args = ["--tune"] if pathlib.Path(args.engine).name.startswith("janggi") else []
    total_nodes, total_secs, searches = 0, 0.0, 0
    depth_times = {}
    for g, (fen, moves) in enumerate(games):
        engine = start_with(args.engine, [("Threads", "1"), ("Hash", args.hash)] + options, engine_args)
        engine.send("ucinewgame")
        for ply in range(args.first, min(args.last, len(moves) - 1) + 1, 2):
            nodes, secs, lines = search_lines(engine, fen, args.depth, moves[:ply], args.fresh)
            for depth, ms in finished_depths(lines).items():
                depth_times.setdefault(depth, []).append(ms)
            total_nodes += nodes
            total_secs += secs
            searches += 1
            if args.verbose:
                print(f"game {g} ply {ply}: {nodes} nodes, {secs:.3f} s")
        engine.quit()
    mode = "fresh" if args.fresh else "kept"
    print(f"{searches} searches to depth {args.depth} ({mode}): {total_nodes} nodes, {total_secs:.2f} s")
    if args.depth_times:
        for depth in sorted(depth_times):
            ms = depth_times[depth]
            print(f"depth {depth}: finished at {sum(ms) / len(ms):.1f} ms on average ({len(ms)} searches)")


if __name__ == "__main__":
    main()
