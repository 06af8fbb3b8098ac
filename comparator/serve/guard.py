"""What keeps another site's page from using the workbench through the user's browser: a
request addressed to a name that is not the server's (DNS rebinding: a name of the other
site's that points here) or sent by another site's page (its `Origin`, or the browser's
`Sec-Fetch-Site`) is refused before any route sees it."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from comparator.serve.speech import asked
from comparator.text.language import _, speaking

LOOPBACK = ("127.0.0.1", "localhost", "::1")
_WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def host_name(value: str) -> str:
    """The name of a Host header or an origin's netloc, without its port: "[::1]:8000" ->
    "::1", "localhost:8000" -> "localhost"."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """ASGI middleware: on a loopback address, only the loopback names are answered; on
    any address, a request that changes something is refused when it comes from another
    origin."""

    def __init__(self, app: Any, bound: str) -> None:
        self.app = app
        self.names = set(LOOPBACK) | {bound.lower().strip("[]")} \
            if bound in LOOPBACK else None  # None: any name (the user shared it)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        why = None
        with speaking(asked(headers.get("accept-language"))):
            if self.names is not None and host_name(host) not in self.names:
                why = (400, _("this server answers requests to {names} only, not {name}")
                       .format(names=", ".join(sorted(self.names)),
                               name=repr(host_name(host))))
            elif scope.get("method") in _WRITES:
                origin = headers.get("origin")
                if headers.get("sec-fetch-site") == "cross-site" or (
                        origin not in (None, "null") and urlsplit(origin).netloc.lower()
                        != host.lower()):
                    why = (403, _("a request from another site's page is refused"))
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": why[1]}).encode()
        await send({"type": "http.response.start", "status": why[0],
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
