"""`python -m bench.tools.deploy_check`: see bench/tools/deploy_check/__init__.py."""

from bench.tools.deploy_check.run import main

main()
