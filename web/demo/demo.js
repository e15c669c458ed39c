// The offline demo: play Janggi against the engine, or set up a position and watch it analyse. The engine is
// the WebAssembly build (../janggi.js), spoken to in UCI; the page keeps the game as a start position plus UCI
// moves and asks the engine for everything else (the FEN after them, the status, the legal moves).
import Janggi from "../janggi.js";

// The look of the engine's SVG diagrams (src/analysis/diagram.rs): same geometry, colours and fonts.
const FILE_STEP = 56;
const RANK_STEP = 52;
const MARGIN = 48;
const WIDTH = 2 * MARGIN + 8 * FILE_STEP;
const HEIGHT = 2 * MARGIN + 9 * RANK_STEP;
const FONTS =
  "'Noto Serif CJK KR', 'Noto Serif KR', 'Source Han Serif K', 'Batang', 'AppleMyungjo', 'Noto Sans CJK KR', " +
  "'Malgun Gothic', 'WenQuanYi Zen Hei', 'SimSun', serif";
const COLOR = {
  board: "#eccb8f",
  line: "#5b3a1a",
  face: "#fbf4e2",
  cho: "#0b7a6e",
  han: "#c4122f",
  highlight: "#f5e663",
  selected: "#7fc8a9",
  target: "#1f5f8b",
  best: "#1c6fd6",
};
// FEN letter → name, Cho's Hanja, Han's Hanja, octagon radius (generals largest, guards and soldiers smallest).
const PIECES = {
  k: ["general", "楚", "漢", 25],
  a: ["guard", "士", "士", 17],
  r: ["chariot", "車", "車", 21],
  c: ["cannon", "包", "包", 21],
  n: ["horse", "馬", "馬", 21],
  b: ["elephant", "象", "象", 21],
  p: ["soldier", "卒", "兵", 17],
};
const HIGHLIGHT_RADIUS = 26;
const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const SQUARES = [...FILES].flatMap((f) => Array.from({ length: 10 }, (_, r) => f + (r + 1)));

// The page's elements by id, in camel case: ui.newGame is #new-game.
const ui = {};
for (const id of [
  ...["board", "status", "error", "side", "variant", "time", "new-game", "take-back", "pass", "flip", "fen"],
  ...["load-fen", "start-pos", "play-here", "analyse", "score", "depth", "nodes", "nps", "pv", "moves"],
]) {
  ui[id.replace(/-(\w)/g, (_, c) => c.toUpperCase())] = document.getElementById(id);
}

const state = {
  mode: "play", // "play": the engine answers the human's moves; "analyse": the human moves both sides
  human: "w", // the human's side in play mode: "w" is Cho, "b" is Han, as in the FEN
  variant: "janggi", // the rule set the engine was last given
  startFen: null, // null: the rule set's start position
  moves: [],
  fen: "",
  status: "ongoing",
  legal: [], // in the order `go perft 1` lists them
  ready: false, // fen, status and legal describe the current moves
  selected: null,
  flip: false,
  analysing: false,
  best: null, // the first move of the latest principal variation, drawn as an arrow while analysing
  failure: null,
};
// Bumped by every change to the game: a flow that awaited the engine drops its result when this has moved on.
let epoch = 0;
let fenEdited = false; // the FEN box holds the person's text, not the current position's

// ---- The engine link: one request at a time, each reading the engine's lines up to the one that ends it.

let engine = null;
let active = null; // { done, onLine, resolve, reject, lines, search }
let queue = Promise.resolve();
let dead = null;
const engineErrors = [];

function onEngineLine(line) {
  if (line.startsWith("info string error")) {
    engineErrors.push(line);
    showError(line.replace(/^info string error:?\s*/, ""));
    // The package says so when its workers are gone: nothing will answer the pending request.
    if (line.includes("the engine stopped")) {
      dead = new Error(line);
      active?.reject(dead);
      active = null;
    }
  }
  if (!active) return;
  active.lines.push(line);
  active.onLine?.(line);
  if (active.done(line)) {
    const finished = active;
    active = null;
    finished.resolve(finished.lines);
  }
}

