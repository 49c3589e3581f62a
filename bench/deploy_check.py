"""The site as it runs in production, on one machine, checked end to end through nginx:

    python -m bench.deploy_check [--login-limit N] [--keep-logs]     (make deploy-check)

It installs Debian's nginx if it is missing, and starts, all listening on 127.0.0.1 only:
nginx with the shipped site (deploy/nginx/tute.conf, its ports, paths and certificate
changed: a self-signed one), two daphne processes, a Celery worker and Celery beat, and a
Redis of their own (bench.faults' cluster), on a throwaway PostgreSQL database (DATABASE_URL
names the server), with the production settings of deploy/env.example: TLS behind the proxy
(HTTPS=1) and TRUSTED_PROXY_COUNT=1. Every client speaks to nginx only, over https:// and
wss://, each from a loopback address of its own bound as the source of its connections
(127.0.0.2, .3, .4), as players at home do. Then it checks:

1. a competitive game between players at different addresses counts for the leaderboards
   and moves both ratings, although both clients sent the same forged X-Forwarded-For;
2. a game of two players from one address is excluded as same-address;
3. the login limit counts failures per client, not per proxy: one address past its limit
   is refused, another still logs in;
4. daphne processes killed (SIGKILL) in the middle of the first game, each in turn, lose
   nothing: the sockets reconnect through nginx to the other process, the game ends and is
   awarded once.

It prints one JSON line per check and a last one with the logs' folder, exits non-zero if
any check failed, and stops everything it started. tests/load/test_deploy_check.py runs it
with a lower login limit.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from bench.faults import Cluster, Control, Player, TableSpec, Tally, on_throwaway_database
from bench.processes import ROOT, free_port, stop, wait_for_port

SITE = ROOT / "deploy" / "nginx" / "tute.conf"
NGINX = "/usr/sbin/nginx"
ALICIA, BRUNO, HOUSE = "127.0.0.2", "127.0.0.3", "127.0.0.4"
FORGED = "203.0.113.9"  # what a client writes in its own X-Forwarded-For
STAKE = 10
ADMINISTRATOR = ["--username", "admin", "--email", "admin@example.com"]
OPENSSL_SELF_SIGNED = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
OPENSSL_SELF_SIGNED += ["-subj", "/CN=127.0.0.1"]

# deploy/env.example's settings that matter here (SECRET_KEY: this process's, so that the
# sessions it makes for the clients hold in the servers).
PRODUCTION_ENV = {"TRUSTED_PROXY_COUNT": "1", "HTTPS": "1", "ALLOWED_HOSTS": "127.0.0.1"}


def ensure_nginx() -> None:
    """Debian's nginx, installed with apt-get when missing, never started by the package."""
    if Path(NGINX).exists():
        return
    policy = Path("/usr/sbin/policy-rc.d")
    made = not policy.exists()
    if made:  # Debian's way to keep a package's service from starting as it installs
        policy.write_text("#!/bin/sh\nexit 101\n")
        policy.chmod(0o755)
    try:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx"], check=True, env=env)
    finally:
        if made:
            policy.unlink()


def _replace(text: str, old: str, new: str) -> str:
    """`text` with `old` replaced; the shipped file must hold it (the check follows it)."""
    if old not in text:
        raise ValueError(f"deploy/nginx/tute.conf no longer holds {old!r}")
    return text.replace(old, new)


