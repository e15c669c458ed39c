#!/usr/bin/env python3
"""Checks the shape of the source tree that review alone lets slip.

- no file under src/ longer than --max-file-lines (1,000);
- no function longer than --max-fn-lines (400);
- the protocol and the analysis reach the search only through its facade: no path naming one of the search's
  inner modules (time, strength, params, tt, worker, history, see, threads) under src/protocol/ or src/analysis/;
- layers that only look down: each top-level module uses only the modules below it (LAYERS);
- no import circle: no two files (other than a module's index: mod.rs, lib.rs, or name.rs beside name/) that reach each other through
  `use` paths, directly or round a longer loop. A path to a name that an index re-exports (`pub use x::Name`)
  counts as a path to the file the name comes from.

Usage: tools/check_layout.py [SRC_DIR]  (default: src). Prints each finding and exits 1 when there is one.
"""

import argparse
import os
import re
import sys

# What each top-level module may use besides itself: the rules at the bottom, the command line at the top.
LAYERS = {
    "untrusted": set(),
    "score": set(),
    "platform": set(),
    "board": {"untrusted"},
    "notation": {"board", "untrusted"},
    "records": {"board", "notation", "untrusted"},
    "eval": {"board", "platform", "untrusted"},
    "search": {"board", "eval", "score", "platform", "untrusted"},
    "batch": {"untrusted"},
    "protocol": {"board", "eval", "search", "score", "notation", "platform", "untrusted"},
    "matches": {"board", "protocol", "records", "batch", "score", "notation", "platform", "untrusted"},
    "analysis": {"board", "eval", "search", "protocol", "records", "notation", "batch", "score", "platform", "untrusted"},
    "datagen": {"board", "eval", "search", "records", "batch", "platform", "untrusted"},
    "train": {"board", "eval", "datagen", "batch", "platform", "untrusted"},
    "tune": {"board", "eval", "search", "matches", "protocol", "records", "batch", "score", "platform", "untrusted"},
}

INNER_SEARCH = ("time", "strength", "params", "tt", "worker", "history", "see", "threads")
FACADE_ONLY = ("protocol", "analysis")


def module_of(root, path):
    """The module path (a list of names) of a source file relative to the crate root."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def is_index(path):
    """A module's index: mod.rs, lib.rs, main.rs, or `name.rs` beside a folder `name/` of its submodules."""
    return os.path.basename(path) in ("mod.rs", "lib.rs", "main.rs") or os.path.isdir(path[:-3])


def strip_comments(text):
    """The code without comments and string contents, line numbers kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and i + 2 < n and (text[i + 2] == "'" or (text[i + 1] == "\\" and "'" in text[i + 2 : i + 8])):
            # a char literal ('x', '\n', '\u{..}'), not a lifetime
            j = text.find("'", i + 2 if text[i + 1] != "\\" else i + 3)
            out.append("' '")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def walk(prefix, s):
        brace = s.find("{")
        if brace < 0:
            name = s.split(" as ")[0]
            return [prefix + name]
        head, inner = s[:brace], s[brace + 1 : s.rfind("}")]
        result = []
        for part in split_top(inner):
            if part == "self":
                result.append((prefix + head).rstrip(":"))
            else:
                result.extend(walk(prefix + head, part))
        return result

    return walk("", tree)


def paths_in(code):
    """Every crate-relative path the code names: `use` trees expanded, and inline `crate::`/`super::` paths."""
    paths = []
    for m in re.finditer(r"\buse\s+((?:crate|super|self)\b[^;]*);", code):
        paths.extend(expand_use_tree(m.group(1)))
    for m in re.finditer(r"(?<![:\w])((?:crate|super)(?:::\w+)+)", code):
        paths.append(m.group(1))
    return paths


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = {}  # module path tuple -> file
        self.code = {}
        for dirpath, _, names in os.walk(root):
            for name in names:
                if name.endswith(".rs"):
                    path = os.path.join(dirpath, name)
                    self.files[tuple(module_of(root, path))] = path
                    with open(path, encoding="utf-8") as f:
                        self.code[path] = strip_comments(f.read())
        # re-exports of each index: module -> {name: module path of the file it comes from}
        self.reexports = {}
        for module, path in self.files.items():
            if not is_index(path):
                continue
            names = {}
            for m in re.finditer(r"\bpub use\s+([^;]*);", self.code[path]):
                for p in expand_use_tree(m.group(1)):
                    parts = p.split("::")
                    names[parts[-1]] = self.absolute(module, parts[:-1], path)
            self.reexports[module] = names

    def absolute(self, module, parts, path):
        """A path's segments made absolute from the module it is written in."""
        if not parts:
            return list(module)
        if parts[0] == "crate":
            base, rest = [], parts[1:]
        elif parts[0] == "super":
            base, rest = list(module), parts
            while rest and rest[0] == "super":
                base = base[:-1]
                rest = rest[1:]
        elif parts[0] == "self":
            base, rest = list(module), parts[1:]
        else:
            base, rest = list(module), parts
        return base + rest

    def file_of(self, segments):
        """The file a path leads to: its longest prefix that is a module, through an index's re-exports."""
        for k in range(len(segments), -1, -1):
            key = tuple(segments[:k])
            if key in self.files:
                path = self.files[key]
                if is_index(path) and k < len(segments):
                    target = self.reexports.get(key, {}).get(segments[k])
                    if target is not None and list(target) != list(segments):
                        return self.file_of(list(target) + segments[k + 1 :])
                return path
        return None

    def edges(self):
        graph = {}
        for module, path in self.files.items():
            out = set()
            for p in paths_in(self.code[path]):
                target = self.absolute(module, p.split("::"), path)
                f = self.file_of(target)
                if f and f != path and not is_index(f):
                    out.add(f)
            graph[path] = out
        return graph


