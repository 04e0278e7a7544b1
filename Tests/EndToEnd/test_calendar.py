"""`reminderctl export --ics`: RFC 5545 that a calendar library reads, with alarms equal to `plan`."""
import json
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from conftest import BIN, Daemon


def test_the_ics_export_parses_and_its_alarms_are_the_plans(server, bus, tmp_path):
    icalendar = pytest.importorskip("icalendar")
    daemon = Daemon(tmp_path, bus, {"timeZone": "America/New_York", "leadTimes": ["7d", "1d", "2h"]}).start()
    try:
        daemon.ctl("add", "benefit", "Uber Cash", "--card", "Amex Platinum", "--amount", "15", "--period", "monthly")
        daemon.ctl("add", "subscription", "Netflix", "--amount", "15.99", "--every", "1mo", "--next", "2027-01-31")
        daemon.ctl("add", "fee", "Platinum fee", "--card", "Amex Platinum", "--amount", "695", "--due", "2028-02-29")
        daemon.ctl("add", "coupon", "Pizza; 2, for 1", "--expires", "2027-03-14T01:30", "--code", "PI")
        ics = daemon.ctl("export", "--ics").stdout
        now = datetime.now(timezone.utc).replace(microsecond=0)
        calendar = icalendar.Calendar.from_ical(ics)
        alarms = set()
        for event in calendar.walk("VEVENT"):
            item = str(event["UID"]).split("-")[0]
            due = event.decoded("DTSTART")
            for alarm in event.walk("VALARM"):
                alarms.add((item, due, alarm.decoded("TRIGGER")))
        assert any(str(e["SUMMARY"]) == "Pizza; 2, for 1 expires" for e in calendar.walk("VEVENT"))
        items_file = tmp_path / "items.json"
        items_file.write_text(daemon.ctl("export").stdout)
        plan = json.loads(daemon.ctl("plan", "--config", str(daemon.config_path), "--items", str(items_file),
                                     "--from", now.isoformat(), "--to", (now + timedelta(days=365)).isoformat(), "--json").stdout)
        planned = {(row["item"], datetime.fromisoformat(row["occurrenceDue"]), datetime.fromisoformat(row["fireAt"])) for row in plan}
        assert len(planned) > 20
        assert alarms == planned
        assert all(len(line.encode()) <= 75 for line in ics.splitlines())  # folded (text mode turned CRLF into LF)
    finally:
        daemon.stop()
