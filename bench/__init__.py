"""The project's tools, apart from its tests, in three folders:

- `bench/tools/`: what a person runs: the load tool (`python -m bench.tools.load`), the fault
  tools (`bench.tools.faults`, `bench.tools.arena_faults`), the deploy check, the embedded
  server's check, the puzzles' load and the leaderboards' data (`bench.tools.rankings_data`);
- `bench/benchmarks/`: what `make bench` (`python -m bench`) times, each against a baseline
  of the same run;
- `bench/support/`: what the tools and the test suite share: the processes they start
  (`bench.support.processes`), the one client of docs/protocol.md (`bench.support.client`),
  new players, and the bare echo app the live figures are compared with.

Nothing here imports from tests/.
"""
