"""`python -m bench.tools.load`: see bench/tools/load/__init__.py."""

from bench.tools.load.run import main

main()
