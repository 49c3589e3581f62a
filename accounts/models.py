from django.contrib.auth.models import AbstractUser
from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

username_validator = RegexValidator(
    r"^[A-Za-z0-9_-]{3,20}\Z",
    _("Use 3 to 20 characters: letters, digits, _ and -."),
    code="invalid_username",
)


class User(AbstractUser):
    """A player or a moderator. Usernames are unique whatever their case."""

    username = models.CharField(
        _("username"),
        max_length=20,
        unique=True,
        validators=[username_validator],
        help_text=_("3 to 20 characters: letters, digits, _ and -."),
        error_messages={"unique": _("A player with that username already exists.")},
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        default="",
        help_text=_("Every page is shown in this language once you are logged in."),
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]