def site_config(ports: list[int], https_port: int, http_port: int, cert: Path, key: Path) -> str:
    """The shipped site, served from this checkout on this run's ports and certificate."""
    text = SITE.read_text()
    text = _replace(text, "/srv/tute/", f"{ROOT}/")
    text = _replace(text, "server 127.0.0.1:8001 ", f"server 127.0.0.1:{ports[0]} ")
    text = _replace(text, "server 127.0.0.1:8002 ", f"server 127.0.0.1:{ports[1]} ")
    text = _replace(text, "listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
    text = _replace(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    text = re.sub(r"^\s*listen \[::\].*\n", "", text, flags=re.M)  # IPv4 loopback only
    text = _replace(text, "/etc/letsencrypt/live/tute.example/fullchain.pem", str(cert))
    text = _replace(text, "/etc/letsencrypt/live/tute.example/privkey.pem", str(key))
    return text.replace("tute.example", "127.0.0.1")


def main_config(workdir: Path) -> str:
    """A main nginx.conf of the run's own (Debian's is for the machine's nginx)."""
    temp = {name: workdir / f"nginx-{name}" for name in ("body", "proxy", "fastcgi", "uwsgi")}
    for path in temp.values():
        path.mkdir(exist_ok=True)
    return f"""
user root;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    access_log {workdir}/nginx-access.log;
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["uwsgi"]};
    include {workdir}/tute.conf;
}}
"""


class Proxy:
    """nginx in front of a cluster's daphne processes, on this run's ports."""

    def __init__(self, workdir: Path, ports: list[int]) -> None:
        self.workdir = workdir
        self.https_port, self.http_port = free_port(), free_port()
        cert, key = workdir / "cert.pem", workdir / "key.pem"
        subprocess.run(
            [*OPENSSL_SELF_SIGNED, "-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
        )
        site = site_config(ports, self.https_port, self.http_port, cert, key)
        (workdir / "tute.conf").write_text(site)
        self.conf = workdir / "nginx.conf"
        self.conf.write_text(main_config(workdir))
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def test(self) -> str:
        """`nginx -t` on the run's configuration: its output (raises if nginx refuses it)."""
        done = subprocess.run(
            [NGINX, "-t", "-c", str(self.conf)], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"nginx -t refused the site:\n{done.stderr}")
        return done.stderr.strip()

    def start(self) -> None:
        log = (self.workdir / "nginx.log").open("w")
        self.process = subprocess.Popen(
            [NGINX, "-c", str(self.conf), "-g", "daemon off;"], stdout=log, stderr=log
        )
        wait_for_port(self.https_port, self.process)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                stop(self.process, timeout=5)


class ProxiedCluster(Cluster):
    """The fault tool's cluster with production's settings behind one proxy."""

    origin = ""  # nginx's, once known

    def env(self) -> dict[str, str]:
        from django.conf import settings

        return {
            **super().env(),
            **PRODUCTION_ENV,
            "SECRET_KEY": settings.SECRET_KEY,
            "CSRF_TRUSTED_ORIGINS": self.origin,
        }


def tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the run's own self-signed certificate
    return context


def socket_options(address: str, forged: bool) -> dict[str, Any]:
    """How a client from `address` opens its sockets through nginx."""
    options: dict[str, Any] = {"ssl": tls(), "local_addr": (address, 0)}
    if forged:
        options["headers"] = {"X-Forwarded-For": FORGED}
    return options


# --- The games ------------------------------------------------------------------------------


def make_table(players: list[Any]) -> TableSpec:
    """A competitive one-deal habanero table at a stake, both seated."""
    from bench.client import session_cookie
    from games.table import seating

    options = {"variant": "habanero", "players": 2, "points_to_win": 1, "rounds": 1}
    table = seating.table_create(
        master=players[0], options={**options, "move_time": 30, "stake": STAKE}
    )
    seating.table_sit(table_id=table.pk, user=players[1])
    return TableSpec(table.pk, [session_cookie(user) for user in players], "habanero")


async def play_one_game(
    url: str,
    spec: TableSpec,
    addresses: list[str],
    *,
    forged: bool,
    kill: Any = None,
    timeout: float = 120,
) -> dict[str, Any]:
    """Both seats play one game through nginx; `kill()` is called once, after the game's
    fifth action. The clients' tally."""
    control, tally = Control(), Tally()
    players = [
        Player(
            [url],
            spec,
            session,
            master=seat == 0,
            rng=random.Random(seat),
            tally=tally,
            control=control,
            connect_options=socket_options(addresses[seat], forged),
        )
        for seat, session in enumerate(spec.sessions)
    ]
    # The others connect first, as players who sat down have their table open: the master
    # starts once every seat's socket has told the site its address.
    tasks = [asyncio.create_task(player.run()) for player in players[1:]]
    while tally.connects < len(players) - 1:
        await asyncio.sleep(0.05)
    tasks.append(asyncio.create_task(players[0].run()))
    killed = False
    started = time.monotonic()
    try:
        while True:
            latest = control.latest.get(spec.table_id)
            game = latest and latest["game"]
            if game:
                control.no_new_games.set()  # this game is the table's one
                if game["status"] != "playing":
                    break
            if kill is not None and not killed and game and latest["count"] >= 5:
                killed = True
                await asyncio.to_thread(kill)
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"table {spec.table_id}: the game did not end")
            await asyncio.sleep(0.1)
    finally:
        control.done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"connects": tally.connects, "closed": tally.closed, "killed": killed}


def game_books(table_id: int) -> dict[str, Any]:
    """What the table's one finished game left: its result, boards and ratings."""
    from games.models import Game, GameSeat
    from rankings.models import BoardRow, ChipTransfer, GameResult, RatingChange, XpEvent

    game = Game.objects.get(table_id=table_id, status=Game.Status.FINISHED)
    deadline = time.monotonic() + 60
    while True:
        result = GameResult.objects.filter(game_id=game.pk).first()
        if result is not None and result.awarded_at is not None:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game.pk} was never awarded")
        time.sleep(0.2)
    users = list(GameSeat.objects.filter(game=game).values_list("user_id", flat=True))
    return {
        "game": game.pk,
        "addresses": sorted(
            str(address)
            for address in GameSeat.objects.filter(game=game).values_list("ip_address", flat=True)
        ),
        "exclusion": result.exclusion,
        "payouts": ChipTransfer.objects.filter(game_id=game.pk, reason="payout").count(),
        "xp_events": XpEvent.objects.filter(game_id=game.pk).count(),
        "rating_changes": RatingChange.objects.filter(game_id=game.pk).count(),
        "on_boards": BoardRow.objects.filter(user_id__in=users, games__gt=0).count(),
    }


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
    from bench.players import new_player

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


# --- The run --------------------------------------------------------------------------------


