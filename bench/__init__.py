"""The project's tools, apart from its tests: the load tool (`python -m bench.load`), the
fault tool (`python -m bench.faults`) and the benchmarks (`python -m bench`, `make bench`),
with what they share with the test suite: the processes they start (`bench.processes`) and
the one client of docs/protocol.md (`bench.client`). Nothing here imports from tests/."""
