from allauth.account.adapter import get_adapter
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The client's address as allauth sees it (ALLAUTH_TRUSTED_PROXY_COUNT and friends)."""
    try:
        return get_adapter(request).get_client_ip(request)
    except PermissionDenied:
        return None
