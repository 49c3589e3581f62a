"""The deploy check's site checks: logins limited by address, the first administrator, the
deploy settings and the static files, all through nginx."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import urllib.parse
from http.cookies import SimpleCookie
from typing import Any

from bench.support.processes import ROOT
from bench.tools.deploy_check.proxy import (
    ADMINISTRATOR,
    ALICIA,
    BRUNO,
    FORGED,
    HOUSE,
    tls,
)

# --- Logins ---------------------------------------------------------------------------------


def request(url: str, address: str, method: str, path: str, body: str = "", headers=None):
    """One HTTPS request through nginx from `address`: the response and its text."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPSConnection(
        parts.hostname, parts.port, source_address=(address, 0), context=tls(), timeout=30
    )
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response, response.read().decode(errors="replace")
    finally:
        connection.close()


def login(url: str, address: str, username: str, password: str) -> str | None:
    """A login through nginx from `address`, as a browser posts the form: the session
    cookie when the site let the player in (it redirects away from the login page)."""
    response, page = request(url, address, "GET", "/accounts/login/")
    cookies = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or []:
        cookies.load(header)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "login": username, "password": password}
    )
    response, _page = request(
        url,
        address,
        "POST",
        "/accounts/login/",
        form,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookies['csrftoken'].value}",
            "Referer": f"{url}/accounts/login/",
            "X-Forwarded-For": FORGED,
        },
    )
    if response.status != 302 or "/accounts/login/" in response.headers["Location"]:
        return None
    for header in response.headers.get_all("Set-Cookie") or []:
        cookies.load(header)
    return cookies["sessionid"].value


def login_limit(url: str, limit: int) -> dict[str, Any]:
    """`limit` failed logins from one address (each for another account, so that only the
    per-address limit counts), then a right password from there and from another one."""
    from bench.support.players import new_player

    user = new_player(chips=0)
    user.set_password("right-password")
    user.save()
    failures = [login(url, ALICIA, f"nobody{n}", "wrong") for n in range(limit)]
    return {
        "failed_as_expected": failures.count(None),
        "same_address_refused": login(url, ALICIA, user.username, "right-password") is None,
        "other_address_let_in": login(url, BRUNO, user.username, "right-password") is not None,
    }


def first_administrator(url: str, env: dict[str, str]) -> dict[str, Any]:
    """README's checklist's last step: `createsuperuser`, who then reaches the admin
    through nginx."""
    password = "deploy-check-" + os.urandom(8).hex()
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", *ADMINISTRATOR],
        cwd=ROOT,
        env={**env, "DJANGO_SUPERUSER_PASSWORD": password},
        check=True,
        capture_output=True,
    )
    session = login(url, HOUSE, "admin", password)
    response, page = request(
        url, HOUSE, "GET", "/admin/", headers={"Cookie": f"sessionid={session}"}
    )
    return {
        "logged_in": session is not None,
        "admin": response.status,
        "moderation": "Run the site" in page,
    }


def deploy_settings(env: dict[str, str]) -> dict[str, Any]:
    """`manage.py check --deploy` with production's settings and this environment."""
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "tute_site.settings"},
        capture_output=True,
        text=True,
        check=False,
    )
    return {"ok": done.returncode == 0, "said": (done.stdout + done.stderr).strip()[-2000:]}


def static_served(url: str) -> dict[str, Any]:
    """A collected static file (htmx, as a page names it) served by nginx with a year's
    cache."""
    _response, page = request(url, HOUSE, "GET", "/")
    path = re.search(r'src="(/static/[^"]+\.js)"', page).group(1)
    response, body = request(url, HOUSE, "GET", path)
    return {
        "path": path,
        "status": response.status,
        "cache_control": response.headers.get("Cache-Control", ""),
        "served_by_nginx": response.headers.get("Server", "").startswith("nginx"),
        "bytes": len(body),
    }
