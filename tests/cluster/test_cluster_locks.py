"""The takeover lock per node (mudwiz/cluster/locks.py) on a real Redis server: two processes' buses and names in
one script (run in a subprocess, since the reactor runs once a process). A lock held by a live process is refused
to the other; its holder, finding it still there, holds it again; a holder that stopped (its name given up) or was
started again (another incarnation under the same name) no longer keeps it; and letting go never deletes a lock
another process took since."""

from __future__ import annotations

import textwrap

from redisserver import reactor_script

SCRIPT = textwrap.dedent('''
    import json, sys
    from twisted.internet import defer, task
    from mudwiz.cluster.bus import Bus
    from mudwiz.cluster.locks import TakeoverLocks
    from mudwiz.cluster.nodes import Nodes

    url = sys.argv[1]
    seen = {}

    @defer.inlineCallbacks
    def process(reactor, name):
        bus = Bus(url, name, reactor)
        yield bus.start()
        nodes = Nodes(bus, reactor)
        yield nodes.claim_name()
        return bus, nodes, TakeoverLocks(bus, nodes)

    @defer.inlineCallbacks
    def main(reactor):
        a_bus, a_nodes, a = yield process(reactor, "a")
        b_bus, b_nodes, b = yield process(reactor, "b")
        key = a_bus.key("takeover", "x")
        seen["a takes x"] = yield a.lock("x")
        seen["b refused x while a runs"] = not (yield b.lock("x"))
        seen["a holds x again"] = yield a.lock("x")
        yield b.unlock("x")
        seen["b's letting go leaves a's lock"] = (yield a_bus.redis.get(key)) == a.holder
        yield a_nodes.stop()  # a stops without letting go of x (its connection cut, say)
        seen["b breaks the lock of a process gone"] = yield b.lock("x")
        yield a.unlock("x")
        seen["a's late letting go leaves b's lock"] = (yield a_bus.redis.get(key)) == b.holder
        yield b.unlock("x")
        seen["b lets go"] = (yield a_bus.redis.get(key)) is None
        # a started again under its name: the lock its last incarnation left is not the new one's to wait for
        yield a_bus.redis.set(a_bus.key("takeover", "a"), a.holder, pexpire=30000)
        c_bus, c_nodes, c = yield process(reactor, "a")
        seen["the new a takes its own lock from the old a"] = yield c.lock("a")
        yield a_bus.redis.set(a_bus.key("takeover", "y"), "b", pexpire=30000)  # as an older build writes it
        seen["a lock naming no incarnation is waited out"] = not (yield c.lock("y"))
        for nodes, bus in ((b_nodes, b_bus), (c_nodes, c_bus)):
            yield nodes.stop()
            yield bus.stop()
        yield a_bus.stop()
        print(json.dumps(seen))

    task.react(main)
''')


def test_a_takeover_lock_is_held_by_one_live_process_and_broken_once_its_holder_is_gone(redis_url: str) -> None:
    seen = reactor_script(SCRIPT, redis_url)
    assert seen == {key: True for key in seen} and len(seen) == 9, seen
