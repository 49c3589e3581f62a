"""Moderators run the site from the admin; everyone else is kept out of it."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import ModerationAction
from accounts.moderators import moderator_permissions
from tests.support.factories import ModeratorFactory, StaffUserFactory, UserFactory
from tests.support.moderation import USERS, act, logged
from tests.support.moderation import moderator_fixture as moderator_fixture

pytestmark = pytest.mark.django_db


def test_the_moderators_group_from_the_migration_has_exactly_its_permissions():
    group = Group.objects.get(name="Moderators")
    granted = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert granted == moderator_permissions()
    assert {app for app, _codename in granted} == {
        "accounts",
        "arenas",
        "games",
        "puzzles",
        "rankings",
    }
    # History is never edited; only an arena, which a moderator plans, is written in a form.
    planned = {("arenas", "add_arena"), ("arenas", "change_arena")}
    assert not any(
        codename.startswith(("delete_", "change_", "add_")) for app, codename in granted - planned
    )


def test_moderator_finds_players_by_name_or_email(client, moderator):
    UserFactory(username="Quintana", email="q@example.org")
    UserFactory(username="other", email="o@example.org")
    assert "Quintana" in client.get(USERS, {"q": "quint"}).content.decode()
    html = client.get(USERS, {"q": "q@example.org"}).content.decode()
    assert "Quintana" in html and ">other<" not in html
    actions = set(re.findall(r'<option value="(\w+)"', html))
    assert actions == {
        "ban_players",
        "unban_players",
        "mute_players",
        "unmute_players",
        "adjust_chips",
    }  # and no "delete_selected"


def test_moderator_bans_with_a_reason_and_it_is_logged(client, moderator):
    player = UserFactory(username="cheater")
    form = act(client, "ban_players", [player])
    assert form.status_code == 200 and "Reason" in form.content.decode()

    refused = act(client, "ban_players", [player], apply="1", reason="")
    assert "This field is required." in refused.content.decode()
    player.refresh_from_db()
    assert not player.is_banned

    done = act(client, "ban_players", [player], apply="1", reason="Multi-accounting")
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.is_banned and not player.is_active and player.ban_reason == "Multi-accounting"
    action = ModerationAction.objects.get(target=player)
    assert (action.kind, action.moderator, action.reason) == ("ban", moderator, "Multi-accounting")
    assert logged(moderator, player) == ["Banned. Reason: Multi-accounting"]

    act(client, "unban_players", [player], apply="1", reason="Appeal accepted")
    player.refresh_from_db()
    assert player.is_active and not player.is_banned
    assert ModerationAction.objects.filter(target=player, kind="unban").exists()


def test_moderator_mutes_until_a_time(client, moderator):
    player = UserFactory(username="loud")
    until = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    act(
        client,
        "mute_players",
        [player],
        apply="1",
        reason="Flooding the chat",
        until=until.strftime("%Y-%m-%dT%H:%M"),
    )
    player.refresh_from_db()
    assert player.is_muted and player.muted_until == until
    assert ModerationAction.objects.get(target=player).until == until
    assert logged(moderator, player)[0].startswith("Muted until")

    past = act(client, "mute_players", [player], apply="1", reason="x", until="2001-01-01T10:00")
    assert "Choose a time in the future." in past.content.decode()


def test_a_moderator_cannot_moderate_staff(client, moderator):
    other = ModeratorFactory(username="othermod")
    response = act(client, "ban_players", [other], apply="1", reason="Power trip")
    assert (
        "Only a superuser may moderate staff." in client.get(response["Location"]).content.decode()
    )
    other.refresh_from_db()
    assert other.is_active


def test_staff_without_the_group_gets_403(client):
    player = UserFactory(username="target")
    client.force_login(StaffUserFactory())
    assert client.get(USERS).status_code == 403
    assert client.get(f"{USERS}{player.pk}/change/").status_code == 403
    assert act(client, "ban_players", [player], apply="1", reason="x").status_code == 403
    assert client.get("/admin/rankings/ledgerentry/").status_code == 403
    player.refresh_from_db()
    assert player.is_active


def test_a_plain_player_is_sent_to_the_admin_login(client):
    player = UserFactory(username="target")
    client.force_login(UserFactory())
    response = act(client, "ban_players", [player], apply="1", reason="x")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    player.refresh_from_db()
    assert player.is_active
