"""Players' pages a new user met (issue 53), at 375×812 and 1280×800: a friend request waiting
for the player's answer shows on /friends/ with Accept and Decline, and the header's badge
says what it counts."""

import re

import pytest

from accounts import services as account_services
from accounts.selectors import are_friends, friend_requests_received
from tests.support.browser import ARTIFACTS, in_thread, log_in, no_sideways_scroll
from tests.support.browser import VIEWPORTS as SIZES
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRIENDS_PAGE = re.compile(r"/friends/(#friend-requests)?$")


def page_for(browser, size: str):
    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


def asked_by(requester: str, player: str):
    """`requester` asks `player` to be friends; both players."""

    def ask():
        them, me = UserFactory(username=requester), UserFactory(username=player)
        account_services.friend_request(from_user=them, to_user=me)
        return them, me

    return in_thread(ask)


def open_friends_from_the_badge(page, base: str) -> None:
    """The header's badge says "1 request" and leads to /friends/, which shows the request."""
    page.goto(base + "/")
    badge = page.get_by_role("link", name="1 friend request waiting for your answer")
    assert "1 request" in badge.inner_text()
    badge.click()
    page.wait_for_url(FRIENDS_PAGE)
    assert page.get_by_role("heading", name="Friend requests").is_visible()


@pytest.mark.parametrize("size", SIZES)
def test_a_friend_request_is_accepted_on_the_friends_page(browser, quick_daphne, size):
    them, me = asked_by("lucia", "marco")
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, "marco")
    open_friends_from_the_badge(page, quick_daphne)
    requests = page.locator("#friend-requests-list")
    assert "lucia" in requests.inner_text()
    assert no_sideways_scroll(page)
    page.screenshot(path=f"{ARTIFACTS}/friends-request-{size}.png")
    requests.get_by_role("button", name="Accept").click()
    page.get_by_text("You and lucia are now friends.").wait_for()
    page.wait_for_url(FRIENDS_PAGE)
    assert page.locator(".friend-list").inner_text().startswith("lucia")
    assert page.locator("#friend-requests-list").count() == 0
    assert in_thread(lambda: are_friends(them, me))
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_friend_request_is_declined_on_the_friends_page(browser, quick_daphne, size):
    them, me = asked_by("lucia", "marco")
    context, page = page_for(browser, size)
    log_in(page, quick_daphne, "marco")
    open_friends_from_the_badge(page, quick_daphne)
    page.locator("#friend-requests-list").get_by_role("button", name="Decline").click()
    page.get_by_text("You declined the request from lucia.").wait_for()
    page.wait_for_url(FRIENDS_PAGE)
    assert page.locator("#friend-requests-list").count() == 0
    assert page.get_by_text("No friends yet").is_visible()
    assert not in_thread(lambda: are_friends(them, me))
    assert in_thread(lambda: list(friend_requests_received(user=me))) == []
    context.close()
