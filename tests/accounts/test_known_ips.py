import pytest

from accounts.models import KnownIP
from accounts.selectors import known_ips, shared_ips
from accounts.services import KNOWN_IPS_KEPT, user_ip_record
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_only_the_last_twenty_addresses_are_kept_newest_first():
    player = UserFactory()
    for number in range(KNOWN_IPS_KEPT + 5):
        user_ip_record(user=player, ip=f"198.51.100.{number}")
    user_ip_record(user=player, ip="198.51.100.7")  # seen again: stays, comes first
    kept = [known.ip_address for known in known_ips(user=player)]
    assert len(kept) == KNOWN_IPS_KEPT
    assert kept[0] == "198.51.100.7"
    assert "198.51.100.0" not in kept and "198.51.100.24" in kept


def test_shared_addresses_between_players_are_found():
    ana, beto, carla = UserFactory(), UserFactory(), UserFactory()
    user_ip_record(user=ana, ip="203.0.113.1")
    user_ip_record(user=beto, ip="203.0.113.1")
    user_ip_record(user=carla, ip="203.0.113.2")
    user_ip_record(user=ana, ip="203.0.113.2")
    assert shared_ips(users=[ana, beto, carla]) == {
        "203.0.113.1": {ana.pk, beto.pk},
        "203.0.113.2": {ana.pk, carla.pk},
    }
    assert shared_ips(users=[beto, carla]) == {}
    assert KnownIP.objects.get(user=ana, ip_address="203.0.113.1").logins == 1
