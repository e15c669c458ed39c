#!/usr/bin/env python3
"""Search speed with a NNUE net, ours against Fairy-Stockfish's, on the bench positions (src/search/bench.rs).

Both engines get the same net file (Fairy-Stockfish applies a Janggi net only when the file name starts with
`janggi`), one thread, 16 MB of hash, `ucinewgame` before each position, and `go depth N`. Each engine's nodes
are those of its last report; its time is the wall time from `go` to `bestmove`, measured here the same way for
both. The two engines run side by side and take turns position by position (the one that starts alternates), so
a machine shared with other work slows both alike. `--repeat R` goes over the positions R times. Prints
per-engine totals and the ratio of nodes per second.

    python3 tools/nnue_speed.py --ours target/release/janggi --fs /path/to/stockfish --net /tmp/janggi-7.nnue --depth 9 --repeat 2
"""
import argparse
import pathlib
import re
import subprocess
import sys
import time


def bench_positions(root):
    text = (root / "src" / "search" / "bench.rs").read_text()
    block = text[text.index("pub const POSITIONS"):]
    block = block[: block.index("];")]
    return re.findall(r'"([^"]+)"', block)


class Uci:
    def __init__(self, path, args=()):
        self.p = subprocess.Popen([path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended before '{prefix}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def start_with(path, options, args=()):
    """The engine at `path` (started with `args`) after `uci`, each (name, value) of `options` set and
    `readyok`; any error it reports on the way ends the run."""
    e = Uci(path, args)
    e.send("uci")
    e.until("uciok")
    for name, value in options:
        e.send(f"setoption name {name} value {value}")
    e.send("isready")
    for line in e.until("readyok"):
        if "error" in line.lower():
            sys.exit(f"{path}: {line}")
    return e


def start(path, net):
    return start_with(path, [("UCI_Variant", "janggi"), ("Threads", "1"), ("Hash", "16"), ("EvalFile", net),
                             ("Use NNUE", "true")])


def games_of(pgn_text):
    """(start FEN or None where the game has no [FEN] header, [moves in UCI notation]) of each game of a PGN
    written by `janggi match`; comments are skipped."""
    out = []
    for block in re.split(r"\n(?=\[Event )", pgn_text):
        if not block.lstrip().startswith("[Event "):
            continue
        fen = re.search(r'\[FEN "([^"]+)"\]', block)
        body = re.sub(r"\{[^}]*\}", " ", block.split("\n\n", 1)[1] if "\n\n" in block else "")
        moves = [t for t in body.split() if re.fullmatch(r"[a-i](10|[1-9])[a-i](10|[1-9])", t)]
        out.append((fen.group(1) if fen else None, moves))
    return out


def parse_options(words):
    """(name, value) pairs of NAME=VALUE words; a word without '=' ends the run."""
    options = []
    for o in words:
        name, sep, value = o.partition("=")
        if not sep:
            sys.exit(f"'{o}': options are NAME=VALUE")
        options.append((name, value))
    return options


def search(e, fen, depth, moves=(), fresh=True):
    """Nodes and wall seconds of one search of the position after `moves` from `fen`: from a fresh game, or
    (`fresh` False) with whatever the engine kept from its searches before."""
    nodes, secs, _ = search_lines(e, fen, depth, moves, fresh)
    return nodes, secs


def search_lines(e, fen, depth, moves=(), fresh=True, limit=None):
    """As `search`, with the engine's output lines from the position on (those before `readyok` too, where an
    engine reports a position it refused) as a third value; `limit` replaces `depth D` as the `go` arguments."""
    if fresh:
        e.send("ucinewgame")
    e.send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
    e.send("isready")
    lines = e.until("readyok")
    start_time = time.perf_counter()
    e.send(f"go {limit or f'depth {depth}'}")
    lines += e.until("bestmove")
    secs = time.perf_counter() - start_time
    nodes = [int(m.group(1)) for l in lines for m in [re.search(r"\bnodes (\d+)", l)] if m]
    return (nodes[-1] if nodes else 0), secs, lines


def finished_iterations(lines):
    """(depth, nodes or None, milliseconds or None, first move, line) of each report of a finished iteration among
    an engine's `lines`: an exact score (no bound), a line of moves, and of MultiPV's first line only."""
    out = []
    for line in lines:
        if not line.startswith("info ") or " pv " not in line or re.search(r"\b(lower|upper)bound\b", line):
            continue
        multipv = re.search(r"\bmultipv (\d+)", line)
        depth = re.search(r"\bdepth (\d+)", line)
        pv = line.split(" pv ", 1)[1].split()
        if (multipv and multipv.group(1) != "1") or not depth or not pv:
            continue
        nodes, ms = re.search(r"\bnodes (\d+)", line), re.search(r"\btime (\d+)", line)
        out.append((int(depth.group(1)), nodes and int(nodes.group(1)), ms and int(ms.group(1)), pv[0], line))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", default="target/release/janggi")
    ap.add_argument("--fs", required=True, help="Fairy-Stockfish binary (largeboards build)")
    ap.add_argument("--net", required=True, help="net file; its name must start with 'janggi'")
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=1, help="passes over the positions")
    args = ap.parse_args()
    if not pathlib.Path(args.net).name.startswith("janggi"):
        sys.exit("Fairy-Stockfish applies a Janggi net only when its file name starts with 'janggi'")
    fens = bench_positions(pathlib.Path(__file__).resolve().parent.parent)
    names = ("janggi", "fairy-stockfish")
    engines = {name: start(path, args.net) for name, path in zip(names, (args.ours, args.fs))}
    totals = {name: [0, 0.0] for name in names}
    turn = 0
    for _ in range(args.repeat):
        for fen in fens:
            order = names if turn % 2 == 0 else names[::-1]
            turn += 1
            for name in order:
                nodes, secs = search(engines[name], fen, args.depth)
                totals[name][0] += nodes
                totals[name][1] += secs
    for e in engines.values():
        e.quit()
    results = {}
    for name in names:
        nodes, secs = totals[name]
        results[name] = nodes / secs
        print(f"{name:16} depth {args.depth}: {nodes:>10} nodes in {secs:7.2f} s = {nodes / secs:>9.0f} nodes/s")
    print(f"ratio janggi / fairy-stockfish nodes/s: {results['janggi'] / results['fairy-stockfish']:.2f}")


if __name__ == "__main__":
    main()
