#!/usr/bin/env python3
"""Speed of the browser build against the native binary, same machine, same run: nodes per second of a fixed-depth
search from the start position with one thread, with the net and with the classical evaluation, in headless
Chromium (tests/web/engine.html?bench=DEPTH) and in `target/release/janggi`, alternated ROUNDS times. Each side
first searches to depth 6 once so that start-up (workers, the net's tables) is not counted; the time is the
engine's own `time` of its last `info` line.

    web/build.sh && cargo build --release && python3 web/bench.py --depth 13 --rounds 3
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def last_info(lines, key):
    values = [l.split(f" {key} ")[1].split()[0] for l in lines if f" {key} " in l]
    return int(values[-1])


def native(binary, depth, nnue):
    script = "".join(
        f"{l}\n"
        for l in [
            "uci",
            "setoption name Threads value 1",
            f"setoption name Use NNUE value {'true' if nnue else 'false'}",
            "position startpos",
            "go depth 6",
        ]
    )
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(script)
    p.stdin.flush()
    while True:
        line = p.stdout.readline().strip()
        if line.startswith("bestmove"):
            break
    p.stdin.write(f"ucinewgame\nposition startpos\ngo depth {depth}\n")
    p.stdin.flush()
    lines = []
    while True:
        line = p.stdout.readline().strip()
        lines.append(line)
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait()
    return last_info(lines, "nodes"), last_info(lines, "time")


def browser(depth):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.txt")
        server = subprocess.Popen(
            [sys.executable, os.path.join(REPO, "web/serve.py"), "--port", "0", "--report", report],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        port = server.stdout.readline().strip()
        chrome = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={tmp}/profile", "--remote-debugging-port=0",
             f"http://127.0.0.1:{port}/tests/web/engine.html?bench={depth}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.time() + 600
            while time.time() < deadline:
                if os.path.exists(report):
                    reports = [json.loads(l) for l in open(report)]
                    if any(r.get("done") for r in reports):
                        break
                time.sleep(0.2)
            else:
                sys.exit("the page did not finish")
        finally:
            chrome.kill()
            server.kill()
        errors = [r for r in reports if r.get("check") == "error"]
        if errors:
            sys.exit(f"the page failed: {errors}")
        return {r["eval"]: (r["nodes"], r["engineMs"]) for r in reports if r.get("check") == "depth"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=13)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--binary", default=os.path.join(REPO, "target/release/janggi"))
    args = parser.parse_args()
    rows = {"nnue": [], "classical": []}
    for _ in range(args.rounds):
        web = browser(args.depth)
        for name in rows:
            nodes, ms = native(args.binary, args.depth, name == "nnue")
            wnodes, wms = web[name]
            if nodes != wnodes:
                sys.exit(f"{name}: native searched {nodes} nodes, the browser {wnodes}")
            rows[name].append((nodes, nodes * 1000 / max(ms, 1), wnodes * 1000 / max(wms, 1)))
    print(f"| evaluation | nodes (depth {args.depth}) | native nodes/s | browser nodes/s | browser / native |")
    print("|---|---|---|---|---|")
    for name, runs in rows.items():
        native_nps = " / ".join(f"{n:,.0f}" for _, n, _ in runs)
        web_nps = " / ".join(f"{w:,.0f}" for _, _, w in runs)
        ratio = sum(w for _, _, w in runs) / sum(n for _, n, _ in runs)
        print(f"| {name} | {runs[0][0]:,} | {native_nps} | {web_nps} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
