// janggi in the browser, with the interface of Fairy-Stockfish's npm package (`fairy-stockfish-nnue.wasm`):
//
//   import Janggi from "./janggi.js";
//   const engine = await Janggi();
//   engine.addMessageListener((line) => console.log(line));
//   engine.postMessage("uci");
//
// The engine runs in Web Workers on shared memory, so the page must be cross-origin isolated (served with
// `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`).

const here = import.meta.url;

/** Starts an engine. `options.wasm` and `options.worker` override where its two files are fetched from. */
export default async function Janggi(options = {}) {
  if (typeof SharedArrayBuffer === "undefined" || (typeof crossOriginIsolated !== "undefined" && !crossOriginIsolated)) {
    throw new Error(
      "janggi needs shared memory: serve the page with Cross-Origin-Opener-Policy: same-origin and " +
        "Cross-Origin-Embedder-Policy: require-corp",
    );
  }
  const wasmUrl = new URL(options.wasm ?? "janggi.wasm", here);
  const workerUrl = new URL(options.worker ?? "janggi-worker.js", here);
  const [module, pages] = await Promise.all([
    fetch(wasmUrl).then((r) => {
      if (!r.ok) throw new Error(`${wasmUrl}: ${r.status}`);
      return WebAssembly.compileStreaming(r);
    }),
    fetch(new URL("janggi-memory.json", here)).then((r) => r.json()),
  ]);
  const memory = new WebAssembly.Memory({ initial: pages.initial, maximum: pages.maximum, shared: true });

  const listeners = new Set();
  const workers = [];
  // Lines come from several workers (the protocol's, the search threads'); each carries its number in the
  // order the engine wrote it, and they are passed on in that order.
  const early = new Map();
  let next = 0;
  const deliver = (seq, text) => {
    early.set(seq, text);
    while (early.has(next)) {
      const line = early.get(next);
      early.delete(next);
      next += 1;
      for (const listener of [...listeners]) listener(line);
    }
  };
  let failed = null;
  const announceFailure = (message) => {
    if (failed !== null) return;
    failed = message;
    for (const listener of [...listeners]) listener(`info string error: the engine stopped: ${message}`);
  };

  let readyResolve;
  let readyReject;
  const ready = new Promise((resolve, reject) => {
    readyResolve = resolve;
    readyReject = reject;
  });
  const startWorker = (thread) => {
    const worker = new Worker(workerUrl, { name: thread === undefined ? "janggi" : `janggi thread ${workers.length}` });
    worker.onmessage = (event) => {
      const m = event.data;
      if (m.kind === "line") deliver(m.seq, m.text);
      else if (m.kind === "start_worker") startWorker(m);
      else if (m.kind === "ready") readyResolve();
      else if (m.kind === "failed") {
        readyReject(new Error(m.message));
        announceFailure(m.message);
      }
    };
    worker.onerror = (event) => {
      readyReject(new Error(event.message));
      announceFailure(event.message);
    };
    worker.postMessage({ kind: "init", module, memory, slot: thread?.slot, stackTop: thread?.stackTop });
    workers.push(worker);
    return worker;
  };
  const protocol = startWorker(undefined);
  await ready;

  const writeFile = (name, data) => {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    protocol.postMessage({ kind: "file", name: String(name), data: bytes });
  };
  return {
    /** Sends one protocol line (or several, separated by newlines). */
    postMessage(line) {
      protocol.postMessage({ kind: "line", text: String(line) });
    },
    addMessageListener(listener) {
      listeners.add(listener);
    },
    removeMessageListener(listener) {
      listeners.delete(listener);
    },
    /** Ends every worker of the engine; it answers nothing afterwards. */
    terminate() {
      for (const worker of workers) worker.terminate();
      workers.length = 0;
      listeners.clear();
    },
    /** Gives the engine a net's bytes under `name` and selects it (`setoption name EvalFile value NAME`). */
    loadNet(name, data) {
      writeFile(name, data);
      this.postMessage(`setoption name EvalFile value ${name}`);
    },
    /** Files for `setoption name EvalFile`, as Fairy-Stockfish's package offers them (`FS.writeFile`). */
    FS: { writeFile },
  };
}
