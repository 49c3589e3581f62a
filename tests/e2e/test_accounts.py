"""A player signs up, confirms their email, logs out and in again, and befriends another,
in Debian's Chromium against a real daphne."""

import re
import time

import pytest

from accounts.models import User
from rankings.selectors import chips_balance
from tests.support.browser import in_db, log_in
from tests.support.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONFIRM_LINK = re.compile(r"(/accounts/confirm-email/[^/\s]+/)")


def emailed_link(log, timeout=60.0) -> str:
    """The confirmation link from the console email backend's output in daphne's log, as
    soon as it is there (`timeout`: a bound, not a measure)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = CONFIRM_LINK.search(log.read_text())
        if match:
            return match.group(1)
        time.sleep(0.05)
    raise AssertionError(f"no confirmation email in the log:\n{log.read_text()[-2000:]}")


def test_sign_up_confirm_email_log_out_and_back_in(page, daphne_server, daphne_server_log):
    page.goto(daphne_server + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Email").fill("rocio@example.com")
    page.get_by_label("Username").fill("Rocio_9")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(daphne_server + "/")
    assert page.locator(".account-nav .who").inner_text() == "Rocio_9"
    assert in_db(lambda: chips_balance(user=User.objects.get(username="Rocio_9"))) == 1000

    page.goto(daphne_server + emailed_link(daphne_server_log))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_load_state()
    assert "rocio@example.com" in page.content()
    assert in_db(lambda: User.objects.get(username="Rocio_9").emailaddress_set.get().verified)

    page.goto(daphne_server + "/players/Rocio_9/")
    assert page.locator("h1").inner_text() == "Rocio_9"
    assert page.locator("#player-chips").inner_text() == "1,000"
    assert page.locator("svg.grade-badge").first.get_attribute("aria-label") == "Novice"

    page.set_viewport_size({"width": 375, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.set_viewport_size({"width": 1100, "height": 800})

    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    assert page.locator(".account-nav .who").count() == 0
    log_in(page, daphne_server, "rocio_9")  # any case
    assert page.locator(".account-nav .who").inner_text() == "Rocio_9"


def test_a_friend_request_sent_and_accepted_in_the_browser(page, daphne_server):
    in_db(lambda: [UserFactory(username="alba"), UserFactory(username="bruno")])
    log_in(page, daphne_server, "alba")
    page.goto(daphne_server + "/players/bruno/")
    page.wait_for_function("window.htmx !== undefined")
    page.get_by_role("button", name="Add as a friend").click()
    # htmx swaps the friends box in place.
    page.get_by_text("Friend request sent to bruno.").wait_for()
    assert page.get_by_role("button", name="Withdraw the request").is_visible()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    log_in(page, daphne_server, "bruno")
    page.goto(daphne_server + "/players/bruno/")
    page.get_by_role("button", name="Accept").click()
    page.wait_for_load_state()
    assert page.get_by_text("You and alba are now friends.").is_visible()
    assert page.locator("#social .friends").inner_text().strip() == "alba"
