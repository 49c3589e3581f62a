"""The fault tool (issue #15): real games over real WebSockets while a daphne process, the
Celery worker and Redis are killed (SIGKILL) and started again at random moments; then the
books are checked.

    python -m bench.tools.faults [--tables N] [--seconds S] [--kills K] [--seed X]

It starts everything of its own, listening on 127.0.0.1 only: a Redis server on a free port
(no persistence, so a restarted Redis is empty, as after a crash without a disk), two daphne
processes, a Celery worker and Celery beat (the timer sweep every second, the award sweep),
on a throwaway PostgreSQL database made like the tests' (DATABASE_URL names the server). The
machine's own Redis is never touched.

`--tables` tables play short games (one deal): two-player habanero and four-player tute in
pairs at a stake, every seat a WebSocket client following docs/protocol.md, and practice
tables where one client plays with the server's robots. A client plays a random legal action
of its seat's view; when its socket closes it connects again (to either daphne), and when
nothing arrives for a while it sends `sync`, as a browser's tab would. A table's master
starts the next game when one ends. During the first `--seconds`, `--kills` faults happen at
random moments drawn from `--seed`, one after the other: each kills one process (a daphne,
the worker or Redis; each kind at least once when K >= 3), waits a moment and starts it
again; from K >= 4 one fault kills the worker and, while it is down, Redis (the tasks queued
meanwhile are lost). Then no new game starts; the clients finish their games (bounded),
leave, and the tool waits (bounded) for every award.

It reports, as JSON lines: the faults done; games played, finished and lost (still running
and not moving at the end); awards missing and double awards (a game paid, staked or given
XP twice, or counted twice on a leaderboard); the ledger's imbalance (what the players, the
pots and the bank hold against every chip ever granted) and cached balances that differ
from their entries; finished games whose record does not replay to their stored result; and
the tracebacks in the daphne and worker logs.

In four parts: the processes it starts and kills (cluster.py), the tables and the players
who play them through the faults (play.py), the books checked at the end (books.py), and a
whole run (run.py).
"""
