"""Engine tests need no database and no Django: only the engine and tests/engine helpers."""
