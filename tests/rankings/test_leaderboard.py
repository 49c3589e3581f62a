import re

import pytest

from accounts.services import user_ban
from rankings.models import XpEvent
from rankings.services import xp_award
from tests.accounts.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


def names(html: str, table_id: str) -> list[str]:
    table = re.search(rf'<table class="leaderboard" id="{table_id}">.*?</table>', html, re.S)
    return re.findall(r'<a href="/players/[^/]+/">([^<]+)</a>', table.group(0))


def test_rankings_list_players_by_xp_and_by_chips(client):
    ana = UserFactory(username="ana", chips=300)
    beto = UserFactory(username="beto", chips=2000)
    carla = UserFactory(username="carla", chips=900)
    UserFactory(username="newbie")  # no XP, no chips: not listed
    for number, (player, xp) in enumerate([(ana, 600), (beto, 30), (carla, 2500)]):
        xp_award(user=player, amount=xp, reason=XpEvent.Reason.WON, key=f"lb:{number}")

    html = client.get("/rankings/").content.decode()
    assert names(html, "by-xp") == ["carla", "ana", "beto"]
    assert names(html, "by-chips") == ["beto", "carla", "ana"]
    assert "grade-expert" in html and "2,500" in html


def test_banned_players_leave_the_rankings(client):
    cheat = UserFactory(username="cheat", chips=9999)
    xp_award(user=cheat, amount=9999, reason=XpEvent.Reason.WON, key="lb:cheat")
    user_ban(user=cheat, moderator=ModeratorFactory(), reason="Chip dumping")
    html = client.get("/rankings/").content.decode()
    assert "cheat" not in html


def test_the_home_page_links_the_rankings(client):
    assert '<a href="/rankings/"' in client.get("/").content.decode()
