"""REMINDERD_TEST_CLOCK_SHIFT, the test-only clock shift reminderd and reminderctl read at start
(scripts/e2e-at.sh runs the whole suite with it): refused when it is no shift, and otherwise
the daemon's dates, its timers and reminderctl's clock all on the shifted clock."""
import time
from datetime import datetime, timezone

from conftest import BIN, CLOCK_SHIFT, Daemon, wait_for


def test_a_shift_that_is_not_whole_seconds_is_refused_by_reminderd_and_reminderctl(bus, tmp_path):
    daemon = Daemon(tmp_path, bus)
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = "1h"
    daemon.start(wait=False)
    try:
        assert daemon.process.wait(10) == 1
        log = (tmp_path / "daemon.log").read_text()
        assert 'REMINDERD_TEST_CLOCK_SHIFT="1h" (a test-only setting): not a whole number of seconds' in log
        refused = daemon.ctl("status", check=False)
        assert refused.returncode == 2
        assert refused.stderr.startswith('reminderctl: REMINDERD_TEST_CLOCK_SHIFT="1h" (a test-only setting): ')
    finally:
        daemon.stop()


def test_a_shifted_daemon_keeps_its_dates_and_timers_on_the_shifted_clock(server, bus, tmp_path):
    """Ten seconds before a month's end on the shifted clock: today is the month's last day, a
    coupon reminder due at shifted 23:59:56 pops up four seconds later (its timer armed at the real
    instant the shifted clock reaches it), and today is then the next month's first."""
    target = int(datetime(2030, 1, 31, 23, 59, 50, tzinfo=timezone.utc).timestamp())
    real_now = time.time() - CLOCK_SHIFT  # this process's clock is shifted too under scripts/e2e-at.sh
    daemon = Daemon(tmp_path, bus)
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(round(target - real_now))
    daemon.start()
    try:
        assert daemon.ctl_json("status")["status"]["today"] == "2030-01-31"
        added = daemon.ctl_json("add", "coupon", "Month end", "--expires", "2030-02-01T00:00:56", "--lead", "1m")
        assert added["item"]["nextReminder"].startswith("2030-01-31T23:59:56")
        started = time.monotonic()
        wait_for(server.notifications, timeout=15, what="the pop-up at shifted 23:59:56")
        assert time.monotonic() - started < 10
        wait_for(lambda: daemon.ctl_json("status")["status"]["today"] == "2030-02-01", timeout=15,
                 what="the shifted clock past midnight")
    finally:
        daemon.stop()
