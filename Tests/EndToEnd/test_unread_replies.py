"""Clients that ask for every item and do not read the reply: each holds what the socket took
and a chunk of the streamed `list`, not the whole reply (CONTRACT §6: unread replies to 8 MiB per
client). The reply once went into the connection's buffer at once — ~22 MiB per client at 100k
items, ~4 MiB here — and a client that reads still gets the snapshot of its call's moment."""
import json
import socket

from bench_daemon import import_items, seed_items
from conftest import wait_for
from test_faults_socket import status_value

LIST_ALL = b'{"method":"io.reminderd.Reminders.List","parameters":{"all":true}}\0'


def settled_rss(pid):
    """The daemon's resident size (kB) once four readings 0.1 s apart agree within 256 kB: the
    replies' buffers let go and malloc's trim (queued behind them) done."""
    readings = []

    def steady():
        readings.append(status_value(pid, "VmRSS"))
        recent = readings[-4:]
        return len(recent) == 4 and max(recent) - min(recent) < 256

    wait_for(steady, interval=0.1, what="the daemon's resident size to settle")
    return readings[-1]


def test_six_clients_that_do_not_read_a_list_of_20k_items_hold_little(daemon):
    daemon.start()
    import_items(daemon, seed_items(20_000))
    pid = daemon.process.pid
    for _ in range(2):  # past the first list's one-off growth (caches, malloc's arenas)
        assert len(daemon.ctl_json("list", "--all")["items"]) == 20_000
    baseline = settled_rss(pid)
    clients = []
    try:
        for _ in range(6):
            client = socket.socket(socket.AF_UNIX)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.connect(str(daemon.socket_path))
            client.sendall(LIST_ALL)
            clients.append(client)
        # Each reply has begun: the daemon answered all six and is idle again.
        wait_for(lambda: daemon.ctl_json("status")["status"]["items"] == 20_000, what="a status")
        held = settled_rss(pid) - baseline
        # 6 × ~4 MiB before; a chunk (64 KiB) each, and the socket's buffers, now.
        assert held < 6_000, f"six unread lists hold {held // 1000} MB"
        # A change after the call is not in its reply: it is the state of the call's moment.
        daemon.ctl("add", "coupon", "Later", "--expires", "2031-01-01")
        reader = clients.pop()
        data = b""
        while not data.endswith(b"\0"):
            chunk = reader.recv(1 << 20)
            assert chunk, "closed before the reply's end"
            data += chunk
        reader.close()
        items = json.loads(data[:-1])["parameters"]["items"]
        assert len(items) == 20_000 and "Later" not in {item["title"] for item in items}
    finally:
        for client in clients:
            client.close()
        daemon.stop()
