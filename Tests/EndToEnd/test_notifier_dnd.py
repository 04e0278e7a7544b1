"""The desktop's do-not-disturb as reminderd follows it (issue #13 item 7): read from the
notification server once when the server appears, then kept from the server's PropertiesChanged
signals, so a pop-up asks nobody. A `dbus-monitor` on the private bus counts the
org.freedesktop.DBus.Properties calls reminderd sends."""
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from conftest import fired_once_and_settled, wait_for

PROPERTIES = "org.freedesktop.DBus.Properties"


def in_two_days_plus(seconds):
    """An expiry two days and `seconds` from now: with a 48h lead its reminder comes due in
    `seconds`, and it is not due today, so it is not critical and do-not-disturb applies to it."""
    return (datetime.now(timezone.utc) + timedelta(days=2, seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")


class PropertyReads:
    """`dbus-monitor --profile` on the bus, keeping the Properties.Get and GetAll calls."""

    def __init__(self, bus, path):
        self.bus = bus
        self.path = path
        self.output = open(path, "w")
        self.process = subprocess.Popen(
            ["dbus-monitor", "--address", bus.address, "--profile",
             f"type='method_call',interface='{PROPERTIES}',member='Get'",
             f"type='method_call',interface='{PROPERTIES}',member='GetAll'"],
            stdout=self.output, stderr=subprocess.DEVNULL)
        # The bus takes a monitor's unique name away once it monitors: from then on nothing is missed.
        wait_for(lambda: "\tNameLost" in path.read_text(), what="dbus-monitor to become a monitor")

    def by(self, pid):
        """The Get and GetAll calls sent from the process `pid` (whichever connections it has)."""
        calls = []
        for line in self.path.read_text().splitlines():
            fields = line.split("\t")
            if len(fields) == 8 and fields[0] == "mc" and fields[6] == PROPERTIES and fields[7] in ("Get", "GetAll"):
                calls.append(fields[3])
        owners = {sender: self.pid_of(sender) for sender in set(calls)}
        return [sender for sender in calls if owners[sender] == pid]

    def pid_of(self, unique_name):
        result = subprocess.run(
            ["dbus-send", f"--bus={self.bus.address}", "--print-reply=literal", "--dest=org.freedesktop.DBus",
             "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", f"string:{unique_name}"],
            capture_output=True, text=True, timeout=10)
        return int(result.stdout.split()[-1]) if result.returncode == 0 else None  # gone: not reminderd's

    def stop(self):
        self.process.terminate()
        self.process.wait(5)
        self.output.close()


@pytest.fixture
def property_reads(bus, tmp_path):
    reads = PropertyReads(bus, tmp_path / "monitor.tsv")
    yield reads
    reads.stop()


def set_inhibited(server, value):
    """What GNOME, KDE or swaync do on do-not-disturb: the property changes, PropertiesChanged says so."""
    server.gdbus(f"{PROPERTIES}.Set", "org.freedesktop.Notifications", "Inhibited", f"<{value}>")


def test_do_not_disturb_is_followed_from_signals_not_asked_for_each_pop_up(server, property_reads, daemon):
    server.gdbus("org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.Notifications", "Inhibited", "<false>")
    daemon.start()
    wait_for(lambda: daemon.ctl_json("status")["status"]["notificationServer"], what="reminderd to know the server")
    at_start = len(property_reads.by(daemon.process.pid))

    # Three pop-ups, one second apart (three at one instant would share one grouped pop-up).
    items = [daemon.ctl_json("add", "coupon", f"Deal {n}", "--expires", in_two_days_plus(3 + n), "--lead", "48h")["id"]
             for n in range(3)]
    assert [fired_once_and_settled(daemon, item) for item in items] == [1, 1, 1]
    assert len(server.notifications()) == 3
    after_pop_ups = len(property_reads.by(daemon.process.pid))
    print(f"Properties.Get/GetAll from reminderd: {at_start} once the server was known, "
          f"{after_pop_ups} after 3 pop-ups")
    assert after_pop_ups == at_start, "reminderd asked the server for its properties for each pop-up"

    # Do-not-disturb on, announced only by signal: the next reminder is held without asking.
    set_inhibited(server, "true")
    held = daemon.ctl_json("add", "coupon", "Held deal", "--expires", in_two_days_plus(3), "--lead", "48h")["id"]
    wait_for(lambda: daemon.ctl_json("status")["status"]["held"] == 1, timeout=15, what="the reminder held")
    assert "inhibited" in daemon.ctl_json("status")["status"]["heldReason"]
    assert len(server.notifications()) == 3

    # Off again: the held reminder goes out, still without a property read.
    set_inhibited(server, "false")
    wait_for(lambda: len(server.notifications()) == 4, what="the held reminder after do-not-disturb ended")
    assert "Held deal" in server.notifications()[3][1]
    assert fired_once_and_settled(daemon, held) == 1
    assert len(property_reads.by(daemon.process.pid)) == at_start
