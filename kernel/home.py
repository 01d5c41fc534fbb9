"""The data folder (CONTEXT_LAYER_HOME) and the development secrets kept in it.

Reading the settings writes nothing here: a type check, `manage.py check` or a command pointed at
the wrong folder must not leave secrets (or a folder) behind. Each development secret is a
`deferred` string, made (read, or generated and kept) the first time something uses it: a server
signing a session or a token, never an import.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import cast

import platformdirs
from django.utils.functional import lazy


def context_layer_home() -> Path:
    """Where the embedded database, the model folder and development secrets live (created by
    whatever first writes there)."""
    raw = os.environ.get("CONTEXT_LAYER_HOME")
    home = Path(raw).expanduser() if raw else platformdirs.user_data_path("context-layer")
    return home.resolve()


def deferred(make: Callable[[], str]) -> str:
    """A string that `make` produces the first time it is used (then kept), for a setting whose
    value must not be made when the settings are merely imported."""
    return cast(str, lazy(functools.cache(make), str)())


def persistent_secret(home: Path, name: str, nbytes: int = 50) -> str:
    """A random secret generated on first use and kept (0600) in the data folder."""
    path = home / name
    if path.exists():
        return path.read_text().strip()
    value = secrets.token_urlsafe(nbytes)
    home.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its secret
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(value)
    return value


def persistent_rsa_key(home: Path, name: str, bits: int = 2048) -> str:
    """An RSA private key (PEM) generated on first use and kept (0600) in the data folder.

    The OIDC signing key must survive restarts, like SECRET_KEY, or every issued token and
    cached JWKS would go stale.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    path = home / name
    if path.exists():
        return path.read_text()
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    home.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its key
        return path.read_text()
    with os.fdopen(fd, "w") as handle:
        handle.write(pem)
    return pem
