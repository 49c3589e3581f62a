"""A label and its value joined the way the reader's language writes them: "Trump card: 7 of
oros" in English and Spanish, "Carte d'atout : …" in French, where a no-break space comes
before the colon and keeps it on the label's line.

>>> from django.utils import translation
>>> with translation.override("fr"):
...     labelled("facile", "Joue au hasard")
'facile\\xa0: Joue au hasard'
>>> with translation.override("es"):
...     labelled("Triunfo", "oros")
'Triunfo: oros'
"""

from django.utils.translation import gettext


def labelled(label: object, value: object) -> str:
    """``label: value`` in the current language."""
    return gettext("%(label)s: %(value)s") % {"label": label, "value": value}
