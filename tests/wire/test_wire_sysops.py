"""Sysops over loopback: the real ``mudwiz admin`` command line on the data directory of a running server, a
registered sysop's /kick, /ban (by name, by address, with a short expiry, across a restart), /announce (JSON and
a terminal), /shutdown 0 and a TERM signal stopping the process cleanly; a second server on the same data
directory refused, and ``twistd`` with a corrupt database saying so in one line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from wire import ROOT, JsonClient, free_port, running_server

from mudwiz.store import FILENAME, SQLiteStore

SECRET = "sysop-password-1"
OTHER = "127.0.0.2"  # another loopback address: clients the address ban is about (the sysop is on 127.0.0.1)


def admin(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``mudwiz admin`` in a process of its own, on ``data``."""
    return subprocess.run([sys.executable, "-m", "mudwiz.cli", "admin", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "MUDWIZ_DATA": str(data)})


def register(server: tuple[str, int], name: str) -> JsonClient:
    client = JsonClient(server, name)
    assert client.register(SECRET)["type"] == "ok"
    return client


def sysop(server: tuple[str, int], data: Path, name: str = "Sys") -> JsonClient:
    """A registered name made a sysop by the command line while it is logged in (no new login needed)."""
    client = register(server, name)
    granted = admin(data, "grant", name.lower(), "sysop")
    assert granted.returncode == 0 and granted.stdout.startswith(f"{name} is a sysop"), granted
    return client


def closed_after(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout)
    seen = b""
    while chunk := sock.recv(65536):
        seen += chunk
    return seen


def wait_closed(client: JsonClient) -> None:
    with pytest.raises(ConnectionError):
        for _ in range(100):
            client.read(0.2)


