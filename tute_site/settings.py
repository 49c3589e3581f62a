"""Settings for the Tute site, read from the environment.

With no environment at all the site runs on its own: SQLite, the in-memory channel layer
and Celery tasks run eagerly. `DATABASE_URL` and `REDIS_URL` switch it to PostgreSQL,
channels-redis and a real Celery worker with a Redis broker.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path`, made the first time it is asked for.

    Written to a private temporary file and linked into place, so that two processes
    starting together (daphne and a Celery worker) end up sharing the one key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(50))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process made it first: use theirs
        finally:
            tmp.unlink()
    return path.read_text().strip()


# Production by default: `make run` serves what players would get. DEBUG=1 for development.
DEBUG = env_bool("DEBUG", default=False)
# Without SECRET_KEY in the environment, a key generated once on this machine and kept in
# an ignored file, so sessions survive restarts and no key is ever committed.
SECRET_KEY = os.environ.get("SECRET_KEY") or secret_key_from_file(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
)
# A deployment (SECRET_KEY given) sits behind a TLS proxy; `make run` serves plain HTTP locally.
HTTPS = env_bool("HTTPS", default="SECRET_KEY" in os.environ and not DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "rankings",
    "games",
    "games.arenas",
    "games.puzzles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a logged-in player's own language wins over cookie and browser.
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.GuestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # A GET of a POST-only address gets the site's page (templates/405.html), not an empty 405.
    "tute_site.not_allowed.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "tute_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tute_site.context_processors.site_nav",
                "accounts.context_processors.friend_requests",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "tute_site.asgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several daphne threads write at once. A transaction begins IMMEDIATE, taking the write
    # lock first and waiting up to `timeout` seconds for it: a deferred one that must upgrade
    # its read lock fails at once with "database is locked", whatever the timeout. WAL lets
    # the readers (frames, pages) go on while one writer holds the lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
elif os.environ.get("DB_POOL", "1") == "1" and not DATABASES["default"]["CONN_MAX_AGE"]:
    # psycopg's pool: a move borrows one of a few open connections instead of starting a new
    # PostgreSQL backend (Django's advice for ASGI, where persistent connections leak with
    # their threads). Each process opens `min_size` at once and at most `max_size`: enough for
    # its DATABASE_THREADS and the worker threads of robots and closing sockets (six here).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "16")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "20")),
    }
# Threads of each daphne process that run the sockets' database work (games/server.py).
DATABASE_THREADS = int(os.environ.get("DATABASE_THREADS", "8"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The leaderboards' covering indexes (INCLUDE) speed up PostgreSQL; SQLite, the embedded
# default, builds them without the included columns, which is all it needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

# The cache lives in the database so that rate limits hold across daphne processes and the
# pages keep working when Redis is down.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "tute_cache",
    }
}

# --- Redis: channel layer and Celery --------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_channel_layer(kind: str) -> dict:
    """A channel layer on REDIS_URL: `pubsub` (the default) or `core`. redis-py 8 reads with
    a 5 s socket timeout by default, shorter than a layer's blocking read: every idle
    connection would be dropped every 5 s."""
    prefix = os.environ.get("CHANNEL_PREFIX", "tute")
    if kind == "pubsub":
        # Redis pub/sub: a push reaches each daphne process over the connection it keeps
        # subscribed, instead of one round trip per message through Redis lists. The load
        # tool measured a third of the median, and no lost push, where the list layer
        # (CHANNEL_LAYER=core) now and then lost one (channels#1683). Each process keeps its
        # groups itself: they outlive a Redis restart, redis-py subscribes again.
        return {
            # channels-redis's pub/sub layer, a change's pushes in one round trip
            # (tute_site/layers.py).
            "BACKEND": "tute_site.layers.PubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "prefix": prefix,
            },
        }
    # Redis lists, one per socket, and groups kept in Redis.
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            # redis-py 8's async pool raises past 100 connections: a burst of sockets leaving
            # at once (hundreds of group_discard) failed with MaxConnectionsError under the
            # load tool, leaving them in their groups.
            "hosts": [{"address": REDIS_URL, "socket_timeout": None, "max_connections": 1000}],
            # A table pushes one message per seat per move; the default 100 is too tight for
            # a busy lobby.
            "capacity": 1500,
            "expiry": 30,
            "prefix": prefix,
        },
    }


if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(os.environ.get("CHANNEL_LAYER", "pubsub"))}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

# A run of its own (tests, the load tool) keeps its tasks apart from any other on one Redis.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task whose worker died unacknowledged goes back to the queue after this many seconds.
# Our tasks are idempotent, so a long task delivered twice does no harm.
_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _VISIBILITY_TIMEOUT,
    # How often a worker looks for such tasks (a cheap Redis scan): every 10 s at most.
    "unacked_restore_interval": max(1, min(10, _VISIBILITY_TIMEOUT // 3)),
    "unacked_restore_throttle": 1,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Celery beat (`make run` starts it with REDIS_URL) queues the timer sweep about once a
# second (a sweep that waited longer than that is dropped, the next one does its work), and
# the sweep that awards any finished game whose award task was lost. The embedded default
# has no beat: there, awards run on commit, and the server's own loop sweeps the timers and
# runs the jobs of a minute or more apart at their intervals (games/server.py).
CELERY_BEAT_SCHEDULE = {
    "games-sweep-timers": {
        "task": "games.sweep_timers",
        "schedule": 1.0,
        "options": {"expires": 2.0},
    },
    "rankings-award-sweep": {
        "task": "rankings.award_sweep",
        "schedule": float(os.environ.get("RANKINGS_AWARD_SWEEP_SECONDS", "60")),
    },
    # The rating boards' last 7 days move at midnight UTC (an award moves them too).
    "rankings-ratings-window": {"task": "rankings.ratings_window_roll", "schedule": 600.0},
    # Arenas start, pair their free players, score games a lost task left, and end.
    "arenas-tick": {"task": "arenas.tick", "schedule": 1.0, "options": {"expires": 2.0}},
    # Guests idle for hours are deleted with their practice tables and games.
    "games-guests-sweep": {"task": "games.guests_sweep", "schedule": 600.0},
    # A finished game whose analysis task was lost is analysed after all.
    "games-analysis-sweep": {"task": "games.analysis_sweep", "schedule": 600.0},
    # A finished 2-player game not yet mined for puzzles (its task was lost, or a guest's
    # practice, which is not analysed) is mined after all, on the slow lane.
    "puzzles-mining-sweep": {"task": "puzzles.mining_sweep", "schedule": 600.0},
}
# The award sweep awards a finished game still without its award this many seconds after it
# was submitted (its task was lost: a worker or the broker died). The fault tool shortens both.
RANKINGS_AWARD_SWEEP_AFTER_SECONDS = float(
    os.environ.get("RANKINGS_AWARD_SWEEP_AFTER_SECONDS", "120")
)

# --- Live play: robots, move timers, disconnections (RULES.md §11) ---------------------------
# How long a robot waits before it plays, so that people see each card (0: at once).
ROBOT_DELAY_SECONDS = float(os.environ.get("ROBOT_DELAY_SECONDS", "1"))
# How often a daphne process without Redis (`make run`) sweeps its due timers; a robot's
# move waits for the next sweep. The table page's browser tests sweep faster.
TIMER_SWEEP_SECONDS = float(os.environ.get("TIMER_SWEEP_SECONDS", "1"))
# The analysis of a finished game (games/analysis.py) shares about this many seconds among
# its decisions, and stops at twice that.
GAME_ANALYSIS_SECONDS = float(os.environ.get("GAME_ANALYSIS_SECONDS", "30"))
# How long a disconnected player has to come back before they have abandoned.
DISCONNECT_GRACE_SECONDS = float(os.environ.get("DISCONNECT_GRACE_SECONDS", "180"))
# How long a friendly cancel proposal waits for every player's answer.
CANCEL_PROPOSAL_SECONDS = float(os.environ.get("CANCEL_PROPOSAL_SECONDS", "60"))
# A daphne process notes it is alive this often; one silent for SERVER_DEAD_SECONDS was
# killed, and its sockets are counted as closed.
SERVER_HEARTBEAT_SECONDS = float(os.environ.get("SERVER_HEARTBEAT_SECONDS", "5"))
SERVER_DEAD_SECONDS = float(os.environ.get("SERVER_DEAD_SECONDS", "20"))

# --- Accounts -------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
# Failed logins: 5 per account in 5 minutes (allauth's "key": accounts.adapter counts per
# account), and ten times as many per address, which households and cafés share.
# LOGIN_FAILURES_PER_ADDRESS changes the second (`make deploy-check`'s short run lowers it).
ACCOUNT_RATE_LIMITS = {
    "login_failed": f"{int(os.environ.get('LOGIN_FAILURES_PER_ADDRESS', '50'))}/10m/ip,5/5m/key"
}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Behind a reverse proxy every connection comes from the proxy: the client's address is then
# the one the proxy (and each proxy before it) wrote at the end of X-Forwarded-For. This one
# setting drives allauth (logins, their per-address limit) and the sockets (the addresses a
# game records, accounts.ip). 0 (no proxy): X-Forwarded-For is ignored, as any client can
# write it.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
# 3-20 letters, digits, _ and -; allauth's signup form checks the same rule as the model.
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.username_validators"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Tute online] "

# --- Email ----------------------------------------------------------------------------------
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tute online <noreply@localhost>")

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("fr", _("French")), ("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
# With DEBUG off, `collectstatic` gathers the files here and WhiteNoise serves them.
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files served at the site's root, such as /favicon.ico, which browsers ask for on their own.
WHITENOISE_ROOT = BASE_DIR / "public"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "tute_site.storage.StaticFilesStorage"
        )
    },
}

# --- Security (production behind TLS) -------------------------------------------------------
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
