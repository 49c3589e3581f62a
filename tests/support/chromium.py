"""A real browser for the tests, a pytest plugin of the suite (tests/conftest.py): Debian's
Chromium driven by Playwright, kept between the browser tests that follow each other."""

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.kept import KEPT

CHROMIUM = "/usr/bin/chromium"


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _start_chromium() -> tuple[Any, Callable[[], None]]:
    from playwright.sync_api import sync_playwright

    # Playwright's running loop makes Django think the ORM is called from async code; it is
    # not. Set while Playwright lives, as it is kept between tests (`Kept`).
    unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
    except BaseException:
        playwright.stop()
        raise

    def close() -> None:
        try:
            chromium.close()
        finally:
            playwright.stop()
            if unsafe is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe

    return chromium, close


# Every page the tests open is a user's who asked for less motion: the table's cards do not
# slide in (static/css/table.css). No test looks at a card in flight, and software-drawn
# animations were a third of Chromium's CPU in a whole game on a phone.
CONTEXT_DEFAULTS = {"reduced_motion": "reduce"}


class Browser:
    """The kept Chromium, whose new contexts and pages take `CONTEXT_DEFAULTS` unless a
    test says otherwise; anything else is Playwright's `Browser` itself."""

    def __init__(self, chromium) -> None:
        self._chromium = chromium

    def new_context(self, **options):
        return self._chromium.new_context(**{**CONTEXT_DEFAULTS, **options})

    def new_page(self, **options):
        return self._chromium.new_page(**{**CONTEXT_DEFAULTS, **options})

    def __getattr__(self, name: str):
        return getattr(self._chromium, name)


@pytest.fixture
def browser():
    """Debian's Chromium driven by Playwright. Never a downloaded browser.

    One Chromium serves the browser tests that follow each other in this process (`Kept`);
    each test has browser contexts of its own (cookies, storage, cache), all closed after it.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it with apt-get")
    chromium = KEPT.get("browser", _start_chromium, alive=lambda chromium: chromium.is_connected())
    yield Browser(chromium)
    for context in chromium.contexts:
        context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    # A bound, not a measure: several test processes share the cores (pytest-xdist).
    page.set_default_timeout(20_000)
    yield page
    context.close()
