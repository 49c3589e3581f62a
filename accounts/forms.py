from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.core.validators import MaxLengthValidator, MinLengthValidator
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _


def language_choices() -> list[tuple[str, str]]:
    # Each language by its own name, so a player can find theirs whatever the page shows.
    return [
        (code, get_language_info(code)["name_local"].capitalize())
        for code, _name in settings.LANGUAGES
    ]


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=language_choices,
        widget=forms.RadioSelect,
        help_text=_("Every page is shown in this language once you are logged in."),
    )


class SignupForm(AllauthSignupForm):
    """allauth's signup form, where every bad username gets the one rule as its message."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        # The rule's regex covers the length too; allauth's own length checks would speak
        # of characters only.
        field.validators = [
            validator
            for validator in field.validators
            if not isinstance(validator, MinLengthValidator | MaxLengthValidator)
        ]
        field.help_text = _("3 to 20 characters: letters, digits, _ and -.")
        field.widget.attrs.update({"minlength": "3", "maxlength": "20"})
