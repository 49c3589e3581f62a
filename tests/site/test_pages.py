import re

import pytest
from django.test import override_settings

from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_home_explains_the_site_and_links_to_sections(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Play Tute online" in html
    # Collected with a content hash in the name, as in production: browsers cache them forever.
    scripts = re.findall(r'<script src="(/static/vendor/htmx/[^"]+)"', html)
    # htmx alone: no page uses an extension of it.
    assert [re.sub(r"\.[0-9a-f]{12}\.js$", ".js", src) for src in scripts] == [
        "/static/vendor/htmx/htmx-2.0.11.min.js",
    ]
    assert "hx-headers" in html and "X-CSRFToken" in html


def test_home_in_spanish_from_the_browser_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Language"] == "es"
    assert "Juega al Tute en línea" in response.content.decode()


def test_language_switcher_sets_the_cookie_and_returns_to_the_page(client):
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies["django_language"].value == "fr"
    assert "Jouer au Tute en ligne" in client.get("/").content.decode()


def test_logged_in_player_language_wins_over_cookie_and_browser(client):
    user = UserFactory(username="lucia", language="es")
    client.force_login(user)
    client.cookies["django_language"] = "fr"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Juega al Tute en línea" in response.content.decode()


def test_switching_language_when_logged_in_saves_the_setting(client):
    user = UserFactory(username="pablo")
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    user.refresh_from_db()
    assert user.language == "fr"


def test_healthz_reports_every_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}
    assert all(check["ok"] for check in body["checks"].values())


DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1: Redis is down


@override_settings(
    CHANNEL_LAYERS={
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [DEAD_REDIS]},
        }
    },
    CELERY_TASK_ALWAYS_EAGER=False,
    CELERY_BROKER_URL=DEAD_REDIS,
)
def test_healthz_is_503_naming_redis_when_redis_is_down_and_pages_still_render(client):
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # forget the layer built from the old settings
    try:
        response = client.get("/healthz")
        assert response.status_code == 503
        body = response.json()
        assert body["down"] == ["redis"]
        assert body["checks"]["channel_layer"]["service"] == "redis"
        assert not body["checks"]["channel_layer"]["ok"]
        assert not body["checks"]["broker"]["ok"]
        assert body["checks"]["database"]["ok"]
        assert client.get("/").status_code == 200
    finally:
        channel_layers.backends.clear()