def circles(graph):
    """Strongly connected components of more than one file (Tarjan), each sorted."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def long_functions(path, code, limit):
    """Functions longer than limit lines: from the `fn` line to its closing brace at the same indent (rustfmt)."""
    lines = code.split("\n")
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(?:pub(?:\([\w:]+\))?\s+)?(?:const\s+)?(?:unsafe\s+)?(?:extern\s+\"\w*\"\s+)?fn\s+(\w+)", line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i + 1, len(lines)):
            if lines[j].startswith(indent + "}") and not lines[j].startswith(indent + " "):
                if j - i + 1 > limit:
                    found.append((m.group(2), i + 1, j - i + 1))
                break
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", nargs="?", default="src")
    ap.add_argument("--max-file-lines", type=int, default=1000)
    ap.add_argument("--max-fn-lines", type=int, default=400)
    args = ap.parse_args()
    if not os.path.isdir(args.src):
        print(f"check_layout: no folder '{args.src}'", file=sys.stderr)
        return 2
    tree = Tree(args.src)
    problems = []
    for path in sorted(tree.code):
        rel = os.path.relpath(path, args.src)
        with open(path, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > args.max_file_lines:
            problems.append(f"{rel}: {n} lines (at most {args.max_file_lines})")
        for name, line, length in long_functions(path, tree.code[path], args.max_fn_lines):
            problems.append(f"{rel}:{line}: fn {name} is {length} lines (at most {args.max_fn_lines})")
        top = rel.split(os.sep)[0]
        if top in FACADE_ONLY or top.removesuffix(".rs") in FACADE_ONLY:
            module = module_of(args.src, path)
            for p in paths_in(tree.code[path]):
                seg = tree.absolute(module, p.split("::"), path)
                if len(seg) >= 2 and seg[0] == "search" and seg[1] in INNER_SEARCH:
                    problems.append(f"{rel}: reaches past the search's facade: {'::'.join(seg)}")
    # Layers: every path a file names, a module's index included (`use crate::tune;` looks up as much as
    # `use crate::tune::spsa::run;` does).
    tops = {m[0] for m in tree.files if m}
    for path in sorted(tree.code):
        rel = os.path.relpath(path, args.src)
        top_a = rel.split(os.sep)[0].removesuffix(".rs")
        if top_a not in LAYERS:
            continue
        module = module_of(args.src, path)
        for p in paths_in(tree.code[path]):
            seg = tree.absolute(module, p.split("::"), path)
            top_b = seg[0] if seg else top_a
            if top_b in tops and top_b != top_a and top_b not in LAYERS[top_a]:
                problems.append(f"{rel}: the layer '{top_a}' looks up at '{top_b}' ({'::'.join(seg)})")
    edges = tree.edges()
    for comp in circles(edges):
        problems.append("import circle: " + " -> ".join(os.path.relpath(p, args.src) for p in comp))
    problems = list(dict.fromkeys(problems))
    for p in problems:
        print(p)
    print(f"check_layout: {len(tree.code)} files, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
