"""`python -m bench.tools.faults`: see bench/tools/faults/__init__.py."""

from bench.tools.faults.run import main

main()
