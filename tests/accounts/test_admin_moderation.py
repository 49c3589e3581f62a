"""Moderators run the site from the admin; everyone else is kept out of it."""

import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.models import ModerationAction
from accounts.moderators import MODERATOR_PERMISSIONS
from accounts.services import user_ip_record
from rankings.models import ChipTransfer, LedgerEntry
from rankings.selectors import chips_balance, ledger_totals
from tests.accounts.factories import ModeratorFactory, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

USERS = "/admin/accounts/user/"


@pytest.fixture
def moderator(client):
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


def test_the_moderators_group_from_the_migration_has_exactly_its_permissions():
    group = Group.objects.get(name="Moderators")
    granted = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert granted == set(MODERATOR_PERMISSIONS)
    assert not any(
        codename.startswith(("delete_", "change_", "add_")) for _app, codename in granted
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


def test_moderator_adjusts_chips_through_the_ledger_once_per_form(client, moderator):
    player = UserFactory(username="unlucky", chips=1000)
    form = act(client, "adjust_chips", [player]).content.decode()
    token = re.search(r'name="token" value="([0-9a-f]+)"', form).group(1)

    submit = {"apply": "1", "amount": "250", "reason": "Lost chips in a crash", "token": token}
    act(client, "adjust_chips", [player], **submit)
    act(client, "adjust_chips", [player], **submit)  # the same form sent twice
    assert chips_balance(user=player) == 1250
    transfer = ChipTransfer.objects.get(reason="adjust")
    assert (transfer.actor, transfer.memo) == (moderator, "Lost chips in a crash")
    assert logged(moderator, player) == ["Chips +250. Reason: Lost chips in a crash"]
    assert ModerationAction.objects.filter(target=player, kind="chips").count() == 1
    assert ledger_totals().accounted

    too_much = {"apply": "1", "amount": "-5000", "reason": "Typo", "token": "f" * 32}
    response = act(client, "adjust_chips", [player], **too_much)
    followed = client.get(response["Location"]).content.decode()
    assert "holds 1250 chips, cannot take 5000" in followed
    assert chips_balance(user=player) == 1250


def test_moderator_sees_a_players_ips_ledger_and_xp_but_cannot_edit_them(client, moderator):
    player = UserFactory(username="watched", chips=1000)
    user_ip_record(user=player, ip="198.51.100.23")
    page = client.get(f"{USERS}{player.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "198.51.100.23" in html
    assert "<td>Grant</td><td>1000</td>" in html  # the ledger summary
    assert f"/admin/rankings/ledgerentry/?player={player.pk}" in html
    assert f"/admin/rankings/xpevent/?user__id__exact={player.pk}" in html
    assert 'name="username"' not in html  # read-only for a moderator
    assert client.post(f"{USERS}{player.pk}/change/", {"username": "renamed"}).status_code == 403

    ledger = client.get("/admin/rankings/ledgerentry/", {"player": player.pk})
    assert ledger.status_code == 200 and "1 ledger entry" in ledger.content.decode()
    assert client.get("/admin/rankings/xpevent/", {"user__id__exact": player.pk}).status_code == 200


def test_nobody_deletes_or_edits_ledger_entries_not_even_a_superuser(client, moderator):
    player = UserFactory(chips=100)
    entry = LedgerEntry.objects.get(destination__user=player)
    for user in (moderator, UserFactory(is_staff=True, is_superuser=True)):
        client.force_login(user)
        base = f"/admin/rankings/ledgerentry/{entry.pk}"
        assert client.post(f"{base}/delete/", {"post": "yes"}).status_code == 403
        assert client.post(f"{base}/change/", {"amount": "1000000"}).status_code == 403
        assert client.get("/admin/rankings/ledgerentry/add/").status_code == 403
        account = entry.destination
        assert (
            client.post(
                f"/admin/rankings/chipaccount/{account.pk}/change/", {"balance": "99999"}
            ).status_code
            == 403
        )
    assert LedgerEntry.objects.filter(pk=entry.pk, amount=100).exists()
    assert chips_balance(user=player) == 100


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
