#!/usr/bin/env bash
# Builds the browser package: web/janggi.wasm from the engine core (web/engine), next to janggi.js and
# janggi-worker.js. Needs Debian's Rust for the web (`apt-get install -y --no-install-recommends rustc-web
# cargo-web rust-web-src lld-22`): its standard library sources build the threads-enabled std that WebAssembly
# threads need (rustup cannot fetch the wasm32 target here, and its rustc does not match those sources).
set -euo pipefail
cd "$(dirname "$0")"
web=$PWD

# Debian's cargo and rustc by full path: a rustup toolchain may come first in PATH.
cargo=${JANGGI_WEB_CARGO:-/usr/bin/cargo}
rustc=${JANGGI_WEB_RUSTC:-/usr/bin/rustc}
linker=${JANGGI_WEB_LINKER:-$(ls /usr/lib/llvm-*/bin/wasm-ld 2>/dev/null | sort -V | tail -1)}
for tool in "$cargo" "$rustc" "$linker"; do
    if [ ! -x "$tool" ]; then
        echo "web/build.sh: missing ${tool:-wasm-ld}; install: apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src lld-22" >&2
        exit 1
    fi
done

# Memory: 64 MiB to start (the embedded net, the default hash), growing to at most 2 GiB. The page's script
# creates the shared memory with the same numbers (janggi.js reads them from janggi-memory.json).
initial_pages=1024
maximum_pages=32768

export RUSTC="$rustc" RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker"
export RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128 \
 -C link-arg=--initial-memory=$((initial_pages * 65536)) -C link-arg=--max-memory=$((maximum_pages * 65536)) \
 -C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--export=__stack_pointer \
 -C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size -C link-arg=--export=__tls_align \
 -C link-arg=--export=__tls_base"
cd engine
"$cargo" build --release --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort "$@"
cp target/wasm32-unknown-unknown/release/janggi_web.wasm "$web/janggi.wasm"
printf '{"initial": %d, "maximum": %d}\n' "$initial_pages" "$maximum_pages" > "$web/janggi-memory.json"
echo "web/build.sh: built $web/janggi.wasm ($(stat -c %s "$web/janggi.wasm") bytes)" >&2
