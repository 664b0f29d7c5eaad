"""MCCP2 over a real socket (mudwiz/net/mccp.py): a MUD client that agrees and inflates reads exactly the stream a
client that refuses is sent in the same session, the marker aside; and the stream ends cleanly at ``/quit``.
tintin++, a real MUD client, agrees and plays on."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest
from test_wire_telnet import tintin_session
from wire import BINARY, CHARSET, EOR_OPTION, TelnetClient, running_server

COMPRESS2 = 86
START = bytes((255, 250, COMPRESS2, 255, 240))
RESUME_CODE = re.compile(rb"resume code is [0-9A-Z]{3}-[0-9A-Z]{3}-[0-9A-Z]{3}")  # random by design, seed or not


def same(stream: bytes) -> bytes:
    """The stream with its resume code left out: what two sessions are sent alike."""
    return RESUME_CODE.sub(b"resume code is CODE", stream)


class InflatingClient(TelnetClient):
    """A MUD client that agrees to MCCP2 (or not: ``compress``) and inflates what comes after the marker: ``plain``
    is the stream as the server meant it, the marker included; ``ended`` says the zlib stream was finished."""

    def __init__(self, address: tuple[str, int], compress: bool) -> None:
        do = (BINARY, EOR_OPTION, CHARSET) + ((COMPRESS2,) if compress else ())  # no MSSP: its UPTIME differs
        super().__init__(address, do=do, ttypes=("MUDLET", "ANSI", "MTTS 2349"))
        self.inflater: zlib._Decompress | None = None
        self.plain = b""
        self.ended = False
        self.deflated = 0  # bytes that came compressed

    def _feed(self, chunk: bytes) -> None:
        if self.inflater is None and not self.ended:
            at = (self.plain[-4:] + chunk).find(START)
            if at < 0:
                self.plain += chunk
                super()._feed(chunk)
                return
            cut = at + len(START) - len(self.plain[-4:])
            self.plain += chunk[:cut]
            super()._feed(chunk[:cut])
            self.inflater, chunk = zlib.decompressobj(), chunk[cut:]
        if self.inflater is not None:
            self.deflated += len(chunk)
            inflated = self.inflater.decompress(chunk)
            if self.inflater.eof:
                self.ended, inflated, self.inflater = True, inflated + self.inflater.unused_data, None
            chunk = inflated
        self.plain += chunk
        super()._feed(chunk)


def session(compress: bool) -> InflatingClient:
    """The same session every time, on a server of its own seeded alike (its table numbers the same): log in, ask
    for a few pages, quit; the client once the server has closed the connection."""
    with running_server(MUDWIZ_SEED="47") as address:
        return talk(InflatingClient(address, compress))


def talk(client: InflatingClient) -> InflatingClient:
    client.send("squeezer")
    client.read_until(b"Welcome, squeezer")
    for line, answered in (("/help", b"Commands ("), ("/rules wizard", b"Wizard rules"), ("/tables", b"No tables"),
                           ("/who squeezer", b"Online")):  # one at a time: the same turns, the same bytes, each run
        at = len(client.data)
        client.send(line)
        client.read_until(answered, start=at)
    client.send("/quit")
    with pytest.raises(ConnectionError):
        client.wait(lambda: False, timeout=10)
    client.close()
    return client


def test_what_an_inflating_client_reads_equals_the_uncompressed_stream() -> None:
    zipped = session(compress=True)
    plain = session(compress=False)
    assert START in zipped.plain and START not in plain.wire and zipped.ended
    assert zipped.deflated < len(zipped.plain) / 2  # it was compressed, well
    assert same(zipped.plain.replace(START, b"")) == same(plain.wire)




def test_tintin_agrees_and_plays_on_inflated(tmp_path: Path) -> None:
    with running_server() as address:
        tt = tintin_session(address, tmp_path)
        try:
            tt.read_until(b"name? ")
            tt.type("tt_zipped")
            tt.read_until(b"Welcome, tt_zipped")
            tt.type("/who")
            tt.read_until(b"Online (1)")
            assert b"SENT IAC DO MCCP2" in tt.output and b"MCCP2 INITIALIZED" in tt.output
        finally:
            tt.close()
