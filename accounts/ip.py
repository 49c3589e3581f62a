"""A client's address, for pages and for sockets, by one rule: settings.TRUSTED_PROXY_COUNT.

With no trusted proxy (0) the address is the connection's peer and X-Forwarded-For is ignored,
since any client can write it. Behind N trusted proxies the client is the Nth address from the
end of X-Forwarded-For: each proxy appends the address it received the connection from, so
the entries before those are whatever the client sent. allauth applies the same rule to
requests (ALLAUTH_TRUSTED_PROXY_COUNT is the same setting); `forwarded_ip` applies it to a
socket's scope.
"""

import ipaddress

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address as allauth sees it (ALLAUTH_TRUSTED_PROXY_COUNT)."""
    try:
        return get_adapter(request).get_client_ip(request)
    except PermissionDenied:
        return None
    except ImproperlyConfigured:
        # Fewer X-Forwarded-For entries than trusted proxies: it did not come through them.
        return request.META.get("REMOTE_ADDR")


def forwarded_ip(*, peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address from a connection's `peer` and its X-Forwarded-For header."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0 and forwarded_for:
        entries = [entry.strip() for entry in forwarded_for.split(",")]
        if len(entries) >= proxies:
            try:
                return str(ipaddress.ip_address(entries[-proxies]))
            except ValueError:
                return peer
    return peer
