"""factory_boy factories for finished games and their seats. Reuse them anywhere."""

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from games.models import Game, GameSeat
from tests.support.factories import UserFactory


class GameFactory(DjangoModelFactory):
    class Meta:
        model = Game

    variant = "tute"
    options = factory.LazyFunction(lambda: {"players": 2, "rounds": 1})
    status = Game.Status.FINISHED
    competitive = True
    finished_at = factory.LazyFunction(timezone.now)


class GameSeatFactory(DjangoModelFactory):
    class Meta:
        model = GameSeat

    game = factory.SubFactory(GameFactory)
    seat = 0
    user = factory.SubFactory(UserFactory)
    outcome = GameSeat.Outcome.WON
