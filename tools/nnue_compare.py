#!/usr/bin/env python3
"""Compare janggi's NNUE evaluation with a live Fairy-Stockfish on the same net, position by position.

Random games of the four host rule sets are played with pyffish (random setups; the random mover favours
captures, so games reach few-piece endings, and also passes and general moves, so the general crosses buckets and
bikjang occurs). Every position is given to Fairy-Stockfish (`setoption name EvalFile value NET`, `position fen F`,
`eval`) and to `janggi nnue eval --net NET`, and the two outputs are compared: the bucket table (Material,
Positional, Total of all eight buckets and the bucket used), the `NNUE evaluation` line and the derived piece
values on the board. Fairy-Stockfish prints no NNUE part for a side in check; those positions are skipped.

Fairy-Stockfish applies a net only when the file name starts with the variant's name, so the net is copied to
`janggi-….nnue` in a temporary folder. Without --net, a random net is written with `janggi nnue random`.

    cargo build --release
    python3 tools/nnue_compare.py --fs /path/to/fairy-stockfish --positions 10000 --seed 1

With --write-data FILE, the first --data-count compared positions are written as the expected values that
tests/nnue.rs checks without Fairy-Stockfish. Exit status 1 if any position disagrees.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    import pyffish
except ImportError:
    sys.exit("nnue_compare: pyffish is not installed (pip install pyffish)")

VARIANTS = ["janggi", "janggitraditional", "janggimodern", "janggicasual"]
BACK_RANKS = ["rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr"]
MAX_PLIES = 250


def endgame_fen(rng):
    """Generals on random palace points and two to seven other pieces on random points (guards in their palace,
    soldiers where soldiers can stand)."""
    board = {}
    for side, ranks in (("K", (1, 2, 3)), ("k", (8, 9, 10))):
        board[(rng.choice("def"), rng.choice(ranks))] = side
    for _ in range(rng.randint(2, 7)):
        letter = rng.choice("RCNBAP")
        piece = letter if rng.random() < 0.5 else letter.lower()
        cho = piece.isupper()
        if letter == "A":
            square = (rng.choice("def"), rng.choice((1, 2, 3) if cho else (8, 9, 10)))
        elif letter == "P":
            square = (rng.choice("abcdefghi"), rng.randint(4, 10) if cho else rng.randint(1, 7))
        else:
            square = (rng.choice("abcdefghi"), rng.randint(1, 10))
        board.setdefault(square, piece)
    rows = []
    for rank in range(10, 0, -1):
        row, empty = "", 0
        for f in "abcdefghi":
            p = board.get((f, rank))
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1"


JANGGI = "target/release/janggi"


def our_fen_reader_accepts(fen):
    """Our reader also refuses a position whose side not to move is in check (pyffish accepts it)."""
    run = subprocess.run([JANGGI, "perft", "--fen", fen, "--depth", "1"], capture_output=True)
    return run.returncode == 0


def setup_fen(rng):
    if rng.random() < 0.2:
        for _ in range(100):
            fen = endgame_fen(rng)
            if (pyffish.validate_fen(fen, "janggi") == pyffish.FEN_OK and pyffish.legal_moves("janggi", fen, [])
                    and our_fen_reader_accepts(fen)):
                return fen
    han, cho = rng.choice(BACK_RANKS), rng.choice(BACK_RANKS)
    return f"{han}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{cho.upper()} w - - 0 1"


def board_of(fen):
    """Point name -> piece letter."""
    squares = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f, digits = 0, ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                f += int(digits)
                digits = ""
            if ch != " ":
                squares[f"{chr(ord('a') + f)}{10 - r}"] = ch
                f += 1
    return squares


def split_move(m):
    cut = 2 if m[2].isalpha() else 3
    return m[:cut], m[cut:]


def random_game(rng, variant):
    """FENs of one random game. Each step asks pyffish about the last FEN and the last two moves only (enough
    for two passes in a row and bikjang), which keeps long games fast."""
    fens, moves = [setup_fen(rng)], []
    kinds = [set()]
    capture_bias = rng.choice([0.3, 0.7, 0.95])
    for _ in range(MAX_PLIES):
        base, recent = (fens[-3], moves[-2:]) if len(moves) >= 2 else (fens[0], moves[:])
        legal = pyffish.legal_moves(variant, base, recent)
        if not legal or pyffish.is_immediate_game_end(variant, base, recent)[0]:
            break
        board = board_of(fens[-1])
        split = [(m, *split_move(m)) for m in legal]
        passes = [m for m, a, b in split if a == b]
        captures = [m for m, a, b in split if a != b and b in board]
        generals = [m for m, a, b in split if a != b and board.get(a, "").lower() == "k"]
        roll = rng.random()
        if captures and roll < capture_bias:
            m = rng.choice(captures)
        elif passes and roll < capture_bias + 0.05:
            m = passes[0]
        elif generals and roll < capture_bias + 0.15:
            m = rng.choice(generals)
        else:
            m = rng.choice(legal)
        moves.append(m)
        fens.append(pyffish.get_fen(variant, base, recent + [m]))
        kinds.append({"after a pass"} if m in passes else {"after a general move"} if m in generals else set())
    for fen, k in zip(fens, kinds):
        board = board_of(fen)
        if len(board) <= 10:
            k.add("10 pieces or fewer")
        generals = sorted((sq for sq, p in board.items() if p.lower() == "k"), key=lambda s: int(s[1:]))
        if len(generals) == 2 and generals[0][0] == generals[1][0]:
            low, high = int(generals[0][1:]), int(generals[1][1:])
            if not any(f"{generals[0][0]}{r}" in board for r in range(low + 1, high)):
                k.add("bikjang (generals facing)")
    return list(zip(fens, kinds))


class FairyStockfish:
    def __init__(self, path, net):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.net = net
        self.variant = None
        self.send("uci")
        self.read_until("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, marker):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            line = line.rstrip("\n")
            if line == marker:
                return lines
            lines.append(line)

    def eval(self, variant, fen):
        if variant != self.variant:
            self.send(f"setoption name UCI_Variant value {variant}")
            self.send(f"setoption name EvalFile value {self.net}")
            self.variant = variant
        self.send(f"position fen {fen}")
        self.send("eval")
        self.send("isready")
        return self.read_until("readyok")

    def close(self):
        self.send("quit")
        self.proc.wait()


def nnue_part(lines):
    """The lines from the piece values to the NNUE evaluation line, or None (no NNUE output: in check)."""
    try:
        start = lines.index(" NNUE derived piece values:")
    except ValueError:
        return None
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("NNUE evaluation"))
    keep = [l for l in lines[start:end + 1] if l.strip() != "" and not l.startswith("Classical evaluation")]
    return keep


def ours(janggi, net, fens):
    out = subprocess.run([janggi, "nnue", "eval", "--net", net], input="\n".join(fens) + "\n",
                         capture_output=True, text=True).stdout.split("\n")
    blocks, current = [], None
    for line in out:
        if line.startswith("fen: "):
            current = []
            blocks.append(current)
        elif current is not None:
            current.append(line)
    return [nnue_part(b) for b in blocks]


def table_summary(part):
    """One line: the bucket rows' cells without padding and the NNUE evaluation (the test data's form)."""
    table = part[part.index(next(l for l in part if "NNUE network contributions" in l)):]
    rows = [l for l in table if l.startswith("|  ") and l[3].isdigit()]
    cells = []
    for row in rows:
        fields = [f.replace(" ", "") for f in row.split("|")[2:5]]
        used = "*" if "this bucket is used" in row else ""
        cells.append(",".join(fields) + used)
    evaluation = next(l for l in part if l.startswith("NNUE evaluation")).split()[2]
    return "\t".join(cells + [evaluation])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fs", required=True, help="the Fairy-Stockfish binary (largeboards build)")
    ap.add_argument("--janggi", default="target/release/janggi")
    ap.add_argument("--net", help="a net file (default: janggi nnue random --seed NET_SEED)")
    ap.add_argument("--net-seed", type=int, default=7)
    ap.add_argument("--saturating", action="store_true", help="a random net whose hidden layers saturate")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write-data", help="write the first --data-count positions' expected tables here")
    ap.add_argument("--data-count", type=int, default=400)
    args = ap.parse_args()

    global JANGGI
    JANGGI = args.janggi
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="nnue_compare_")
    try:
        net = os.path.join(tmp, "janggi-compare.nnue")
        if args.net:
            shutil.copyfile(args.net, net)
        else:
            extra = ["--saturating"] if args.saturating else []
            subprocess.run([args.janggi, "nnue", "random", "--seed", str(args.net_seed), "--out", net] + extra,
                           check=True, capture_output=True)
        fs = FairyStockfish(args.fs, net)
        compared = skipped = refused = table_mismatch = board_mismatch = 0
        buckets_seen = set()
        counts = {}
        step = max(1, args.positions // args.data_count)
        data = []
        seen = set()
        while compared < args.positions:
            variant = rng.choice(VARIANTS)
            game = [(f, k) for f, k in random_game(rng, variant) if f not in seen]
            fens = [f for f, _ in game]
            kinds = dict(game)
            seen.update(fens)
            theirs = [nnue_part(fs.eval(variant, f)) for f in fens]
            mine = ours(args.janggi, net, fens)
            for fen, t, m in zip(fens, theirs, mine):
                if t is None:
                    skipped += 1
                    continue
                if compared >= args.positions:
                    break
                compared += 1
                for k in kinds[fen] | {variant}:
                    counts[k] = counts.get(k, 0) + 1
                if m is None:
                    refused += 1
                    print(f"REFUSED by our FEN reader: {variant} {fen}", file=sys.stderr)
                    continue
                ts, ms = table_summary(t), table_summary(m)
                buckets_seen.add(next(i for i, c in enumerate(ts.split("\t")) if c.endswith("*")))
                if ts != ms:
                    table_mismatch += 1
                    print(f"TABLE MISMATCH {variant} {fen}\n  fs:   {ts}\n  ours: {ms}", file=sys.stderr)
                elif t != m:
                    board_mismatch += 1
                    print(f"PIECE VALUES MISMATCH {variant} {fen}", file=sys.stderr)
                    for a, b in zip(t, m):
                        if a != b:
                            print(f"  fs:   {a!r}\n  ours: {b!r}", file=sys.stderr)
                if compared % step == 0 and len(data) < args.data_count:
                    data.append(f"{fen}\t{ts}")
        fs.close()
        print(f"positions compared: {compared} (skipped in check: {skipped}); buckets used: {sorted(buckets_seen)}")
        print("kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        print(f"table or NNUE evaluation mismatches: {table_mismatch}; piece value mismatches: {board_mismatch}; "
              f"positions our FEN reader refused: {refused}")
        if args.write_data:
            with open(args.write_data, "w") as f:
                f.write("# fen<TAB>bucket 0..7 as material,positional,total (* = used)<TAB>NNUE evaluation, "
                        "from Fairy-Stockfish's eval\n")
                f.write("\n".join(data) + "\n")
        sys.exit(1 if table_mismatch or board_mismatch or refused else 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
