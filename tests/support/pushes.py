"""The frames a wing service pushed, as each socket's group gets them: the tests of the
services (tests/games/table/) read what the players would read, not the rows."""

import json
from typing import Any

import pytest


class Pushed(list):
    """The (group, message) pairs sent to the channel layer, in order."""

    def __init__(self, on_commit) -> None:
        super().__init__()
        self._on_commit = on_commit

    def of(self, service, **kwargs):
        """Run `service` and commit it: what it pushed replaces what was there. Returns what
        the service returned."""
        self.clear()
        with self._on_commit(execute=True):
            return service(**kwargs)

    def events(self, seat: int | None = 0) -> list[dict[str, Any]]:
        """The events of the table frames pushed to `seat` (None: the spectators)."""
        return [
            json.loads(m["text"])["event"]
            for _g, m in self
            if m["type"] == "table.frame" and m["seat"] == seat
        ]

    def kinds(self, seat: int | None = 0) -> list[str]:
        return [event["kind"] for event in self.events(seat) if event]

    def chat(self) -> list[tuple[str, dict[str, Any]]]:
        """The chat lines pushed: (group, frame)."""
        return [(group, m["frame"]) for group, m in self if m["type"] == "table.chat"]


@pytest.fixture
def pushed(monkeypatch, django_capture_on_commit_callbacks):
    """What the services run through `pushed.of` push once they commit."""
    sent = Pushed(django_capture_on_commit_callbacks)
    monkeypatch.setattr("games.push.send", lambda messages: sent.extend(messages))
    return sent