/** Sends `commands` once the previous request is answered; resolves with the lines up to the one `done` accepts. */
function request(commands, done, onLine) {
  const run = () =>
    new Promise((resolve, reject) => {
      if (dead) return reject(dead);
      active = { done, onLine, resolve, reject, lines: [], search: commands.some((c) => /^go (?!perft)/.test(c)) };
      for (const command of commands) engine.postMessage(command);
    });
  const answer = queue.then(run);
  queue = answer.catch(() => {});
  return answer;
}

/** Ends the running search, if any; its request then resolves with its `bestmove`. */
function stopSearch() {
  if (active?.search) engine.postMessage("stop");
}

// ---- The game.

const positionCommand = () =>
  `position ${state.startFen ? `fen ${state.startFen}` : "startpos"}` +
  (state.moves.length ? ` moves ${state.moves.join(" ")}` : "");
const toMove = () => (state.fen.split(" ")[1] === "b" ? "b" : "w");
const startSide = () => (state.startFen?.split(" ")[1] === "b" ? "b" : "w");
const sideAt = (ply) => ((ply % 2 === 0) === (startSide() === "w") ? "w" : "b");
const sideName = (side) => (side === "w" ? "Cho" : "Han");
const splitMove = (m) => /^([a-i]\d+)([a-i]\d+)$/.exec(m).slice(1);
const isPass = (m) => splitMove(m)[0] === splitMove(m)[1];
const variantCommands = () => [`setoption name UCI_Variant value ${ui.variant.value}`, "ucinewgame"];

/** Learns the FEN, the status and the legal moves after the current moves, in one round trip. */
async function refresh(before) {
  const lines = await request([...before, positionCommand(), "d", "go perft 1"], (l) => l.startsWith("Nodes searched"));
  state.fen = lines.find((l) => l.startsWith("Fen: "))?.slice(5) ?? "";
  state.status = /status: (.*)$/.exec(lines.find((l) => l.startsWith("Variant: ")) ?? "")?.[1] ?? "unknown";
  state.legal = lines.map((l) => /^([a-i]\d+[a-i]\d+): \d+$/.exec(l)?.[1]).filter(Boolean);
}

/** Applies `edit` to the game, then brings the page up to date; resolves when the human is to act again. */
function change(edit, before = []) {
  epoch += 1;
  stopSearch();
  state.ready = false;
  state.selected = null;
  state.best = null;
  edit();
  updateButtons();
  return advance(epoch, before);
}

async function advance(my, before) {
  try {
    for (;;) {
      await refresh(before);
      before = [];
      if (my !== epoch) return;
      state.ready = true;
      render();
      if (state.status !== "ongoing") {
        setStatus(`Game over: ${state.status}`, true);
        return;
      }
      if (state.mode === "analyse") {
        setStatus(state.analysing ? `Analysing (${sideName(toMove())} to move)…` : `${sideName(toMove())} to move`);
        if (state.analysing) await search("go infinite", my);
        return;
      }
      if (toMove() === state.human) {
        setStatus(`Your move (${sideName(state.human)})`);
        return;
      }
      setStatus("The engine is thinking…");
      const best = await search(`go movetime ${ui.time.value}`, my);
      if (my !== epoch) return;
      if (!state.legal.includes(best)) throw new Error(`the engine answered "bestmove ${best}"`);
      state.moves.push(best);
    }
  } catch (error) {
    state.failure = error;
    showError(error.message);
  }
}

/** Runs a search on the current position, showing its progress; resolves with its best move. */
async function search(command, my) {
  const lines = await request([command], (l) => l.startsWith("bestmove"), (l) => my === epoch && showInfo(l));
  return lines.at(-1).split(" ")[1];
}

