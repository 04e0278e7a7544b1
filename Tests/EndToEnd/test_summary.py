"""`reminderctl summary`: the dashboard, its figures, and colour only where it belongs."""
import json
from datetime import date, datetime, timedelta, timezone

import pytest

from conftest import BIN, midday_zone


def setup_items(daemon):
    """Starts the daemon in a zone where it is midday (the coupon expires "today" at 23:30 there,
    whatever the hour of the run) and adds the dashboard's items."""
    zone, today = midday_zone()
    daemon.write_config({"timeZone": zone, "quietHours": None})
    daemon.start()
    daemon.ctl("add", "card", "amex-gold", "--fee-due", (today + timedelta(days=40)).isoformat())
    benefits = {i["title"]: i["id"] for i in daemon.ctl_json("list")["items"] if i["kind"] == "benefit"}
    daemon.ctl("done", benefits["Uber Cash"])
    daemon.ctl("done", benefits["Dining credit"], "--amount", "4")
    daemon.ctl("add", "subscription", "--template", "netflix", "--next", (today + timedelta(days=3)).isoformat())
    daemon.ctl("add", "coupon", "Pizza BOGO", "--expires", today.isoformat() + "T23:30")


def test_summary_adds_up_value_left_fee_return_and_what_is_due(server, daemon):
    setup_items(daemon)
    summary = daemon.ctl_json("summary")["summary"]
    assert summary["benefits"] == {"available": "63", "availableOther": {}, "cards": 1}  # 10 + 50 + 7 + (10 - 4) left
    assert [c["card"] for c in summary["cards"]] == ["Amex Gold"]
    card = summary["cards"][0]
    assert (card["redeemed"], card["fee"], card["net"], card["daysUntilFee"]) == ("14", "325", "-311", 40)
    assert summary["subscriptions"]["monthlyTotal"] == "17.99"
    assert [s["title"] for s in summary["subscriptions"]["renewingThisWeek"]] == ["Netflix Standard"]
    assert [c["title"] for c in summary["coupons"]["today"]] == ["Pizza BOGO"]
    due_titles = [e["title"] for e in summary["expiring"]]
    assert due_titles.index("Pizza BOGO") < due_titles.index("Netflix Standard")  # most urgent first
    assert [u["title"] for u in summary["usedRecently"]][:2] == ["Dining credit", "Uber Cash"]
    text = daemon.ctl("summary").stdout
    assert "\x1b[" not in text  # not a terminal: no colour
    assert "$63 available across 1 card this period" in text
    assert "$14 redeemed − $325 fee: redeem $311 more to break even" in text
    assert "fee due" in text and "in 40 days" in text
    assert "‼ today" in text and "Pizza BOGO" in text
    assert "! in 3 days" in text and "Netflix Standard" in text
    assert "$17.99 a month; renewing this week: Netflix Standard" in text


def test_summary_is_coloured_on_a_terminal_unless_no_color(server, daemon):
    pexpect = pytest.importorskip("pexpect")
    setup_items(daemon)
    coloured = pexpect.run(str(BIN / "reminderctl"), args=["summary"], env=dict(daemon.env, TERM="xterm"), encoding="utf-8")
    assert "\x1b[1;31m‼ today\x1b[0m" in coloured and "\x1b[31m! in 3 days\x1b[0m" in coloured
    plain = pexpect.run(str(BIN / "reminderctl"), args=["summary"], env=dict(daemon.env, TERM="xterm", NO_COLOR="1"), encoding="utf-8")
    assert "\x1b[" not in plain and "‼ today" in plain


def test_explain_shows_how_each_fire_time_was_derived(server, bus, tmp_path):
    from conftest import Daemon
    daemon = Daemon(tmp_path, bus, {"timeZone": "America/New_York", "reminderTime": "02:30",
                                    "quietHours": {"start": "22:00", "end": "08:00"}}).start()
    try:
        item = daemon.ctl_json("add", "fee", "Card fee", "--due", "2027-03-15", "--lead", "7d,1d,2h")["id"]
        steps = {s["lead"]: s for s in daemon.ctl_json("explain", item)["steps"]}
        assert steps["7d"]["computed"] == "2027-03-08T02:30:00-05:00" and steps["7d"]["fireAt"] == "2027-03-08T08:00:00-05:00"
        assert steps["7d"]["quietHours"] == "moved to the end of quiet hours"
        assert steps["7d"]["rule"] == "02:30, 7 days before the due date"
        assert steps["1d"]["rule"] == "02:30, 1 day before the due date"
        # 2027-03-14 is the spring-forward day: 02:30 does not exist and reads as 03:30 EDT.
        assert steps["1d"]["dstGap"] is True and steps["1d"]["computed"] == "2027-03-14T03:30:00-04:00"
        assert steps["1d"]["fireAt"] == "2027-03-14T08:00:00-04:00"
        assert steps["2h"]["rule"] == "2h before the due time (elapsed time)" and steps["2h"]["fireAt"] == "2027-03-15T21:59:00-04:00"
        text = daemon.ctl("explain", item).stdout
        assert text.startswith("Due Mon 2027-03-15 23:59")
        assert "LEAD" in text.splitlines()[1] and "moved to the end of quiet hours" in text
    finally:
        daemon.stop()


def test_explain_and_plan_say_a_reminder_moved_off_a_day_off(server, bus, tmp_path):
    from conftest import Daemon
    daemon = Daemon(tmp_path, bus, {"timeZone": "America/New_York", "quietHours": None,
                                    "workdays": {"days": "mon-fri", "holidays": "US"}}).start()
    try:
        weekend = daemon.ctl_json("add", "fee", "Card fee", "--due", "2027-12-05", "--lead", "1d")["id"]
        holiday = daemon.ctl_json("add", "fee", "Rent", "--due", "2027-11-26", "--lead", "1d")["id"]
        step = daemon.ctl_json("explain", weekend)["steps"][0]
        saturday = "moved from Sat 2027-12-04 to Fri 2027-12-03: Saturday is not a working day"
        assert step["rule"] == "09:00, 1 day before the due date; " + saturday
        assert step["fireAt"] == "2027-12-03T09:00:00-05:00" and step["result"] == "kept"
        assert saturday in daemon.ctl("explain", weekend).stdout
        assert ("moved from Thu 2027-11-25 to Wed 2027-11-24: Thanksgiving Day (US)"
                in daemon.ctl("explain", holiday).stdout)
        items_file = tmp_path / "items.json"
        items_file.write_text(daemon.ctl("export").stdout)
        plan = json.loads(daemon.ctl("plan", "--config", str(daemon.config_path), "--items", str(items_file),
                                     "--from", "2027-11-01", "--to", "2028-01-01", "--json").stdout)
        assert sorted((row["fireAt"], row["adjusted"]) for row in plan) == [
            ("2027-11-24T09:00:00-05:00", "workday"), ("2027-12-03T09:00:00-05:00", "workday")]
        # A bad setting names its key and value, and the running daemon keeps its settings.
        daemon.write_config({"workdays": {"days": "mon-fry"}})
        refused = daemon.ctl("reload", check=False)
        assert refused.returncode != 0 and 'workdays.days' in refused.stderr and '"fry" is not a day' in refused.stderr
    finally:
        daemon.stop()
