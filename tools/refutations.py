#!/usr/bin/env python3
"""The moves a match's engines regretted, as a test set: which engine finds their refutations, and how soon.

A surprise (`tools/surprises.py`) is a move after which its engine's own score fell by more than --drop pawns by
its next move: the opponent's reply showed what its search had not seen. This tool turns them into positions and
measures engines on them, in four steps, each writing or reading JSON lines (one position a line: `fen` before the
move, `move`, the `reply` that was played, the `engine` that played the move, its `before`/`after` scores in pawns,
`source`: file, game and ply):

- `extract PGN…`: every surprise of the PGNs' games (the options of surprises.py pick them; needs pyffish for the
  position before each move).
- `confirm SET --engine PATH`: keeps the moves a judge calls mistakes. The judge searches each position twice from
  a fresh game, once freely and once with `searchmoves` the move; a move stays where the judge's best move is
  another and the move's score is at least --loss centipawns below the best one's. Adds the judge's `best`,
  `best_score` and `move_score` (centipawns; a mate counts as 30000 less its distance).
- `solve SET --engine PATH`: how soon an engine finds each reply. The engine searches the position after the move
  up to --nodes nodes (`go nodes`); a reply is found at the node count of the first finished iteration from which
  the engine's first move is the reply through to its `bestmove`. Prints, per engine that played the moves, how
  many replies were found and the geometric mean of the node counts (a reply not found counts as --nodes).
- `repeat SET --engine PATH`: how often an engine would play each move again, searching the position before it
  for --movetime milliseconds (or to --depth), from a fresh game.

`janggi` is started with `--tune`, so its search parameters may be given as options (NAME=VALUE after the
arguments); for Fairy-Stockfish give `UCI_Variant=janggi EvalFile=… "Use NNUE=true"`. Every engine runs with one
thread (unless a Threads option says otherwise) and `--hash` MB. A position the engine refuses (its `info string
error`) is skipped with a message.

    python3 tools/refutations.py extract a.pgn b.pgn > set.jsonl
    python3 tools/refutations.py confirm set.jsonl --engine fairy-stockfish --movetime 1000 UCI_Variant=janggi \\
        EvalFile=nets/janggi-805160284124.nnue "Use NNUE=true" > confirmed.jsonl
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

from nnue_speed import finished_iterations, parse_options, search_lines, start_with
from surprises import MOVE, counted_moves, games_of

# A mate is worth more than any material: counted as this many centipawns (less its distance) for the judge.
MATE_CP = 30000


def read_text(path):
    try:
        return pathlib.Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"{path}: {e}")


def extract(args):
    try:
        import pyffish
    except ImportError:
        sys.exit("extract needs pyffish (pip install pyffish) for the positions before the moves")
    found = 0
    for path in args.pgn:
        for g, (white, black, fen, tagged, moves) in enumerate(games_of(read_text(path)), 1):
            variant = args.variant or (tagged or "janggi").lower()
            if variant not in pyffish.variants():
                sys.exit(f"{path}: game {g}: unknown rule set '{variant}'")
            start = fen or pyffish.start_fen(variant)
            if pyffish.validate_fen(start, variant) != pyffish.FEN_OK:
                sys.exit(f"{path}: game {g}: invalid FEN '{start}'")
            played = [m for m, _ in moves]
            for i, mover, surprised in counted_moves(white, black, start, moves, args.drop, args.within, args.plies):
                if not surprised:
                    continue
                for k in range(i, i + 2):
                    if played[k] not in pyffish.legal_moves(variant, start, played[:k]):
                        sys.exit(f"{path}: game {g}: ply {k}: illegal move {played[k]}")
                record = {
                    "engine": mover,
                    "fen": pyffish.get_fen(variant, start, played[:i]),
                    "move": played[i],
                    "reply": played[i + 1],
                    "before": moves[i][1],
                    "after": moves[i + 2][1],
                    "source": f"{path}:{g}:{i}",
                }
                print(json.dumps(record), flush=True)
                found += 1
    print(f"{found} surprises", file=sys.stderr)


def read_set(path):
    """The records of a set file; a line that is not such a record ends the run with its number."""
    records = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not a JSON object")
            if not all(isinstance(record.get(k), str) for k in ("engine", "fen", "move", "reply")):
                raise ValueError("needs the strings engine, fen, move and reply")
            # The FEN and the moves go to the engine as protocol lines: nothing may end a line or start another.
            if not re.fullmatch(r"[0-9A-Za-z/ -]+", record["fen"]):
                raise ValueError("a FEN has letters, digits, '/', '-' and spaces only")
            if not all(re.fullmatch(MOVE, record[k]) for k in ("move", "reply")):
                raise ValueError("move and reply are moves such as h3h7")
        except ValueError as e:
            sys.exit(f"{path}:{n}: not a position record ({e})")
        record.setdefault("source", f"{path}:{n}")
        records.append(record)
    if not records:
        sys.exit(f"{path}: no positions")
    return records


def engine_of(args):
    engine_args = ["--tune"] if pathlib.Path(args.engine).name.startswith("janggi") else []
    options = [("Threads", "1"), ("Hash", args.hash)] + parse_options(args.options)
    try:
        return start_with(args.engine, options, engine_args)
    except OSError as e:
        sys.exit(f"{args.engine}: {e}")


def score_of(line):
    """Centipawns of an `info` line's score for the side to move, a mate as ±(MATE_CP − its distance), or None."""
    m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
    if not m:
        return None
    value = int(m.group(2))
    if m.group(1) == "cp":
        return value
    return MATE_CP - abs(value) if value > 0 else -(MATE_CP - abs(value))