function newGame() {
  return change(() => {
    Object.assign(state, { mode: "play", analysing: false, human: ui.side.value, variant: ui.variant.value });
    Object.assign(state, { startFen: null, moves: [], flip: state.human === "b", failure: null });
    clearInfo();
  }, variantCommands());
}

/** Analyses `fen` (null: the start position) under the chosen rules, if the engine accepts it. */
async function loadPosition(fen) {
  // The check below waits for the engine, so a running search must end (and its flow with it) first.
  epoch += 1;
  stopSearch();
  if (fen) {
    const lines = await request([...variantCommands(), `position fen ${fen}`, "d"], (l) => l.startsWith("Variant: "));
    if (lines.some((l) => l.startsWith("info string error"))) {
      // The engine said why; the game shown goes on, under its own rules.
      await change(() => {}, [`setoption name UCI_Variant value ${state.variant}`]);
      return;
    }
  }
  fenEdited = false;
  await change(() => {
    Object.assign(state, { mode: "analyse", analysing: true, variant: ui.variant.value, startFen: fen, moves: [] });
    clearInfo();
  }, variantCommands());
}

function play(move) {
  return change(() => state.moves.push(move));
}

function takeBack() {
  return change(() => {
    // In a game, back to the human's previous turn: the engine's answer goes with the move it answered.
    do state.moves.pop();
    while (state.mode === "play" && state.moves.length && sideAt(state.moves.length) !== state.human);
  });
}

const canMove = () =>
  state.ready && state.status === "ongoing" && (state.mode === "analyse" || toMove() === state.human);

// ---- Showing it.

function setStatus(text, over = false) {
  ui.status.textContent = text;
  ui.status.classList.toggle("over", over);
}

function showError(message) {
  ui.error.textContent = message;
}

function clearInfo() {
  for (const key of ["score", "depth", "nodes", "nps", "pv"]) ui[key].textContent = "–";
  ui.error.textContent = "";
}

const compact = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : `${n}`);

/** Shows an `info … pv …` line of the running search. */
function showInfo(line) {
  if (!line.startsWith("info ") || line.startsWith("info string") || !line.includes(" pv ")) return;
  const tokens = line.split(" ");
  const after = (key) => tokens[tokens.indexOf(key) + 1];
  if (tokens.includes("multipv") && after("multipv") !== "1") return;
  const pv = tokens.slice(tokens.indexOf("pv") + 1);
  // UCI scores are the side to move's; the page shows them from Cho's side, as the board's colours read.
  const sign = toMove() === "w" ? 1 : -1;
  const i = tokens.indexOf("score");
  if (i >= 0) {
    const value = sign * Number(tokens[i + 2]);
    const plus = value > 0 ? "+" : value < 0 ? "−" : "±";
    ui.score.textContent =
      tokens[i + 1] === "mate" ? `${plus}M${Math.abs(value)}` : `${plus}${(Math.abs(value) / 100).toFixed(2)}`;
  }
  ui.depth.textContent = tokens.includes("seldepth") ? `${after("depth")}/${after("seldepth")}` : after("depth");
  if (tokens.includes("nodes")) ui.nodes.textContent = compact(Number(after("nodes")));
  if (tokens.includes("nps")) ui.nps.textContent = `${compact(Number(after("nps")))}N/s`;
  ui.pv.textContent = pv.join(" ");
  if (state.mode === "analyse" && pv[0] !== state.best) {
    state.best = pv[0];
    drawArrow();
  }
}

function svg(name, attrs, parent) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) e.setAttribute(key, value);
  parent?.append(e);
  return e;
}

/** Where a point is drawn. */
function at(square) {
  const f = FILES.indexOf(square[0]);
  const r = Number(square.slice(1)) - 1;
  return [MARGIN + (state.flip ? 8 - f : f) * FILE_STEP, MARGIN + (state.flip ? r : 9 - r) * RANK_STEP];
}

