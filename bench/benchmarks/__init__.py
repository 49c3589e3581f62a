"""What `make bench` times, each figure beside a baseline of the same run (bench/__main__.py)."""
