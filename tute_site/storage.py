"""Static files as production serves them: compressed, and named by their content's hash.

The table page's ES modules (static/js/table/) import each other by those hashed names too,
so that a browser never runs a new module with an old one it kept in its cache. Only ours:
other apps' scripts (django_htmx's) hold import lines that are no files of the site.
"""

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage

_, _IMPORTS = ManifestStaticFilesStorage._js_module_import_aggregation_patterns


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/table/*.js", _IMPORTS))
