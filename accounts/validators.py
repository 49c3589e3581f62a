"""Username rules, shared by the model, allauth's signup form and the admin."""

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

username_validator = RegexValidator(
    r"^[A-Za-z0-9_-]{3,20}\Z",
    _("Use 3 to 20 characters: letters, digits, _ and -."),
    code="invalid_username",
)

# ACCOUNT_USERNAME_VALIDATORS points here (allauth wants a list).
username_validators = [username_validator]
