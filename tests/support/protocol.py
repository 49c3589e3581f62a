"""docs/protocol.md as the tests read it, and how a real frame differs from its documented
example."""

from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


# Fields whose shape depends on the value, not the kind of frame: an action object has one
# key of its kind (NOTATION.md), an event the keys of its own kind.
FREE = {"action", "legal_actions"}


def differences(documented, real, path="") -> list[str]:
    """Where `documented` and `real` differ in their fields (not their values)."""
    if documented is None or real is None:
        return []
    if isinstance(documented, dict) and isinstance(real, dict):
        found = []
        if set(documented) != set(real):
            found.append(f"{path or '.'}: {sorted(documented)} != {sorted(real)}")
        for key in set(documented) & set(real):
            if key in FREE or (
                key == "event"
                and documented[key]
                and real[key]
                and documented[key]["kind"] != real[key]["kind"]
            ):
                continue
            found += differences(documented[key], real[key], f"{path}.{key}")
        return found
    if isinstance(documented, list) and isinstance(real, list):
        first = next((item for item in documented if item is not None), None)
        other = next((item for item in real if item is not None), None)
        return differences(first, other, f"{path}[]")
    return []
