from datetime import date

import pytest

from rankings.selectors import chips_balance, chips_daily_bonus_available
from rankings.services import (
    DailyBonusAlreadyClaimed,
    DailyBonusNotNeeded,
    chips_daily_bonus,
    chips_stake,
)
from tests.support.factories import UserFactory
from tests.support.game_factories import GameFactory

pytestmark = pytest.mark.django_db

MONDAY, TUESDAY = date(2026, 3, 2), date(2026, 3, 3)


def test_the_daily_bonus_is_given_once_a_day():
    player = UserFactory(chips=300)
    chips_daily_bonus(user=player, today=MONDAY)
    with pytest.raises(DailyBonusAlreadyClaimed):
        chips_daily_bonus(user=player, today=MONDAY)
    assert chips_balance(user=player) == 400
    chips_daily_bonus(user=player, today=TUESDAY)
    assert chips_balance(user=player) == 500


def test_no_daily_bonus_at_or_above_a_thousand_chips():
    player = UserFactory(chips=1000)
    with pytest.raises(DailyBonusNotNeeded):
        chips_daily_bonus(user=player, today=MONDAY)
    assert chips_balance(user=player) == 1000
    assert not chips_daily_bonus_available(user=player, today=MONDAY)
    # After losing a stake the player is below 1,000 and may claim it.
    chips_stake(user=player, game_id=GameFactory().pk, amount=1, key="lose-one")
    assert chips_daily_bonus_available(user=player, today=MONDAY)
    chips_daily_bonus(user=player, today=MONDAY)
    assert chips_balance(user=player) == 1099


def test_a_player_who_never_had_chips_may_claim_it():
    player = UserFactory()
    chips_daily_bonus(user=player, today=MONDAY)
    assert chips_balance(user=player) == 100


def test_the_profile_button_claims_the_bonus_once(client):
    player = UserFactory(username="shortstack", chips=50)
    client.force_login(player)
    profile = client.get("/players/shortstack/").content.decode()
    assert "Claim today&#x27;s 100 chips" in profile or "Claim today's 100 chips" in profile

    response = client.post("/settings/daily-bonus/", follow=True)
    html = response.content.decode()
    assert "100 chips added" in html
    assert "Claim today" not in html  # the button is gone for today
    assert chips_balance(user=player) == 150

    html = client.post("/settings/daily-bonus/", follow=True).content.decode()
    assert "You already had today" in html
    assert chips_balance(user=player) == 150


def test_the_bonus_button_is_not_offered_to_a_rich_player(client):
    client.force_login(UserFactory(username="richie", chips=5000))
    assert "Claim today" not in client.get("/players/richie/").content.decode()
    html = client.post("/settings/daily-bonus/", follow=True).content.decode()
    assert "fewer than 1,000 chips" in html
