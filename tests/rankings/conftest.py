import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Signups and logins hash passwords; the default hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
