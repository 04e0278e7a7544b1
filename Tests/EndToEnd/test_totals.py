"""Totals of the largest allowed amounts (999,999,999,999.9999), a thousand of each kind, with a
panel present: reminderd computes and prints them exactly — in the indicator's tooltip, at the
import and at the next start — and reminderctl reads and prints every reply that carries one
(`wallet`, `report`, `summary`). They once saturated at 2^63: reminderd died (SIGILL) formatting
the tooltip, `wallet` died of signal 4 and `report` exited 69 as if reminderd were unreachable."""
import json

from conftest import wait_for
from test_indicator import item_property, shifted_daemon, watcher  # noqa: F401 (watcher is a fixture)

LARGEST = "999999999999.9999"
TOTAL = "$999,999,999,999,999.90"  # a thousand of them, to the cent


def test_a_thousand_of_the_largest_amounts_are_totalled_everywhere(bus, tmp_path, watcher):
    items = []
    for n in range(1000):
        items.append({"kind": "coupon", "title": f"Deal {n}", "expires": "2030-03-12T12:00:00", "value": LARGEST})
        items.append({"kind": "benefit", "title": f"Credit {n}", "card": "Big", "amount": LARGEST,
                      "period": "monthly"})
        items.append({"kind": "subscription", "title": f"Service {n}", "amount": LARGEST, "every": "1mo",
                      "next": "2030-04-05"})
    (tmp_path / "items.json").write_text(json.dumps(items))
    daemon = shifted_daemon(tmp_path, bus).start()
    try:
        wait_for(watcher.registrations, what="RegisterStatusNotifierItem")
        daemon.ctl("import", str(tmp_path / "items.json"))
        name = watcher.registrations()[-1]["sender"]
        wait_for(lambda: item_property(bus, name, "ToolTip")[3].endswith(f"\n{TOTAL} expiring this week"),
                 what="the tooltip's total")

        wallet = daemon.ctl("wallet", check=False)
        assert wallet.returncode == 0, wallet.stderr
        assert f"Big — {TOTAL} left this period" in wallet.stdout
        report = daemon.ctl("report", check=False)
        assert report.returncode == 0, report.stderr
        assert f"Subscriptions: {TOTAL} a month" in report.stdout
        summary = daemon.ctl("summary", check=False)
        assert summary.returncode == 0, summary.stderr
        assert f"Benefits       {TOTAL} available" in summary.stdout
        assert f"Subscriptions  {TOTAL} a month" in summary.stdout
        assert daemon.ctl_json("report")["report"]["subscriptions"]["monthlyTotal"] == "999999999999999.90"

        # The next start composes the same tooltip.
        daemon.stop()
        daemon.start()
        wait_for(lambda: len(watcher.registrations()) >= 2, what="the indicator registered again")
        name = watcher.registrations()[-1]["sender"]
        wait_for(lambda: item_property(bus, name, "ToolTip")[3].endswith(f"\n{TOTAL} expiring this week"),
                 what="the tooltip's total after a restart")
    finally:
        daemon.stop()
