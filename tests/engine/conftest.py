"""Engine tests need no database and no Django: only the engine and these helpers."""

import sys
from pathlib import Path

# The helpers module sits beside the tests; make it importable under any import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))
