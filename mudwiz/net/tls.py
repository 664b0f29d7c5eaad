"""TLS for the telnet service (``MUDWIZ_TLS``): the endpoint it listens on, and the self-signed certificate a
server makes for itself when it is given none.

``MUDWIZ_TLS`` is a Twisted ``ssl:`` endpoint description, the same telnet service behind it (telnet.py's
``MudFactory``: negotiation, character mode, MCCP2 and all). With ``privateKey=`` (and ``certKey=``, else the key's
file holds the certificate too) it is used as it is, a certificate from a real authority for instance. Without, the
server uses the data directory's ``tls.pem``: a key and a self-signed certificate for the host's name, made there
on the first start and kept (clients that pinned it see the same one after a restart). A bare port number (``4443``)
is ``ssl:4443`` with that certificate.
"""

from __future__ import annotations

import datetime
import os
import socket
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from twisted.logger import Logger

from mudwiz.store import StoreError

log = Logger()

CERTIFICATE = "tls.pem"  # in the data directory: the private key, then the self-signed certificate
VALID_DAYS = 3650


def tls_endpoint(description: str, directory: str) -> str:
    """The endpoint description to listen on for ``MUDWIZ_TLS``'s ``description``: a bare port as ``ssl:PORT``,
    and the data directory's self-signed certificate (made now if missing) for one that names no key."""
    if description.isdigit():
        description = f"ssl:{description}"
    if any(field.startswith("privateKey=") for field in description.split(":")[1:]):
        return description
    path = self_signed(Path(directory) / CERTIFICATE)
    escaped = str(path).replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=")
    return f"{description}:privateKey={escaped}"


def self_signed(path: Path) -> Path:
    """``path``, holding a key and a self-signed certificate for this host's name (and ``localhost``); made if
    missing (the key mode 0600), never replaced."""
    if path.exists():
        return path
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname() or "localhost"
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host), x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()) + certificate.public_bytes(serialization.Encoding.PEM)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
            out.write(pem)
    except OSError as exc:
        raise StoreError(f"cannot write the TLS certificate {path}: {exc.strerror or exc}") from None
    log.info("made a new self-signed TLS certificate in {path}", path=str(path))
    return path