def search(engine, record, moves, go):
    """(bestmove or None, [(depth, nodes, first move, score) of each finished iteration]) of one search from a fresh
    game of the position after `moves` from the record's FEN, `go` the arguments of the `go` command; None, with a
    message, where the engine refused the position or the search."""
    try:
        _, _, lines = search_lines(engine, record["fen"], None, moves, fresh=True, limit=go)
    except OSError as e:
        sys.exit(f"the engine stopped answering: {e}")
    errors = [line for line in lines if line.startswith("info string error")]
    if errors:
        print(f"{record['source']}: skipped: {errors[0]}", file=sys.stderr)
        return None
    iterations = [(depth, nodes, first, score_of(line))
                  for depth, nodes, _, first, line in finished_iterations(lines) if nodes is not None]
    words = lines[-1].split()
    best = words[1] if len(words) > 1 and words[1] not in ("(none)", "0000") else None
    return best, iterations


def limit_of(args):
    return f"depth {args.depth}" if args.depth else f"movetime {args.movetime}"


def quit_engine(engine):
    try:
        engine.quit()
    except Exception:  # an engine that will not quit is left to the end of this process
        pass


def confirm(args):
    records = read_set(args.set)
    engine = engine_of(args)
    kept = 0
    for record in records:
        free = search(engine, record, [], limit_of(args))
        restricted = free and search(engine, record, [], f"{limit_of(args)} searchmoves {record['move']}")
        if not restricted:
            continue
        (best, iterations), (_, move_iterations) = free, restricted
        best_score = iterations[-1][3] if iterations else None
        move_score = move_iterations[-1][3] if move_iterations else None
        # A search restricted to the move must have searched it: an engine that ignored the restriction would
        # make every move look as good as the best.
        searched = move_iterations and move_iterations[-1][2] == record["move"]
        if best is None or best_score is None or move_score is None or not searched:
            print(f"{record['source']}: no score for both searches, skipped", file=sys.stderr)
            continue
        if best != record["move"] and best_score - move_score >= args.loss:
            print(json.dumps({**record, "best": best, "best_score": best_score, "move_score": move_score}), flush=True)
            kept += 1
    quit_engine(engine)
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
    records = read_set(args.set)
    engine = engine_of(args)
    measured = []
    for record in records:
        searched = search(engine, record, [record["move"]], f"nodes {args.nodes}")
        if searched is None:
            continue
        best, iterations = searched
        record["found_at"] = found_at(iterations, best, record["reply"])
        measured.append(record)
        if args.verbose:
            print(f"{record['fen']} {record['move']} {record['reply']}: {record['found_at']}")
    quit_engine(engine)
    for name, group in by_engine(measured):
        found = [r["found_at"] for r in group if r["found_at"] is not None]
        logs = [math.log(max(args.nodes if r["found_at"] is None else r["found_at"], 1)) for r in group]
        mean = math.exp(sum(logs) / len(logs))
        print(f"{name}: {len(found)} of {len(group)} replies found, geometric mean {mean:.0f} nodes")


def repeat(args):
    records = read_set(args.set)
    engine = engine_of(args)
    measured = []
    for record in records:
        searched = search(engine, record, [], limit_of(args))
        if searched is None:
            continue
        best = searched[0]
        record["again"] = best == record["move"]
        measured.append(record)
        if args.verbose:
            print(f"{record['fen']} {record['move']}: {best}")
    quit_engine(engine)
    for name, group in by_engine(measured):
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
        if name == "confirm":
            p.add_argument("--loss", type=int, default=50, help="centipawns the move must lose to stay")
        else:
            p.add_argument("--verbose", action="store_true", help="a line per position")
        if name == "solve":
            p.add_argument("--nodes", type=int, default=1000000, help="node limit of each search")
        else:
            p.add_argument("--movetime", type=int, default=1000, help="milliseconds a search")
            p.add_argument("--depth", type=int, help="a fixed depth instead of --movetime")
        p.add_argument("options", nargs="*", help="NAME=VALUE engine options (anywhere after the set)")
    # Engine options may follow the flags: argparse leaves them over once the set is read.
    args, extra = ap.parse_known_args()
    if extra and (args.command == "extract" or any(w.startswith("-") for w in extra)):
        ap.error("unrecognized arguments: " + " ".join(extra))
    if extra:
        args.options += extra
    {"extract": extract, "confirm": confirm, "solve": solve, "repeat": repeat}[args.command](args)


if __name__ == "__main__":
    main()
