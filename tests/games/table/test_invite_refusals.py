"""The master's invitation refused in words that fit (issue 53, P10): an empty name asks for
one, a banned player cannot be invited (though their page exists), an unknown name is unknown;
nothing is invited."""

import pytest

from accounts.services import user_ban
from games.models import Invitation
from games.table import seating
from games.table.refusals import TableError
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return seating.table_create(
        master=UserFactory(username="lucia"), options={"variant": "habanero"}
    )


def refusal(table, name: str) -> str:
    with pytest.raises(TableError) as refused:
        seating.table_invite(table_id=table.pk, user=table.master, username=name)
    assert refused.value.field == "username"
    return str(refused.value.message)


def test_the_invitations_refusals_say_what_is_wrong(table):
    troll = UserFactory(username="troll")
    user_ban(user=troll, moderator=ModeratorFactory(), reason="Insults")
    assert refusal(table, "  ") == "Type the name of the player to invite."
    assert refusal(table, "troll") == "troll cannot be invited: they cannot play now."
    assert refusal(table, "nadie") == "No player is called nadie."
    assert not Invitation.objects.exists()
