#!/usr/bin/env python3
"""The moves a match's engines regretted, as a test set: which engine finds their refutations, and how soon.

A surprise (`tools/surprises.py`) is a move after which its engine's own score fell by more than --drop pawns by
its next move: the opponent's reply showed what its search had not seen. This tool turns them into positions and
measures engines on them, in four steps, each writing or reading JSON lines (one position a line: `fen` before the
move, `move`, the `reply` that was played, the `engine` that played the move, `before`/`after` scores, `source`):

- `extract PGN…`: every surprise of the PGNs' games (the options of surprises.py pick them; needs pyffish for the
  position before each move).
- `confirm SET --engine PATH`: keeps the moves a judge calls mistakes. The judge searches each position twice from
  a fresh game, once freely and once with `searchmoves` the move; a move stays where the judge's best move is
  another and the move's score is at least --loss centipawns below the best one's. Adds the judge's `best`,
  `best_score` and `move_score`.
- `solve SET --engine PATH`: how soon an engine finds each reply. The engine searches the position after the move
  up to --nodes nodes (`go nodes`); a reply is found at the node count of the first finished iteration from which
  the engine's first move is the reply through to its `bestmove`. Prints, per engine that played the moves, how
  many replies were found and the geometric mean of the node counts (a reply not found counts as --nodes).
- `repeat SET --engine PATH`: how often an engine would play each move again, searching the position before it
  for --movetime milliseconds (or to --depth), from a fresh game.

`janggi` is started with `--tune`, so its search parameters may be given as options (NAME=VALUE after the
arguments); for Fairy-Stockfish give `UCI_Variant=janggi EvalFile=… "Use NNUE=true"`. Every engine runs with one
thread and `--hash` MB.

    python3 tools/refutations.py extract a.pgn b.pgn > set.jsonl
    python3 tools/refutations.py confirm set.jsonl --engine fairy-stockfish --movetime 1000 UCI_Variant=janggi \\
        EvalFile=nets/janggi-a3dd60b86c0f.nnue "Use NNUE=true" > confirmed.jsonl
    python3 tools/refutations.py solve confirmed.jsonl --engine target/release/janggi --nodes 1000000
    python3 tools/refutations.py repeat confirmed.jsonl --engine target/release/janggi --movetime 300 rfp_margin=120
"""
import argparse
import collections
import json
import math
import pathlib
import re
import sys

from nnue_speed import parse_options, start_with
from surprises import counted_moves, games_of

# A mate is worth more than any material: counted as this many centipawns (less its distance) for the judge.
MATE_CP = 30000


def extract(args):
    try:
        import pyffish
    except ImportError:
        sys.exit("extract needs pyffish (pip install pyffish) for the positions before the moves")
    found = 0
    for path in args.pgn:
        try:
            text = pathlib.Path(path).read_text(encoding="utf-8")
        except OSError as e:
            sys.exit(f"{path}: {e}")
        for white, black, fen, tagged, moves in games_of(text):
            variant = args.variant or (tagged or "janggi").lower()
            start = fen or pyffish.start_fen(variant)
            played = [m for m, _ in moves]
            for i, mover, surprised in counted_moves(white, black, fen, moves, args.drop, args.within, args.plies):
                if not surprised:
                    continue
                record = {
                    "engine": mover,
                    "fen": pyffish.get_fen(variant, start, played[:i]),
                    "move": played[i],
                    "reply": played[i + 1],
                    "before": moves[i][1],
                    "after": moves[i + 2][1],
                    "source": f"{path}:{i}",
                }
                print(json.dumps(record), flush=True)
                found += 1
    print(f"{found} surprises", file=sys.stderr)


def read_set(path):
    """The records of a set file; a line that is not such a record ends the run with its number."""
    records = []
    try:
        lines = pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        sys.exit(f"{path}: {e}")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not all(isinstance(record.get(k), str) for k in ("engine", "fen", "move", "reply")):
                raise ValueError("needs the strings engine, fen, move and reply")
        except ValueError as e:
            sys.exit(f"{path}:{n}: not a position record ({e})")
        records.append(record)
    if not records:
        sys.exit(f"{path}: no positions")
    return records


def engine_of(args):
    engine_args = ["--tune"] if pathlib.Path(args.engine).name.startswith("janggi") else []
    options = [("Threads", "1"), ("Hash", args.hash)] + parse_options(args.options)
    return start_with(args.engine, options, engine_args)


def score_of(line):
    """Centipawns of an `info` line's score for the side to move, a mate as ±(MATE_CP − its distance), or None."""
    m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
    if not m:
        return None
    value = int(m.group(2))
    if m.group(1) == "cp":
        return value
    return MATE_CP - abs(value) if value > 0 else -(MATE_CP - abs(value))


