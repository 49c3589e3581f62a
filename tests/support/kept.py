"""What is slow to start (a daphne process, Chromium), kept from one test to the next: a
pytest plugin of the suite (tests/conftest.py)."""

from collections.abc import Callable
from typing import Any

import pytest

# --- Kept from one test to the next: the daphne servers and Chromium ------------------------


class Kept:
    """What is slow to start (a daphne process, Chromium), kept from one test to the next
    while the tests that follow each other in this process ask for it, and closed before the
    first test that does not (`pytest_runtest_setup`), and at the end. pytest-xdist hands each
    process neighbouring tests one after the other, so the browser tests mostly follow each
    other. Each thing is kept under the name of the fixture that hands it out."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[Any, Callable[[], None]]] = {}

    def get(self, name: str, start: Callable[[], tuple[Any, Callable[[], None]]], alive) -> Any:
        """The thing kept as `name`, started (`start()` gives it and its closer) when there is
        none or it is no longer `alive(thing)`."""
        if name in self._open and not alive(self._open[name][0]):
            self.close(name)
        if name not in self._open:
            self._open[name] = start()
        return self._open[name][0]

    def close(self, name: str) -> None:
        _thing, closer = self._open.pop(name)
        closer()

    def close_all_but(self, names: set[str]) -> None:
        for name in [name for name in self._open if name not in names]:
            self.close(name)


KEPT = Kept()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before the test's fixtures: what it does not use is closed. Playwright's sync API keeps
    # an event loop running in this thread while it lives, which would break an asyncio test;
    # and a daphne left running could serve or sweep beside a test that expects none.
    KEPT.close_all_but(set(item.fixturenames))