def units_verified(workdir: Path) -> dict[str, Any]:
    """`systemd-analyze verify` on the shipped units, served from this checkout (a daphne
    on port 8001 for the template), where the machine has it."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return {"check": "systemd-analyze verify", "ok": None, "skipped": "not installed"}
    units = workdir / "units"
    units.mkdir()
    names = []
    for unit in sorted((ROOT / "deploy" / "systemd").glob("*.service")):
        name = unit.name.replace("@.service", "@8001.service")
        (units / name).write_text(unit.read_text().replace("/srv/tute", str(ROOT)))
        names.append(f"./{name}")
    done = subprocess.run(
        [analyze, "verify", *names], cwd=units, capture_output=True, text=True, check=False
    )
    said = (done.stdout + done.stderr).strip()
    return {"check": "systemd-analyze verify", "ok": done.returncode == 0, "said": said}


def checks(database_url: str, workdir: Path, *, login_limit_count: int) -> list[dict[str, Any]]:
    from django.db import connections

    from bench.players import new_player

    cluster = ProxiedCluster(workdir, database_url)
    proxy = Proxy(workdir, cluster.ports)
    cluster.origin = proxy.url
    lines: list[dict[str, Any]] = [
        {"check": "nginx -t", "ok": True, "said": proxy.test()},
        units_verified(workdir),
        {"check": "manage.py check --deploy", **deploy_settings(cluster.env())},
    ]
    try:
        cluster.start()
        proxy.start()
        alicia, bruno, carla, dani = (new_player(chips=1000) for _player in range(4))
        counted = make_table([alicia, bruno])
        shared = make_table([carla, dani])
        connections.close_all()

        def kill_each_daphne() -> None:
            # SIGKILL, mid-game, one after the other: whichever held a socket, it drops.
            for n in range(len(cluster.daphnes)):
                cluster._kill(cluster.daphnes[n])
                time.sleep(1)
                cluster.start_daphne(n)

        played = asyncio.run(
            play_one_game(proxy.url, counted, [ALICIA, BRUNO], forged=True, kill=kill_each_daphne)
        )
        books = game_books(counted.table_id)
        lines.append(
            {
                "check": "different addresses count, whatever they forge",
                "ok": books["exclusion"] == ""
                and books["addresses"] == [ALICIA, BRUNO]
                and books["rating_changes"] == 2
                and books["on_boards"] >= 2,
                **books,
            }
        )
        lines.append(
            {
                "check": "a daphne killed mid-game loses nothing",
                "ok": played["killed"]
                and played["closed"] >= 2
                and books["payouts"] == 1
                and books["xp_events"] == 2,
                **played,
            }
        )
        asyncio.run(play_one_game(proxy.url, shared, [HOUSE, HOUSE], forged=False))
        books = game_books(shared.table_id)
        lines.append(
            {
                "check": "one address is excluded as same-address",
                "ok": books["exclusion"] == "same_ip" and books["addresses"] == [HOUSE, HOUSE],
                **books,
            }
        )
        static = static_served(proxy.url)
        lines.append(
            {
                "check": "static files from nginx, cached for a year",
                "ok": static["status"] == 200
                and "max-age=31536000, immutable" in static["cache_control"]
                and static["bytes"] > 0,
                **static,
            }
        )
        admin = first_administrator(proxy.url, cluster.env())
        lines.append(
            {
                "check": "the first administrator reaches the admin",
                "ok": admin["logged_in"] and admin["admin"] == 200 and admin["moderation"],
                **admin,
            }
        )
        limits = login_limit(proxy.url, login_limit_count)
        lines.append(
            {
                "check": "the login limit counts per client",
                "ok": limits["failed_as_expected"] == login_limit_count
                and limits["same_address_refused"]
                and limits["other_address_let_in"],
                **limits,
            }
        )
        daphne_tracebacks, _library = cluster.tracebacks("daphne")
        worker_tracebacks, _library = cluster.tracebacks("worker")
        lines.append(
            {
                "check": "no traceback in daphne's and the worker's logs",
                "ok": not daphne_tracebacks and not worker_tracebacks,
                "daphne": daphne_tracebacks[:3],
                "worker": worker_tracebacks[:3],
            }
        )
    finally:
        proxy.stop()
        cluster.stop()
        connections.close_all()
    return lines


def run(login_limit_count: int) -> list[dict[str, Any]]:
    os.environ["LOGIN_FAILURES_PER_ADDRESS"] = str(login_limit_count)
    ensure_nginx()
    return on_throwaway_database(
        "deploy_check",
        lambda url, workdir: checks(url, workdir, login_limit_count=login_limit_count),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--login-limit", type=int, default=50, help="failed logins an address may make"
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tute")
    lines = run(args.login_limit)
    for line in lines:
        print(json.dumps(line), flush=True)
    if not args.keep_logs:
        shutil.rmtree(lines[-1]["workdir"], ignore_errors=True)
    failed = [line["check"] for line in lines if line.get("ok") is False]
    if failed:
        print(f"deploy-check: FAILED: {', '.join(failed)}", file=sys.stderr)
        raise SystemExit(1)
    print("deploy-check: every check passed", file=sys.stderr)


if __name__ == "__main__":
    main()
