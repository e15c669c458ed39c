// One thread of the engine: a Web Worker that instantiates the engine's module on the shared memory. The first
// worker holds the protocol session (lines in, lines out); every other one is a search or perft thread that the
// engine asked for (the import `start_worker`), which sets its own stack and enters `janggi_worker_main`.
"use strict";

let exports = null;
let memory = null;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bytesOut(ptr, len) {
  // A copy: TextDecoder does not read shared memory.
  return new Uint8Array(memory.buffer, ptr, len).slice();
}

function bytesIn(bytes) {
  const ptr = exports.janggi_alloc(bytes.length, 1);
  if (ptr === 0) throw new Error(`out of memory for ${bytes.length} bytes`);
  new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
  return ptr;
}

function fail(error) {
  // The instance is lost (a trap, or memory exhausted); the page reports it as the engine's own error line.
  self.postMessage({ kind: "failed", message: String(error && error.message ? error.message : error) });
}

function instantiate(module) {
  const imports = {
    env: { memory },
    janggi: {
      now: () => performance.timeOrigin + performance.now(),
      start_worker: (slot, stackTop) => self.postMessage({ kind: "start_worker", slot, stackTop }),
      emit: (seq, ptr, len) => self.postMessage({ kind: "line", seq, text: decoder.decode(bytesOut(ptr, len)) }),
    },
  };
  return WebAssembly.instantiate(module, imports);
}

function initTls() {
  const tls = exports.janggi_alloc(exports.__tls_size.value, exports.__tls_align.value);
  exports.__wasm_init_tls(tls);
}

self.onmessage = async (event) => {
  const m = event.data;
  try {
    if (m.kind === "init") {
      memory = m.memory;
      exports = (await instantiate(m.module)).exports;
      if (m.slot === undefined) {
        // The protocol's worker runs on the stack the linker laid out.
        initTls();
        self.postMessage({ kind: "ready" });
      } else {
        // A thread: its own stack first (given by the engine), then its thread-local storage, then its tasks.
        exports.__stack_pointer.value = m.stackTop;
        initTls();
        exports.janggi_worker_main(m.slot);
      }
    } else if (m.kind === "line") {
      const bytes = encoder.encode(m.text);
      exports.janggi_line(bytesIn(bytes), bytes.length);
    } else if (m.kind === "file") {
      const name = encoder.encode(m.name);
      const data = new Uint8Array(m.data);
      exports.janggi_write_file(bytesIn(name), name.length, bytesIn(data), data.length);
    }
  } catch (error) {
    fail(error);
  }
};
