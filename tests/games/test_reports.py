"""Players report a chat message or a player from the table page; moderators read each
report with the chat around it and its game, and close it with a decision that goes to the
moderation log."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from accounts.models import ModerationAction
from accounts.moderators import moderators_group_sync
from games import reports
from games.models import Report
from games.table import chat, play, seating
from tests.support.factories import ModeratorFactory, UserFactory
from tests.support.moderation import messages_after

pytestmark = pytest.mark.django_db

QUEUE = "/admin/games/report/"


@pytest.fixture
def table():
    """A running habanero game between ana and beto, and a chat in which beto is rude."""
    ana, beto = UserFactory(username="ana"), UserFactory(username="Beto_99")
    table = seating.table_create(master=ana, options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=beto)
    play.game_start(table_id=table.pk, user=ana)
    for user, text in [
        (ana, "hola"),
        (beto, "qué tal"),
        (ana, "bien, juguemos"),
        (beto, "eres un <b>inútil</b>"),
        (ana, "calma"),
        (beto, "perdón"),
    ]:
        chat.chat_post(table_id=table.pk, user=user, text=text)
    table.refresh_from_db()
    return table


def rude(table):
    return table.chat_messages.get(text__contains="inútil")


def test_a_player_reports_a_chat_message_from_the_table_page(client, table):
    ana = table.master
    client.force_login(ana)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f'href="/tables/{table.pk}/report/"' in page
    message = rude(table)
    form = client.get(f"/tables/{table.pk}/report/", {"message": message.pk}).content.decode()
    # Beto's lines are offered (escaped), ana's own are not; this one is picked.
    assert "Beto_99: eres un &lt;b&gt;inútil&lt;/b&gt;" in form
    assert "ana: hola" not in form
    assert re.search(rf'value="{message.pk}"[^>]*checked', form)
    for reason in ("Insults or harassment", "Cheating or collusion", "Something else"):
        assert reason in form

    sent = client.post(
        f"/tables/{table.pk}/report/",
        {"message": message.pk, "reason": "insults", "note": "Every game the same"},
    )
    assert sent.status_code == 302 and sent["Location"] == f"/tables/{table.pk}/"
    assert (
        "Thank you: the moderators will read your report."
        in client.get(sent["Location"]).content.decode()
    )
    report = Report.objects.get()
    assert (report.reporter, report.reported.username, report.message, report.game_id) == (
        ana,
        "Beto_99",
        message,
        table.game_id,
    )
    assert (report.reason, report.note, report.is_open) == ("insults", "Every game the same", True)


def test_a_player_is_reported_without_a_message(client, table):
    beto = table.seats.get(seat=1).user
    client.force_login(beto)
    sent = client.post(f"/tables/{table.pk}/report/", {"player": "ana", "reason": "cheating"})
    assert sent.status_code == 302
    report = Report.objects.get()
    assert (report.reported.username, report.message, report.reason) == ("ana", None, "cheating")
    nothing = client.post(f"/tables/{table.pk}/report/", {"reason": "cheating"})
    assert nothing.status_code == 400
    assert "Choose a message or a player to report." in nothing.content.decode()


def test_never_two_reports_of_one_message_and_only_a_few_an_hour(client, table):
    ana = table.master
    client.force_login(ana)
    beto_lines = list(table.chat_messages.filter(user__username="Beto_99").order_by("pk"))
    url = f"/tables/{table.pk}/report/"
    assert client.post(url, {"message": beto_lines[0].pk, "reason": "spam"}).status_code == 302
    twice = client.post(url, {"message": beto_lines[0].pk, "reason": "insults"})
    assert twice.status_code == 400
    assert "You have already reported this message." in twice.content.decode()
    assert client.post(url, {"message": beto_lines[1].pk, "reason": "insults"}).status_code == 302
    assert client.post(url, {"player": "Beto_99", "reason": "cheating"}).status_code == 302
    fourth = client.post(url, {"message": beto_lines[2].pk, "reason": "insults"})
    assert fourth.status_code == 400
    assert "You may send at most 3 reports an hour: try again later." in fourth.content.decode()
    assert Report.objects.count() == 3
    # An hour later, one more is welcome.
    Report.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    assert client.post(url, {"message": beto_lines[2].pk, "reason": "insults"}).status_code == 302


def test_nobody_reports_themselves_or_at_a_table_they_cannot_see(client, table):
    ana = table.master
    # In English whatever language an earlier test on this worker left active.
    with (
        translation.override("en"),
        pytest.raises(reports.ReportError, match="You cannot report yourself"),
    ):
        reports.report_create(reporter=ana, table_id=table.pk, reason="spam", reported=ana)
    table.guests = False
    table.save(update_fields=["guests"])
    client.force_login(UserFactory(username="stranger"))
    assert client.get(f"/tables/{table.pk}/report/").status_code == 403


@pytest.fixture
def moderator(client):
    moderator = ModeratorFactory(username="mod")
    moderators_group_sync()
    client.force_login(moderator)
    return moderator


def reported(table) -> Report:
    return reports.report_create(
        reporter=table.master,
        table_id=table.pk,
        reason="insults",
        note="Every game the same",
        message_id=rude(table).pk,
    )


def test_a_report_is_queued_read_with_its_chat_and_game_decided_and_logged(
    client, table, moderator
):
    report = reported(table)
    queue = client.get(QUEUE, {"open": "yes"}).content.decode()
    assert f"{QUEUE}{report.pk}/change/" in queue and "Beto_99" in queue
    assert "eres un &lt;b&gt;inútil&lt;/b&gt;" in queue

    page = client.get(f"{QUEUE}{report.pk}/change/").content.decode()
    # The chat around it, in order, the reported line marked; the game and the table linked.
    lines = re.findall(r"<strong>(\w+)</strong>: ([^<]*(?:&lt;[^<]*)*)</li>", page)
    assert [name for name, _text in lines] == ["ana", "Beto_99", "ana", "Beto_99", "ana", "Beto_99"]
    assert 'class="reported"' in page
    assert f"/admin/games/game/{table.game_id}/change/" in page
    assert f'href="/tables/{table.pk}/"' in page
    assert "Every game the same" in page and 'id="decision-form"' in page

    until = (timezone.now() + timedelta(hours=2)).replace(second=0, microsecond=0)
    decide = f"{QUEUE}{report.pk}/decide/"
    refused = client.post(decide, {"decision": "mute", "reason": "Insults"})
    assert "A mute needs the time it ends." in " ".join(messages_after(client, refused))
    done = client.post(
        decide,
        {"decision": "mute", "reason": "Insults", "until": until.strftime("%Y-%m-%dT%H:%M")},
    )
    said = messages_after(client, done)
    assert said[0].startswith("Report on Beto_99 closed: Mute. Muted until")
    report.refresh_from_db()
    beto = report.reported
    beto.refresh_from_db()
    assert beto.is_muted and beto.mute_reason == "Insults"
    assert (report.decision, report.decided_by, report.decision_note) == (
        "mute",
        moderator,
        "Insults",
    )
    assert report.action == ModerationAction.objects.get(target=beto, kind="mute")
    assert report.action.until == until
    # Decided once: a second decision changes nothing.
    again = client.post(decide, {"decision": "ban", "reason": "More"})
    assert messages_after(client, again) == ["This report was already decided by mod."]
    beto.refresh_from_db()
    assert beto.is_active
    waiting = client.get(QUEUE, {"open": "yes"}).content.decode()
    assert f"{QUEUE}{report.pk}/change/" not in waiting
    log = client.get("/admin/accounts/moderationaction/").content.decode()
    assert "Beto_99" in log and "Insults" in log


@pytest.mark.parametrize(
    ("decision", "kind"), [("none", "dismiss"), ("warning", "warn"), ("ban", "ban")]
)
def test_every_decision_goes_to_the_moderation_log(client, table, moderator, decision, kind):
    report = reported(table)
    client.post(f"{QUEUE}{report.pk}/decide/", {"decision": decision, "reason": "Read it"})
    report.refresh_from_db()
    assert report.decision == decision
    action = ModerationAction.objects.get()
    assert (action.kind, action.target, action.moderator, action.reason) == (
        kind,
        report.reported,
        moderator,
        "Read it",
    )
    assert report.action == action
    report.reported.refresh_from_db()
    assert report.reported.is_banned == (decision == "ban")


def test_staff_without_the_right_cannot_decide(client, table):
    from tests.support.factories import StaffUserFactory

    report = reported(table)
    client.force_login(StaffUserFactory())
    assert client.get(QUEUE).status_code == 403
    assert (
        client.post(f"{QUEUE}{report.pk}/decide/", {"decision": "ban", "reason": "x"}).status_code
        == 403
    )
    report.refresh_from_db()
    assert report.is_open
