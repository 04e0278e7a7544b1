"""Credits whose periods count from a date (a card's anniversary) instead of the calendar: each
period due the day before the next starts, at 23:59 local — in `list`, `show`, `plan`, the
`.ics` export and from `add card` (the catalog's anniversary credits take the fee date, or
`--anniversary`)."""
import json
import time
from datetime import datetime, timedelta, timezone

from conftest import CLOCK_SHIFT, Daemon
from test_calendar import calendar_alarms

# The daemon's and reminderctl's clock: 2030-01-10 10:00 in New York, so nothing here depends on
# the day the tests run.
NOW = datetime(2030, 1, 10, 15, 0, tzinfo=timezone.utc)


def shifted_daemon(tmp_path, bus, at=NOW):
    daemon = Daemon(tmp_path, bus, {"timeZone": "America/New_York", "quietHours": None})
    real_now = time.time() - CLOCK_SHIFT  # this process's clock is shifted too under scripts/e2e-at.sh
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(round(at.timestamp() - real_now))
    return daemon.start()


def test_an_anniversary_credit_is_due_the_day_before_the_anniversary(server, bus, tmp_path):
    daemon = shifted_daemon(tmp_path, bus)
    try:
        assert daemon.ctl_json("status")["status"]["today"] == "2030-01-10"
        # Semiannual periods from Jan 31: Jul 31 - Jan 30, Jan 31 - Jul 30 (clamped: Jul has 31).
        hotel = daemon.ctl_json("add", "benefit", "Hotel credit", "--card", "Test Card", "--amount", "50",
                                "--period", "semiannual", "--period-start", "2029-01-31")
        assert hotel["item"]["due"] == "2030-01-30T23:59:00-05:00"
        added = daemon.ctl("add", "card", "chase-sapphire-reserve", "--fee-due", "2030-06-15")
        assert "reset on the card's anniversary" not in added.stdout
        items = daemon.ctl_json("list", "--all")["items"]
        travel = next(i for i in items if i["title"] == "Annual travel credit")
        assert travel["periodStart"] == "2030-06-15" and travel["period"] == "annual"
        assert travel["due"] == "2030-06-14T23:59:00-04:00"
        # The card's other credits stay on the calendar.
        others = [i for i in items if i["kind"] == "benefit" and i["card"] == "Sapphire Reserve" and i is not travel]
        assert others and all("periodStart" not in i for i in others)
        listed = daemon.ctl("list", "--kind", "benefit").stdout
        assert "Annual travel credit" in listed
        shown = daemon.ctl("show", travel["id"]).stdout
        assert "Periods from" in shown and "2030-06-15" in shown
        explained = daemon.ctl("explain", travel["id"]).stdout.splitlines()[0]
        assert explained == ("Due Fri 2030-06-14 23:59: the last day of its annual period counted from 2030-06-15, "
                             "the day before the next one starts")
        assert daemon.ctl_json("explain", travel["id"])["steps"][0]["due"] == "2030-06-14T23:59:00-04:00"

        # plan over the exported items: the anniversary credit's occurrences are the days before
        # each anniversary.
        items_file = tmp_path / "items.json"
        items_file.write_text(daemon.ctl("export").stdout)
        end = NOW + timedelta(days=800)
        plan = json.loads(daemon.ctl("plan", "--config", str(daemon.config_path), "--items", str(items_file),
                                     "--from", NOW.isoformat(), "--to", end.isoformat(), "--json").stdout)
        travel_dues = sorted({row["occurrenceDue"] for row in plan if row["item"] == travel["id"]})
        assert travel_dues == ["2030-06-14T23:59:00-04:00", "2031-06-14T23:59:00-04:00"]
        hotel_dues = sorted({row["occurrenceDue"] for row in plan if row["item"] == hotel["id"]})
        assert hotel_dues[:3] == ["2030-01-30T23:59:00-05:00", "2030-07-30T23:59:00-04:00",
                                  "2031-01-30T23:59:00-05:00"]

        # The .ics export, expanded as a calendar program does, puts the same alarms.
        ics = daemon.ctl("export", "--ics", "--days", "800").stdout
        unfolded = ics.replace("\n ", "")
        assert "\nRRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=14\n" in unfolded
        assert "\nRRULE:FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=27,28,29,30,31;BYSETPOS=-2\n" in unfolded
        _, alarms = calendar_alarms(ics, NOW, end)
        planned = {(row["item"], datetime.fromisoformat(row["occurrenceDue"]), datetime.fromisoformat(row["fireAt"]))
                   for row in plan if datetime.fromisoformat(row["occurrenceDue"]) < end}
        mine = {travel["id"], hotel["id"]}
        assert {a for a in alarms if a[0] in mine} == {p for p in planned if p[0] in mine}
        assert len([p for p in planned if p[0] in mine]) >= 12
    finally:
        daemon.stop()


