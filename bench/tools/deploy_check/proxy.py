"""Debian's nginx with deploy/'s configuration in front of the fault tool's cluster, TLS on."""

from __future__ import annotations

import os
import re
import signal
import ssl
import subprocess
from pathlib import Path
from typing import Any

from bench.support.processes import ROOT, free_port, stop, wait_for_port
from bench.tools.faults.cluster import Cluster

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
