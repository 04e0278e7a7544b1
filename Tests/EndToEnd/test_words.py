"""Words that read as written by a person (issue 22, item 6), on a test clock fixed at
2030-03-05 12:00 UTC: times as the tables write them (no RFC 3339 in `done`, `history` reasons or
`snooze`), `done` on a subscription says paid and on a rebuy rebought, `undo` says what is no
longer so in the same word, and a bad config on reload names its path once."""
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
    assert undone.startswith("Undone: Netflix is no longer marked paid; due 2030-03-20, next reminder Wed 2030-03-13"), undone
    coffee = noon.ctl_json("add", "rebuy", "Coffee", "--every-days", "30", "--last-purchased", "2030-02-20")
    rebought = noon.ctl("done", coffee["id"]).stdout
    assert rebought.startswith("Rebought: Coffee; next due 2030-04-04"), rebought
    assert "no longer marked rebought" in noon.ctl("undo", coffee["id"]).stdout
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