def test_add_card_takes_an_anniversary_and_says_when_it_has_none(server, bus, tmp_path):
    daemon = shifted_daemon(tmp_path, bus)
    try:
        daemon.ctl("add", "card", "capital-one-venture-x", "--anniversary", "2029-09-01", "--fee-due", "2030-06-15")
        travel = next(i for i in daemon.ctl_json("list", "--all")["items"] if i["title"] == "Capital One Travel credit")
        assert travel["periodStart"] == "2029-09-01" and travel["due"] == "2030-08-31T23:59:00-04:00"
        # Neither date: tracked per calendar year, and said so.
        citi = daemon.ctl("add", "card", "citi-strata-elite").stdout  # no anniversary credits
        altitude = daemon.ctl("add", "card", "usbank-altitude-reserve").stdout
        assert "anniversary" not in citi
        assert "Real-time travel and dining credit resets on the card's anniversary; with no --anniversary or " \
               "--fee-due it is tracked per calendar year" in altitude
        refused = daemon.ctl("add", "benefit", "x", "--period", "annual", "--anniversary", "2030-01-01", check=False)
        assert refused.returncode != 0 and "--anniversary" in refused.stderr

        # setup without a terminal: --anniversary ID=DATE, for a card named with --card only.
        stray = daemon.ctl("setup", "--no-input", "--yes", "--card", "chase-sapphire-preferred",
                           "--anniversary", "amex-gold=2029-10-01", check=False)
        assert stray.returncode == 2 and "amex-gold is not among your cards" in stray.stderr
        daemon.ctl("setup", "--no-input", "--yes", "--card", "chase-sapphire-preferred",
                   "--fee-due", "chase-sapphire-preferred=2030-04-01",
                   "--anniversary", "chase-sapphire-preferred=2029-10-01")
        hotel = next(i for i in daemon.ctl_json("list", "--all")["items"] if i["title"] == "Chase Travel hotel credit")
        assert hotel["periodStart"] == "2029-10-01" and hotel["due"] == "2030-09-30T23:59:00-04:00"
    finally:
        daemon.stop()


def test_an_amount_by_month_is_the_periods_amount_in_list_wallet_and_done(server, bus, tmp_path):
    """Uber Cash: $15 a month, $35 in December (the catalog's `amountIn`, or --amount-in)."""
    daemon = shifted_daemon(tmp_path, bus, at=datetime(2030, 12, 10, 15, 0, tzinfo=timezone.utc))
    try:
        daemon.ctl("add", "card", "amex-platinum", "--fee-due", "2031-03-15")
        items = daemon.ctl_json("list", "--all")["items"]
        uber = next(i for i in items if i["title"] == "Uber Cash")
        assert uber["amountIn"] == {"12": "35"} and uber["amount"] == "15" and uber["amountThisPeriod"] == "35"
        own = daemon.ctl_json("add", "benefit", "Ride credit", "--card", "Test Card", "--amount", "10",
                              "--period", "monthly", "--amount-in", "dec=25", "--amount-in", "6=20")
        assert own["item"]["amountIn"] == {"12": "25", "6": "20"} and own["item"]["amountThisPeriod"] == "25"
        listed = daemon.ctl("list", "--kind", "benefit").stdout
        assert any("Ride credit" in line and "$25" in line for line in listed.splitlines())
        shown = daemon.ctl("show", own["id"]).stdout
        assert "Jun $20, Dec $25" in shown
        wallet = daemon.ctl("wallet", "--json").stdout
        test_card = next(c for c in json.loads(wallet)["cards"] if c["card"] == "Test Card")
        assert test_card["available"] == "25"
        # A partial use above the base amount is a partial use of December's $25, not a full one.
        partial = daemon.ctl_json("done", own["id"], "--amount", "15")
        assert partial["item"]["amountUsed"] == "15" and partial["item"]["status"] != "used"
        assert any(u["reason"] == "$15 of $25 used" for u in daemon.ctl_json("summary")["summary"]["usedRecently"])
        # Done on December's Uber Cash redeems $35 toward the card's fee.
        daemon.ctl("done", uber["id"])
        cards = daemon.ctl_json("summary")["summary"]["cards"]
        assert [(c["card"], c["redeemed"]) for c in cards] == [("Amex Platinum", "35")]
        refused = daemon.ctl("edit", own["id"], "--amount-in", "13=5", check=False)
        assert refused.returncode == 2 and "--amount-in \"13=5\"" in refused.stderr
        # $15 of December's $25 used: the months' amounts cannot go while that is more than $10.
        kept = daemon.ctl("edit", own["id"], "--amount-in", "", check=False)
        assert kept.returncode == 1 and "amountUsed: 15 is more than the amount 10" in kept.stderr
        daemon.ctl("done", own["id"])
        cleared = daemon.ctl_json("edit", own["id"], "--amount-in", "")
        assert "amountIn" not in cleared["item"] and "amountThisPeriod" not in cleared["item"]
    finally:
        daemon.stop()
