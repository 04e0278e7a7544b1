"""A free trial (issue #30 item 2): `add subscription … --trial-ends DATE` reminds before the
trial's last day with what it will then charge; "I cancelled" on the pop-up ends the subscription
and `report` counts the charge kept; "Keep it" (Done) clears the trial and the renewals go on.
The daemon's clock is set three seconds before 09:00 (the reminder time) on the day before the
trial's last day, so the day lead fires at once."""
import json
import subprocess
from datetime import datetime, timezone

from conftest import BIN, Daemon, clock_at, wait_for


def start_before_nine(tmp_path, bus):
    daemon = Daemon(tmp_path, bus, {"timeZone": "UTC", "quietHours": None})
    clock_at(daemon, datetime(2030, 1, 20, 8, 59, 57, tzinfo=timezone.utc))
    daemon.start()
    item_id = daemon.ctl_json(
        "add", "subscription", "Hulu", "--amount", "9.99", "--every", "1mo", "--trial-ends", "2030-01-21",
        "--lead", "1d")["id"]
    return daemon, item_id


def test_the_trial_is_reminded_and_i_cancelled_ends_it_and_counts_the_money_kept(bus, server, tmp_path):
    daemon, item_id = start_before_nine(tmp_path, bus)
    try:
        item = daemon.ctl_json("show", item_id)["item"]
        assert (item["trialEnds"], item["next"], item["due"][:10]) == ("2030-01-21", "2030-01-22", "2030-01-21")
        steps = daemon.ctl_json("explain", item_id)["steps"]
        assert [s["rule"] for s in steps] == ["09:00, 1 day before the free trial's last day"], steps
        wait_for(lambda: len(server.notifications()) == 1, timeout=20, what="the trial's reminder")
        summary, body, line = server.notifications()[0]
        assert "free trial ends tomorrow" in body and "then $9.99/mo" in body, body
        assert '["done", "Keep it", "cancelled", "I cancelled"' in line, line
        server.invoke(1, "cancelled")
        wait_for(lambda: daemon.ctl_json("show", item_id)["item"].get("cancelled") == "2030-01-20",
                 what="the subscription cancelled")
        assert daemon.ctl_json("show", item_id)["item"]["nextReminder"] is None
        # Said "expired" before: its status on the wire stays that (CONTRACT §6), the words say what happened.
        row = next(line for line in daemon.ctl("list", "--all").stdout.splitlines() if "Hulu" in line)
        assert " cancelled" in row and "expired" not in row, row
        assert daemon.ctl_json("show", item_id)["item"]["status"] == "expired"
        report = daemon.ctl_json("report", "--months", "1")["report"]
        assert report["months"][-1]["redeemed"] == "9.99", report
        assert report["subscriptions"]["items"] == []
    finally:
        daemon.stop()


def test_keep_it_clears_the_trial_and_the_renewals_go_on(bus, server, tmp_path):
    """Kept with reminderctl here; the pop-up's "Keep it" is its Done (EngineTrialTests)."""
    daemon, item_id = start_before_nine(tmp_path, bus)
    try:
        wait_for(lambda: len(server.notifications()) == 1, timeout=20, what="the trial's reminder")
        kept = daemon.ctl("done", item_id).stdout
        assert kept.startswith("Kept Hulu after its free trial"), kept
        item = daemon.ctl_json("show", item_id)["item"]
        assert item["due"][:10] == "2030-01-22" and item["nextReminder"][:16] == "2030-01-21T09:00", item
        # A catalog template's usual trial (trialDays: 7) from today, the first charge the day after.
        adobe = daemon.ctl_json("add", "subscription", "--template", "adobe-creative-cloud", "--trial")["item"]
        assert (adobe["trialEnds"], adobe["next"]) == ("2030-01-27", "2030-01-28"), adobe
    finally:
        daemon.stop()


def test_plan_says_which_reminder_is_the_trials_end(tmp_path):
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"kind": "subscription", "title": "Hulu", "amount": "9.99", "every": "1mo",
                                  "next": "2030-03-11", "trialEnds": "2030-03-10", "lead": ["1d"]}]))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"timeZone": "UTC"}))
    table = subprocess.run(
        [str(BIN / "reminderctl"), "plan", "--config", str(config), "--items", str(items), "--from", "2030-03-01",
         "--to", "2030-03-12"], capture_output=True, text=True, check=True, timeout=30).stdout
    rows = table.splitlines()[1:]
    assert [row.rstrip().endswith("free trial ends") for row in rows] == [True, False], table
