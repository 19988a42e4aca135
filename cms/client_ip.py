"""The client's IP address, as login throttling counts it.

Without a proxy, the address the connection comes from (REMOTE_ADDR): a client cannot
forge it. Behind N proxies, each appends the address it received the request from to the
forwarding header, so the client's address is the Nth entry from the right: the entries
further left are whatever the client wrote and are never read. A request that carries
fewer entries did not come through the proxies; it is counted by its own address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.PLATEAU_PROXY_COUNT
    if proxies:
        entries = request.META.get(settings.PLATEAU_PROXY_IP_HEADER, "").split(",")
        if len(entries) >= proxies:
            forwarded = _address(entries[-proxies])
            if forwarded:
                return forwarded
    return _address(remote) or remote or None
