"""A pause holds every pop-up, due-today ones too, and says so (issue 27, defect 14: `pause 10m`,
then coupons due today popped up, as the README said and CONTRACT §3 did not)."""

import re
from datetime import datetime, timedelta, timezone

from conftest import midday_zone, wait_for


def test_a_pause_holds_a_reminder_due_today_and_shows_it_at_resume(server, daemon):
    zone, today = midday_zone()
    daemon.write_config({"timeZone": zone, "quietHours": None})
    daemon.start()
    said = daemon.ctl("pause", "10m").stdout
    assert "Every pop-up is held, due-today ones too; they come as one digest when the pause ends." in said, said
    # 12:xx there: expiring an hour and some seconds from now is today, reminded at once by its 1h lead.
    now = datetime.now(timezone.utc)
    local = now + timedelta(hours=12 - now.hour)
    expires = (local + timedelta(hours=1, seconds=6)).strftime("%Y-%m-%dT%H:%M:%S")
    assert expires.startswith(today.isoformat())
    item = daemon.ctl_json("add", "coupon", "Tonight only", "--expires", expires, "--lead", "1h")["id"]

    def events():
        return [e["event"] for e in daemon.ctl_json("history", "--item", item)["entries"]]

    wait_for(lambda: "held" in events(), timeout=20, what="the due-today reminder held by the pause")
    assert not any("Tonight only" in summary for summary, _, _ in server.notifications())
    assert daemon.ctl_json("status")["status"]["held"] == 1
    text = daemon.ctl("status").stdout
    assert re.search(r"Paused:\s+.*; every pop-up is held \(1 so far\), shown as one digest when the pause ends", text), text

    daemon.ctl("resume")
    wait_for(lambda: any("Tonight only" in summary for summary, _, _ in server.notifications()),
             what="the held reminder shown at resume")
    assert "fired" in events()
