"""A loopback HTTP server that answers like the VastAI API, and only where the API answers:
``GET``/``PUT``/``DELETE /api/v0/instances/<id>/``; any other path or method gets the API's
404 shape.  Rate limits come as plain text or as JSON, the 401 body is the documented one,
instances take a while to reach running."""

from __future__ import annotations

import http.server
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

KEY = "acct-key-0123456789"
INSTANCE_PATH = re.compile(r"^/api/v0/instances/(\d+)/(\?owner=me)?$")
NOT_FOUND = {"success": False, "error": "not_found", "msg": "Requested resource not found"}
RATE_LIMIT_JSON = {"success": False, "error": "rate_limited",
                   "msg": "API requests too frequent endpoint threshold=4.0"}


class FakeVast(http.server.BaseHTTPRequestHandler):
    states: ClassVar[list[dict[str, Any]]] = []
    rate_limited: ClassVar[int] = 0
    rate_limit_json: ClassVar[bool] = False
    calls: ClassVar[list[tuple[str, str, str]]] = []
    by_id: ClassVar[dict[int, dict[str, Any]]] = {}
    """Instances answered by their own id (several at once); ``states`` answers the rest."""

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
        match = INSTANCE_PATH.match(self.path)
        if (match is None or self.command not in ("GET", "PUT", "DELETE")
                or (self.command == "GET") != bool(match.group(2))):
            self._reply(404, NOT_FOUND)
            return
        if FakeVast.rate_limited > 0:
            FakeVast.rate_limited -= 1
            if FakeVast.rate_limit_json:
                self._reply(429, RATE_LIMIT_JSON)
            else:
                self._reply(429, "API requests too frequent", text=True)
            return
        if self.path.startswith("/api/v0/instances/404/"):
            self._reply(200, {"instances": None})
        elif self.path.startswith("/api/v0/instances/400/"):
            self._reply(400, {"success": False, "error": "invalid_args", "msg": "bad state"})
        elif self.command == "GET" and int(match.group(1)) in FakeVast.by_id:
            self._reply(200, {"instances": FakeVast.by_id[int(match.group(1))]})
        elif self.command == "GET":
            state = FakeVast.states.pop(0) if len(FakeVast.states) > 1 else FakeVast.states[0]
            self._reply(200, {"instances": state})
        else:
            self._reply(200, {"success": True})

    do_GET = do_PUT = do_DELETE = do_POST = do_PATCH = _handle

    def log_message(self, *args: object) -> None:
        pass



@contextmanager
def serve() -> Iterator[str]:
    """Run the server; yields its base URL."""
    FakeVast.calls, FakeVast.rate_limited, FakeVast.rate_limit_json = [], 0, False
    FakeVast.by_id = {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeVast)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
