"""The OAuth signing key production reads from the environment (OIDC_PRIVATE_KEY), made once per
run for the deployment tests' servers and checks."""

from __future__ import annotations


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
