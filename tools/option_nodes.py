#!/usr/bin/env python3
"""Nodes to a fixed depth over the bench positions (src/search/bench.rs) with search options set, against the defaults.

Runs `janggi --tune` over UCI (one thread, 16 MB of hash, the default net, `ucinewgame` before each position)
once with the defaults and once with the options given as NAME=VALUE (`janggi tune params` lists them), and
prints both node totals, their ratio and the ratio of the wall times: what an optional search condition does to
the size of the tree, and to the time it takes, before a match says what it does to the strength. The two engines
take turns position by position (the one that starts alternates), so a machine busy with other work slows both
alike; the node counts do not depend on it.

    python3 tools/option_nodes.py --depth 12 history_prune_depth=0
"""
import argparse
import pathlib

from nnue_speed import bench_positions, parse_options, search, start_with


def engine(path, options):
    return start_with(path, [("Threads", "1"), ("Hash", "16")] + options, ["--tune"])


def totals(path, options, fens, depth):
    """Nodes and wall seconds to `depth` over `fens`: the defaults' and the options'."""
    engines = [engine(path, []), engine(path, options)]
    sums = [[0, 0.0], [0, 0.0]]
    for i, fen in enumerate(fens):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            nodes, secs = search(engines[which], fen, depth)
            sums[which][0] += nodes
            sums[which][1] += secs
    for e in engines:
        e.quit()
    return sums


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="target/release/janggi")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("options", nargs="+", help="NAME=VALUE search options")
    args = ap.parse_args()
    options = parse_options(args.options)
    fens = bench_positions(pathlib.Path(__file__).resolve().parent.parent)
    (base, base_secs), (changed, changed_secs) = totals(args.ours, options, fens, args.depth)
    label = " ".join(args.options)
    print(f"defaults        depth {args.depth}: {base:>10} nodes in {base_secs:.2f} s ({len(fens)} positions)")
    print(f"{label:15} depth {args.depth}: {changed:>10} nodes in {changed_secs:.2f} s, {changed / base:.3f} of the"
          f" defaults' nodes, {changed_secs / max(base_secs, 1e-9):.3f} of their time")


if __name__ == "__main__":
    main()
