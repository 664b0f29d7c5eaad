"""``mudwiz serve --workers N`` (mudwiz/supervisor.py): the pure parts (the refusal without shared engines, the
restart policy, the per-node lock files), and the supervisor as a real subprocess with real workers on a real
PostgreSQL: connections on every listener spread over the workers (which process holds each accepted socket is
read from /proc), a ``kill -9``'d worker comes back under its node name while the port keeps accepting, TERM
stops every worker and exits 0, a worker whose supervisor is killed stops, and a worker that keeps dying is
given up in one line.

The workers join a real Redis (the session's redis-server) as the cluster's nodes, for the tests that run them
on PostgreSQL; the pure checks get a dummy URL that nothing connects to."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import postgres_databases
from pgserver import Databases
from wire import ROOT, JsonClient, eventually, free_port, stop_process

from mudwiz.cluster.service import cluster_node_name
from mudwiz.service import LOCKFILE, DataLock, lock_file_name
from mudwiz.store import StoreError
from mudwiz.supervisor import (
    DEATHS,
    RestartPolicy,
    parse_inherited,
    shared_engines_missing,
    unshareable,
)

DUMMY_REDIS = "redis://127.0.0.1:1/0"  # for the checks, and workers that die before they would connect
BOTH = {"MUDWIZ_DATABASE_URL": "postgresql://x@/y", "MUDWIZ_REDIS_URL": DUMMY_REDIS}


# ---------------------------------------------------------------- the pure parts

def test_one_worker_needs_nothing_shared() -> None:
    assert shared_engines_missing(1, {}) is None


def test_several_workers_need_the_shared_store_and_bus_and_the_line_names_what_is_missing() -> None:
    both = shared_engines_missing(3, {})
    assert both is not None and "--workers 3" in both
    assert "MUDWIZ_DATABASE_URL and MUDWIZ_REDIS_URL" in both
    only_redis = shared_engines_missing(2, {"MUDWIZ_DATABASE_URL": "postgresql://x@/y"})
    assert only_redis is not None and "MUDWIZ_REDIS_URL" in only_redis and "DATABASE" not in only_redis
    only_db = shared_engines_missing(2, {"MUDWIZ_REDIS_URL": DUMMY_REDIS, "MUDWIZ_DATABASE_URL": ""})
    assert only_db is not None and "MUDWIZ_DATABASE_URL" in only_db and "REDIS" not in only_db
    assert shared_engines_missing(2, BOTH) is None


def test_only_plain_stream_endpoints_can_be_handed_to_workers() -> None:
    assert unshareable({"telnet": "tcp:4000", "raw": "tcp6:4001", "ssh": "unix:/tmp/m.sock"}) is None
    line = unshareable({"telnet": "tcp:4000", "raw": "ssl:4443:privateKey=k.pem"})
    assert line is not None and "raw listener ssl:4443" in line


def test_a_dead_worker_is_restarted_after_a_growing_delay_and_given_up_at_the_fifth_death_in_a_minute() -> None:
    policy = RestartPolicy()
    now, delays = 0.0, []
    for _ in range(DEATHS - 1):
        delay = policy.died(now)
        assert delay is not None
        delays.append(delay)
        now += delay  # it dies again the moment it starts
    assert delays == [1.0, 2.0, 4.0, 8.0]  # never more than one start a second
    assert policy.died(now) is None


def test_deaths_more_than_a_minute_apart_never_add_up_to_giving_up() -> None:
    policy = RestartPolicy()
    for i in range(20):
        assert policy.died(i * 61.0) == 1.0


def test_a_workers_inherited_sockets_are_read_from_its_command_line() -> None:
    assert parse_inherited("telnet=3,raw=4") == {"telnet": 3, "raw": 4}
    assert parse_inherited("") == {}
    with pytest.raises(ValueError):
        parse_inherited("telnet3")


def test_workers_lock_files_of_their_own_and_refuse_only_their_own_name(tmp_path: Path) -> None:
    assert lock_file_name(None) == LOCKFILE
    assert lock_file_name("w1") == "mudwiz-w1.lock"
    whole, w1, w2 = DataLock(str(tmp_path)), DataLock(str(tmp_path), "w1"), DataLock(str(tmp_path), "w2")
    try:
        with pytest.raises(StoreError, match="another mudwiz process named w1"):
            DataLock(str(tmp_path), "w1")
        assert (tmp_path / "mudwiz-w2.lock").read_text() == f"{os.getpid()}\n"
    finally:
        for lock in (whole, w1, w2):
            lock.stopService()
    DataLock(str(tmp_path), "w1").stopService()  # let go of: free again


def test_a_node_name_that_could_not_name_a_file_is_refused(tmp_path: Path) -> None:
    for bad in ("../w1", ".hidden", "a/b", "x" * 65, ""):
        with pytest.raises(StoreError, match="MUDWIZ_NODE"):
            DataLock(str(tmp_path), bad)


def test_a_cluster_node_is_mudwiz_node_else_the_host_and_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUDWIZ_NODE", "w7")
    assert cluster_node_name() == "w7"
    monkeypatch.delenv("MUDWIZ_NODE")
    assert cluster_node_name() == f"{socket.gethostname()}-{os.getpid()}"


# ---------------------------------------------------------------- the command

def serve(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)


def test_serve_with_several_workers_and_no_shared_store_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in BOTH} | {"MUDWIZ_DATA": str(tmp_path)}
    done = serve("--workers", "2", "--listen", f"tcp:{free_port()}:interface=127.0.0.1", env=env)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "mudwiz: --workers 2 needs a store and a bus the workers share: set MUDWIZ_DATABASE_URL and "
        "MUDWIZ_REDIS_URL (docs/scaling.md), or run one process (--workers 1)"]
    assert not list(tmp_path.iterdir())  # refused before anything was made


def test_a_taken_port_stops_the_supervisor_in_one_line_naming_it(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        endpoint = f"tcp:{taken.getsockname()[1]}:interface=127.0.0.1"
        done = serve("--workers", "2", "--listen", f"tcp:{free_port()}:interface=127.0.0.1",
                     env={**os.environ, **BOTH, "MUDWIZ_DATA": str(tmp_path), "MUDWIZ_RAW_LISTEN": endpoint})
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"mudwiz: cannot listen on {endpoint}: Address already in use"]
    assert "worker" not in done.stdout  # none started


def test_serve_refuses_a_worker_count_below_one() -> None:
    done = serve("--workers", "0", env=dict(os.environ))
    assert done.returncode == 2 and "'0' is not a whole number from 1" in done.stderr


# ---------------------------------------------------------------- the supervisor and its workers, for real

def gone(pid: int) -> bool:
    """No such process, or a zombie (ended; only its parent's wait is missing)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def node_of(pid: int) -> str | None:
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return next((e.split(b"=", 1)[1].decode() for e in environ if e.startswith(b"MUDWIZ_NODE=")), None)


def server_side_inode(server_port: int, client_port: int) -> int:
    """The inode of the accepted socket of the connection from ``client_port`` (/proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(fields[i].split(":")[1], 16) for i in (1, 2))
        if (local, remote) == (server_port, client_port):
            return int(fields[9])
    raise AssertionError(f"no connection from port {client_port} to {server_port}")


def serving_pid(sock: socket.socket, server_port: int, pids: list[int]) -> int:
    """Which of ``pids`` holds the accepted end of ``sock``'s connection."""
    # inode 0: still in the accept queue, no worker has taken it yet
    inode = eventually(lambda: server_side_inode(server_port, sock.getsockname()[1]), "the connection accepted",
                       timeout=5)
    link = f"socket:[{inode}]"
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == link:
                    return pid
            except FileNotFoundError:
                continue
    raise AssertionError(f"none of {pids} holds {link}")


class Workers:
    """``mudwiz serve --workers N`` on loopback (telnet and raw listeners), its log in a file."""

    def __init__(self, tmp_path: Path, count: int, listen: str | None = None, **env: str) -> None:
        self.port, self.raw_port = free_port(), free_port()
        self.listen = listen or f"tcp:{self.port}:interface=127.0.0.1"
        self.logpath = tmp_path / "workers.log"
        self.env = {**os.environ, "MUDWIZ_BOT_PROCESSES": "0", "MUDWIZ_DATA": str(tmp_path / "data"),
                    "MUDWIZ_REDIS_URL": os.environ.get("MUDWIZ_REDIS_URL", DUMMY_REDIS),
                    "MUDWIZ_ARRIVAL_BURST": "100000",
                    # the spread tests open tens of unnamed connections from 127.0.0.1, more than a worker lets in
                    "MUDWIZ_MAX_UNNAMED_PER_ADDRESS": "0", "MUDWIZ_MAX_PER_ADDRESS": "0",
                    "MUDWIZ_RAW_LISTEN": f"tcp:{self.raw_port}:interface=127.0.0.1", **env}
        self.env.pop("MUDWIZ_NODE", None)
        with self.logpath.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mudwiz.cli", "serve", "--workers", str(count), "--listen", self.listen],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT)

    def log(self) -> str:
        return self.logpath.read_text(errors="replace")

    def starts(self, node: str) -> list[int]:
        """The pids ``node`` was started as, in order."""
        return [int(pid) for pid in re.findall(rf"worker {node} started \(pid (\d+)\)", self.log())]

    def ready(self, node: str, times: int = 1) -> int:
        """Wait until ``node`` has been started ``times`` times and its last start has adopted the listeners;
        its pid."""
        started = re.compile(rf" {node} \[[^\]]*\] RawFactory starting on {self.raw_port}\b")  # [-] or what
        # the cluster's join ran in (the listeners start once the node has joined)
        eventually(lambda: len(self.starts(node)) >= times and len(started.findall(self.log())) >= times,
                   f"{node} ready\n{self.log()}", timeout=30)
        return self.starts(node)[-1]

    def stop(self) -> int:
        return stop_process(self.proc, 30)


@pytest.fixture(autouse=True)
def cluster_redis(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers on PostgreSQL are cluster nodes: they join the session's Redis (skipping the test if there is
    none)."""
    if "postgres" in request.fixturenames:
        monkeypatch.setenv("MUDWIZ_REDIS_URL", request.getfixturevalue("redis_url"))


@contextmanager
def workers(tmp_path: Path, postgres: Databases | str, count: int = 2, listen: str | None = None,
            **env: str) -> Iterator[Workers]:
    with postgres_databases(postgres).fresh() as url:
        running = Workers(tmp_path, count, listen, MUDWIZ_DATABASE_URL=url, **env)
        try:
            yield running
        finally:
            running.stop()


def spread(running: Workers, pids: list[int], port: int, connect: Callable[[int], socket.socket]) -> set[int]:
    """The pids of the workers that took two connections on ``port``: the first to whichever worker the kernel
    woke first, the second while that one is paused (SIGSTOP, for well under the cluster's 4 s of silence), so
    another must take it if the workers all listen there. Which worker the kernel hands a connection is not
    random: on a quiet machine, 40 made one at a time at times all went to the same one, and counting who took
    them failed now and then."""
    held: set[int] = set()
    socks = []
    try:
        socks.append(connect(0))
        first = serving_pid(socks[-1], port, pids)
        held.add(first)
        os.kill(first, signal.SIGSTOP)
        try:
            socks.append(connect(1))
            held.add(serving_pid(socks[-1], port, pids))
        finally:
            os.kill(first, signal.SIGCONT)
    finally:
        for sock in socks:
            sock.close()
    return held


def test_connections_on_every_listener_are_spread_over_the_workers(tmp_path: Path,
                                                                   postgres: Databases | str) -> None:
    ssh_port = free_port()
    with workers(tmp_path, postgres, 3, MUDWIZ_SSH=f"tcp:{ssh_port}:interface=127.0.0.1") as running:
        pids = [running.ready(node) for node in ("w1", "w2", "w3")]
        assert [node_of(pid) for pid in pids] == ["w1", "w2", "w3"]
        made = [line for line in running.log().splitlines() if "made a new SSH host key" in line]
        assert len(made) == 1 and " supervisor [" in made[0]  # once, before the workers: never raced
        clients: list[JsonClient] = []

        def telnet(i: int) -> socket.socket:
            clients.append(JsonClient(("127.0.0.1", running.port), f"spread{i}"))  # logged in: accepted
            return clients[-1].sock

        def raw(i: int) -> socket.socket:
            sock = socket.create_connection(("127.0.0.1", running.raw_port), timeout=10)
            assert sock.recv(100)  # greeted: accepted
            return sock

        assert len(spread(running, pids, running.port, telnet)) > 1, running.log()
        assert len(spread(running, pids, running.raw_port, raw)) > 1, running.log()

        def ssh(i: int) -> socket.socket:
            sock = socket.create_connection(("127.0.0.1", ssh_port), timeout=10)
            assert sock.recv(100).startswith(b"SSH-2.0-")  # the server's banner: accepted
            return sock

        assert len(spread(running, pids, ssh_port, ssh)) > 1, running.log()
        for client in clients:
            client.close()
        second = serve("--listen", f"tcp:{free_port()}:interface=127.0.0.1", env=running.env)
        assert second.returncode == 1 and "another mudwiz server is using this data directory" in second.stderr
        assert running.stop() == 0, running.log()
        for pid in pids:
            assert gone(pid)


def test_workers_share_a_unix_socket_and_its_path_goes_with_the_supervisor(
        tmp_path: Path, postgres: Databases | str) -> None:
    path = tmp_path / "mudwiz.sock"
    with workers(tmp_path, postgres, listen=f"unix:{path}") as running:
        first, _ = running.ready("w1"), running.ready("w2")

        def answered(name: str) -> None:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(10)
                sock.connect(str(path))
                sock.sendall(f"{name}\r\n".encode())
                assert sock.recv(100)  # answered by a worker

        for i in range(4):
            answered(f"Unix{i}")
        os.kill(first, signal.SIGTERM)  # one worker stops: the path stays for the other
        eventually(lambda: "worker w1 stopped cleanly" in running.log(), "w1's end", timeout=30)
        assert path.exists()
        answered("Still")
        assert running.stop() == 0, running.log()
        assert running.log().count(f"MudFactory starting on '{path}'") == 2, running.log()  # both adopted it
    assert not path.exists()  # removed by the supervisor, once the workers were gone


def test_a_killed_worker_comes_back_under_its_node_name_while_the_port_keeps_accepting(
        tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres) as running:
        first, other = running.ready("w1"), running.ready("w2")
        os.kill(first, signal.SIGKILL)
        killed_at = time.monotonic()
        JsonClient(("127.0.0.1", running.port), "Meanwhile").close()  # w2 takes it: no gap in service
        again = running.ready("w1", times=2)
        assert time.monotonic() - killed_at >= 1.0  # the back-off: not restarted in a tight loop
        assert again != first and gone(first) and node_of(again) == "w1"
        log = running.log()
        assert f"worker w1 (pid {first}) ended: killed by SIGKILL" in log
        assert "restarting worker w1 in 1 s" in log
        assert running.starts("w2") == [other]  # the other one was left alone
        held = spread(running, [again, other], running.port,
                      lambda i: JsonClient(("127.0.0.1", running.port), f"after{i}").sock)
        assert again in held, running.log()  # the new w1 accepts on the inherited socket
        assert running.stop() == 0, running.log()
        assert gone(again) and gone(other)


def test_a_worker_stopped_alone_is_not_restarted_and_leaves_the_socket_to_the_others(
        tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres) as running:
        first, other = running.ready("w1"), running.ready("w2")
        os.kill(first, signal.SIGTERM)  # a clean stop of its own (as /shutdown there): status 0
        eventually(lambda: "worker w1 stopped cleanly: not restarting it" in running.log(), "w1's end", timeout=30)
        for i in range(5):  # its port closed, not shut down: w2 still accepts on the shared socket
            client = JsonClient(("127.0.0.1", running.port), f"left{i}")
            assert serving_pid(client.sock, running.port, [other]) == other
            client.close()
        assert running.starts("w1") == [first]
        os.kill(other, signal.SIGTERM)
        assert running.proc.wait(timeout=30) == 0, running.log()
        assert "no worker left: the supervisor stops" in running.log()


def test_term_stops_every_worker_and_the_supervisor_exits_0(tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres) as running:
        pids = [running.ready("w1"), running.ready("w2")]
        client = JsonClient(("127.0.0.1", running.port), "Leaving")
        running.proc.send_signal(signal.SIGTERM)
        assert running.proc.wait(timeout=30) == 0, running.log()
        assert all(gone(pid) for pid in pids)
        client.sock.settimeout(10)
        while client.sock.recv(65536):  # told goodbye, then closed: not left hanging
            pass
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", running.port), timeout=2)
        log = running.log()
        assert "stopping the workers" in log and "did not stop" not in log
        assert "restarting" not in log
        client.close()


def test_workers_stop_when_their_supervisor_is_killed(tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres) as running:
        pids = [running.ready("w1"), running.ready("w2")]
        running.proc.kill()
        running.proc.wait()
        eventually(lambda: all(gone(pid) for pid in pids), f"orphaned workers to stop\n{running.log()}", timeout=30)
        assert running.log().count("the supervisor is gone: this worker stops") == 2


def test_a_worker_that_keeps_dying_is_given_up_in_one_line(tmp_path: Path) -> None:
    unreachable = f"postgresql://nobody@/nothing?host={tmp_path}&port=1"  # no server: every worker exits 1
    running = Workers(tmp_path, 2, MUDWIZ_DATABASE_URL=unreachable)
    try:
        status = running.proc.wait(timeout=60)
    finally:
        running.stop()
    log = running.log()
    assert status == 1, log
    for node in ("w1", "w2"):
        assert len(running.starts(node)) == DEATHS
        assert f"worker {node} died {DEATHS} times in 60 s: not restarting it" in log
    assert "no worker left: the supervisor stops" in log
