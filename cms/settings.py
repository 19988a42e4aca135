"""Plateau settings: one file, read from the environment through small strict helpers.

With no environment at all it runs for development: SQLite under var/, DEBUG on,
a secret key generated once and kept in var/. Set DATABASE_URL, SECRET_KEY,
DEBUG=false and ALLOWED_HOSTS for a real deployment.
"""

import json
import os
import re
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() == "true":
        return True
    if value.lower() == "false":
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {value!r}.") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in envstr(name, default).split(",") if item.strip()]


def envsecret(name: str) -> str:
    """Return NAME, or the stripped content of the file NAME_FILE names (Docker secrets)."""
    value = envstr(name)
    path = envstr(f"{name}_FILE")
    if value and path:
        raise ImproperlyConfigured(f"Set {name} or {name}_FILE, not both.")
    if not path:
        return value
    try:
        content = Path(path).read_text().strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"{name}_FILE: cannot read {path}: {error.strerror}.") from None
    if not content:
        raise ImproperlyConfigured(f"{name}_FILE: {path} is empty.")
    return content


def sqlite_database(path: Path) -> dict:
    """Return a DATABASES entry for a SQLite file that several editors can use at once."""
    timeout = envint("SQLITE_BUSY_TIMEOUT", 20)
    if timeout < 1:
        raise ImproperlyConfigured(
            f"SQLITE_BUSY_TIMEOUT must be a number of seconds of at least 1, not {timeout}.")
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        # Opening a SQLite file and setting its pragmas costs more than most requests:
        # keep each worker thread's connection, as PostgreSQL's is kept.
        "CONN_MAX_AGE": envint("DATABASE_CONN_MAX_AGE", 60),
        "OPTIONS": {
            # A writer waits this long for another writer's lock before "database is locked".
            "timeout": timeout,
            # BEGIN IMMEDIATE takes the write lock when a transaction starts, where waiting
            # works; a deferred one that reads then writes fails at once if a writer came first.
            # The cost: a transaction that only reads waits too (reversion opens one around
            # admin change lists and forms), so none should hold the lock for long.
            "transaction_mode": "IMMEDIATE",
            # WAL lets reads go on while a write transaction is open; the mode is kept in the
            # file. NORMAL is safe with WAL: a power cut may lose the last commits, not the file.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        },
        # Tests get a file beside it, not Django's shared in-memory database: there, two
        # connections writing at once fail ("table is locked") instead of waiting, so no
        # test could race two writers as two server processes do.
        "TEST": {"NAME": str(Path(path).with_name(f"test-{Path(path).stem}.sqlite3"))},
    }


def postgres_connections(name: str) -> dict:
    """Return how a PostgreSQL entry keeps its connections: a pool per process by default.

    Under ASGI each request runs in a thread of its own, so a connection kept per thread
    (CONN_MAX_AGE) is kept for nobody and every request opens one: psycopg's pool lends
    connections to whichever thread asks. DATABASE_POOL_SIZE=0 turns it off.
    """
    size = envint("DATABASE_POOL_SIZE", 10)
    if size < 0:
        raise ImproperlyConfigured(f"DATABASE_POOL_SIZE must be 0 or more, not {size}.")
    if size == 0:
        return {"CONN_MAX_AGE": envint("DATABASE_CONN_MAX_AGE", 60)}
    timeout = envint("DATABASE_POOL_TIMEOUT", 20)
    if timeout < 1:
        raise ImproperlyConfigured(
            f"DATABASE_POOL_TIMEOUT must be a number of seconds of at least 1, not {timeout}.")
    # A pool and persistent connections cannot be combined: Django refuses it.
    return {"CONN_MAX_AGE": 0, "OPTIONS": {"pool": {
        "min_size": 1, "max_size": size, "timeout": timeout}}}


