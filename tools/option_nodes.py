#!/usr/bin/env python3
"""Nodes to a fixed depth over the bench positions (src/bench.rs) with search options set, against the defaults.

Runs `janggi --tune` over UCI (one thread, 16 MB of hash, the default net, `ucinewgame` before each position)
once with the defaults and once with the options given as NAME=VALUE (`janggi tune params` lists them), and
prints both node totals and their ratio: what an optional search condition does to the size of the tree before
a match says what it does to the strength.

    python3 tools/option_nodes.py --depth 12 prune_pv_quiets=1
"""
import argparse
import pathlib
import sys

from nnue_speed import Uci, bench_positions, search


def nodes_with(path, options, fens, depth):
    e = Uci(path, ["--tune"])
    e.send("uci")
    e.until("uciok")
    for name, value in [("Threads", "1"), ("Hash", "16")] + options:
        e.send(f"setoption name {name} value {value}")
    e.send("isready")
    for line in e.until("readyok"):
        if "error" in line.lower():
            sys.exit(f"{path}: {line}")
    total = sum(search(e, fen, depth)[0] for fen in fens)
    e.quit()
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="target/release/janggi")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("options", nargs="+", help="NAME=VALUE search options")
    args = ap.parse_args()
    options = []
    for o in args.options:
        name, sep, value = o.partition("=")
        if not sep:
            sys.exit(f"'{o}': options are NAME=VALUE")
        options.append((name, value))
    fens = bench_positions(pathlib.Path(__file__).resolve().parent.parent)
    base = nodes_with(args.ours, [], fens, args.depth)
    changed = nodes_with(args.ours, options, fens, args.depth)
    label = " ".join(args.options)
    print(f"defaults        depth {args.depth}: {base:>10} nodes ({len(fens)} positions)")
    print(f"{label:15} depth {args.depth}: {changed:>10} nodes, {changed / base:.3f} of the defaults")


if __name__ == "__main__":
    main()
