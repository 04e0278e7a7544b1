"""Words that read as written by a person (issue 22, item 6), on a test clock fixed at
2030-03-05 12:00 UTC: times as the tables write them (no RFC 3339 in `done`, `history` reasons or
`snooze`), `done` on a subscription says paid and on a rebuy rebought, `undo` says what it
restored, and a bad config on reload names its path once; and (issue 28, item 4) each kind's
status in its own words, what is due first listed first, days as "in 3 days" or "18 days ago",
amounts with their currency, what `done --amount` recorded and `undo` took back."""
import json
import re
import time
from datetime import datetime, timezone

import pytest

from conftest import CLOCK_SHIFT, Daemon

RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


@pytest.fixture
def noon(bus, tmp_path):
    real_now = time.time() - CLOCK_SHIFT  # this process's clock is shifted too under scripts/e2e-at.sh
    daemon = Daemon(tmp_path, bus, {"timeZone": "UTC", "quietHours": None})
    daemon.env["REMINDERD_TEST_CLOCK_SHIFT"] = str(
        round(datetime(2030, 3, 5, 12, 0, 5, tzinfo=timezone.utc).timestamp() - real_now))
    yield daemon.start()
    daemon.stop()


def test_done_says_paid_or_rebought_and_undo_says_it_in_the_same_word(noon):
    netflix = noon.ctl_json("add", "subscription", "Netflix", "--amount", "9", "--every", "1mo", "--next", "2030-03-20")
    paid = noon.ctl("done", netflix["id"]).stdout
    assert paid.startswith("Paid: Netflix (due 2030-03-20), next reminder Sat 2030-04-13 09:00"), paid
    undone = noon.ctl("undo", netflix["id"]).stdout
    assert undone.startswith("Undone: Netflix is due again on 2030-03-20 (in 15 days), next reminder Wed 2030-03-13"), undone
    coffee = noon.ctl_json("add", "rebuy", "Coffee", "--every-days", "30", "--last-purchased", "2030-02-20")
    rebought = noon.ctl("done", coffee["id"]).stdout
    assert rebought.startswith("Rebought: Coffee; next due 2030-04-04"), rebought
    assert noon.ctl("undo", coffee["id"]).stdout.startswith("Undone: Coffee is due again on 2030-03-22 (in 17 days)")
    history = noon.ctl("history", "--item", netflix["id"]).stdout
    assert "paid, for the occurrence due Wed 2030-03-20 23:59" in history, history


def test_times_in_done_snooze_and_history_read_as_the_tables_write_them(noon):
    netflix = noon.ctl_json("add", "subscription", "Netflix", "--amount", "9", "--every", "1mo", "--next", "2030-03-20")
    noon.ctl("done", netflix["id"])
    again = noon.ctl("done", netflix["id"], check=False)
    assert again.returncode == 1
    assert "already done for the occurrence due Wed 2030-03-20 23:59" in again.stderr
    assert "(due Sat 2030-04-20 23:59) early, use --early" in again.stderr
    pizza = noon.ctl_json("add", "coupon", "Pizza", "--expires", "2030-03-05T14:00")
    snoozed = noon.ctl("snooze", pizza["id"], "5h").stdout
    assert snoozed == "Snoozed until Tue 2030-03-05 13:59 (shortened: 5h would end after the due time Tue 2030-03-05 14:00)\n"
    history = noon.ctl("history").stdout
    assert "until Tue 2030-03-05 13:59" in history
    for text in (snoozed, history, again.stderr):
        assert not RFC3339.search(text), text


def test_a_bad_config_on_reload_names_its_path_once(noon):
    noon.config_path.write_text(json.dumps({"timeZone": "UTC", "x": 1}))
    refused = noon.ctl("reload", check=False)
    assert refused.returncode == 1
    assert refused.stderr.count(str(noon.config_path)) == 1, refused.stderr
    assert "\"x\" is not a setting; the settings are timeZone" in refused.stderr


def columns(table, title):
    """The cells of the row whose title is `title` in a `list` table (cells two spaces apart; an
    empty cell, as a missing card, is not one)."""
    row = next(line for line in table.splitlines() if f"  {title}  " in line)
    return [cell.strip() for cell in re.split(r"\s{2,}", row.strip())]


