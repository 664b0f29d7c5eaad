"""The cluster's bus and heartbeats on a real Redis server: two nodes in one process (a script run in a
subprocess, since the reactor runs once a process) send to each other, hear each other's beats, and see a
clean stop, a taken name and a killed Redis connection come back."""

from __future__ import annotations

import textwrap

from redisserver import reactor_script

SCRIPT = textwrap.dedent('''
    import json, sys
    from twisted.internet import defer, task
    from mudwiz.cluster.bus import Bus, BusError
    from mudwiz.cluster.nodes import Nodes

    url = sys.argv[1]
    seen = []

    @defer.inlineCallbacks
    def main(reactor):
        a, b = Bus(url, "a", reactor), Bus(url, "b", reactor)
        yield a.start(); yield b.start()
        na, nb = Nodes(a, reactor, beat=0.1, dead_after=0.5), Nodes(b, reactor, beat=0.1, dead_after=0.5)
        na.on_new.append(lambda n: seen.append(["a sees new", n]))
        na.on_gone.append(lambda n: seen.append(["a sees gone", n]))
        nb.on_gone.append(lambda n: seen.append(["b sees gone", n]))
        b.on("hello", lambda m: seen.append(["b got", m["text"], m["from"]]))
        a.on("hello", lambda m: seen.append(["a got", m["text"], m["from"]]))
        yield na.claim_name(); yield nb.claim_name()
        na.start(); nb.start()
        twin_bus = Bus(url, "a", reactor)
        yield twin_bus.start()
        twin = Nodes(twin_bus, reactor, beat=0.1, dead_after=0.5)
        try:
            yield twin.claim_name()
            seen.append(["twin took a"])
        except BusError as exc:
            seen.append(["twin refused", str(exc)])
        yield twin.stop()  # as the refused process stops: it must not speak for the live a
        yield task.deferLater(reactor, 0.2, lambda: None)
        seen.append(["a alive after the twin stopped?", (yield nb.is_alive("a")), ["b sees gone", "a"] in seen])
        yield twin_bus.stop()
        yield task.deferLater(reactor, 0.3, lambda: None)
        a.send("b", {"op": "hello", "text": "just b"})
        b.broadcast({"op": "hello", "text": "everyone"})
        yield task.deferLater(reactor, 0.2, lambda: None)
        seen.append(["a alive?", (yield na.is_alive("b"))])
        # a node taken for gone whose key outlives its last beat by a moment: Redis is asked again, for a beat
        yield a.redis.set(a.key("alive", "z"), "x", pexpire=150)
        seen.append(["z's name given up?", (yield na.name_given_up("z"))])
        yield a.redis.set(a.key("alive", "y"), "x", pexpire=3000)
        seen.append(["y's name given up?", (yield na.name_given_up("y"))])
        yield nb.stop()
        yield task.deferLater(reactor, 0.2, lambda: None)
        seen.append(["b alive after bye?", (yield na.is_alive("b"))])
        yield na.stop(); yield a.stop(); yield b.stop()
        try:
            yield Bus("unix:///nonexistent/redis.sock", "c", reactor).start()
        except BusError as exc:
            seen.append(["unreachable", str(exc)])
        print(json.dumps(seen))

    task.react(main)
''')


def test_two_nodes_talk_hear_beats_and_see_a_clean_stop(redis_url: str) -> None:
    seen = reactor_script(SCRIPT, redis_url)
    assert ["a sees new", "b"] in seen
    assert ["b got", "just b", "a"] in seen
    assert ["a got", "just b", "a"] not in seen  # a node's own channel is its own
    assert ["a got", "everyone", "b"] in seen and ["b got", "everyone", "b"] in seen
    assert ["a alive?", True] in seen
    assert ["z's name given up?", True] in seen and ["y's name given up?", False] in seen
    assert ["a sees gone", "b"] in seen and ["b alive after bye?", False] in seen
    refused = [row for row in seen if row[0] == "twin refused"]
    assert refused and "another live process is node a" in refused[0][1]
    # the refused twin stopping says no bye for a, nor deletes a's key (the others took a for gone: a split brain)
    assert ["a alive after the twin stopped?", True, False] in seen
    unreachable = [row for row in seen if row[0] == "unreachable"]
    assert unreachable and unreachable[0][1].startswith("cannot reach Redis at unix:///nonexistent/redis.sock")