def search(engine, fen, moves, go):
    """(bestmove, [(depth, nodes, first move, score) of each finished iteration]) of one search from a fresh game
    of the position after `moves` from `fen`, `go` the arguments of the `go` command."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
    engine.send("isready")
    engine.until("readyok")
    engine.send(f"go {go}")
    lines = engine.until("bestmove")
    iterations = []
    for line in lines:
        if not line.startswith("info ") or " pv " not in line or "bound" in line:
            continue
        depth, nodes = re.search(r"\bdepth (\d+)", line), re.search(r"\bnodes (\d+)", line)
        pv = line.split(" pv ", 1)[1].split()
        if depth and nodes and pv:
            iterations.append((int(depth.group(1)), int(nodes.group(1)), pv[0], score_of(line)))
    words = lines[-1].split()
    return (words[1] if len(words) > 1 else None), iterations


def limit_of(args):
    return f"depth {args.depth}" if args.depth else f"movetime {args.movetime}"


def confirm(args):
    engine = engine_of(args)
    kept = 0
    records = read_set(args.set)
    for record in records:
        best, its = search(engine, record["fen"], [], limit_of(args))
        _, move_its = search(engine, record["fen"], [], f"{limit_of(args)} searchmoves {record['move']}")
        best_score = its[-1][3] if its else None
        move_score = move_its[-1][3] if move_its else None
        if best is None or best_score is None or move_score is None:
            print(f"{record.get('source', record['fen'])}: no score, skipped", file=sys.stderr)
            continue
        if best != record["move"] and best_score - move_score >= args.loss:
            print(json.dumps({**record, "best": best, "best_score": best_score, "move_score": move_score}), flush=True)
            kept += 1
    engine.quit()
    print(f"{kept} of {len(records)} confirmed", file=sys.stderr)


def found_at(iterations, bestmove, reply):
    """Nodes of the first iteration from which every iteration's first move, and the bestmove, is `reply`; None
    where the search did not end on it."""
    if bestmove != reply:
        return None
    at = None
    for _, nodes, first, _ in iterations:
        if first != reply:
            at = None
        elif at is None:
            at = nodes
    return at


def by_engine(records):
    groups = collections.defaultdict(list)
    for r in records:
        groups[r["engine"]].append(r)
    return sorted(groups.items())


def solve(args):
    engine = engine_of(args)
    records = read_set(args.set)
    for record in records:
        best, its = search(engine, record["fen"], [record["move"]], f"nodes {args.nodes}")
        record["found_at"] = found_at(its, best, record["reply"])
        if args.verbose:
            print(f"{record['fen']} {record['move']} {record['reply']}: {record['found_at']}")
    engine.quit()
    for name, group in by_engine(records):
        found = sum(r["found_at"] is not None for r in group)
        logs = [math.log(max(r["found_at"] or args.nodes, 1)) for r in group]
        mean = math.exp(sum(logs) / len(logs))
        print(f"{name}: {found} of {len(group)} replies found, geometric mean {mean:.0f} nodes")


def repeat(args):
    engine = engine_of(args)
    records = read_set(args.set)
    for record in records:
        best, _ = search(engine, record["fen"], [], limit_of(args))
        record["again"] = best == record["move"]
        if args.verbose:
            print(f"{record['fen']} {record['move']}: {best}")
    engine.quit()
    for name, group in by_engine(records):
        print(f"{name}: {sum(r['again'] for r in group)} of {len(group)} moves played again")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="the surprises of PGNs as positions (JSON lines on stdout)")
    ex.add_argument("pgn", nargs="+")
    ex.add_argument("--drop", type=float, default=1.0, help="pawns an own score must fall by to count")
    ex.add_argument("--within", type=float, default=2.0, help="only scores at most this far from equal count")
    ex.add_argument("--plies", type=int, default=100, help="only the first this many plies count")
    ex.add_argument("--variant", help="rule set (default: the PGN's Variant tag, or janggi)")
    for name, text in (("confirm", "keep the moves a judge calls mistakes"),
                       ("solve", "how soon an engine finds the replies"),
                       ("repeat", "how often an engine plays the moves again")):
        p = sub.add_parser(name, help=text)
        p.add_argument("set", help="JSON lines of positions (from extract or confirm)")
        p.add_argument("--engine", required=True, help="UCI engine")
        p.add_argument("--hash", default="16", help="MB of hash table")
        if name != "confirm":
            p.add_argument("--verbose", action="store_true", help="a line per position")
        if name == "confirm":
            p.add_argument("--loss", type=int, default=50, help="centipawns the move must lose to stay")
        if name == "solve":
            p.add_argument("--nodes", type=int, default=1000000, help="node limit of each search")
        else:
            p.add_argument("--movetime", type=int, default=1000, help="milliseconds a search")
            p.add_argument("--depth", type=int, help="a fixed depth instead of --movetime")
        p.add_argument("options", nargs="*", help="NAME=VALUE engine options")
    args = ap.parse_args()
    {"extract": extract, "confirm": confirm, "solve": solve, "repeat": repeat}[args.command](args)


if __name__ == "__main__":
    main()