def test_admin_grant_needs_a_registered_name_and_the_commands_need_the_role(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        registered = register(server, "Reg")
        guest = JsonClient(server, "guest")
        refused = admin(data, "grant", "guest", "sysop")
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr == ("mudwiz: guest is not a registered name: register it first (/register, logged "
                                  "in as it)\n")
        wrong = admin(data, "grant", "Reg", "wizard")
        assert wrong.returncode == 1 and wrong.stderr.strip().endswith("roles: sysop")
        for client in (registered, guest):
            for command in ("/kick guest", "/ban guest", "/unban guest", "/bans", "/announce hi", "/shutdown 0"):
                reply = client.request(command)
                assert reply["type"] == "error" and reply["message"].startswith("only a sysop can"), reply
        assert admin(data, "grant", "REG", "sysop").returncode == 0
        assert registered.request("/announce hello")["type"] == "ok"  # at once, without logging in again
        assert guest.wait_for(lambda m: m["type"] == "announce")["text"] == "hello"
        listed = admin(data, "list")
        assert listed.returncode == 0 and listed.stdout.splitlines() == ["sysops: Reg", "bans: none"]
        revoked = admin(data, "revoke", "reg", "sysop")
        assert revoked.returncode == 0 and revoked.stdout.strip() == "Reg is no longer a sysop"  # as registered
        assert registered.request("/announce again")["message"] == "only a sysop can announce"
        assert server.alive()
    missing = admin(tmp_path / "nowhere", "list")
    assert missing.returncode == 1 and len(missing.stderr.splitlines()) == 1 and "no such file" in missing.stderr


def test_kick_ban_announce_and_a_ban_outlasts_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        sys_ = sysop(server, data)
        bob, mallory = JsonClient(server, "bob"), JsonClient(server, "mallory")
        text = socket.create_connection(server, timeout=10)  # a terminal user, in colour mode
        text.sendall(b"tess\r\n")
        seen = b""
        while b"Welcome, tess" not in seen:
            seen += text.recv(65536)
        sys_.request("/announce Tea in five")
        assert bob.wait_for(lambda m: m["type"] == "announce") == {"type": "announce", "from": "Sys",
                                                                   "text": "Tea in five"}
        while b"Tea in five" not in seen:
            seen += text.recv(65536)
        assert b"Announcement from the sysop Sys: " in seen
        text.close()

        assert sys_.request("/kick bob be nice")["text"] == "bob is disconnected"
        kicked = bob.wait_for(lambda m: m["type"] == "kicked")
        assert kicked["text"] == "You are disconnected by the sysop Sys: be nice."
        wait_closed(bob)

        assert sys_.request("/ban mallory")["text"] == "mallory is banned until a sysop lifts it; disconnected: mallory"
        wait_closed(mallory)
        again = socket.create_connection(server, timeout=10)
        again.sendall(b"Mallory\r\n")
        assert b"mallory is banned from this server until a sysop lifts it" in closed_after(again)
        assert "name mallory until lifted (by Sys" in admin(data, "list").stdout
    with running_server(MUDWIZ_DATA=str(data)) as server:  # the same data directory: the ban is still there
        again = socket.create_connection(server, timeout=10)
        again.sendall(b"mallory\r\n")
        assert b"mallory is banned from this server until a sysop lifts it" in closed_after(again)
        lifted = admin(data, "unban", "MALLORY")  # from the command line, while the server runs
        assert lifted.returncode == 0 and lifted.stdout == "MALLORY may log in again\n"
        assert JsonClient(server, "mallory").of_type("welcome")


def test_an_address_ban_refuses_connections_from_it_until_it_expires(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        sys_ = sysop(server, data)
        eve = JsonClient(server, "eve", source=OTHER)
        assert sys_.request("/ban 127.0.0.1")["message"] == "127.0.0.1 is the address you are connected from"
        reply = sys_.request(f"/ban {OTHER} 0.05")  # 3 s
        assert reply["text"].startswith(f"address {OTHER} is banned until") and reply["text"].endswith("eve")
        wait_closed(eve)
        refused = socket.create_connection(server, timeout=10, source_address=(OTHER, 0))
        said = closed_after(refused)
        assert f"your address {OTHER} is banned from this server until".encode() in said
        assert b"What is your name?" not in said
        assert JsonClient(server, "fromhere").of_type("welcome")  # 127.0.0.1 is not banned
        time.sleep(3.2)
        assert JsonClient(server, "eve", source=OTHER).of_type("welcome")
        sys_.request("/bans")
        assert sys_.wait_for(lambda m: m["type"] == "bans", since=0)["bans"] == []


def test_shutdown_0_stops_the_server_process_cleanly_and_the_log_says_why(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data), MUDWIZ_GRACE="0") as server:
        sys_ = sysop(server, data)
        bob = JsonClient(server, "bob")
        bob.request("/new wizard")
        bob.request("/bot add random")
        bob.request("/bot add random")
        bob.request("/start")
        assert sys_.request("/shutdown 0")["text"] == "the server stops now"
        notice = bob.wait_for(lambda m: m["type"] == "shutdown")
        assert notice == {"type": "shutdown", "seconds": 0, "by": "Sys",
                          "text": "The server is stopping now (shutdown by the sysop Sys)."}
        wait_closed(bob)
        assert server.proc.wait(timeout=20) == 0
        log = server.log()
        assert "stopping the server: shutdown by Sys" in log and "Traceback" not in log
        assert "game abandoned" not in log  # nor recorded as abandoned on the way down
    store = SQLiteStore(data / FILENAME, create=False)
    assert store.games_of("bob") == []
    store.close()


def test_term_stops_the_same_clean_way(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data), MUDWIZ_GRACE="0") as server:
        bob = JsonClient(server, "bob")
        bob.request("/new wizard")
        bob.request("/bot add random")
        bob.request("/bot add random")
        bob.request("/start")
        server.proc.send_signal(signal.SIGTERM)
        assert bob.wait_for(lambda m: m["type"] == "shutdown")["text"] == "The server is stopping now."
        server.proc.send_signal(signal.SIGTERM)  # again, impatient, while it stops: a line, not a traceback
        wait_closed(bob)
        assert server.proc.wait(timeout=20) == 0
        log = server.log()
        assert "Received SIGTERM" in log and "Traceback" not in log, log
        assert log.count("Received SIGTERM") == 1 or "already stopping" in log, log
        assert "game abandoned" not in server.log()
    store = SQLiteStore(data / FILENAME, create=False)
    assert store.games_of("bob") == []
    store.close()


