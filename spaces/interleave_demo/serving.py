"""Serving the demo: refuse a port already in use before loading the model, and say the URL once it answers."""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request


def port_in_use(host: str, port: int) -> bool:
    """Whether ``host:port`` cannot be bound (another server listens there), checked as gradio checks it."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        return False  # an unknown host name: gradio's own error says so
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError:
            return True
    return False


def wait_until_answering(url: str, timeout: float = 120.0) -> bool:
    """Poll ``url`` until it answers with HTTP 200 (True), or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    return False
