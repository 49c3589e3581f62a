"""The site as it runs in production, on one machine, checked end to end through nginx:

    python -m bench.tools.deploy_check [--login-limit N] [--keep-logs]     (make deploy-check)

It installs Debian's nginx if it is missing, and starts, all listening on 127.0.0.1 only:
nginx with the shipped site (deploy/nginx/tute.conf, its ports, paths and certificate
changed: a self-signed one), two daphne processes, a Celery worker and Celery beat, and a
Redis of their own (bench.tools.faults' cluster), on a throwaway PostgreSQL database (DATABASE_URL
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

In three parts: nginx and the cluster behind it (proxy.py), the checks (games.py, site.py), and a
whole run (run.py).
"""
