#!/usr/bin/env python3
"""The test bed's feeds host (http://feeds.test/): `python3 -m http.server` over testbed/fixtures,
plus one thing a static server cannot do, a page that does not answer in time.

    feeds_server.py --bind ADDRESS --directory DIR [PORT]

Every path is served as http.server serves it (same handler, HTTP/1.0, a thread per request),
except `/slow/<path>`: the server reads the request and holds the answer until the client gives up
(closes the connection) or HOLD_SECONDS pass, and only then sends the file at `/<path>`. Longer
than the Reader plugin's page timeout (15 s, package/init.php PAGE_TIMEOUT): a teaser linking to
`/slow/...` tests "the page took too long" against the real server, with nothing in the test
sleeping. The held thread ends when the client leaves, so no request lingers.
"""

import argparse
import functools
import http.server
import select
import socket
import time

HOLD_SECONDS = 120
SLOW_PREFIX = "/slow/"


class Handler(http.server.SimpleHTTPRequestHandler):
    def _still_wanted(self):
        """False when a /slow/ request's client gave up while held; True otherwise."""
        if not self.path.startswith(SLOW_PREFIX):
            return True
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 1.0)
            if readable:
                try:
                    gone = self.connection.recv(1, socket.MSG_PEEK) == b""
                except OSError:
                    gone = True
                if gone:
                    self.log_message('"%s" held until the client left', self.requestline)
                    self.close_connection = True
                    return False
        self.path = self.path[len(SLOW_PREFIX) - 1:]
        return True

    def do_GET(self):
        if self._still_wanted():
            super().do_GET()

    def do_HEAD(self):
        if self._still_wanted():
            super().do_HEAD()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", required=True)
    parser.add_argument("--directory", required=True)
    parser.add_argument("port", type=int, nargs="?", default=80)
    args = parser.parse_args()
    Handler.protocol_version = "HTTP/1.0"
    handler = functools.partial(Handler, directory=args.directory)
    with http.server.ThreadingHTTPServer((args.bind, args.port), handler) as server:
        print(f"Serving HTTP on {args.bind} port {args.port} from {args.directory}", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
