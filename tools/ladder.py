#!/usr/bin/env python3
"""A time-control ladder: the same pairs of games played at several clocks (or fixed times per move), one PGN per
rung, and one table with W/L/D, Elo +- 95% from the game pairs (pentanomial) and the pair counts per row.

Every rung is a `janggi match` with the same engines, openings and seed, so row differs from row only by the
clock. A rung whose PGN already has games is resumed (`--resume`), so a stopped ladder continues where it stopped;
`--shard I/N` plays shard I of every rung (the PGNs become NAME.I-of-N.pgn, as `janggi match` writes them) and
the table is drawn from every shard's PGN found, so shards run on several machines merge into one table once their
files sit in one folder (`--table-only` draws it without playing).

    tools/ladder.py --engines janggi,fairy-stockfish --rungs 10+0.1,30+0.3,60+0.6 --games 200,200,100 \\
        --openings book.epd --seed 7 --concurrency 2 --out ladder/

A rung is a clock BASE+INC in seconds, or `Nms` for a fixed time per move (`--movetime`), e.g. 200ms,600ms,2000ms.
Pictures of the time each engine spends per ply: tools/time_per_ply.py on the rungs' PGNs.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rung_file(out, rung):
    return os.path.join(out, f"ladder-{rung.replace('+', '_')}.pgn")


def rung_args(rung):
    if rung.endswith("ms"):
        return ["--movetime", rung[:-2]]
    return ["--tc", rung]


def shard_file(path, shard):
    if not shard:
        return path
    index, count = shard.split("/")
    if index == "auto":
        index = os.environ.get("JOB_COMPLETION_INDEX") or os.environ.get("SLURM_ARRAY_TASK_ID") or "0"
    stem, ext = os.path.splitext(path)
    return f"{stem}.{index}-of-{count}{ext}"


def play(args, rung, games):
    pgn = rung_file(args.out, rung)
    command = [args.binary, "match", "--config", args.config, "--engines", args.engines, "--games", str(games),
               "--concurrency", str(args.concurrency), "--pgn", pgn, *rung_args(rung)]
    if args.openings:
        command += ["--openings", args.openings]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    if args.variant:
        command += ["--variant", args.variant]
    if args.shard:
        command += ["--shard", args.shard]
    if os.path.exists(shard_file(pgn, args.shard)):
        command.append("--resume")
    print(f"ladder: {' '.join(command)}", file=sys.stderr, flush=True)
    done = subprocess.run(command, stdout=sys.stderr)
    if done.returncode != 0:
        sys.exit(f"ladder: the {rung} rung stopped with exit code {done.returncode}; run the same command to resume")


def row(args, rung):
    """The table row of a rung from every PGN of it (all shards), or None when none has games yet."""
    pgn = rung_file(args.out, rung)
    stem, ext = os.path.splitext(pgn)
    files = sorted(set(glob.glob(pgn) + glob.glob(f"{glob.escape(stem)}.*-of-*{ext}")))
    if not files:
        return None
    merged = subprocess.run([args.binary, "merge", *files], capture_output=True, text=True)
    if merged.returncode != 0:
        sys.exit(f"ladder: janggi merge {' '.join(files)} failed:\n{merged.stderr}")
    text = merged.stdout
    first = args.engines.split(",")[0]
    games = re.search(rf"^{re.escape(first)} vs (\S+): (\d+) - (\d+) - (\d+) \[([\d.]+)\] (\d+) games", text, re.M)
    pairs = re.search(
        rf"^{re.escape(first)} pairs \[[^\]]*\]: \[([^\]]*)\] (\d+) pairs, Elo (\S+) ± (\S+) \(95%\)", text, re.M)
    terminations = re.search(r"^Terminations: (.*)$", text, re.M)
    forfeits = re.search(r"time forfeit (\d+)", terminations.group(1)) if terminations else None
    if not games:
        sys.exit(f"ladder: no result of {first} in the merge of {files}:\n{text}")
    wins, losses, draws, score, count = games.group(2, 3, 4, 5, 6)
    elo = f"{pairs.group(3)} ± {pairs.group(4)}" if pairs else "n/a"
    pentanomial = f"[{pairs.group(1)}] ({pairs.group(2)} pairs)" if pairs else "n/a"
    return (f"| {rung} | {count} | {wins} - {losses} - {draws} | {float(score) * 100:.1f}% | {elo} | {pentanomial} "
            f"| {forfeits.group(1) if forfeits else 0} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", required=True, help="two engines of the config, e.g. janggi,fairy-stockfish")
    parser.add_argument("--rungs", required=True, help="clocks BASE+INC or fixed move times Nms, comma-separated")
    parser.add_argument("--games", required=True, help="games per rung: one number, or one per rung")
    parser.add_argument("--out", required=True, help="folder of the rungs' PGN files")
    parser.add_argument("--config", default="engines.toml")
    parser.add_argument("--openings")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--variant")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--shard", help="I/N: play shard I of N of every rung")
    parser.add_argument("--table-only", action="store_true", help="draw the table from the PGNs, play nothing")
    parser.add_argument("--binary", default=os.path.join(REPO, "target/release/janggi"))
    args = parser.parse_args()
    rungs = args.rungs.split(",")
    games = [int(g) for g in args.games.split(",")]
    if len(games) == 1:
        games *= len(rungs)
    if len(games) != len(rungs) or not all(re.fullmatch(r"\d+(\.\d+)?\+\d+(\.\d+)?|\d+ms", r) for r in rungs):
        sys.exit("ladder: --rungs are BASE+INC or Nms, and --games is one number or one per rung")
    os.makedirs(args.out, exist_ok=True)
    if not args.table_only:
        for rung, n in zip(rungs, games):
            play(args, rung, n)
    first, second = args.engines.split(",")[:2]
    print(f"{first} against {second}: Elo from game pairs (pentanomial), pairs [0, 0.5, 1, 1.5, 2 points]")
    print()
    print("| time control | games | W - L - D | score | Elo ± 95% | pairs | time forfeits |")
    print("|---|---|---|---|---|---|---|")
    for rung in rungs:
        line = row(args, rung)
        print(line if line else f"| {rung} | 0 | | | | | |")


if __name__ == "__main__":
    main()
