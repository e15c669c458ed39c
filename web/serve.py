#!/usr/bin/env python3
"""Serves a folder over HTTP on localhost with the headers the engine's shared memory needs (COOP/COEP), for the
demo page and the browser tests: `python3 web/serve.py` then open http://localhost:8000/web/demo/.

Options: --root DIR (default: the repository), --port N (0: any free port; the chosen one is printed on the first
line of stdout), --report FILE (POST /report appends the request body as one line to FILE: the browser tests'
pages write their results there)."""

import argparse
import functools
import http.server
import os
import sys
import threading


class Handler(http.server.SimpleHTTPRequestHandler):
    report = None
    lock = threading.Lock()

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self):
        if self.path != "/report" or self.report is None:
            self.send_error(404)
            return
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8", "replace").replace("\n", " ")
        with self.lock, open(self.report, "a", encoding="utf-8") as f:
            f.write(body + "\n")
        self.send_response(204)
        self.end_headers()

    def log_message(self, format, *args):
        pass


Handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                          ".wasm": "application/wasm", ".json": "application/json"}


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=repo)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--report")
    args = parser.parse_args()
    Handler.report = args.report
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), functools.partial(Handler, directory=args.root))
    print(server.server_address[1], flush=True)
    print(f"serving {args.root} on http://127.0.0.1:{server.server_address[1]}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
