"""`reminderctl report`: value redeemed per month per card, the card's year against its fee,
subscriptions and what expired unused, from a daemon whose clock is shifted to fixed dates in
2030 (REMINDERD_TEST_CLOCK_SHIFT): credits marked done in January, the daemon restarted in March."""
import re
import subprocess
import time
from datetime import datetime, timezone

from conftest import BIN, CLOCK_SHIFT, Daemon


def shift_to(daemon, when):
    real_now = time.time() - CLOCK_SHIFT  # this process's clock is shifted too under scripts/e2e-at.sh
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(round(when.timestamp() - real_now))


def test_report_prints_each_months_redeemed_value_and_what_expired_unused(bus, tmp_path):
    daemon = Daemon(tmp_path, bus)  # UTC, no quiet hours
    shift_to(daemon, datetime(2030, 1, 20, 12, tzinfo=timezone.utc))
    daemon.start()
    try:
        ids = {}
        for title in ("Uber Cash", "Dining credit"):
            ids[title] = daemon.ctl_json(
                "add", "benefit", title, "--card", "Amex Gold", "--amount", "10", "--period", "monthly")["id"]
        daemon.ctl("add", "fee", "Gold fee", "--card", "Amex Gold", "--amount", "325", "--due", "2030-06-15")
        daemon.ctl("add", "subscription", "Netflix", "--amount", "17.99", "--every", "1mo", "--next", "2030-01-25")
        daemon.ctl("done", ids["Uber Cash"])
        daemon.ctl("done", ids["Dining credit"], "--amount", "4")
        daemon.stop()

        # March 15: February passed with both credits unused; Uber Cash used again.
        shift_to(daemon, datetime(2030, 3, 15, 12, tzinfo=timezone.utc))
        daemon.start()
        daemon.ctl("done", ids["Uber Cash"])
        report = daemon.ctl_json("report", "--months", "3")["report"]
        months = report["months"]
        assert [m["month"] for m in months] == ["2030-01", "2030-02", "2030-03"]
        assert [m["redeemed"] for m in months] == ["14", "0", "10"]
        assert months[2]["cards"] == [{"card": "Amex Gold", "currency": "USD", "redeemed": "10"}]
        assert [m["lost"] for m in months] == ["6", "20", "0"]
        assert [m["subscriptions"] for m in months] == ["17.99", "17.99", "17.99"]
        [card] = report["cards"]
        assert (card["card"], card["redeemed"], card["lost"]) == ("Amex Gold", "24", "26")
        assert (card["fee"], card["yearRedeemed"], card["net"]) == ("325", "24", "-301")
        assert report["subscriptions"]["monthlyTotal"] == "17.99"
        assert [(l["due"][:10], l["title"], l["lost"]) for l in report["lost"]] == [  # newest first, then by title
            ("2030-02-28", "Dining credit", "10"), ("2030-02-28", "Uber Cash", "10"), ("2030-01-31", "Dining credit", "6")]

        def text(*args, locale="C.UTF-8"):
            env = dict(daemon.env, LC_ALL=locale, COLUMNS="70")
            return subprocess.run([str(BIN / "reminderctl"), "report", *args], env=env, capture_output=True,
                                  text=True, timeout=30)

        shown = text("--months", "3").stdout
        assert shown.startswith("Redeemed by month, Jan 2030 – Mar 2030 (amounts in USD)\n")
        march = re.search(r"^Mar 2030 +\$10 +\$0 +\$17\.99 +(█+)$", shown, re.M)
        january = re.search(r"^Jan 2030 +\$14 +\$6 +\$17\.99 +(█+)$", shown, re.M)
        assert march and january, shown
        assert len(january.group(0)) == 70  # the best month's bar fills the width
        assert re.search(r"^Feb 2030 +\$0 +\$20 +\$17\.99$", shown, re.M)
        assert "Amex Gold: $24 redeemed, $26 expired unused\n" in shown
        assert "This card year: $24 back against the $325 fee, $301 more to break even" in shown
        assert "Expired unused: $26 lost\n" in shown
        plain = text("--months", "3", locale="C").stdout
        assert "█" not in plain and re.search(r"^Mar 2030 .*\$17\.99 +#+$", plain, re.M)

        one = daemon.ctl_json("report", "--card", "amex")["report"]
        assert one["cardFilter"] == ["Amex Gold"] and len(one["months"]) == 12
        assert one["subscriptions"]["items"] == []  # Netflix is on no card
        refused = daemon.ctl("report", "--card", "citi", check=False)
        assert refused.returncode == 1
        assert 'no card named "citi" (cards: Amex Gold)' in refused.stderr
        assert daemon.ctl("report", "--months", "0", check=False).returncode == 2
    finally:
        daemon.stop()


def test_a_used_coupon_and_a_paid_renewal_count_in_the_month_they_were_done(bus, tmp_path):
    """A new user's report is one line, not twelve $0 rows; then a coupon used and a renewal paid
    (early, due next month) in March count in March (issue 28, item 5)."""
    daemon = Daemon(tmp_path, bus)  # UTC, no quiet hours
    shift_to(daemon, datetime(2030, 3, 5, 12, tzinfo=timezone.utc))
    daemon.start()
    try:
        empty = daemon.ctl("report").stdout
        assert empty.startswith("Redeemed by month, Apr 2029 – Mar 2030 (amounts in USD)\n"
                                "Apr 2029 – Mar 2030: nothing redeemed or lost\n"), empty
        assert "MONTH" not in empty and "$0" not in empty
        pizza = daemon.ctl_json("add", "coupon", "Pizza", "--value", "8", "--expires", "2030-04-10")["id"]
        netflix = daemon.ctl_json(
            "add", "subscription", "Netflix", "--amount", "9", "--every", "1mo", "--next", "2030-04-02")["id"]
        daemon.ctl("done", pizza)
        daemon.ctl("done", netflix)
        months = daemon.ctl_json("report", "--months", "2")["report"]["months"]
        assert [(m["month"], m["redeemed"], m["subscriptions"]) for m in months] == [
            ("2030-02", "0", "0"), ("2030-03", "8", "9")]
        shown = daemon.ctl("report", "--months", "3").stdout
        assert re.search(r"^Jan 2030 – Feb 2030 +\$0 +\$0 +\$0$", shown, re.M), shown
        assert re.search(r"^Mar 2030 +\$8 +\$0 +\$9 +█+$", shown, re.M), shown
        daemon.ctl("undo", pizza)
        assert daemon.ctl_json("report", "--months", "1")["report"]["months"][0]["redeemed"] == "0"
    finally:
        daemon.stop()
