"""What a moderator reads in the admin: the site's name, history rows with names and times,
messages that say what happened to whom, and no Delete button that leads nowhere."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_ban
from tests.support.factories import UserFactory
from tests.support.moderation import USERS, act, messages_after
from tests.support.moderation import moderator_fixture as moderator_fixture

pytestmark = pytest.mark.django_db


def test_the_admin_names_the_site(client, moderator):
    html = client.get("/admin/").content.decode()
    assert "Tute online: moderation" in html
    assert "<title>Run the site | Tute online moderation</title>" in html
    assert "Django administration" not in html


def test_history_rows_name_the_player_the_moderator_the_action_and_the_time(client, moderator):
    player = UserFactory(username="cheater")
    user_ban(user=player, moderator=moderator, reason="Collusion")
    html = client.get(f"{USERS}{player.pk}/change/").content.decode()
    assert re.search(r"Ban: cheater, by mod, \d{4}-\d\d-\d\d \d\d:\d\d UTC", html)
    assert not re.search(r"Ban: \d+ by \d+", html)


def test_success_messages_say_what_happened_to_whom(client, moderator):
    rosa, luis = UserFactory(username="rosa"), UserFactory(username="luis")
    done = act(client, "ban_players", [rosa], apply="1", reason="Spam")
    assert messages_after(client, done) == ["Banned rosa."]
    done = act(client, "unban_players", [rosa], apply="1", reason="")
    assert messages_after(client, done) == ["Unbanned rosa."]
    until = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    done = act(
        client,
        "mute_players",
        [luis, rosa],
        apply="1",
        reason="Insults",
        until=until.strftime("%Y-%m-%dT%H:%M"),
    )
    stamp = f"{until:%Y-%m-%d %H:%M} UTC"
    assert messages_after(client, done) == [f"Muted 2 players until {stamp}: luis, rosa."]


def test_chip_adjustments_say_how_many_chips_and_to_whom(client, moderator):
    rosa = UserFactory(username="rosa", chips=1000)
    form = act(client, "adjust_chips", [rosa]).content.decode()
    token = re.search(r'name="token" value="([0-9a-f]+)"', form).group(1)
    submit = {"apply": "1", "amount": "1500", "reason": "Prize", "token": token}
    done = act(client, "adjust_chips", [rosa], **submit)
    assert messages_after(client, done) == ["Gave 1,500 chips to rosa."]
    again = act(client, "adjust_chips", [rosa], **submit)
    assert messages_after(client, again) == ["Nothing changed: this form had already been applied."]
    take = {"apply": "1", "amount": "-200", "reason": "Refund", "token": "a" * 32}
    done = act(client, "adjust_chips", [rosa], **take)
    assert messages_after(client, done) == ["Took 200 chips from rosa."]


def test_a_superuser_sees_no_delete_button_for_players(client, django_user_model):
    admin_user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    player = UserFactory(username="somebody")
    page = client.get(f"{USERS}{player.pk}/change/").content.decode()
    assert f"{USERS}{player.pk}/delete/" not in page and 'class="deletelink"' not in page
    listing = client.get(USERS).content.decode()
    assert 'value="delete_selected"' not in listing
    assert client.get(f"{USERS}{player.pk}/delete/").status_code == 403
