"""A loopback HTTP server that answers like the VastAI API: rate limits with plain-text
bodies, instances that take a while to reach running, errors with the API's message."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

KEY = "acct-key-0123456789"


class FakeVast(http.server.BaseHTTPRequestHandler):
    states: ClassVar[list[dict[str, Any]]] = []
    rate_limited: ClassVar[int] = 0
    calls: ClassVar[list[tuple[str, str, str]]] = []

    def _reply(self, code: int, body: Any, text: bool = False) -> None:
        data = body.encode() if text else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain" if text else "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        FakeVast.calls.append((self.command, self.path, body))
        if self.headers.get("Authorization") != f"Bearer {KEY}":
            self._reply(401, {"success": False, "error": "invalid_user_key",
                              "msg": "Invalid user key"})
            return
        if FakeVast.rate_limited > 0:
            FakeVast.rate_limited -= 1
            self._reply(429, "API requests too frequent", text=True)
            return
        if self.path.startswith("/api/v0/instances/404/"):
            self._reply(200, {"instances": None})
        elif self.path.startswith("/api/v0/instances/400/"):
            self._reply(400, {"success": False, "error": "invalid_args", "msg": "bad state"})
        elif self.command == "GET":
            state = FakeVast.states.pop(0) if len(FakeVast.states) > 1 else FakeVast.states[0]
            self._reply(200, {"instances": state})
        else:
            self._reply(200, {"success": True})

    do_GET = do_PUT = do_DELETE = _handle

    def log_message(self, *args: object) -> None:
        pass



@contextmanager
def serve() -> Iterator[str]:
    """Run the server; yields its base URL."""
    FakeVast.calls, FakeVast.rate_limited = [], 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeVast)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
