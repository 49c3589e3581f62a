"""The production topology checked end to end (bench/tools/deploy_check/, `make deploy-check`)
at a size that fits CI: Debian's nginx with the shipped site in front of two daphne
processes, a Celery worker and beat, every client through nginx over TLS from an address of
its own. A login limit of three failures instead of fifty."""

import json
import shutil

import pytest

from bench.support.processes import database_url
from bench.tools.deploy_check.proxy import NGINX
from bench.tools.deploy_check.run import checks
from bench.tools.faults.cluster import REDIS_SERVER

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    # It kills daphne processes: one after the other with the others that kill processes.
    pytest.mark.xdist_group("alone"),
]

LOGIN_LIMIT = 3


def test_the_shipped_deployment_counts_players_apart_and_loses_nothing(tmp_path, monkeypatch):
    for needed in (NGINX, REDIS_SERVER):
        if not shutil.which(needed):
            pytest.fail(f"{needed} is missing: `make test` installs Debian's nginx")
    monkeypatch.setenv("LOGIN_FAILURES_PER_ADDRESS", str(LOGIN_LIMIT))
    lines = checks(database_url(), tmp_path, login_limit_count=LOGIN_LIMIT)
    for line in lines:
        print(json.dumps(line))  # shown with -s, and under a failure
    found = {line["check"]: line for line in lines}
    assert [line["check"] for line in lines] == [
        "nginx -t",
        "systemd-analyze verify",
        "manage.py check --deploy",
        "different addresses count, whatever they forge",
        "a daphne killed mid-game loses nothing",
        "one address is excluded as same-address",
        "static files from nginx, cached for a year",
        "the first administrator reaches the admin",
        "the login limit counts per client",
        "no traceback in daphne's and the worker's logs",
    ]
    failed = [line for line in lines if line["ok"] is False]
    assert failed == [], f"logs in {tmp_path}"
    counted = found["different addresses count, whatever they forge"]
    assert counted["addresses"] == ["127.0.0.2", "127.0.0.3"] and counted["exclusion"] == ""
    assert counted["rating_changes"] == 2 and counted["payouts"] == 1
    assert found["one address is excluded as same-address"]["exclusion"] == "same_ip"
