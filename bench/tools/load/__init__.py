"""The load tool (issue #15): many real 4-player tables of robots, each seat a WebSocket client
following docs/protocol.md, against a real daphne on PostgreSQL and Redis with a real Celery
worker; and, in the same run, a bare Channels echo consumer under the same load as baseline.

    python -m bench.tools.load [--tables N[,N...]] [--seconds S] [--rate MOVES_PER_S_PER_TABLE]
                         [--daphnes N] [--route table|spread] [--profile DIR]

Each seat logs in with its own session cookie and keeps the latest `state`; when its view has
legal actions, the project's `random` robot picks one of `view.legal_actions` (any seat with a
legal action may send it: a cante moment is open to several seats). Each table makes about
`--rate` moves a second. It reports tables, moves per second, the median and 99th percentile
of the time from a move sent to the new state received by all four seats, errors (error
frames, timeouts, closed sockets), and the CPU and memory of each process (read from /proc).
The echo baseline has the same number of groups of four sockets, at the same pace: one sends,
all four receive. Everything is bounded by --seconds and listens on 127.0.0.1 only.

With `--daphnes N`, N daphne processes serve the site behind the one Redis, as the site grows
past one machine. A table's sockets connect as the shipped nginx routes them
(deploy/nginx/tute.conf): all to one process, chosen by the table (`--route table`); with
`--route spread` the four seats of a table connect to different processes where N allows, so
every move also crosses processes through the channel layer. With `--tables 25,50,100`, it
plays 25 tables, then 50, then 100, each for --seconds, and reports the most moves a second
it sustained, once every table moves, with a 99th percentile under 250 ms, no error and no
update missed (`load-capacity`).

It runs on a throwaway PostgreSQL database made like the tests' (DATABASE_URL names the
server) and on REDIS_URL's Redis (channel layer and Celery broker).

In three parts: the clients that play and the echo's (clients.py), the processes' CPU and
memory read while they serve (sampling.py), and a whole run and its report (run.py).
"""
