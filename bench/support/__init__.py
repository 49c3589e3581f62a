"""What the tools and the test suite share: processes, the protocol's client, players."""
