"""``MUDWIZ_TLS``'s endpoint (mudwiz/net/tls.py): a bare port is ``ssl:PORT``; a description naming no key gets the
data directory's self-signed certificate, made once and kept; one naming its key is used as it is."""

from __future__ import annotations

import stat
from pathlib import Path

from twisted.internet import reactor
from twisted.internet.endpoints import SSL4ServerEndpoint, serverFromString

from mudwiz.net.tls import CERTIFICATE, tls_endpoint
from mudwiz.service import endpoint_port


def test_a_bare_port_or_a_description_without_a_key_gets_the_data_directorys_certificate(tmp_path: Path) -> None:
    directory = tmp_path / "da:ta"  # a colon in the path is escaped in the description
    bare = tls_endpoint("4443", str(directory))
    path = directory / CERTIFICATE
    assert bare == f"ssl:4443:privateKey={str(path).replace(':', chr(92) + ':')}" and endpoint_port(bare) == "4443"
    made = path.read_bytes()
    assert b"BEGIN PRIVATE KEY" in made and b"BEGIN CERTIFICATE" in made
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = tls_endpoint("ssl:4444:interface=127.0.0.1", str(directory))
    assert again.startswith("ssl:4444:interface=127.0.0.1:privateKey=") and path.read_bytes() == made  # kept
    assert isinstance(serverFromString(reactor, again), SSL4ServerEndpoint)  # Twisted reads it, key and certificate


def test_a_description_naming_its_key_is_used_as_it_is(tmp_path: Path) -> None:
    given = "ssl:4443:privateKey=/etc/mudwiz/key.pem:certKey=/etc/mudwiz/cert.pem"
    assert tls_endpoint(given, str(tmp_path)) == given
    assert not (tmp_path / CERTIFICATE).exists()


def test_workers_refuse_a_tls_listener_in_one_line() -> None:
    """A worker is handed a listening socket; TLS lives in the listener's factory, so ``--workers`` refuses it."""
    from mudwiz.supervisor import unshareable

    assert unshareable({"telnet": "tcp:4000", "tls": "4443"}) == (
        "--workers cannot share the tls listener 4443: only tcp, tcp6, unix endpoints can be handed to workers")
