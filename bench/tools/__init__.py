"""The tools a person runs: load, faults, the deploy check and the data they need
(bench/__init__.py)."""
