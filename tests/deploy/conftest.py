"""A gunicorn server (gunicorn.conf.py) on the test database, shared by the deployment tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.deploy.gunicorn_server import Gunicorn, gunicorn_on_test_database


def _rsa_pem() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


# Production needs the OAuth signing key from the environment too.
OIDC_PRIVATE_KEY = _rsa_pem()


# This test process is not the proxy the server trusts; registrations are counted per hour.
GUNICORN_ENV = {"TRUSTED_PROXIES": "192.0.2.1", "RATE_LIMIT_CLIENT_REGISTRATION": "60/h"}


@pytest.fixture(scope="session")
def gunicorn(django_db_setup: None, django_db_blocker: Any) -> Iterator[Gunicorn]:
    with django_db_blocker.unblock(), gunicorn_on_test_database(**GUNICORN_ENV) as server:
        yield server
