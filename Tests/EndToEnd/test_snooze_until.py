"""`snooze ID until HH:MM` and `snooze ID tomorrow`: a snooze that ends at a wall time in the
daemon's zone, clamped as every snooze is (before the due time, out of quiet hours)."""
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from conftest import Daemon, clock_at, fired_once_and_settled, midday_zone, wait_for


def human(moment):
    """A time as reminderctl's tables write it: `Sun 2026-11-29 18:00`."""
    return moment.strftime("%a %Y-%m-%d %H:%M")


def test_snooze_until_a_time_fires_at_that_time(server, bus, tmp_path):
    """The daemon's clock starts at 12:xx:40 (the test clock up to a minute on), so the next whole
    minute, the snooze's end, is seconds away rather than up to a minute: its own timer fires it."""
    zone, _ = midday_zone()  # 12:xx there: the next minute is still today
    moved = (40 - datetime.now().second) % 60
    daemon = Daemon(tmp_path, bus, {"timeZone": zone, "quietHours": None})
    clock_at(daemon, datetime.now(timezone.utc) + timedelta(seconds=moved))
    daemon.start()

    def now():
        """The daemon's clock."""
        return datetime.now(ZoneInfo(zone)) + timedelta(seconds=moved)
    try:
        expires = (now() + timedelta(seconds=183)).strftime("%Y-%m-%dT%H:%M:%S")
        item_id = daemon.ctl_json("add", "coupon", "Bagels", "--expires", expires, "--lead", "3m")["id"]
        wait_for(server.notifications, timeout=20, what="the first pop-up")
        target = (now() + timedelta(seconds=70)).replace(second=0, microsecond=0)  # 10–70 s ahead
        reply = daemon.ctl("snooze", item_id, "until", target.strftime("%H:%M")).stdout
        assert reply.strip() == f"Snoozed until {human(target)}"
        wait_for(lambda: len(server.notifications()) == 2, timeout=90, what="the snoozed pop-up")
        assert now() >= target  # not before its time
        assert fired_once_and_settled(daemon, item_id) == 2
    finally:
        daemon.stop()


def test_a_time_passed_today_means_tomorrow_and_a_clamp_is_said(server, bus, tmp_path):
    zone, today = midday_zone()
    daemon = Daemon(tmp_path, bus, {"timeZone": zone}).start()  # default quiet hours, 22:00–08:00
    try:
        later = daemon.ctl_json("add", "coupon", "Later", "--expires", str(today + timedelta(days=10)))["id"]
        tonight = daemon.ctl_json("add", "coupon", "Tonight", "--expires", str(today))["id"]
        tomorrow = datetime.combine(today + timedelta(days=1), datetime.min.time())
        reply = daemon.ctl("snooze", later, "until", "11:00").stdout.strip()
        assert reply == f"Snoozed until {human(tomorrow.replace(hour=11))} (11:00 has passed today)"
        reply = daemon.ctl("snooze", later, "tomorrow").stdout.strip()
        assert reply == f"Snoozed until {human(tomorrow.replace(hour=9))}"  # the reminder time
        # Tomorrow's 11:00 is after tonight's 23:59: a minute before it is quiet, so 21:59.
        reply = daemon.ctl("snooze", tonight, "until", "11:00").stdout.strip()
        tonight_at = datetime.combine(today, datetime.min.time())
        assert reply == (
            f"Snoozed until {human(tonight_at.replace(hour=21, minute=59))} (11:00 has passed today; "
            f"{human(tomorrow.replace(hour=11))} is not before the due time {human(tonight_at.replace(hour=23, minute=59))})")
        refused = daemon.ctl("snooze", later, "until", "6pm", check=False)
        assert refused.returncode != 0 and "6pm" in refused.stderr and "18:00" in refused.stderr
    finally:
        daemon.stop()


def test_snooze_until_tomorrow_pressed_on_the_pop_up(server, bus, tmp_path):
    """The pop-up's third button (CONTRACT §4): Done, the shortest snooze, Snooze until tomorrow;
    pressed, the reminder is snoozed until tomorrow at the reminder time (09:00)."""
    zone, today = midday_zone()
    daemon = Daemon(tmp_path, bus, {"timeZone": zone}).start()
    try:
        expires = (datetime.now(ZoneInfo(zone)) + timedelta(days=10, seconds=8)).strftime("%Y-%m-%dT%H:%M:%S")
        item_id = daemon.ctl_json("add", "coupon", "Bagels", "--expires", expires, "--lead", "240h")["id"]
        (summary, _, line), = wait_for(server.notifications, timeout=20, what="the pop-up")
        assert '"snooze-1h", "Snooze 1h", "snooze-tomorrow", "Snooze until tomorrow"]' in line, line
        server.invoke(1, "snooze-tomorrow")
        until = wait_for(lambda: daemon.ctl_json("explain", item_id)["snoozedUntil"], timeout=10,
                         what="the snooze from the button")
        assert until.startswith(f"{today + timedelta(days=1)}T09:00:00"), until
        snoozed = [e for e in daemon.ctl_json("history", "--item", item_id)["entries"] if e["event"] == "snoozed"]
        assert len(snoozed) == 1 and snoozed[0]["reason"].startswith("until tomorrow"), snoozed
    finally:
        daemon.stop()
