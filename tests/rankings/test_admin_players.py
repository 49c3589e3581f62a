"""Players' chips and XP in the moderators' admin: columns, standing, ledger, adjustments."""

import re
import threading

import pytest
from django.db import connections
from django.test.utils import CaptureQueriesContext

from accounts.models import ModerationAction
from accounts.services import user_ip_record
from rankings.models import ChipTransfer, LedgerEntry, XpEvent
from rankings.selectors import chips_balance, ledger_totals
from rankings.services import chips_adjust_by_moderator, xp_award
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.moderation import USERS, act, logged, messages_after
from tests.support.moderation import moderator_fixture as moderator_fixture

pytestmark = pytest.mark.django_db


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

    client.get(USERS)  # shows (and so clears) the messages so far
    too_much = {"apply": "1", "amount": "-5000", "reason": "Typo", "token": "f" * 32}
    response = act(client, "adjust_chips", [player], **too_much)
    assert messages_after(client, response) == [
        "Not applied to unlucky: they hold 1,250 chips, fewer than the 5,000 to take."
    ]
    assert chips_balance(user=player) == 1250


def test_taking_more_than_a_player_holds_says_so_once_with_the_name_as_written(client, moderator):
    player = UserFactory(username="ana_NC", chips=1560)
    too_much = {"apply": "1", "amount": "-999999", "reason": "Typo", "token": "e" * 32}
    response = act(client, "adjust_chips", [player], **too_much)
    # One message, true, the name as its player wrote it (not "Ana_NC"), and no
    # "already applied": the form never was.
    assert messages_after(client, response) == [
        "Not applied to ana_NC: they hold 1,560 chips, fewer than the 999,999 to take."
    ]
    assert not ModerationAction.objects.filter(target=player).exists()


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


def test_the_player_list_shows_grade_and_chips(client, moderator):
    rich = UserFactory(username="rich", chips=2500)
    xp_award(user=rich, amount=600, reason=XpEvent.Reason.WON, key="admin-list:xp")
    html = client.get(USERS, {"q": "rich"}).content.decode()
    row = re.search(r"<tr>.*?>rich<.*?</tr>", html, re.S).group(0)
    assert '<td class="field-grade">Player</td>' in row
    assert '<td class="field-chips">2500</td>' in row


def _changelist_queries(client) -> int:
    with CaptureQueriesContext(connections["default"]) as queries:
        assert client.get(USERS).status_code == 200
    return len(queries)


def test_the_player_list_runs_the_same_queries_for_3_or_60_players(
    client, moderator, django_assert_num_queries
):
    for number in range(3):
        player = UserFactory(chips=100 + number)
        xp_award(user=player, amount=10, reason=XpEvent.Reason.WON, key=f"few:{number}")
    few = _changelist_queries(client)
    for number in range(57):
        player = UserFactory(chips=100 + number)
        xp_award(user=player, amount=10, reason=XpEvent.Reason.WON, key=f"many:{number}")
    # Session, moderator, permissions, counts, the page of players with grade and chips
    # annotated, the filters' groups: no query per row.
    with django_assert_num_queries(few):
        html = client.get(USERS).content.decode()
    assert html.count('class="field-chips"') == 61  # every player and the moderator


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_same_adjustment_submitted_twice_at_once_moves_and_logs_once():
    player, moderator = UserFactory(chips=100), ModeratorFactory()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def submit():
        try:
            barrier.wait()
            results.append(
                chips_adjust_by_moderator(
                    user=player, moderator=moderator, amount=40, reason="Crash", key="same-form"
                )
            )
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _thread in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert errors == []
    (first_transfer, first_log), (second_transfer, second_log) = results
    assert first_transfer.pk == second_transfer.pk
    assert [first_log is None, second_log is None].count(True) == 1
    assert ChipTransfer.objects.filter(key="same-form").count() == 1
    assert ModerationAction.objects.filter(target=player, kind="chips").count() == 1
    assert chips_balance(user=player) == 140
