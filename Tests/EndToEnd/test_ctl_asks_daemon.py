"""reminderctl shows what the daemon uses — its currency, its time zone, its reminder time — not
what reminderctl's own environment or the default config file would give, when the daemon runs
with `--config` (issue #13, item 6)."""
import json
import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from conftest import Daemon

# 25 hours apart: the two zones never share a date, so "tomorrow" tells them apart at any hour.
DAEMON_ZONE = "Pacific/Kiritimati"  # UTC+14
CTL_ZONE = "Pacific/Pago_Pago"  # UTC-11


class ConfiguredDaemon(Daemon):
    """reminderd started with `--config` naming a file other than the default one reminderctl sees."""

    def __init__(self, tmp, bus, own_config, default_config):
        super().__init__(tmp, bus, default_config)
        self.own_config = self.tmp / "daemon-config.json"
        self.own_config.write_text(json.dumps(own_config))
        self.env["TZ"] = CTL_ZONE
        # A command that execs the daemon, here with `--config`: the shell's $0 is reminderd.
        self.prefix = ["sh", "-c", f'exec "$0" --config "{self.own_config}"']


def test_done_export_ics_and_natural_dates_use_the_daemons_settings(server, bus, tmp_path):
    daemon = ConfiguredDaemon(
        tmp_path, bus,
        own_config={"timeZone": DAEMON_ZONE, "currency": "EUR", "quietHours": None, "leadTimes": ["1d"]},
        default_config={"timeZone": CTL_ZONE, "currency": "USD", "quietHours": None}).start()
    try:
        assert daemon.ctl("status").stdout.count(DAEMON_ZONE) == 1
        benefit = daemon.ctl_json("add", "benefit", "Dining credit", "--amount", "15", "--period", "monthly")["id"]
        done = daemon.ctl("done", benefit, "--amount", "7.50").stdout
        assert "Recorded €7.50 of €15 Dining credit used; reminders go on for the remaining €7.50" in done
        assert "$" not in done
        # Tables show amounts in the daemon's currency too.
        assert "€15" in daemon.ctl("list").stdout
        upcoming = daemon.ctl("upcoming", "--days", "40").stdout
        assert "€15" in upcoming and "$" not in upcoming

        coupon = daemon.ctl_json("add", "coupon", "Pizza", "--expires", "2027-03-14T12:00")["id"]
        ics = daemon.ctl("export", "--ics", "--days", "800").stdout.replace("\n ", "")
        # 12:00 in UTC+14 is 22:00 UTC the day before; read in UTC-11 it would be 23:00 on the 14th.
        event = re.search(r"BEGIN:VEVENT\n(?:(?!END:VEVENT).)*UID:" + coupon + r"@(?:(?!END:VEVENT).)*END:VEVENT",
                          ics, re.S).group(0)
        assert "\nDTSTART:20270313T220000Z\n" in event

        # A natural date is the daemon's tomorrow, which is never reminderctl's zone's.
        tomorrow = (datetime.now(ZoneInfo(DAEMON_ZONE)) + timedelta(days=1)).date().isoformat()
        added = daemon.ctl("add", "coupon", "Bagels", "--expires", "tomorrow", "--json")
        assert json.loads(added.stdout)["item"]["expires"] == tomorrow
        assert f"--expires tomorrow: " in added.stderr and tomorrow in added.stderr
    finally:
        daemon.stop()