def test_a_second_server_on_the_same_data_directory_is_refused_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        env = {**os.environ, "MUDWIZ_DATA": str(data), "MUDWIZ_LISTEN": f"tcp:{free_port()}:interface=127.0.0.1"}
        second = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        [line] = second.stderr.splitlines()
        assert f"{data}: another mudwiz server is using this data directory" in line, second.stderr
        twistd = subprocess.run([str(Path(sys.executable).with_name("twistd")), "-ny", "server.tac"], cwd=ROOT,
                                env=env, capture_output=True, text=True, timeout=60)
        assert twistd.returncode != 0 and "Traceback" not in twistd.stdout + twistd.stderr
        assert [line] == twistd.stderr.splitlines()
        assert JsonClient(server, "still_here").of_type("welcome")  # the first one is untouched
        assert admin(data, "list").returncode == 0  # the admin command line does not need the lock


def test_twistd_with_a_corrupt_database_says_so_in_one_line_and_leaves_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / FILENAME).write_bytes(b"this is not a database at all " * 100)
    env = {**os.environ, "MUDWIZ_DATA": str(data), "MUDWIZ_LISTEN": f"tcp:{free_port()}:interface=127.0.0.1"}
    twistd = subprocess.run([str(Path(sys.executable).with_name("twistd")), "-ny", "server.tac"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert twistd.returncode == 1 and "Traceback" not in twistd.stdout + twistd.stderr
    assert twistd.stderr.splitlines() == [f"mudwiz: cannot use the game records: {data / FILENAME}: it is not a "
                                          "database (file is not a database)"]
    assert (data / FILENAME).read_bytes() == b"this is not a database at all " * 100


def test_admin_password_sets_a_forgotten_password_printing_nothing_secret(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(MUDWIZ_DATA=str(data)) as server:
        register(server, "Reg").close()

        def reset(name: str, typed: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "mudwiz.cli", "admin", "password", name], cwd=ROOT,
                                  input=typed + "\n", capture_output=True, text=True, timeout=60,
                                  env={**os.environ, "MUDWIZ_DATA": str(data)})

        short = reset("reg", "short")
        assert short.returncode == 1 and short.stderr == (
            "mudwiz: a password has at least 8 characters; nothing changed\n")
        nobody = reset("nobody", "long-enough-1")
        assert nobody.returncode == 1 and nobody.stderr == "mudwiz: nobody is not a registered name\n"
        done = reset("reg", "a-new-secret-2")
        assert done.returncode == 0 and done.stdout == "Reg has a new password (from their next login on)\n"
        assert "a-new-secret-2" not in done.stdout + done.stderr
        with pytest.raises(RuntimeError, match="login refused"):
            JsonClient(server, "Reg", password=SECRET)
        assert JsonClient(server, "Reg", password="a-new-secret-2").of_type("welcome")
        assert server.alive()


def test_a_setting_the_server_cannot_run_with_stops_twistd_and_serve_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "MUDWIZ_DATA": str(data), "MUDWIZ_LISTEN": f"tcp:{free_port()}:interface=127.0.0.1",
           "MUDWIZ_SEASON": "fortnight"}
    twistd = subprocess.run([str(Path(sys.executable).with_name("twistd")), "-ny", "server.tac"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert twistd.returncode == 1 and "Traceback" not in twistd.stdout + twistd.stderr
    assert twistd.stderr.splitlines() == ["mudwiz: MUDWIZ_SEASON must be one of month, quarter, year, not 'fortnight'"]
    env = {**env, "MUDWIZ_SEASON": "quarter", "MUDWIZ_TOURNAMENTS": "everyone"}
    serve = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", f"tcp:{free_port()}"], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=60)
    assert serve.returncode == 1 and "Traceback" not in serve.stdout + serve.stderr
    assert serve.stderr.splitlines() == ["mudwiz: MUDWIZ_TOURNAMENTS must be sysop or registered, not 'everyone'"]
