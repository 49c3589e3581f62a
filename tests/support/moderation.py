"""Helpers for tests of the moderators' admin: act on players as a moderator, read the log."""

import re

import pytest
from django.contrib.admin.models import CHANGE, LogEntry

from tests.support.factories import ModeratorFactory

USERS = "/admin/accounts/user/"


@pytest.fixture(name="moderator")
def moderator_fixture(client):
    """A logged-in moderator. Import it into a test module to use it as `moderator`."""
    moderator = ModeratorFactory(username="mod")
    client.force_login(moderator)
    return moderator


def act(client, action, players, **form):
    data = {"action": action, "_selected_action": [player.pk for player in players], **form}
    return client.post(USERS, data)


def logged(moderator, player) -> list[str]:
    return list(
        LogEntry.objects.filter(
            user=moderator, object_id=str(player.pk), action_flag=CHANGE
        ).values_list("change_message", flat=True)
    )


def messages_after(client, response) -> list[str]:
    """The admin's messages on the page a response redirects to, as shown."""
    html = client.get(response["Location"]).content.decode()
    return [
        m.strip() for m in re.findall(r'<li class="(?:success|warning|error)">(.*?)</li>', html)
    ]
