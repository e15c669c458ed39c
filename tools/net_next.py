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
  `--positions` or `--hours` have passed in this call (then `all` trains on what there is); Ctrl-C (or the time)
  lets the games in progress finish. A file cut by a kill is trimmed to its last whole record, so no finished
  game is lost; the next call starts a new seed, so data accumulates across days. `--shard I/N` (or `auto/N`)
  plays shard I of each seed's games into its own file (`NAME.I-of-N.bin`), for a cluster's array job over one
  shared folder.
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
import fcntl
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
# Match games between two looks at the SPRT (an even number: both colours of each opening).
SPRT_BATCH = 20

# The settings of a run, their defaults, and what each does. The first call writes them to run.json.
SETTINGS = {
    "nodes": (1000, int, "nodes searched per move in the self-play games (fewer: more positions, shallower labels)"),
    "positions": (2_000_000, int, "positions of data the run aims for, all shards together"),
    "random_plies": (8, int, "random plies at the start of each self-play game"),
    "lambda_": (1.0, float, "weight of the search score in the training target (the game result has the rest)"),
    "epochs": (1, int, "passes over the data"),
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
    flags' (or the defaults), written to run.json together with the parent net. Shards of an array job starting
    at once on a new folder take turns here (a lock), so exactly one of them writes the settings."""
    path = os.path.join(args.dir, "run.json")
    given = {k: getattr(args, k) for k in SETTINGS if getattr(args, k) is not None}
    with open(os.path.join(args.dir, "settings.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path):
            try:
                with open(path) as f:
                    run = json.load(f)
            except (OSError, ValueError) as e:
                fail(f"{path}: {e}")
            for key, value in given.items():
                if key in run and run[key] != value:
                    flag = "--" + key.rstrip("_").replace("_", "-")
                    fail(f"{args.dir} was started with {flag} {run[key]}; this call says {value}: the settings of "
                         f"two experiments are never mixed (use another --dir)")
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
        write_atomically(os.path.join(args.dir, "parent", name), open(parent, "rb").read())
        run["parent"] = name
        run["parent_sha256"] = sha256(parent)
        write_atomically(path, json.dumps(run, indent=1).encode())
        return run


def write_atomically(path, data):
    """Writes a file whole or not at all (a temporary name of this process, then a rename)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def hold_lock(args, shard):
    """Takes this folder's (or this shard's) lock for the rest of the call; a second call working on the same
    data is refused. The children inherit it, so a child left running by a killed call still holds it."""
    name = f"call.{shard[0]}-of-{shard[1]}.lock" if shard else "call.lock"
    lock = open(os.path.join(args.dir, name), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        where = f"{args.dir}{' on this shard' if shard else ''}"
        fail(f"another call (or a program it started) is still working in {where}")
    return lock


class Child:
    """A program this script runs, in a session of its own, so that a Ctrl-C at the terminal reaches this script
    only: SIGINT, SIGTERM or SIGHUP here is passed on to the child as one SIGINT each (its own Ctrl-C: datagen
    finishes its games, a match keeps its finished games), and the child gets SIGINT if this script dies."""
    current = None
    interrupted = False

    @staticmethod
    def forward(signum, frame):
        Child.interrupted = True
        if Child.current and Child.current.poll() is None:
            Child.current.send_signal(signal.SIGINT)

    @staticmethod
    def start(args, command, lock, **kwargs):
        if Child.interrupted:
            stopped("the run")
        env = dict(os.environ)
        if not args.shard:
            # Not a shard: the binary must not find an array job's index and shard itself.
            for var in ("JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
                        "SLURM_ARRAY_TASK_COUNT"):
                env.pop(var, None)
        print(f"net_next: {' '.join(command)}", file=sys.stderr, flush=True)
        child = subprocess.Popen(command, start_new_session=True, preexec_fn=die_with_parent, env=env,
                                 pass_fds=(lock.fileno(),), **kwargs)
        Child.current = child
        return child


def die_with_parent():
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def stopped(what):
    fail(f"{what} stopped by a signal: what was finished is kept; run the same command to continue")


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
        index = os.environ.get("JOB_COMPLETION_INDEX")
        if index is None and os.environ.get("SLURM_ARRAY_TASK_ID") is not None:
            # As the binary reads it: --array=1-8 is shards 0..7 as well as --array=0-7.
            index = str(int(os.environ["SLURM_ARRAY_TASK_ID"]) - int(os.environ.get("SLURM_ARRAY_TASK_MIN", "0")))
        if index is None:
            fail("--shard auto/N needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
    if int(index) >= int(m.group(2)):
        fail(f"--shard {shard}: the index must be below the count")
    return int(index), int(m.group(2))


def data_files(run_dir):
    return sorted(glob.glob(os.path.join(glob.escape(run_dir), "data", "*.bin")))


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


def layout_check(args, shard, paths, what):
    """Refuses to mix layouts: one seed played whole and the same seed played as shards (or as shards of
    another count) share games, which would then be counted twice."""
    pattern = re.compile(r".*\.(\d+)-of-(\d+)\.(bin|pgn)$")
    for path in paths:
        m = pattern.match(path)
        theirs = int(m.group(2)) if m else None
        if theirs != (shard[1] if shard else None):
            fail(f"{path}: this run's {what} was made {f'in {theirs} shards' if theirs else 'whole'}; this call "
                 f"{f'makes {shard[1]} shards' if shard else 'is not a shard'}: one layout a run")


def step_datagen(args, run, lock):
    if candidate(args) or os.path.exists(os.path.join(train_dir(args), "data.json")):
        print("net_next: datagen: training has begun on the data; it stays as it is", file=sys.stderr)
        return
    shard = shard_parts(args.shard)
    data = os.path.join(args.dir, "data")
    os.makedirs(data, exist_ok=True)
    generated = [f for f in data_files(args.dir) if re.fullmatch(r"gen-\d+(\.\d+-of-\d+)?\.bin", os.path.basename(f))]
    layout_check(args, shard, generated, "data")
    # Only this shard's files are checked (and trimmed): the other shards may be writing theirs right now.
    own_name = re.compile(rf"gen-\d+\.{shard[0]}-of-{shard[1]}\.bin" if shard else r"gen-\d+\.bin")
    mine = [f for f in generated if own_name.fullmatch(os.path.basename(f))]
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
        child = Child.start(args, command, lock, stdout=sys.stderr)
        before = have
        stopping = False
        while child.poll() is None:
            time.sleep(0.5)
            made = (os.path.getsize(own) - HEADER_BYTES) // RECORD_BYTES if os.path.exists(own) else 0
            have = before + max(made, 0)
            late = deadline is not None and time.monotonic() >= deadline
            if not stopping and not Child.interrupted and (have >= target or late):
                # As Ctrl-C: the games in progress finish and are written.
                child.send_signal(signal.SIGINT)
                stopping = True
        have = before + check_data_file(own) if os.path.exists(own) else before
        if Child.interrupted:
            stopped("datagen")
        if child.returncode not in (0, 130) or (child.returncode == 130 and not stopping):
            fail(f"janggi datagen stopped with exit code {child.returncode}")
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


def step_train(args, run, lock):
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
    # Every setting goes with a resumed run too: the checkpoint holds the weights and the step, not the recipe.
    recipe = ["--mirror", "--lambda", str(run["lambda_"]), "--lr", str(run["lr"]), "--lr-drop-every",
              str(run["lr_drop_every"]), "--lr-gamma", str(run["lr_gamma"]), "--seed", str(run["seed"]),
              "--epochs", str(run["epochs"]), "--out", os.path.join(folder, "candidate.nnue"),
              "--threads", str(args.threads)]
    checkpoint = os.path.join(folder, "checkpoint.bin")
    if os.path.exists(checkpoint) and os.path.exists(manifest):
        with open(manifest) as f:
            if json.load(f) != listed:
                fail(f"train: the data changed since training began; delete {folder} to train on all of it")
        command = [args.binary, "train", *files, "--resume", folder, *recipe]
    else:
        if os.path.exists(folder):
            shutil.rmtree(folder)
        os.makedirs(folder)
        write_atomically(manifest, json.dumps(listed).encode())
        command = [args.binary, "train", *files, "--dir", folder, *recipe]
        if not run["scratch"]:
            command += ["--init", os.path.join(args.dir, "parent", run["parent"])]
    child = Child.start(args, command, lock, stdout=subprocess.PIPE, text=True)
    with open(os.path.join(folder, "log.txt"), "a") as log:
        # Line by line: an epoch's line is on the screen and in the log as soon as it is printed.
        for line in child.stdout:
            log.write(line)
            log.flush()
            sys.stderr.write(line)
    child.wait()
    if Child.interrupted:
        stopped("training (it continues from its last finished epoch)")
    if child.returncode != 0:
        fail(f"train: janggi train stopped with exit code {child.returncode}; run the same command to continue")
    # Named as shipped nets are (and as Fairy-Stockfish needs: "janggi" first).
    net = os.path.join(folder, "candidate.nnue")
    name = f"janggi-{sha256(net)[:12]}.nnue"
    os.replace(net, os.path.join(folder, name))
    write_atomically(os.path.join(folder, "candidate.txt"), (name + "\n").encode())
    print(f"net_next: train: candidate {os.path.join(folder, name)}", file=sys.stderr)


def write_config(args, run, net):
    config = os.path.join(args.dir, "engines.toml")
    binary = os.path.abspath(args.binary)
    parent = os.path.join(args.dir, "parent", run["parent"])
    engines = ""
    # Absolute paths: the engines run in the caller's folder, whatever folder the run is in. A net an engine
    # cannot load stops `janggi match` before any game (it refuses an engine that answers an option with an error).
    for name, path in (("candidate", os.path.abspath(net)), ("parent", os.path.abspath(parent))):
        engines += (f"[[engine]]\nname = {json.dumps(name)}\ncommand = {json.dumps(binary)}\n[engine.options]\n"
                    f"Hash = 16\nThreads = 1\nEvalFile = {json.dumps(path)}\n\n")
    # Lost positions are given up once both engines agree (15 pawns for 4 moves), as in docs/results.md.
    engines += "[preset.next]\nresign = { score = 1500, moves = 4 }\n"
    with open(config, "w") as f:
        f.write(engines)
    return config


def match_files(args):
    pgn = os.path.join(glob.escape(args.dir), "match.pgn")
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


def games_in(path):
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if line.startswith("[Result "))


def step_match(args, run, lock):
    net = candidate(args)
    if not net:
        fail("match: no candidate yet (run the train step first)")
    shard = shard_parts(args.shard)
    layout_check(args, shard, match_files(args), "match")
    config = write_config(args, run, net)
    openings = os.path.join(args.dir, "openings.epd")
    if not os.path.exists(openings):
        made = subprocess.run([sys.executable, os.path.join(REPO, "tools", "random_openings.py"), "--binary",
                               args.binary, "--count", str(max(1, run["games"] // 2)), "--seed",
                               str(run["seed"] + 1000003)], capture_output=True, text=True)
        if made.returncode != 0:
            fail(f"random_openings.py failed:\n{made.stderr}")
        write_atomically(openings, made.stdout.encode())
    pgn = os.path.join(args.dir, "match.pgn")
    clock = ["--movetime", run["tc"][:-2]] if run["tc"].endswith("ms") else ["--tc", run["tc"]]
    if shard:
        # A shard plays its share of all the games; the verdict merges the shards.
        mine = os.path.join(args.dir, f"match.{shard[0]}-of-{shard[1]}.pgn")
        play(args, lock, config, openings, clock, pgn, run["games"], resume=os.path.exists(mine), net=net,
             shard=f"{shard[0]}/{shard[1]}")
        return
    while True:
        # The SPRT the verdict reads (on game pairs), tested between batches: the runner's own --sprt is on single
        # games and could stop where this one has not decided.
        if decision(merge(args, run)) in ("H0 accepted", "H1 accepted"):
            print("net_next: match: the SPRT has decided", file=sys.stderr)
            return
        played = games_in(pgn)
        if played >= run["games"]:
            return
        play(args, lock, config, openings, clock, pgn, min(run["games"], played + SPRT_BATCH),
             resume=os.path.exists(pgn), net=net)
        if games_in(pgn) <= played:
            fail(f"match: no game was added to {pgn}")


def play(args, lock, config, openings, clock, pgn, games, resume, net, shard=None):
    command = [args.binary, "match", "next", "--config", config, "--engines", "candidate,parent", "--games",
               str(games), "--concurrency", str(args.concurrency), "--openings", openings, "--pgn", pgn, *clock]
    if shard:
        command += ["--shard", shard]
    if resume:
        command.append("--resume")
    child = Child.start(args, command, lock, stdout=sys.stderr)
    child.wait()
    if Child.interrupted:
        stopped("the match")
    if child.returncode != 0:
        fail(f"match: janggi match stopped with exit code {child.returncode} (candidate {net}); run the same "
             f"command to continue")


def step_verdict(args, run):
    text = merge(args, run)
    if text is None:
        fail("verdict: no match games yet (run the match step first)")
    net = candidate(args)
    games = re.search(r"^candidate vs parent: (.*)$", text, re.M)
    if not games:
        # The merge puts first the engine of the earliest game it holds; the SPRT is that engine's.
        fail("verdict: the merged games list the parent first (the match's first game is missing?), so their SPRT "
             "is the parent's; play the missing games (--step match) first")
    d = decision(text)
    verdict = {"H1 accepted": "replace", "H0 accepted": "keep"}.get(d, "undecided")
    pairs = re.search(r"^candidate pairs (.*)$", text, re.M)
    lines = [f"verdict: {verdict}",
             f"candidate {os.path.relpath(net, args.dir) if net else '?'} against parent parent/{run['parent']}",
             f"games: {games.group(1)}",
             f"pairs: {pairs.group(1) if pairs else '?'}",
             f"SPRT [{run['sprt']}] on game pairs: " + ("LLR {}, {}".format(*sprt_state(text))
                                                           if d else "?")]
    if verdict == "replace":
        lines.append("to ship it: copy it to nets/, name it in src/eval/nnue/default_net.rs, add its row to "
                     "docs/nets.md")
    elif verdict == "undecided":
        lines.append("no decision in the games played: the parent stays (more games, or --games, decide it)")
    write_atomically(os.path.join(args.dir, "verdict.txt"), ("\n".join(lines) + "\n\n" + text).encode())
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
    lock = hold_lock(args, shard_parts(args.shard))
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, Child.forward)
    steps = STEPS if args.step == "all" else [args.step]
    for step in steps:
        if step == "datagen":
            step_datagen(args, run, lock)
        elif step == "train":
            if args.shard and args.step == "all":
                print("net_next: a shard stops after its data; train on one machine with --step train",
                      file=sys.stderr)
                return
            step_train(args, run, lock)
        elif step == "match":
            step_match(args, run, lock)
        else:
            step_verdict(args, run)


if __name__ == "__main__":
    main()
