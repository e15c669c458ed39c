#!/usr/bin/env python3
"""Time per move by ply: reads match PGNs (`janggi match` writes each move's time as `{+0.11/8 0.377s ...}` and,
with clocks, the clock after it as `[%clk H:MM:SS.mmm]`) and draws, per engine, the mean seconds it spent on the
moves at each ply of the game, as an SVG line chart: where an engine spends its clock, and where it saves it.

    tools/time_per_ply.py ladder/ladder-30_0.3.pgn --out docs/time-per-ply-30+0.3.svg --title "30+0.3"

A ply is drawn while at least --min-games games (default 3) still go on at it; each point is the mean over
--smooth plies around it (default 6: three moves of each side), since one ply's mean over a few games is noisy.
Without --out the SVG goes to stdout. Each engine's totals (moves, mean and longest move) are printed on stderr.
"""

import argparse
import re
import sys
from collections import defaultdict

TIME = re.compile(r"(?:^|\s)(\d+\.\d+)s(?:\s|$)")
COLORS = ["#0b7a6e", "#c4122f", "#1c6fd6", "#e8590c", "#6741d9", "#5c940d"]


def games(text):
    """(tags, [(move, seconds)]) for every game of a PGN text."""
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', chunk, re.M))
        body = re.sub(r"^\[.*\]\s*$", "", chunk, flags=re.M)
        moves = []
        for token, comment in re.findall(r"([a-i]\d+[a-i]\d+|pass|@@@@)\s*(?:\{([^}]*)\})?", body):
            match = TIME.search(comment or "")
            moves.append((token, float(match.group(1)) if match else None))
        if tags:
            yield tags, moves


def collect(paths):
    """Per engine, per ply (from 1): the seconds of each move played there; and the time controls seen."""
    times = defaultdict(lambda: defaultdict(list))
    controls, count = set(), 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for tags, moves in games(f.read()):
                count += 1
                controls.add(tags.get("TimeControl", "?"))
                first = 0 if " w " in f" {tags.get('FEN', ' w ')} " else 1
                names = [tags.get("White", "White"), tags.get("Black", "Black")]
                for ply, (_, seconds) in enumerate(moves, start=1):
                    if seconds is not None:
                        times[names[(ply - 1 + first) % 2]][ply].append(seconds)
    return times, controls, count


def svg(times, title, min_games, smooth):
    width, height, left, right, top, bottom = 900, 420, 64, 180, 48, 48
    plies = sorted({p for per in times.values() for p, v in per.items() if len(v) >= min_games})
    if not plies:
        sys.exit(f"time_per_ply: no ply with {min_games} games or more")
    means = {}
    for e, per in times.items():
        kept = {p: v for p, v in per.items() if len(v) >= min_games}
        means[e] = {}
        for p in kept:
            near = [t for q in range(p - smooth // 2, p + (smooth + 1) // 2) for t in kept.get(q, [])]
            means[e][p] = sum(near) / len(near)
    top_value = max(max(m.values(), default=0) for m in means.values()) or 1.0
    step = [s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20) if top_value / s <= 8][0]
    y_max = step * (int(top_value / step) + 1)
    x_max = plies[-1]

    def x(p):
        return left + (width - left - right) * (p - 1) / max(x_max - 1, 1)

    def y(v):
        return height - bottom - (height - top - bottom) * v / y_max

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#fffdf8"/>',
           f'<text x="{left}" y="24" font-size="15" font-weight="bold">{title}</text>']
    for i in range(int(y_max / step) + 1):
        v = i * step
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#e5ddd0"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g} s</text>')
    tick = max(10, (x_max // 10 + 9) // 10 * 10)
    for p in range(tick, x_max + 1, tick):
        out.append(f'<text x="{x(p):.1f}" y="{height - bottom + 18}" text-anchor="middle">{p}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 10}" text-anchor="middle">ply of the game</text>')
    out.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" stroke="#5b3a1a"/>')
    for i, (engine, m) in enumerate(sorted(means.items())):
        color = COLORS[i % len(COLORS)]
        points = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v in sorted(m.items()))
        out.append(f'<polyline class="engine" data-engine="{engine}" fill="none" stroke="{color}" '
                   f'stroke-width="2" points="{points}"/>')
        moves = sum(len(v) for v in times[engine].values())
        mean = sum(sum(v) for v in times[engine].values()) / max(moves, 1)
        out.append(f'<text x="{width - right + 12}" y="{top + 20 + 36 * i}" fill="{color}" '
                   f'font-weight="bold">{engine}</text>')
        out.append(f'<text x="{width - right + 12}" y="{top + 36 + 36 * i}" fill="{color}">'
                   f'mean {mean:.3f} s a move</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--out")
    parser.add_argument("--title")
    parser.add_argument("--min-games", type=int, default=3)
    parser.add_argument("--smooth", type=int, default=6, help="plies averaged into each point (1: none)")
    args = parser.parse_args()
    times, controls, count = collect(args.pgn)
    if not times:
        sys.exit("time_per_ply: no move with a time in " + ", ".join(args.pgn))
    title = args.title or f"Seconds per move by ply, {', '.join(sorted(controls))}"
    title += f" ({count} games)"
    text = svg(times, title, args.min_games, max(args.smooth, 1))
    for engine, per in sorted(times.items()):
        all_times = [t for v in per.values() for t in v]
        print(f"{engine}: {len(all_times)} moves, mean {sum(all_times) / len(all_times):.3f} s, "
              f"longest {max(all_times):.3f} s", file=sys.stderr)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