def envdatabase(name: str, default_sqlite: Path) -> dict:
    """Return a DATABASES entry from a sqlite:///path or postgres://user:pass@host/db URL."""
    url = envsecret(name)
    if not url:
        return sqlite_database(default_sqlite)
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = unquote(parts.path)
        if not path or path == "/":
            raise ImproperlyConfigured(f"{name}: a sqlite URL needs a file, sqlite:///var/db.sqlite3.")
        # sqlite:///relative.db is relative to the project, sqlite:////abs.db is absolute.
        return sqlite_database(BASE_DIR / path[1:])
    if parts.scheme in ("postgres", "postgresql"):
        if not parts.path.strip("/"):
            raise ImproperlyConfigured(f"{name}: a PostgreSQL URL needs a database name.")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name}: the port is not a number.") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.strip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            **postgres_connections(name),
        }
    raise ImproperlyConfigured(
        f"{name} must start with sqlite:// or postgres://, not {parts.scheme or url!r}."
    )


VAR_DIR = Path(envstr("PLATEAU_VAR_DIR", str(BASE_DIR / "var")))
# What a full game uses of each kind, simulated once per game spec (player.coverage).
COVERAGE_DIR = Path(envstr("PLATEAU_COVERAGE_DIR", str(VAR_DIR / "coverage")))
DEBUG = envbool("DEBUG", True)


def _secret_key() -> str:
    key = envsecret("SECRET_KEY")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")
    # Development: one key per checkout, generated once, never committed.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # First: its runserver serves the WebSockets of rooms beside the pages (ASGI).
    "daphne",
    "cms.apps.PlateauAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # PostgreSQL's unaccent lookup (cms.search); nothing on SQLite.
    "django.contrib.postgres",
    "reversion",
    "cms",
    "printing",
    "player",
    "django_htmx",
    "axes",
    "csp",
    "channels",
    # Background jobs (cms.jobs): Django's tasks API, its queue kept in the database.
    "django_tasks",
    "django_tasks_db",
    "import_export",  # after cms, whose import and export commands extend the library's
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Without DEBUG, the collected static files under their hashed names (inserted below).
    "django.contrib.sessions.middleware.SessionMiddleware",
    "cms.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout response.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out client before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "cms.urls"
