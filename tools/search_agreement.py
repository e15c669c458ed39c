#!/usr/bin/env python3
"""Search quality on positions: how often a short search picks the move that long searches agree on.

Three steps, each writing a file the next reads:

    # 1. positions: three from each game of match PGNs (plies 14-79, side to move not in check), via pyffish
    tools/search_agreement.py positions --pgn match.pgn --seed 1 --out suite.fen
    # 2. searches: one UCI engine over the positions, a fresh game for each (`ucinewgame`), Hash 16 unless set
    tools/search_agreement.py run --engine "target/release/janggi" --go "movetime 4000" --suite suite.fen \
        --out oracle-ours.json
    tools/search_agreement.py run --engine /path/to/stockfish --option EvalFile=/path/to/net.nnue \
        --go "movetime 3000" --suite suite.fen --out oracle-fs.json
    tools/search_agreement.py run --engine "target/release/janggi --tune" --option singular_margin=16 \
        --go "nodes 120000" --suite suite.fen --out short.json
    # 3. agreement with the long searches: the positions where both oracles chose the same move
    tools/search_agreement.py score --oracle oracle-ours.json --oracle oracle-fs.json short.json ...

The two oracles are two different engines so that the consensus favours neither engine's style. The count is
noisy: any change of the tree (even a neutral one) moves it by several positions, so it shows large differences
(one engine against another at equal time) rather than small search changes, which need matches.
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import time

from nnue_speed import games_of


def positions(args):
    import pyffish

    rng = random.Random(args.seed)
    fens = []
    for path in args.pgn:
        for start, moves in games_of(open(path, encoding="utf-8").read()):
            start = start or pyffish.start_fen(args.variant)
            last = min(len(moves), args.last_ply + 1)
            if last <= args.first_ply + args.per_game:
                continue
            for ply in rng.sample(range(args.first_ply, last), args.per_game):
                if pyffish.gives_check(args.variant, start, moves[:ply]):
                    continue
                fens.append(pyffish.get_fen(args.variant, start, moves[:ply]))
    with open(args.out, "w", encoding="utf-8") as out:
        out.writelines(f + "\n" for f in fens)
    print(f"{len(fens)} positions written to {args.out}")


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the engine stopped answering")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines


def field(tokens, name, cast=str):
    return cast(tokens[tokens.index(name) + 1]) if name in tokens else None


def run(args):
    engine = Engine(args.engine)
    engine.send("uci")
    engine.until("uciok")
    engine.send(f"setoption name UCI_Variant value {args.variant}")
    options = dict(o.split("=", 1) for o in args.option)
    options.setdefault("Hash", "16")
    for name, value in options.items():
        engine.send(f"setoption name {name} value {value}")
    fens = [line.strip() for line in open(args.suite, encoding="utf-8") if line.strip()][: args.count]
    results = []
    for fen in fens:
        engine.send("ucinewgame")
        engine.send("position fen " + fen)
        engine.send("isready")
        engine.until("readyok")
        started = time.time()
        engine.send("go " + args.go)
        lines = engine.until("bestmove")
        elapsed = time.time() - started
        infos = [ln.split() for ln in lines if ln.startswith("info") and " pv " in ln]
        last = infos[-1] if infos else []
        results.append(
            {
                "fen": fen,
                "best": lines[-1].split()[1],
                "depth": field(last, "depth", int) or 0,
                "seldepth": field(last, "seldepth", int) or 0,
                "nodes": field(last, "nodes", int) or 0,
                "time": elapsed,
            }
        )
    engine.send("quit")
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(results, out)
    nodes = sum(r["nodes"] for r in results)
    seconds = sum(r["time"] for r in results)
    print(
        f"positions {len(results)}, nodes {nodes}, {seconds:.1f} s, {nodes / max(seconds, 1e-9):.0f} nodes/s, "
        f"mean depth {statistics.mean(r['depth'] for r in results):.2f}, "
        f"mean seldepth {statistics.mean(r['seldepth'] for r in results):.2f}"
    )


def score(args):
    oracles = [{r["fen"]: r["best"] for r in json.load(open(o, encoding="utf-8"))} for o in args.oracle]
    consensus = {fen: best for fen, best in oracles[0].items() if all(o.get(fen) == best for o in oracles[1:])}
    print(f"consensus: {len(consensus)} of {len(oracles[0])} positions")
    for path in args.results:
        results = json.load(open(path, encoding="utf-8"))
        judged = [r for r in results if r["fen"] in consensus]
        agree = sum(1 for r in judged if consensus[r["fen"]] == r["best"])
        depth = statistics.mean(r["depth"] for r in results)
        print(f"{path}: {agree}/{len(judged)} = {agree / max(len(judged), 1):.3f} (mean depth {depth:.2f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("positions", help="sample positions from match PGNs")
    p.add_argument("--pgn", action="append", required=True)
    p.add_argument("--variant", default="janggi")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--per-game", type=int, default=3)
    p.add_argument("--first-ply", type=int, default=14)
    p.add_argument("--last-ply", type=int, default=79)
    p.add_argument("--out", required=True)
    p.set_defaults(func=positions)
    p = sub.add_parser("run", help="search every position with one engine")
    p.add_argument("--engine", required=True, help="the command line that starts a UCI engine")
    p.add_argument("--option", action="append", default=[], help="NAME=VALUE, set before the searches")
    p.add_argument("--variant", default="janggi")
    p.add_argument("--go", default="nodes 120000", help="the limit after `go`")
    p.add_argument("--suite", required=True)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--out", required=True)
    p.set_defaults(func=run)
    p = sub.add_parser("score", help="agreement with the oracles' common choices")
    p.add_argument("--oracle", action="append", required=True)
    p.add_argument("results", nargs="+")
    p.set_defaults(func=score)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
