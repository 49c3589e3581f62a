"""factory_boy factories for players and moderators. Reuse them anywhere.

Every user shares one password, `PASSWORD`, hashed once per run (hashing is slow on purpose;
the tests run with a fast hasher, tests/settings.py, as do the servers they start).
Games and seats have theirs in tests/support/game_factories.py.
"""

import functools
import uuid

import factory
from django.conf import settings
from django.contrib.auth.hashers import make_password
from factory.django import DjangoModelFactory

from accounts.models import User

PASSWORD = "x-very-secret-1"


@functools.cache
def _hash_with(hashers: tuple[str, ...]) -> str:
    return make_password(PASSWORD)


def _password_hash() -> str:
    # Cached per hasher setting: a test that changes PASSWORD_HASHERS gets a hash of its own.
    return _hash_with(tuple(settings.PASSWORD_HASHERS))


class UserFactory(DjangoModelFactory):
    """A player. `UserFactory(chips=1000)` also grants them chips through the ledger."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username.lower()}@example.com")
    password = factory.LazyFunction(_password_hash)
    language = "en"

    @factory.post_generation
    def chips(obj, create, extracted, **kwargs):
        if create and extracted:
            from rankings.services import chips_grant

            chips_grant(user=obj, amount=extracted, key=f"test-grant:{obj.pk}:{uuid.uuid4().hex}")


class StaffUserFactory(UserFactory):
    """Staff without any permission: the admin lets them in and refuses everything."""

    is_staff = True


class ModeratorFactory(StaffUserFactory):
    """Staff in the Moderators group."""

    @factory.post_generation
    def moderators_group(obj, create, extracted, **kwargs):
        if create:
            from accounts.moderators import moderators_group_sync

            obj.groups.add(moderators_group_sync())