WSGI_APPLICATION = "cms.wsgi.application"
ASGI_APPLICATION = "cms.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": envdatabase("DATABASE_URL", VAR_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = envstr("LANGUAGE_CODE", "fr")
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE must be one of {', '.join(dict(LANGUAGES))}.")
TIME_ZONE = envstr("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(VAR_DIR / "static")))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(envstr("MEDIA_ROOT", str(VAR_DIR / "media")))


def media_storage() -> dict:
    """Return STORAGES' default entry: MEDIA_STORAGE (a dotted class) with its options.

    The file system under MEDIA_ROOT by default; object storage by configuration, e.g.
    MEDIA_STORAGE=storages.backends.s3.S3Storage with MEDIA_STORAGE_OPTIONS='{"bucket_name":
    "plateau"}' (django-storages, installed beside Plateau).
    """
    backend = envstr("MEDIA_STORAGE", "django.core.files.storage.FileSystemStorage")
    if not re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+", backend):
        raise ImproperlyConfigured(
            f"MEDIA_STORAGE must be a dotted class path, not {backend!r}.")
    raw = envsecret("MEDIA_STORAGE_OPTIONS") or "{}"
    try:
        options = json.loads(raw)
    except ValueError as error:
        raise ImproperlyConfigured(f"MEDIA_STORAGE_OPTIONS is not JSON: {error}.") from None
    if not isinstance(options, dict):
        raise ImproperlyConfigured("MEDIA_STORAGE_OPTIONS must be a JSON object.")
    return {"BACKEND": backend, "OPTIONS": options}


# Without DEBUG, WhiteNoise serves what collectstatic gathered, under names holding each
# file's hash, compressed, cached for a year; with DEBUG, runserver serves the apps' files.
STORAGES = {
    "default": media_storage(),
    "staticfiles": {"BACKEND": (
        "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage")},
}
if not DEBUG:
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "whitenoise.middleware.WhiteNoiseMiddleware")

# Uploaded images: what the validators accept.
PLATEAU_IMAGE_MAX_BYTES = envint("PLATEAU_IMAGE_MAX_BYTES", 5 * 1024 * 1024)
PLATEAU_IMAGE_MAX_PIXELS = envint("PLATEAU_IMAGE_MAX_PIXELS", 16_000_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# Bulk imports: what a file may weigh and hold before it is refused.
PLATEAU_IMPORT_MAX_BYTES = envint("PLATEAU_IMPORT_MAX_BYTES", 10 * 1024 * 1024)  # CSV, XLSX, JSON
PLATEAU_IMPORT_MAX_ZIP_BYTES = envint("PLATEAU_IMPORT_MAX_ZIP_BYTES", 50 * 1024 * 1024)
PLATEAU_IMPORT_MAX_UNPACKED_BYTES = envint("PLATEAU_IMPORT_MAX_UNPACKED_BYTES",
                                           200 * 1024 * 1024)
PLATEAU_IMPORT_MAX_ROWS = envint("PLATEAU_IMPORT_MAX_ROWS", 20_000)
PLATEAU_IMPORT_MAX_CELLS = envint("PLATEAU_IMPORT_MAX_CELLS", 1_000_000)  # XLSX, before reading
# Rédacteur and Relecteur hold cms.import_question / cms.import_card; everyone who can see
# content may export it.
IMPORT_EXPORT_IMPORT_PERMISSION_CODE = "import"
IMPORT_EXPORT_EXPORT_PERMISSION_CODE = "view"
IMPORT_EXPORT_SKIP_ADMIN_LOG = False

LOGIN_URL = "admin:login"

# Rooms (several devices, one game): messages between the server's processes. With no
# REDIS_URL, in this process's memory (one process: `make run`); with it, through Redis, so
# two devices on two server processes play in the same room.
REDIS_URL = envsecret("REDIS_URL")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://.")
CHANNEL_LAYERS = {"default": {
    "BACKEND": "channels_redis.core.RedisChannelLayer",
    "CONFIG": {"hosts": [REDIS_URL], "prefix": envstr("REDIS_PREFIX", "plateau")},
} if REDIS_URL else {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# The cache: background jobs' progress and signs of life, shared by the web and worker
# processes. Redis with REDIS_URL; else files under var/cache, which processes on one machine
# share (the default, per-process memory cache, would not be seen by the worker).
CACHES = {"default": {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": REDIS_URL,
    "KEY_PREFIX": envstr("REDIS_PREFIX", "plateau"),
} if REDIS_URL else {
    "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
    "LOCATION": str(VAR_DIR / "cache"),
}}

# Background jobs (cms.jobs: big imports and print jobs). "immediate": run in the request
# that queues them (development, `make run`: nothing more to start); "database": queued in
# the database, run by `manage.py worker` processes.
TASKS_BACKEND = envstr("TASKS_BACKEND", "immediate")
_TASK_BACKENDS = {"immediate": "django_tasks.backends.immediate.ImmediateBackend",
                  "database": "django_tasks_db.DatabaseBackend"}
if TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(
        f"TASKS_BACKEND must be immediate or database, not {TASKS_BACKEND!r}.")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[TASKS_BACKEND]}}
# A finished job's file (a PDF, a report) is deleted this long after it was made.
PLATEAU_JOB_KEEP_HOURS = envint("PLATEAU_JOB_KEEP_HOURS", 24)
# A running job silent this long is taken for dead (its worker killed) and queued again.
PLATEAU_JOB_STALE_SECONDS = envint("PLATEAU_JOB_STALE_SECONDS", 30)
# A job is run at most this many times; then it fails, saying so.
PLATEAU_JOB_MAX_ATTEMPTS = envint("PLATEAU_JOB_MAX_ATTEMPTS", 3)
for _name in ("PLATEAU_JOB_KEEP_HOURS", "PLATEAU_JOB_MAX_ATTEMPTS"):
    if globals()[_name] < 1:
        raise ImproperlyConfigured(f"{_name} must be at least 1.")
# A running job beats every 2 seconds (cms.jobs.BEAT_SECONDS): a shorter silence than two
# beats would take living jobs for dead.
if PLATEAU_JOB_STALE_SECONDS < 4:
    raise ImproperlyConfigured("PLATEAU_JOB_STALE_SECONDS must be at least 4 (two beats).")

# Logs go to the standard error, where `serve`, `worker` and their supervisor collect them.
# Django's own defaults print a failing request's traceback only with DEBUG: without it, a
# server error would be logged nowhere. LOG_LEVEL sets our modules' level.
LOG_LEVEL = envstr("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR"):
    raise ImproperlyConfigured("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        # Server errors (5xx with their traceback) and refused hosts, with DEBUG or not.
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        # Ours; the root logger has no handler of its own (pytest's caplog listens there).
        **{app: {"handlers": ["stderr"], "level": LOG_LEVEL}
           for app in ("cms", "printing", "player")},
    },
}

# `manage.py serve`: the ASGI server (uvicorn) of production, pages and WebSockets alike.
SERVE_HOST = envstr("HOST", "127.0.0.1")
SERVE_PORT = envint("PORT", 8000)
WEB_CONCURRENCY = envint("WEB_CONCURRENCY", 2)
if not 1 <= SERVE_PORT <= 65535 or WEB_CONCURRENCY < 1:
    raise ImproperlyConfigured("PORT must be 1 to 65535 and WEB_CONCURRENCY at least 1.")
# Which proxies' X-Forwarded-For and X-Forwarded-Proto are believed (uvicorn's
# --forwarded-allow-ips): the loopback by default, "*" behind a trusted network only.
FORWARDED_ALLOW_IPS = envstr("FORWARDED_ALLOW_IPS", "127.0.0.1")
# The Host and port a proxy forwarded, for the URLs Django builds; opt-in, like Django's.
USE_X_FORWARDED_HOST = envbool("USE_X_FORWARDED_HOST", False)
USE_X_FORWARDED_PORT = envbool("USE_X_FORWARDED_PORT", False)

# A room nobody has played in for this long is deleted with its game.
PLATEAU_ROOM_IDLE_HOURS = envint("PLATEAU_ROOM_IDLE_HOURS", 12)
if PLATEAU_ROOM_IDLE_HOURS < 1:
    raise ImproperlyConfigured("PLATEAU_ROOM_IDLE_HOURS must be at least 1.")
# The rooms' database calls run in threads, reads apart from writes (False: in the
# caller's thread, inside its transaction, as tests need).
PLATEAU_ROOM_DB_THREADS = envbool("PLATEAU_ROOM_DB_THREADS", True)
# Bots' waits are multiplied by this percentage (100: the engines' own pace).
PLATEAU_BOT_TEMPO = envint("PLATEAU_BOT_TEMPO", 100)
if not 1 <= PLATEAU_BOT_TEMPO <= 1000:
    raise ImproperlyConfigured("PLATEAU_BOT_TEMPO must be a percentage from 1 to 1000.")

# Login throttling (django-axes): failed logins are counted by client IP in the database;
# past the limit, that IP is refused, right password or not, until the cool-off ends.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
_COOLOFF_MINUTES = envint("AXES_COOLOFF_MINUTES", 15)
if AXES_FAILURE_LIMIT < 1 or _COOLOFF_MINUTES < 1:
    raise ImproperlyConfigured("AXES_FAILURE_LIMIT and AXES_COOLOFF_MINUTES must be at least 1.")
AXES_COOLOFF_TIME = timedelta(minutes=_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = True
# The lockout page (admin look, the cool-off in minutes, HTTP 429).
AXES_LOCKOUT_CALLABLE = "cms.admin_site.lockout"
# Behind reverse proxies every request comes from the last proxy: say how many stand in front
# and the header they append the client's address to (see cms.client_ip), or one client's
# mistakes lock everyone out. With none, REMOTE_ADDR: a forged X-Forwarded-For is not read.
if "AXES_IP_HEADERS" in os.environ:
    raise ImproperlyConfigured("AXES_IP_HEADERS is no longer read: set AXES_PROXY_COUNT to the "
                               "number of proxies in front, and AXES_IP_HEADER if they do not "
                               "use X-Forwarded-For.")
PLATEAU_PROXY_COUNT = envint("AXES_PROXY_COUNT", 0)
if PLATEAU_PROXY_COUNT < 0:
    raise ImproperlyConfigured(
        f"AXES_PROXY_COUNT must be 0 or more, not {PLATEAU_PROXY_COUNT}.")
PLATEAU_PROXY_IP_HEADER = envstr("AXES_IP_HEADER", "HTTP_X_FORWARDED_FOR")
if not re.fullmatch(r"HTTP_[A-Z0-9_]+", PLATEAU_PROXY_IP_HEADER):
    raise ImproperlyConfigured(
        f"AXES_IP_HEADER must name a request header as Django does (HTTP_X_FORWARDED_FOR), "
        f"not {PLATEAU_PROXY_IP_HEADER!r}.")
AXES_CLIENT_IP_CALLABLE = "cms.client_ip.client_ip"

# Content-Security-Policy (django-csp): only this site's own scripts, styles and images run.
# No 'unsafe-inline': a script or style written into a page needs the request's nonce.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        # django-import-export's export page has an inline handler and two style attributes,
        # allowed by their hash alone: onchange="onSelectToggleChange(event)", "padding: 0;"
        # and "font-weight: bold;"; its import preview marks a change's words with
        # diff-match-patch's "background:#e6ffe6;" (added) and "background:#ffe6e6;" (removed).
        "script-src": [SELF, NONCE, "'unsafe-hashes'",
                       "'sha256-wid4zL8fR53ZYy1ljOepzR77Dn6vWUUxuNnnWWBP3I8='"],
        "style-src": [SELF, NONCE, "'unsafe-hashes'",
                      "'sha256-mHgUAqxc8GPXM/QhzkHrHujcrQTU9fd6ZjWz+icxKcA='",
                      "'sha256-+YWRMZ88jMyO7jVlBA52tZADiPobPIUA8LAWee68Fvs='",
                      "'sha256-AFyijjilwBx8kC+SMDLzasw2VV9MWz1VYVQ8xIgdMlA='",
                      "'sha256-S0qL3AVCJ6EdYX2E0yOmH+5YvauOwNAxIl4pJ/0IUUg='"],
        # data: for the player's empty favicon and the admin's inline SVG icons.
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = envbool("SECURE_COOKIES", True)

# HTTPS. In production Plateau expects to be reached over HTTPS: HSTS for a year unless told
# otherwise (browsers ignore it over http://, so it cannot lock a plain-HTTP test out).
# Subdomains and preload bind other sites and browsers' built-in lists, hard to take back:
# opt-in. So is the redirect: behind a proxy that speaks HTTPS for Plateau, it loops until
# SECURE_PROXY_SSL_HEADER is set, and the proxy usually redirects itself.
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
# Only behind a proxy that sets this header itself and strips it from clients' requests.
_PROXY_SSL_HEADER = envstr("SECURE_PROXY_SSL_HEADER")
if _PROXY_SSL_HEADER:
    if not _PROXY_SSL_HEADER.startswith("HTTP_"):
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must name a request.META header such as "
            f"HTTP_X_FORWARDED_PROTO, not {_PROXY_SSL_HEADER!r}.")
    SECURE_PROXY_SSL_HEADER = (_PROXY_SSL_HEADER, "https")