/** The point under a click, or null. */
function squareAt(event) {
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ui.board.getScreenCTM().inverse());
  const col = Math.round((p.x - MARGIN) / FILE_STEP);
  const row = Math.round((p.y - MARGIN) / RANK_STEP);
  if (col < 0 || col > 8 || row < 0 || row > 9) return null;
  return FILES[state.flip ? 8 - col : col] + (state.flip ? row + 1 : 10 - row);
}

/** A regular octagon with flat top and bottom around (x, y). */
function octagon(x, y, r) {
  return Array.from({ length: 8 }, (_, k) => {
    const a = ((22.5 + 45 * k) * Math.PI) / 180;
    return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

/** The fourteen pieces drawn once, in a hidden SVG, for the board's `<use>` elements to show. */
function definePieces() {
  const holder = svg("svg", { width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" });
  const defs = svg("defs", {}, holder);
  for (const side of ["cho", "han"]) {
    for (const [name, choHanja, hanHanja, r] of Object.values(PIECES)) {
      const color = COLOR[side];
      const g = svg("g", { id: `janggi-${side}-${name}`, "text-anchor": "middle", "dominant-baseline": "central" }, defs);
      svg("polygon", { points: octagon(0, 0, r), fill: COLOR.face, stroke: color, "stroke-width": 2 }, g);
      const inner = { points: octagon(0, 0, r - 3.5), fill: "none", stroke: color, "stroke-width": 0.8 };
      svg("polygon", { ...inner, "stroke-opacity": 0.6 }, g);
      const text = svg("text", { x: 0, y: 0, "font-size": (r * 1.12).toFixed(1), fill: color, "font-family": FONTS }, g);
      text.textContent = side === "cho" ? choHanja : hanHanja;
    }
  }
  document.body.prepend(holder);
}

/** The pieces of a FEN's board, as [square, letter]. */
function boardOf(fen) {
  const pieces = [];
  fen
    .split(" ")[0]
    .split("/")
    .forEach((row, i) => {
      let f = 0;
      for (const token of row.match(/\d+|[a-zA-Z]/g) ?? []) {
        if (/\d/.test(token)) f += Number(token);
        else pieces.push([FILES[f++] + (10 - i), token]);
      }
    });
  return pieces;
}

let arrowLayer = null;

function render() {
  draw();
  ui.moves.replaceChildren(
    ...state.moves.map((m, i) => {
      const li = document.createElement("li");
      li.textContent = `${i + 1}. ${m}`;
      li.className = sideAt(i) === "w" ? "cho" : "han";
      return li;
    }),
  );
  ui.moves.scrollTop = ui.moves.scrollHeight;
  if (!fenEdited) ui.fen.value = state.fen;
  updateButtons();
}

function updateButtons() {
  // In a game, only the human's moves are taken back (with the engine's answers).
  ui.takeBack.disabled = !state.moves.some((_, i) => state.mode === "analyse" || sideAt(i) === state.human);
  ui.pass.disabled = !(canMove() && state.legal.some(isPass));
  ui.playHere.disabled = !state.ready || state.status !== "ongoing";
  // A finished game has nothing to analyse; taking a move back resumes the analysis.
  const searching = state.analysing && state.status === "ongoing";
  ui.analyse.textContent = searching ? "Stop" : "Analyse";
  ui.analyse.classList.toggle("on", searching);
}

/** Draws the whole board: grid, coordinates, last move, selection, pieces, legal targets, best-move arrow. */
function draw() {
  const board = ui.board;
  board.replaceChildren();
  board.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  svg("rect", { width: WIDTH, height: HEIGHT, rx: 10, fill: COLOR.board }, board);
  const grid = svg("g", { stroke: COLOR.line, "stroke-width": 1.4, "stroke-linecap": "round" }, board);
  const line = (a, b) => {
    const [[x1, y1], [x2, y2]] = [at(a), at(b)];
    svg("line", { x1, y1, x2, y2 }, grid);
  };
  for (let r = 1; r <= 10; r++) line(`a${r}`, `i${r}`);
  for (const f of FILES) line(`${f}1`, `${f}10`);
  for (const [a, b] of [["d1", "f3"], ["f1", "d3"], ["d8", "f10"], ["f8", "d10"]]) line(a, b);
  const frame = { x: MARGIN, y: MARGIN, width: 8 * FILE_STEP, height: 9 * RANK_STEP };
  svg("rect", { ...frame, fill: "none", "stroke-width": 2.6 }, grid);
  const coords = { fill: COLOR.line, "font-family": "sans-serif", "font-size": 13, "text-anchor": "middle" };
  const labels = svg("g", coords, board);
  for (const f of FILES) svg("text", { x: at(`${f}1`)[0], y: HEIGHT - 8 }, labels).textContent = f;
  for (let r = 1; r <= 10; r++) svg("text", { x: 13, y: at(`a${r}`)[1] + 4.5 }, labels).textContent = r;
  const points = svg("g", { fill: COLOR.line }, board);
  for (const sq of SQUARES) svg("circle", { cx: at(sq)[0], cy: at(sq)[1], r: 1.8 }, points);

  const marks = svg("g", { class: "marks" }, board);
  const mark = (sq, fill, opacity) => {
    const [cx, cy] = at(sq);
    svg("circle", { cx, cy, r: HIGHLIGHT_RADIUS, fill, "fill-opacity": opacity }, marks);
  };
  if (state.moves.length) for (const sq of new Set(splitMove(state.moves.at(-1)))) mark(sq, COLOR.highlight, 0.75);
  if (state.selected) mark(state.selected, COLOR.selected, 0.9);

  const occupied = new Set();
  const pieces = svg("g", { class: "pieces" }, board);
  for (const [sq, letter] of boardOf(state.fen)) {
    const side = letter === letter.toUpperCase() ? "cho" : "han";
    const name = PIECES[letter.toLowerCase()]?.[0];
    if (!name) continue;
    const [x, y] = at(sq);
    svg("use", { class: `piece ${side} ${name}`, href: `#janggi-${side}-${name}`, x, y, "data-square": sq }, pieces);
    occupied.add(sq);
  }

  // The selected piece's targets: a dot on an empty point, a ring around a piece it would capture.
  const targets = svg("g", { class: "targets", fill: COLOR.target, stroke: COLOR.target }, board);
  for (const m of state.legal) {
    const [from, to] = splitMove(m);
    if (from !== state.selected || from === to) continue;
    const [cx, cy] = at(to);
    if (occupied.has(to)) svg("circle", { cx, cy, r: 27, fill: "none", "stroke-width": 3, opacity: 0.7 }, targets);
    else svg("circle", { cx, cy, r: 8, stroke: "none", opacity: 0.55 }, targets);
  }
  arrowLayer = svg("g", { class: "arrows" }, board);
  drawArrow();
}

/** The best move while analysing: an arrow, or a ring around the general for a pass. */
function drawArrow() {
  arrowLayer.replaceChildren();
  if (!state.best || state.mode !== "analyse" || !/^[a-i]\d+[a-i]\d+$/.test(state.best)) return;
  const [from, to] = splitMove(state.best);
  const [x1, y1] = at(from);
  const [x2, y2] = at(to);
  const paint = { class: "arrow best", fill: COLOR.best, stroke: COLOR.best, opacity: 0.82 };
  if (from === to) {
    svg("circle", { ...paint, cx: x1, cy: y1, r: 30, fill: "none", "stroke-width": 7 }, arrowLayer);
    return;
  }
  const len = Math.max(1, Math.hypot(x2 - x1, y2 - y1));
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  // The shaft stops where the head begins; the head's tip stops short of the target's centre.
  const tip = [x2 - ux * 6, y2 - uy * 6];
  const base = [tip[0] - ux * 18, tip[1] - uy * 18];
  const half = 18 * 0.6;
  const g = svg("g", paint, arrowLayer);
  svg("line", { x1, y1, x2: base[0], y2: base[1], "stroke-width": 7, "stroke-linecap": "round" }, g);
  const head = [tip, [base[0] - uy * half, base[1] + ux * half], [base[0] + uy * half, base[1] - ux * half]];
  svg("polygon", { points: head.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), stroke: "none" }, g);
}

// ---- Input.

ui.board.addEventListener("click", (event) => {
  const sq = squareAt(event);
  if (!sq || !canMove()) return;
  const move = state.legal.find((m) => {
    const [from, to] = splitMove(m);
    return from === state.selected && to === sq && from !== to;
  });
  if (move) {
    play(move);
    return;
  }
  // Select a piece that has a move; a second click on it lets go.
  state.selected = sq !== state.selected && state.legal.some((m) => splitMove(m)[0] === sq) ? sq : null;
  draw();
});
ui.newGame.addEventListener("click", () => newGame());
ui.takeBack.addEventListener("click", () => takeBack());
ui.pass.addEventListener("click", () => play(state.legal.find(isPass)));
ui.flip.addEventListener("click", () => {
  state.flip = !state.flip;
  draw();
});
ui.fen.addEventListener("input", () => {
  fenEdited = true;
});
// A pasted FEN may carry newlines, which would split it into several UCI commands.
ui.loadFen.addEventListener("click", () => loadPosition(ui.fen.value.trim().replace(/\s+/g, " ") || null));
ui.startPos.addEventListener("click", () => loadPosition(null));
ui.playHere.addEventListener("click", () =>
  change(() => {
    Object.assign(state, { mode: "play", analysing: false, human: ui.side.value, startFen: state.fen, moves: [] });
    state.flip = state.human === "b";
    clearInfo();
  }),
);
ui.analyse.addEventListener("click", () => {
  if (state.analysing && state.status === "ongoing") {
    state.analysing = false;
    stopSearch();
    updateButtons();
    setStatus(`Analysis stopped (${sideName(toMove())} to move)`);
    return;
  }
  // Analysing turns a game into free play: the engine watches, the person moves both sides.
  change(() => Object.assign(state, { mode: "analyse", analysing: true }));
});

// ---- The self-test: ?selftest=N plays N moves as Cho (the first legal move each time) and reports.

async function report(body) {
  await fetch("/report", { method: "POST", body: JSON.stringify(body) });
}

async function selftest(n) {
  try {
    ui.side.value = "w";
    ui.variant.value = "janggi";
    ui.time.value = "100";
    await newGame();
    for (let i = 0; i < n && state.status === "ongoing"; i++) {
      if (state.failure) throw state.failure;
      if (!state.legal.length) throw new Error(`no legal move in ${state.fen}`);
      await play(state.legal[0]);
    }
    if (state.failure) throw state.failure;
    if (engineErrors.length) throw new Error(engineErrors[0]);
    const boardPieces = ui.board.querySelectorAll(".piece").length;
    await report({ check: "demo", moves: state.moves, fen: state.fen, board_pieces: boardPieces });
  } catch (error) {
    await report({ check: "error", message: String(error?.message ?? error) });
  }
  await report({ done: true });
}

async function main() {
  definePieces();
  state.fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
  draw();
  const selftestMoves = Number(new URLSearchParams(location.search).get("selftest") ?? 0);
  try {
    engine = await Janggi();
  } catch (error) {
    setStatus("The engine could not start.");
    showError(error.message);
    if (selftestMoves > 0) {
      await report({ check: "error", message: error.message });
      await report({ done: true });
    }
    return;
  }
  engine.addMessageListener(onEngineLine);
  // Search threads: leave a core to the page, and more than four gain little at these time controls.
  const threads = Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1));
  await request(["uci", `setoption name Threads value ${threads}`, "isready"], (l) => l === "readyok");
  if (selftestMoves > 0) await selftest(selftestMoves);
  else await newGame();
}

main();
