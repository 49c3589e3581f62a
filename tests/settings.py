"""The site's settings as the test suite runs them: in pytest and in the daphne and Celery
processes its tests start (they inherit DJANGO_SETTINGS_MODULE). Production's own
(tute_site/settings.py), with one change: a fast password hasher.

Signups and logins hash passwords, and the default hasher is slow on purpose: a second of
CPU a login on a shared test machine. The tools of bench/ run outside pytest and keep
production's settings; so do the tests that check those settings themselves (test_deploy).
"""

from tute_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
