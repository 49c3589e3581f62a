"""The site's settings as the test suite runs them: in pytest and in the daphne and Celery
processes its tests start (they inherit DJANGO_SETTINGS_MODULE). Production's own
(tute_site/settings.py), with two changes: a fast password hasher, and a short analysis.

Signups and logins hash passwords, and the default hasher is slow on purpose: a second of
CPU a login on a shared test machine. The tools of bench/ run outside pytest and keep
production's settings; so do the tests that check those settings themselves (test_deploy).
"""

import os

from tute_site.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]

# A finished game's analysis on the clock (a task a test runs, an eager one in a daphne
# without Redis) thinks for about a second, not production's 30. tests/conftest.py puts the
# same in the environment of the processes the tests start; in pytest itself that comes too
# late, after pytest-django has loaded these settings.
GAME_ANALYSIS_SECONDS = float(os.environ.get("GAME_ANALYSIS_SECONDS", "1"))
