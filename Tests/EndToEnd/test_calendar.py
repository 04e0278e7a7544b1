"""`reminderctl export --ics`: RFC 5545 that calendar libraries read — repeating items as RRULE
events — whose alarms, expanded the way a calendar program does, are exactly `plan`'s."""
import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from conftest import Daemon

ZONE = ZoneInfo("America/New_York")


def alarm_instant(start, trigger):
    """Where a calendar program puts an alarm: absolute, or relative per RFC 5545 §3.3.6 (whole
    days on the wall clock, the rest in elapsed time)."""
    if isinstance(trigger, datetime):
        return trigger
    back = -trigger
    wall = start.replace(tzinfo=None) - timedelta(days=back.days)
    return wall.replace(tzinfo=ZONE).astimezone(timezone.utc) - timedelta(seconds=back.seconds)


def calendar_alarms(ics, start, end):
    """(item, due, alarm) for every occurrence starting in [start, end), expanded by
    recurring_ical_events (RRULE, overrides by RECURRENCE-ID)."""
    icalendar = pytest.importorskip("icalendar")
    recurring = pytest.importorskip("recurring_ical_events")
    calendar = icalendar.Calendar.from_ical(ics)
    alarms = set()
    for event in recurring.of(calendar).between(start, end):
        item = str(event["UID"]).split("@")[0].removesuffix("-trial")  # a free trial's end is its item's
        due = event.decoded("DTSTART")
        due = due if due.tzinfo else due.replace(tzinfo=ZONE)
        for alarm in event.walk("VALARM"):
            alarms.add((item, due.astimezone(timezone.utc), alarm_instant(due, alarm.decoded("TRIGGER"))))
    return calendar, alarms


def test_the_ics_export_expands_to_the_plans_alarms(server, bus, tmp_path):
    daemon = Daemon(tmp_path, bus, {"timeZone": "America/New_York", "leadTimes": ["7d", "1d", "2h"]}).start()
    try:
        daemon.ctl("add", "benefit", "Uber Cash", "--card", "Amex Platinum", "--amount", "15", "--period", "monthly")
        daemon.ctl("add", "benefit", "Saks", "--card", "Amex Platinum", "--amount", "50", "--period", "semiannual")
        daemon.ctl("add", "subscription", "Netflix", "--amount", "15.99", "--every", "1mo", "--next", "2027-01-31")
        daemon.ctl("add", "subscription", "Gym", "--amount", "30", "--every", "2w", "--next", "2026-12-05")
        # A one-hour lead falls in the default quiet hours (22:00-08:00): every occurrence moves.
        daemon.ctl("add", "subscription", "Spotify", "--amount", "11.99", "--every", "1mo", "--next", "2026-12-30",
                   "--lead", "3d,1h")
        daemon.ctl("add", "fee", "Platinum fee", "--card", "Amex Platinum", "--amount", "695", "--due", "2028-02-29")
        daemon.ctl("add", "coupon", "Pizza; 2, for 1", "--expires", "2027-03-14T01:30", "--code", "PI")
        daemon.ctl("add", "rebuy", "Coffee beans", "--every-days", "20", "--last-purchased", "2026-11-20")
        # A weekly charge after a free trial (the first the day after its last day): a series starting
        # on the trial's end showed a renewal there and stepped to days never charged.
        trial_ends = datetime.now(ZONE).date() + timedelta(days=10)
        daemon.ctl("add", "subscription", "Hulu", "--amount", "7.99", "--every", "1w", "--trial-ends",
                   trial_ends.isoformat())
        ics = daemon.ctl("export", "--ics", "--days", "800").stdout
        now = datetime.now(timezone.utc).replace(microsecond=0)
        end = now + timedelta(days=800)
        calendar, alarms = calendar_alarms(ics, now, end)

        local_day = lambda start: (start if start.tzinfo else start.replace(tzinfo=ZONE)).astimezone(ZONE).date()
        hulu = sorted((local_day(e.decoded("DTSTART")), str(e["SUMMARY"]))
                      for e in pytest.importorskip("recurring_ical_events").of(calendar).between(now, end)
                      if str(e["SUMMARY"]).startswith("Hulu"))
        assert hulu[0] == (trial_ends, "Hulu free trial ends"), hulu[:3]
        charges = [day for day, _ in hulu[1:]]
        assert charges == [trial_ends + timedelta(days=1 + 7 * k) for k in range(len(charges))], charges[:3]
        assert {summary for _, summary in hulu[1:]} == {"Hulu renews"} and len(hulu) > 100

        events = list(calendar.walk("VEVENT"))
        masters = {str(e["SUMMARY"]): e for e in events if "RRULE" in e}
        assert len(masters) == 7
        unfolded = ics.replace("\n ", "")
        for rule in ("FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1",
                     "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=-1"):
            assert f"\nRRULE:{rule}\n" in unfolded
        assert [str(a["TRIGGER"].to_ical(), "ascii") for a in masters["Uber Cash expires"].walk("VALARM")] == \
            ["-P7DT14H59M", "-P1DT14H59M", "-PT2H"]
        # Only occurrences that need their own alarms are spelled out: Spotify's (quiet hours) and
        # the first ones (reminders before the item was added are dropped).
        overrides = [e for e in events if "RECURRENCE-ID" in e]
        assert {str(e["SUMMARY"]) for e in overrides} >= {"Spotify renews"}
        assert len(overrides) < 40
        assert any(str(e["SUMMARY"]) == "Pizza; 2, for 1 expires" for e in events)

        items_file = tmp_path / "items.json"
        items_file.write_text(daemon.ctl("export").stdout)
        plan = json.loads(daemon.ctl("plan", "--config", str(daemon.config_path), "--items", str(items_file),
                                     "--from", now.isoformat(), "--to", end.isoformat(), "--json").stdout)
        planned = {(row["item"], datetime.fromisoformat(row["occurrenceDue"]), datetime.fromisoformat(row["fireAt"]))
                   for row in plan if datetime.fromisoformat(row["occurrenceDue"]) < end}
        assert len(planned) > 300
        assert alarms == planned
        assert all(len(line.encode()) <= 75 for line in ics.splitlines())  # folded (text mode turned CRLF into LF)
    finally:
        daemon.stop()
