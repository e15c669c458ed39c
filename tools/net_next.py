#!/usr/bin/env python3
"""One generation of the net in one command: self-play data from the current net, a candidate trained on it, a
match of the candidate against the current net, and the verdict (replace it, or keep it).

    tools/net_next.py --dir gen3 --hours 6                 # all four steps; the data for six hours
    tools/net_next.py --dir gen3 --positions 2000000       # or until the run holds this many positions

Everything lives in the run's folder (`--dir`): `run.json` (the settings, fixed by the first call: a later call
that names another value is refused, so two experiments' settings never mix), `parent/` (the current net),
`data/` (datagen files, one per seed), `train/` (checkpoints, the log, the candidate), `openings.epd`,
`match.pgn` and `verdict.txt`. Every step resumes: run the same command again after a stop, a Ctrl-C or a kill.

- **datagen** plays the parent's games (`janggi datagen --net parent`), one file per seed, until the run holds
  `--positions` or `--hours` have passed in this call (then `all` trains on what there is); Ctrl-C (or the time) lets the games in progress finish.
  A file cut by a kill is trimmed to its last whole record, so no finished game is lost; the next call starts a
  new seed, so data accumulates across days. `--shard I/N` (or `auto/N`) plays shard I of each seed's games into
  its own file (`NAME.I-of-N.bin`), for a cluster's array job over one shared folder.
- **train** trains the candidate on every data file (continuing the parent, `--init`, unless `--scratch`), with
  the positions' mirror images; an interrupted training continues from its checkpoint.
- **match** plays the candidate against the parent at `--tc` from `--openings` random openings made with a seed of
  its own, each with both colours, stopping early once the pentanomial SPRT (`--sprt ELO0,ELO1`) decides; with
  `--shard` each shard plays its share without the SPRT.
- **verdict** merges every match PGN (`janggi merge --sprt`) and says `replace` (the SPRT accepted the candidate),
  `keep` (it rejected it) or `undecided` (no decision in the games played: the parent stays), with the figures.

`--step datagen|train|match|verdict` runs one step; `all` (the default) runs them in order. docs/nets.md has the
recipe and the lineage of the shipped nets.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = ["datagen", "train", "match", "verdict"]
HEADER_BYTES = 16
RECORD_BYTES = 32
MAGIC = b"JANGGIDG"

# The settings of a run, their defaults, and what each does. The first call writes them to run.json.
SETTINGS = {
    "nodes": (5000, int, "nodes searched per move in the self-play games (the labels' quality)"),
    "positions": (2_000_000, int, "positions of data the run aims for, all shards together"),
    "random_plies": (8, int, "random plies at the start of each self-play game"),
    "lambda_": (1.0, float, "weight of the search score in the training target (the game result has the rest)"),
    "epochs": (3, int, "passes over the data"),
    "lr": (3e-4, float, "Adam's learning rate at the start"),
    "lr_drop_every": (2, int, "multiply the rate by --lr-gamma every this many epochs"),
    "lr_gamma": (0.3, float, "the rate's factor at each drop"),
    "scratch": (False, bool, "train from fresh weights instead of continuing the parent"),
    "tc": ("10+0.1", str, "the match's clock BASE+INC in seconds, or Nms a move"),
    "games": (400, int, "the most match games (each opening with both colours)"),
    "sprt": ("0,10", str, "the SPRT's ELO0,ELO1 (pentanomial, alpha = beta = 0.05)"),
    "seed": (1, int, "first datagen seed (the k-th data file uses seed + k); the openings use seed + 1000003"),
}


def fail(message):
    sys.exit(f"net_next: {message}")


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_net():
    nets = sorted(glob.glob(os.path.join(REPO, "nets", "janggi-*.nnue")))
    if len(nets) != 1:
        fail(f"give --net: expected one shipped net in {os.path.join(REPO, 'nets')}, found {len(nets)}")
    return nets[0]


def settings(args):
    """The run's settings: run.json's when the run exists (a flag naming another value is refused), else the
    flags' (or the defaults), written to run.json together with the parent net."""
    path = os.path.join(args.dir, "run.json")
    given = {k: getattr(args, k) for k in SETTINGS if getattr(args, k) is not None}
    if os.path.exists(path):
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"{path}: {e}")
        for key, value in given.items():
            if key in run and run[key] != value:
                flag = "--" + key.rstrip("_").replace("_", "-")
                fail(f"{args.dir} was started with {flag} {run[key]}; this call says {value}: the settings of two "
                     f"experiments are never mixed (use another --dir)")
        if args.net and sha256(args.net) != run["parent_sha256"]:
            fail(f"{args.dir} continues {run['parent']}; --net {args.net} is another net (use another --dir)")
        return run
    run = {k: given.get(k, default) for k, (default, _, _) in SETTINGS.items()}
    if not re.fullmatch(r"\d+(\.\d+)?\+\d+(\.\d+)?|\d+ms", run["tc"]):
        fail(f"--tc {run['tc']}: a clock BASE+INC in seconds or Nms a move")
    if not re.fullmatch(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", run["sprt"]):
        fail(f"--sprt {run['sprt']}: ELO0,ELO1")
    parent = args.net or default_net()
    if not os.path.isfile(parent):
        fail(f"--net {parent}: no such file")
    os.makedirs(os.path.join(args.dir, "parent"), exist_ok=True)
    # Fairy-Stockfish loads a Janggi net only by a name starting with "janggi"; keep the parent's name.
    name = os.path.basename(parent) if os.path.basename(parent).startswith("janggi") else "janggi-parent.nnue"
    shutil.copyfile(parent, os.path.join(args.dir, "parent", name))
    run["parent"] = name
    run["parent_sha256"] = sha256(parent)
    with open(path + ".tmp", "w") as f:
        json.dump(run, f, indent=1)
    os.replace(path + ".tmp", path)
    return run


def janggi(args, *command, **kwargs):
    return subprocess.run([args.binary, *command], **kwargs)


def shard_parts(shard):
    """(index, count) of I/N or auto/N (the index from the array job's environment), or None."""
    if not shard:
        return None
    m = re.fullmatch(r"(\d+|auto)/(\d+)", shard)
    if not m or int(m.group(2)) == 0:
        fail(f"--shard {shard}: I/N or auto/N")
    index = m.group(1)
    if index == "auto":
        index = os.environ.get("JOB_COMPLETION_INDEX") or os.environ.get("SLURM_ARRAY_TASK_ID")
        if index is None:
            fail("--shard auto/N needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
    if int(index) >= int(m.group(2)):
        fail(f"--shard {shard}: the index must be below the count")
    return int(index), int(m.group(2))


def data_files(run_dir):
    return sorted(glob.glob(os.path.join(run_dir, "data", "*.bin")))


def check_data_file(path):
    """Refuses a file that is not datagen data; trims a record cut by a kill. Returns its positions."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        header = f.read(HEADER_BYTES)
    if len(header) < HEADER_BYTES and size > 0:
        fail(f"{path}: not a datagen file (shorter than its header); move it out of the run's data folder")
    if size == 0:
        # Created, but killed before the header was written: nothing to keep.
        os.remove(path)
        return 0
    if header[:8] != MAGIC or int.from_bytes(header[8:10], "little") != 1 or \
            int.from_bytes(header[10:12], "little") != RECORD_BYTES:
        fail(f"{path}: not a datagen file of format 1 (docs/datagen-format.md); move it out of the run's data folder")
    whole = HEADER_BYTES + (size - HEADER_BYTES) // RECORD_BYTES * RECORD_BYTES
    if whole != size:
        print(f"net_next: {path}: trimming a record cut short ({size - whole} bytes)", file=sys.stderr)
        os.truncate(path, whole)
    return (whole - HEADER_BYTES) // RECORD_BYTES


def step_datagen(args, run):
    if candidate(args):
        print("net_next: datagen: the candidate is trained already; its data stays as it is", file=sys.stderr)
        return
    shard = shard_parts(args.shard)
    data = os.path.join(args.dir, "data")
    os.makedirs(data, exist_ok=True)
    # Only this shard's files are checked (and trimmed): the other shards may be writing theirs right now.
    mine = [f for f in data_files(args.dir) if not shard or f.endswith(f".{shard[0]}-of-{shard[1]}.bin")]
    have = sum(check_data_file(f) for f in mine)
    target = run["positions"] // (shard[1] if shard else 1)
    print(f"net_next: datagen: this {'shard' if shard else 'run'} has {have} positions of {target}", file=sys.stderr)
    deadline = time.monotonic() + args.hours * 3600 if args.hours is not None else None
    parent = os.path.join(args.dir, "parent", run["parent"])
    k = 0
    while have < target and (deadline is None or time.monotonic() < deadline):
        seed = run["seed"] + k
        name = os.path.join(data, f"gen-{seed}.bin")
        own = f"{name[:-4]}.{shard[0]}-of-{shard[1]}.bin" if shard else name
        k += 1
        if os.path.exists(own):
            continue
        command = [args.binary, "datagen", "--net", parent, "--nodes", str(run["nodes"]), "--games", "1000000",
                   "--random-plies", str(run["random_plies"]), "--threads", str(args.threads), "--seed", str(seed),
                   "--out", name]
        if shard:
            command += ["--shard", f"{shard[0]}/{shard[1]}"]
        print(f"net_next: {' '.join(command)}", file=sys.stderr, flush=True)
        child = subprocess.Popen(command, stdout=sys.stderr)
        before = have
        stopping = False
        try:
            while child.poll() is None:
                time.sleep(0.5)
                made = (os.path.getsize(own) - HEADER_BYTES) // RECORD_BYTES if os.path.exists(own) else 0
                have = before + max(made, 0)
                late = deadline is not None and time.monotonic() >= deadline
                if not stopping and (have >= target or late):
                    # As Ctrl-C: the games in progress finish and are written.
                    child.send_signal(signal.SIGINT)
                    stopping = True
        except KeyboardInterrupt:
            child.wait()
            fail("datagen stopped by Ctrl-C: every finished game is kept; run the same command to continue")
        if child.returncode not in (0, 130) or (child.returncode == 130 and not stopping):
            fail(f"janggi datagen stopped with exit code {child.returncode}")
        have = before + check_data_file(own) if os.path.exists(own) else before
    print(f"net_next: datagen: {have} positions of {target}", file=sys.stderr)


def train_dir(args):
    return os.path.join(args.dir, "train")


def candidate(args):
    """The trained candidate's path, or None before training has finished."""
    done = os.path.join(train_dir(args), "candidate.txt")
    if not os.path.exists(done):
        return None
    with open(done) as f:
        return os.path.join(train_dir(args), f.read().strip())


def step_train(args, run):
    if candidate(args):
        print(f"net_next: train: done ({candidate(args)})", file=sys.stderr)
        return
    files = data_files(args.dir)
    for f in files:
        check_data_file(f)
    if not files:
        fail("train: no data yet (run the datagen step first)")
    folder = train_dir(args)
    manifest = os.path.join(folder, "data.json")
    listed = [[os.path.relpath(f, args.dir), os.path.getsize(f)] for f in files]
    common = ["--epochs", str(run["epochs"]), "--out", os.path.join(folder, "candidate.nnue"),
              "--threads", str(args.threads)]
    checkpoint = os.path.join(folder, "checkpoint.bin")
    if os.path.exists(checkpoint) and os.path.exists(manifest):
        with open(manifest) as f:
            if json.load(f) != listed:
                fail(f"train: the data changed since training began; delete {folder} to train on all of it")
        command = ["train", *files, "--resume", folder, *common]
    else:
        if os.path.exists(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        with open(manifest, "w") as f:
            json.dump(listed, f)
        command = ["train", *files, "--dir", folder, "--mirror", "--lambda", str(run["lambda_"]),
                   "--lr", str(run["lr"]), "--lr-drop-every", str(run["lr_drop_every"]),
                   "--lr-gamma", str(run["lr_gamma"]), "--seed", str(run["seed"]), *common]
        if not run["scratch"]:
            command += ["--init", os.path.join(args.dir, "parent", run["parent"])]
    print(f"net_next: janggi {' '.join(command)}", file=sys.stderr, flush=True)
    with open(os.path.join(folder, "log.txt"), "a") as log:
        done = janggi(args, *command, stdout=subprocess.PIPE, text=True)
        log.write(done.stdout)
    sys.stderr.write(done.stdout)
    if done.returncode != 0:
        fail(f"train: janggi train stopped with exit code {done.returncode}; run the same command to continue")
    # Named as shipped nets are (and as Fairy-Stockfish needs: "janggi" first).
    net = os.path.join(folder, "candidate.nnue")
    name = f"janggi-{sha256(net)[:12]}.nnue"
    os.replace(net, os.path.join(folder, name))
    with open(os.path.join(folder, "candidate.txt"), "w") as f:
        f.write(name + "\n")
    print(f"net_next: train: candidate {os.path.join(folder, name)}", file=sys.stderr)


def check_net(args, path):
    """Fails unless the engine loads `path` as its EvalFile: a net it could not load would leave it playing its
    embedded default net, and the match would measure the wrong thing."""
    session = f"uci\nsetoption name EvalFile value {path}\nisready\nquit\n"
    done = janggi(args, input=session, capture_output=True, text=True)
    errors = [line for line in done.stdout.splitlines() if line.startswith("info string error")]
    if done.returncode != 0 or errors or "readyok" not in done.stdout:
        fail(f"the engine does not load {path}: {'; '.join(errors) or done.stderr.strip()}")


def write_config(args, run, net):
    config = os.path.join(args.dir, "engines.toml")
    binary = os.path.abspath(args.binary)
    parent = os.path.join(args.dir, "parent", run["parent"])
    engines = ""
    # Absolute paths: the engines run in the caller's folder, whatever folder the run is in.
    for name, path in (("candidate", os.path.abspath(net)), ("parent", os.path.abspath(parent))):
        check_net(args, path)
        engines += (f"[[engine]]\nname = {json.dumps(name)}\ncommand = {json.dumps(binary)}\n[engine.options]\n"
                    f"Hash = 16\nThreads = 1\nEvalFile = {json.dumps(path)}\n\n")
    # Lost positions are given up once both engines agree (15 pawns for 4 moves), as in docs/results.md.
    engines += "[preset.next]\nresign = { score = 1500, moves = 4 }\n"
    with open(config, "w") as f:
        f.write(engines)
    return config


def match_files(args):
    pgn = os.path.join(args.dir, "match.pgn")
    return sorted(set(glob.glob(pgn) + glob.glob(os.path.join(glob.escape(args.dir), "match.*-of-*.pgn"))))


def merge(args, run):
    files = match_files(args)
    if not files:
        return None
    merged = janggi(args, "merge", *files, "--sprt", run["sprt"], capture_output=True, text=True)
    if merged.returncode != 0:
        fail(f"janggi merge failed:\n{merged.stderr}")
    return merged.stdout


def sprt_state(text):
    """("LLR [lower, upper]", decision) of the pentanomial SPRT in `janggi merge --sprt` output, or None."""
    m = re.search(r"^SPRT \(GSPRT on game pairs[^)]*\).*: LLR (\S+ \[[^\]]*\]), (continue|H0 accepted|H1 accepted)$",
                  text or "", re.M)
    return (m.group(1), m.group(2)) if m else None


def decision(text):
    state = sprt_state(text)
    return state[1] if state else None


def step_match(args, run):
    net = candidate(args)
    if not net:
        fail("match: no candidate yet (run the train step first)")
    if not args.shard and decision(merge(args, run)) in ("H0 accepted", "H1 accepted"):
        print("net_next: match: the SPRT has decided", file=sys.stderr)
        return
    config = write_config(args, run, net)
    openings = os.path.join(args.dir, "openings.epd")
    if not os.path.exists(openings):
        made = subprocess.run([sys.executable, os.path.join(REPO, "tools", "random_openings.py"), "--binary",
                               args.binary, "--count", str(max(1, run["games"] // 2)), "--seed",
                               str(run["seed"] + 1000003)], capture_output=True, text=True)
        if made.returncode != 0:
            fail(f"random_openings.py failed:\n{made.stderr}")
        with open(openings + ".tmp", "w") as f:
            f.write(made.stdout)
        os.replace(openings + ".tmp", openings)
    pgn = os.path.join(args.dir, "match.pgn")
    clock = ["--movetime", run["tc"][:-2]] if run["tc"].endswith("ms") else ["--tc", run["tc"]]
    command = ["match", "next", "--config", config, "--engines", "candidate,parent", "--games", str(run["games"]),
               "--concurrency", str(args.concurrency), "--openings", openings, "--pgn", pgn, *clock]
    shard = shard_parts(args.shard)
    mine = pgn
    if shard:
        command += ["--shard", f"{shard[0]}/{shard[1]}"]
        mine = os.path.join(args.dir, f"match.{shard[0]}-of-{shard[1]}.pgn")
    else:
        command += ["--sprt", run["sprt"]]
    if os.path.exists(mine):
        command.append("--resume")
    print(f"net_next: janggi {' '.join(command)}", file=sys.stderr, flush=True)
    done = janggi(args, *command, stdout=sys.stderr)
    if done.returncode != 0:
        fail(f"match: janggi match stopped with exit code {done.returncode}; run the same command to continue")


def step_verdict(args, run):
    text = merge(args, run)
    if text is None:
        fail("verdict: no match games yet (run the match step first)")
    net = candidate(args)
    d = decision(text)
    verdict = {"H1 accepted": "replace", "H0 accepted": "keep"}.get(d, "undecided")
    games = re.search(r"^candidate vs parent: (.*)$", text, re.M)
    pairs = re.search(r"^candidate pairs (.*)$", text, re.M)
    lines = [f"verdict: {verdict}",
             f"candidate {os.path.relpath(net, args.dir) if net else '?'} against parent parent/{run['parent']}",
             f"games: {games.group(1) if games else '?'}",
             f"pairs: {pairs.group(1) if pairs else '?'}",
             f"SPRT [{run['sprt']}] on game pairs: " + ("LLR {}, {}".format(*sprt_state(text))
                                                           if d else "?")]
    if verdict == "replace":
        lines.append("to ship it: copy it to nets/, name it in src/eval/nnue/default_net.rs, add its row to "
                     "docs/nets.md")
    elif verdict == "undecided":
        lines.append("no decision in the games played: the parent stays (more games, or --games, decide it)")
    with open(os.path.join(args.dir, "verdict.txt"), "w") as f:
        f.write("\n".join(lines) + "\n\n" + text)
    print("\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--dir", required=True, help="the run's folder (created by the first call)")
    parser.add_argument("--step", default="all", choices=["all", *STEPS])
    parser.add_argument("--net", help="the current net (the parent; default: the shipped one in nets/)")
    parser.add_argument("--hours", type=float, help="stop making data after this long in this call")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="cores for datagen and training")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="match games at once (a game's two engines take turns: about one core each)")
    parser.add_argument("--shard", help="I/N or auto/N: this machine's share of the datagen and match steps")
    parser.add_argument("--binary", default=os.path.join(REPO, "target", "release", "janggi"))
    for key, (_, kind, text) in SETTINGS.items():
        flag = "--" + key.rstrip("_").replace("_", "-")
        if kind is bool:
            parser.add_argument(flag, dest=key, action="store_const", const=True, default=None, help=text)
        else:
            parser.add_argument(flag, dest=key, type=kind, help=f"{text} (default {SETTINGS[key][0]})")
    args = parser.parse_args()
    if not os.path.isfile(args.binary):
        fail(f"no janggi binary at {args.binary} (cargo build --release, or --binary)")
    os.makedirs(args.dir, exist_ok=True)
    run = settings(args)
    steps = STEPS if args.step == "all" else [args.step]
    for step in steps:
        if step == "datagen":
            step_datagen(args, run)
        elif step == "train":
            if args.shard and args.step == "all":
                print("net_next: a shard stops after its data; train on one machine with --step train",
                      file=sys.stderr)
                return
            step_train(args, run)
        elif step == "match":
            step_match(args, run)
        else:
            step_verdict(args, run)


if __name__ == "__main__":
    main()
