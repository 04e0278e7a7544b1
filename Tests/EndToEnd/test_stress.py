"""kill -9 at random moments during a stream of mixed mutations: after every restart each
acknowledged change is there, the one in flight is either wholly applied or not at all, and
SQLite's integrity check passes. STRESS_ROUNDS (default 12) sets how many kills; STRESS_SEED
the random stream."""
import json
import os
import random
import signal
import socket
import sqlite3
import threading
import time

from conftest import Daemon

ROUNDS = int(os.environ.get("STRESS_ROUNDS", "12"))
SEED = int(os.environ.get("STRESS_SEED", "2026"))
METHOD = "io.reminderd.Reminders."


class Connection:
    """One varlink connection, one call at a time."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.settimeout(10)
        self.socket.connect(str(path))
        self.buffer = b""

    def call(self, method, **parameters):
        self.socket.sendall(json.dumps({"method": METHOD + method, "parameters": parameters}).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        reply = json.loads(message)
        assert "error" not in reply, reply
        return reply["parameters"]


def state(item):
    """What the test tracks of an item: the fields its mutations change."""
    return {"title": item["title"], "notes": item.get("notes"), "used": item.get("status") == "used"}


def mutation(rng, model, counter):
    """A random change and the model it leads to once applied: (method, parameters, apply)."""
    ids = sorted(model)
    choice = rng.random() if ids else 0
    if choice < 0.3:
        title = f"Coupon {counter}"
        item = {"kind": "coupon", "title": title, "expires": "2031-01-01", "notes": "v0"}
        return "Add", {"item": item}, lambda m, reply: m.__setitem__(reply["id"], {"title": title, "notes": "v0", "used": False})
    if choice < 0.4:
        titles = [f"Batch {counter}-{k}" for k in range(3)]
        items = [{"kind": "rebuy", "title": t, "everyDays": 30, "lastPurchased": "2026-11-01"} for t in titles]

        def apply(m, reply):
            for new_id, title in zip(reply["ids"], titles):
                m[new_id] = {"title": title, "notes": None, "used": False}
        return "Import", {"items": items}, apply
    target = rng.choice(ids)
    if choice < 0.7:
        notes = f"v{counter}"
        return "Edit", {"id": target, "changes": {"notes": notes}}, lambda m, reply: m[target].__setitem__("notes", notes)
    if choice < 0.85 and model[target]["title"].startswith("Coupon") and not model[target]["used"]:
        return "Done", {"id": target}, lambda m, reply: m[target].__setitem__("used", True)
    return "Remove", {"id": target}, lambda m, reply: m.pop(target)


def actual(daemon):
    return {item["id"]: state(item) for item in Connection(daemon.socket_path).call("List", all=True)["items"]}


def reconcile(model, found, pending, outcomes):
    """The model after a restart: `found` must be the model, or the model with the change that
    was in flight when the daemon died — never anything in between."""
    if found == model:
        outcomes["in flight, not applied" if pending else "between calls"] += 1
        return model
    assert pending is not None, f"acknowledged state lost: expected {model}, found {found}"
    method, parameters, apply = pending
    if method in ("Add", "Import"):
        new = {k: v for k, v in found.items() if k not in model}
        after = dict(model)
        ids = sorted(new, key=lambda k: new[k]["title"])
        apply(after, {"id": ids[0] if ids else None, "ids": ids})
    else:
        after = json.loads(json.dumps(model))
        apply(after, {})
    assert found == after, f"{method} half-applied: before {model}, after {after}, found {found}"
    outcomes["in flight, applied"] += 1
    return found


def test_kill_9_at_random_moments_loses_no_acknowledged_change(server, bus, tmp_path):
    rng = random.Random(SEED)
    daemon = Daemon(tmp_path, bus)
    database = daemon.tmp / "data" / "reminderd" / "reminderd.sqlite"
    model, counter, acknowledged, pending = {}, 0, 0, None
    outcomes = {"in flight, applied": 0, "in flight, not applied": 0, "between calls": 0}
    try:
        for round_number in range(ROUNDS):
            daemon.start()
            model = reconcile(model, actual(daemon), pending, outcomes) if round_number else model
            connection = Connection(daemon.socket_path)
            killer = threading.Timer(rng.uniform(0.05, 0.6), daemon.process.send_signal, [signal.SIGKILL])
            killer.start()
            pending = None
            try:
                while True:
                    counter += 1
                    pending = mutation(rng, model, counter)
                    reply = connection.call(pending[0], **pending[1])
                    pending[2](model, reply)
                    pending = None
                    acknowledged += 1
            except (ConnectionError, OSError):
                pass
            killer.join()
            assert daemon.process.wait(10) == -signal.SIGKILL
            with sqlite3.connect(database) as check:
                assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            daemon.stop()
        daemon.start()
        model = reconcile(model, actual(daemon), pending, outcomes)
        used = sum(item["used"] for item in model.values())
        print(f"\n{ROUNDS} kills, {acknowledged} acknowledged changes, {len(model)} items ({used} used) at the end; {outcomes}")
        assert acknowledged > ROUNDS * 5
    finally:
        daemon.stop()