def test_list_shows_what_is_due_first_in_each_kinds_words(noon):
    noon.ctl("add", "benefit", "Lyft", "--amount", "10", "--period", "monthly")
    netflix = noon.ctl_json("add", "subscription", "Netflix", "--amount", "9", "--every", "1mo", "--next", "2030-03-20")
    noon.ctl("add", "fee", "Gym", "--amount", "40", "--due", "2030-03-08")
    noon.ctl("add", "rebuy", "Coffee", "--every-days", "14", "--last-purchased", "2030-02-01")
    noon.ctl("add", "coupon", "Old", "--value", "3", "--expires", "2030-03-01", "--force")
    pizza = noon.ctl_json("add", "coupon", "Pizza", "--value", "8", "--expires", "2030-04-01")
    noon.ctl("done", netflix["id"])
    noon.ctl("done", pizza["id"])
    listed = noon.ctl("list", "--all").stdout
    header = listed.splitlines()[0]
    assert "WHEN" in header and "DAYS" not in header, header
    titles = [line.split()[2] for line in listed.splitlines()[1:]]
    assert titles == ["Coffee", "Old", "Gym", "Netflix", "Lyft", "Pizza"], listed  # by due date
    assert columns(listed, "Coffee")[3:6] == ["overdue", "2030-02-15", "18 days ago"], listed
    assert columns(listed, "Old")[4:7] == ["expired", "2030-03-01", "4 days ago"], listed
    assert columns(listed, "Gym")[3:7] == ["$40", "due soon", "2030-03-08", "in 3 days"], listed
    assert columns(listed, "Netflix")[3:7] == ["$9", "paid", "2030-03-20", "in 15 days"], listed
    assert columns(listed, "Lyft")[3:7] == ["$10", "available", "2030-03-31", "in 26 days"], listed
    assert columns(listed, "Pizza")[3:7] == ["$8", "used", "2030-04-01", "in 27 days"], listed
    assert noon.ctl_json("list", "--all")["items"][0]["status"] == "available"  # the wire keeps its words

    shown = noon.ctl("show", netflix["id"]).stdout
    assert re.search(r"^  Amount +\$9$", shown, re.M) and re.search(r"^  Status +paid$", shown, re.M), shown
    assert re.search(r"^  Due +Wed 2030-03-20 23:59 \(in 15 days\)$", shown, re.M), shown
    assert "Days left" not in shown
    old = noon.ctl("show", [i["id"] for i in noon.ctl_json("list", "--all")["items"] if i["title"] == "Old"][0]).stdout
    assert re.search(r"^  Value +\$3$", old, re.M) and re.search(r"^  Next reminder +no reminder pending$", old, re.M), old
    assert re.search(r"^  Due +Fri 2030-03-01 23:59 \(4 days ago\)$", old, re.M), old


def test_summary_says_overdue_where_list_does(noon):
    noon.ctl("add", "rebuy", "Coffee", "--every-days", "14", "--last-purchased", "2030-02-01")
    noon.ctl("add", "coupon", "Pizza", "--value", "8", "--expires", "2030-03-05T20:00")
    summary = noon.ctl("summary").stdout
    assert re.search(r"‼ 18 days overdue +Coffee", summary), summary
    assert re.search(r"‼ today +Pizza", summary), summary


def test_done_says_what_it_recorded_and_undo_what_it_took_back(noon):
    lyft = noon.ctl_json("add", "benefit", "Lyft", "--amount", "10", "--period", "monthly")["id"]
    assert noon.ctl("done", lyft, "--amount", "4").stdout == (
        "Recorded $4 of $10 Lyft used; reminders go on for the remaining $6\n")
    assert noon.ctl("done", lyft, "--amount", "1.5").stdout == (
        "Recorded $1.50 more: $5.50 of $10 Lyft used; reminders go on for the remaining $4.50\n")
    done = noon.ctl("done", lyft, "--amount", "20").stdout
    assert done.startswith("Recorded $4.50, all that was left of $10 (not the $20 given): Lyft is used"), done
    assert "$4 of $10 used" in noon.ctl("history", "--item", lyft).stdout
    undone = noon.ctl("undo", lyft).stdout
    assert undone.startswith("Undone: Lyft is available again: $4.50 left until 2030-03-31 (in 26 days)"), undone
    undone = noon.ctl("undo", lyft).stdout
    assert undone.startswith("Undone: the $1.50 use of Lyft is removed: $6 left"), undone
    assert "no longer marked" not in done + undone


def test_an_undo_that_leaves_an_earlier_done_says_so(noon):
    gym = noon.ctl_json("add", "fee", "Gym", "--amount", "40", "--due", "2030-03-08")["id"]
    noon.ctl("done", gym)
    noon.ctl("done", gym, "--early")
    undone = noon.ctl("undo", gym).stdout
    assert undone.startswith("Undone: the latest Done of Gym is removed; it is still paid for the occurrence due "
                             "2030-03-08"), undone


def test_status_and_resume_say_what_is_paused(noon):
    assert noon.ctl("resume").stdout == "Nothing is paused: reminders are shown as they come\n"
    noon.ctl("pause", "2h")
    assert re.search(r"^Paused: +until Tue 2030-03-05 14:00; every pop-up is held \(none yet\)", noon.ctl("status").stdout, re.M)
    assert noon.ctl("resume").stdout == "Resumed\n"


def test_a_rebuy_takes_its_interval_in_the_words_a_subscription_does(noon):
    coffee = noon.ctl_json("add", "rebuy", "Coffee", "--every", "2w", "--last-purchased", "today")
    assert coffee["item"]["everyDays"] == 14
    refused = noon.ctl("add", "rebuy", "Tea", "--last-purchased", "today", check=False)
    assert refused.returncode != 0 and "--every-days 30, or --every 2w" in refused.stderr, refused.stderr
    refused_date = noon.ctl("add", "rebuy", "Tea", "--every", "2w", check=False)
    assert refused_date.returncode != 0 and "--last-purchased today" in refused_date.stderr, refused_date.stderr
    assert "everyDays" not in refused.stderr + refused_date.stderr
    assert "lastPurchased" not in refused.stderr + refused_date.stderr
    refused = noon.ctl("add", "rebuy", "Tea", "--every", "1mo", "--last-purchased", "today", check=False)
    assert refused.returncode != 0 and "days or weeks" in refused.stderr, refused.stderr
