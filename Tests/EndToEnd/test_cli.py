"""reminderctl as a person uses it (issue 11, the wallet and the CLI): the wallet, errors in
words, natural and past dates, remove --card, tables, show, status, explain, completion,
backups and the README's walk-through — against the real daemon."""
import json
import os
import re
import subprocess
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from conftest import BIN, ROOT, Daemon, midday_zone, shell_env, wait_for

ZONE = {}  # the zone of the test's daemon: {"name", "today"}


@pytest.fixture
def daemon(bus, tmp_path):
    """conftest's daemon in a zone where it is midday now, so a test's "today" stays the daemon's
    and reminderctl's today for hours, whatever the hour in UTC (it raced midnight in UTC)."""
    ZONE["name"], ZONE["today"] = midday_zone()
    daemon = Daemon(tmp_path, bus, {"timeZone": ZONE["name"], "quietHours": None})
    yield daemon
    daemon.stop()


def today():
    return ZONE["today"]


def ids_by_title(daemon, card=None):
    args = ["list", "--all"] + (["--card", card] if card else [])
    return {i["title"]: i["id"] for i in daemon.ctl_json(*args)["items"]}


# 9. The wallet

def platinum_uber_cash():
    """The Amex Platinum's Uber Cash this month, as the catalog has it: $35 in December, else $15."""
    return 35 if today().month == 12 else 15


def test_the_wallet_answers_what_is_left_on_a_card_this_period(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-platinum", "--fee-due", (today() + timedelta(days=100)).isoformat())
    daemon.ctl("add", "card", "amex-gold")
    platinum = ids_by_title(daemon, "Amex Platinum")
    daemon.ctl("done", platinum["Uber Cash"])
    daemon.ctl("done", platinum["Digital entertainment credit"], "--amount", "5")
    wallet = daemon.ctl_json("wallet", "amex plat")["cards"]
    assert [c["card"] for c in wallet] == ["Amex Platinum"]
    card = wallet[0]
    credits = {c["title"]: c for c in card["credits"]}
    assert credits["Uber Cash"]["left"] == "0" and credits["Uber Cash"]["status"] == "used"
    assert credits["Digital entertainment credit"]["left"] == "20"
    used = platinum_uber_cash() + 5  # this month's Uber Cash + 5 of the entertainment credit
    assert card["usedThisPeriod"] == str(used)
    assert card["fee"]["amount"] == "895" and card["fee"]["redeemed"] == str(used)
    assert card["fee"]["net"] == str(used - 895)
    text = daemon.ctl("wallet", "Amex Platinum").stdout
    first = text.splitlines()[0]
    assert first.startswith("Amex Platinum — $") and f"left this period, ${used} used" in first
    assert re.search(r"\$20\s+\$25\s+Digital entertainment credit", text), text
    assert re.search(rf"Annual fee \$895 due \w{{3}} \S+ \(in 100 days\); \${used} back this card year, \${895 - used} more to "
                     r"break even", text), text
    both = daemon.ctl("wallet").stdout
    assert "Amex Gold — " in both and "Amex Platinum — " in both
    assert daemon.ctl("wallet", "Chase", check=False).returncode == 1


def test_list_by_card_with_card_and_amount_columns_tells_two_uber_cash_rows_apart(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-platinum")
    daemon.ctl("add", "card", "amex-gold")
    rows = [line for line in daemon.ctl("list", "--kind", "benefit").stdout.splitlines() if "Uber Cash " in line]
    assert len(rows) == 2 and any("Amex Gold" in r and "$10" in r for r in rows) and any("Amex Platinum" in r and f"${platinum_uber_cash()}" in r for r in rows)
    gold = daemon.ctl_json("list", "--card", "amex gold")["items"]
    assert gold and {i["card"] for i in gold} == {"Amex Gold"}
    # Each row names its item's card. The Uber Cash rows are those of the credits with a reminder
    # pending, which on a month's last day after its 09:00 reminder is neither (the next month's
    # come with the next occurrence): the expectation is the daemon's own items.
    upcoming = daemon.ctl_json("upcoming", "--days", "60")["reminders"]
    items = {i["id"]: i for i in daemon.ctl_json("list", "--all")["items"]}
    assert upcoming and all(r["card"] == items[r["item"]]["card"] for r in upcoming)
    pending = {i["card"] for i in items.values() if i["title"] == "Uber Cash" and i["nextReminder"] is not None}
    assert {r["card"] for r in upcoming if r["title"] == "Uber Cash"} == pending
    assert "CARD" in daemon.ctl("upcoming", "--days", "60").stdout.splitlines()[0]
    missing = daemon.ctl("list", "--card", "Chase", check=False)
    assert missing.returncode == 1 and 'no items have the card "Chase"; the cards are Amex Gold, Amex Platinum' in missing.stderr


# 10. Errors in words

def test_errors_are_in_words_never_internal_names(daemon):
    daemon.start()
    items = [{"id": i, "kind": "coupon", "title": f"Deal {i}", "expires": (today() + timedelta(days=30)).isoformat()}
             for i in ("3ztp", "32u9", "3uqn")]
    (daemon.tmp / "items.json").write_text(json.dumps(items))
    daemon.ctl("import", str(daemon.tmp / "items.json"))
    ambiguous = daemon.ctl("show", "3", check=False)
    assert ambiguous.returncode == 1
    assert ambiguous.stderr == 'reminderctl: "3" matches 3 items (32u9, 3uqn, 3ztp); type more characters of the id\n'
    missing = daemon.ctl("done", "nope", check=False)
    assert missing.returncode == 1 and 'no item has the id or title "nope"' in missing.stderr
    nothing = daemon.ctl("undo", "3ztp", check=False)
    assert nothing.returncode == 1 and "nothing to undo for 3ztp" in nothing.stderr
    for result in (ambiguous, missing, nothing):
        assert not re.search(r"AmbiguousId|NoSuchItem|NothingToUndo", result.stderr)


# 11. Dates in the past

def test_a_coupon_that_expired_already_is_refused_without_force(daemon):
    daemon.start()
    past = (today() - timedelta(days=21)).isoformat()
    refused = daemon.ctl("add", "coupon", "Old deal", "--expires", past, check=False)
    assert refused.returncode == 1 and f"--expires {past} is in the past" in refused.stderr and "--force" in refused.stderr
    assert daemon.ctl_json("list", "--all")["items"] == []
    daemon.ctl("add", "coupon", "Old deal", "--expires", past, "--force")
    assert daemon.ctl_json("list", "--all")["items"][0]["status"] == "expired"


def test_a_past_fee_date_is_told_as_the_date_stored(daemon):
    daemon.start()
    typed = today().replace(month=1, day=1) if today() > today().replace(month=1, day=1) else today() - timedelta(days=300)
    result = daemon.ctl("add", "card", "amex-gold", "--fee-due", typed.isoformat())
    fee = [i for i in daemon.ctl_json("list")["items"] if i["kind"] == "fee"][0]
    stored = fee["due"][:10]
    assert stored != typed.isoformat()
    assert f"due {datetime.fromisoformat(stored).strftime('%a')} {stored}" in result.stdout
    assert f"{typed.isoformat()} is past; the next one is due" in result.stdout and stored in result.stdout


# 12. Natural dates

def test_natural_dates_resolve_in_the_configured_zone_and_are_echoed(daemon):
    daemon.start()
    tomorrow = today() + timedelta(days=1)
    result = daemon.ctl("add", "coupon", "Pizza", "--expires", "tomorrow")
    assert f"--expires tomorrow: {tomorrow.strftime('%a')} {tomorrow.isoformat()}" in result.stdout
    added = daemon.ctl_json("add", "subscription", "Gym", "--amount", "30", "--every", "1mo", "--next", "+2w")
    assert added["item"]["next"] == (today() + timedelta(days=14)).isoformat()
    friday = daemon.ctl("add", "fee", "Fee", "--due", "next friday").stdout
    ahead = (4 - today().weekday()) % 7 or 7
    assert (today() + timedelta(days=ahead)).isoformat() in friday
    ambiguous = daemon.ctl("add", "coupon", "X", "--expires", "12/05", check=False)
    assert ambiguous.returncode == 2 and "ambiguous" in ambiguous.stderr and "dec 5" in ambiguous.stderr


def test_natural_dates_use_the_configs_zone_not_the_shells(bus, tmp_path):
    # A zone where it is another day than in UTC (the shell's TZ) right now: the config's decides.
    now = datetime.now(timezone.utc)
    zone, hours = ("Pacific/Kiritimati", 14) if now.hour >= 10 else ("Pacific/Pago_Pago", -11)
    daemon = Daemon(tmp_path, bus, {"timeZone": zone, "quietHours": None}).start()
    try:
        local_today = (now + timedelta(hours=hours)).date()
        assert local_today != now.date()
        added = daemon.ctl_json("add", "coupon", "Deal", "--expires", "today")
        assert added["item"]["expires"] == local_today.isoformat()
    finally:
        daemon.stop()


# 13. summary, remove --card

def test_used_recently_drops_a_done_that_was_undone(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-gold")
    ids = ids_by_title(daemon)
    daemon.ctl("done", ids["Uber Cash"])
    daemon.ctl("done", ids["Dining credit"])
    daemon.ctl("undo", ids["Dining credit"])
    used = [u["title"] for u in daemon.ctl_json("summary")["summary"]["usedRecently"]]
    assert used == ["Uber Cash"]


def test_remove_card_removes_its_credits_and_fee_but_not_what_it_merely_pays(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-gold", "--fee-due", (today() + timedelta(days=50)).isoformat())
    netflix = daemon.ctl_json("add", "subscription", "--template", "netflix", "--next", "+10d", "--card", "Amex Gold")["id"]
    refused = daemon.ctl("remove", "--card", "Amex Gold", check=False)  # not a terminal, no --yes
    assert refused.returncode == 1 and "add --yes" in refused.stderr
    result = daemon.ctl("remove", "--card", "Amex Gold", "--yes")
    assert "Removed 5 items of Amex Gold" in result.stdout  # 4 credits and the fee
    assert f"Kept 1 paid with it: Netflix Standard ({netflix})" in result.stdout
    assert [i["id"] for i in daemon.ctl_json("list", "--all")["items"]] == [netflix]


def test_answering_no_to_remove_card_removes_nothing_and_gives_no_yes_hint(daemon):
    pexpect = pytest.importorskip("pexpect")
    daemon.start()
    daemon.ctl("add", "card", "amex-gold")
    child = pexpect.spawn(str(BIN / "reminderctl"), ["remove", "--card", "Amex Gold"], env=daemon.env, encoding="utf-8", timeout=10)
    child.expect(r"Remove these 4 credits and fees of Amex Gold\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert "Nothing removed." in child.before and "--yes" not in child.before
    assert child.exitstatus == 0
    assert len(daemon.ctl_json("list")["items"]) == 4


# 14. Tables, show, pause, status, explain

def test_tables_align_wide_titles_and_fit_the_terminal(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-platinum")  # long titles on a long card name
    daemon.ctl("add", "subscription", "--template", "netflix", "--next", "+20d")  # the longest kind
    expires = (today() + timedelta(days=20)).isoformat()
    for title in ("寿司 night", "🍕 Pizza", "Plain", "A very long coupon title " * 4):
        daemon.ctl("add", "coupon", title.strip(), "--expires", expires)
    env = dict(daemon.env, COLUMNS="100")
    text = subprocess.run([str(BIN / "reminderctl"), "list"], env=env, capture_output=True, text=True).stdout
    lines = text.splitlines()

    def width(s):
        import unicodedata
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)

    assert all(width(line) <= 100 for line in lines), lines
    assert any("…" in line for line in lines)
    status_columns = {width(line[: re.search(r" (available|expiring|renews) ", line).start()]) for line in lines[1:]}
    assert len(status_columns) == 1, lines
    assert any(line.split()[2].startswith("寿司") for line in lines)


def test_show_is_laid_out_for_a_person_and_json_with_json(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "benefit", "Uber Cash", "--card", "Amex Platinum", "--amount", "15", "--period", "monthly")["id"]
    text = daemon.ctl("show", item).stdout
    lines = text.splitlines()
    assert lines[0] == f"Uber Cash  ({item}, benefit)"
    assert lines[1].split() == ["Card", "Amex", "Platinum"]
    assert "nextReminder" not in text and "createdAt" not in text
    assert daemon.ctl_json("show", item)["item"]["card"] == "Amex Platinum"


def test_a_negative_duration_is_a_usage_error_not_help(daemon):
    result = daemon.ctl("pause", "-1h", check=False)
    assert result.returncode == 2 and "cannot be negative" in result.stderr and "USAGE" not in result.stdout


def test_status_says_what_holds_reminders_under_the_desktops_do_not_disturb(server, daemon):
    server.gdbus("org.freedesktop.DBus.Mock.AddProperty", "org.freedesktop.Notifications", "Inhibited", "<true>")
    daemon.start()
    expires = (datetime.now(ZoneInfo(ZONE["name"])) + timedelta(days=2, seconds=8)).strftime("%Y-%m-%dT%H:%M:%S")
    daemon.ctl("add", "coupon", "Later deal", "--expires", expires, "--lead", "48h")
    wait_for(lambda: daemon.ctl_json("status")["status"]["held"] == 1, timeout=20, what="the held reminder")
    text = daemon.ctl("status").stdout
    assert re.search(r"Paused:\s+no, but 1 reminder is held by desktop do-not-disturb", text), text


def test_explain_shows_a_snooze(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "fee", "Fee", "--amount", "95", "--due", "+20d")["id"]
    until = daemon.ctl_json("snooze", item, "1d")["until"]
    assert daemon.ctl_json("explain", item)["snoozedUntil"] == until
    assert daemon.ctl("explain", item).stdout.startswith("Snoozed until ")


# 15. Completion

def complete(daemon, line):
    """What bash offers for `line` (the cursor at its end), through the generated script."""
    script = subprocess.run([str(BIN / "reminderctl"), "--generate-completion-script", "bash"],
                            capture_output=True, text=True, check=True).stdout
    words = line.split(" ")
    program = (f"source /dev/stdin <<'EOF'\n{script}\nEOF\n"
               f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}; "
               f"COMP_LINE={line!r}; COMP_POINT={len(line)}; _reminderctl reminderctl {words[-1]!r} {words[-2]!r}; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    env = dict(daemon.env, PATH=f"{BIN}:{os.environ['PATH']}")
    started = time.monotonic()
    result = subprocess.run(["bash", "-c", program], env=env, capture_output=True, text=True, timeout=10)
    return result.stdout.split(), result.stderr, time.monotonic() - started


def test_completion_offers_kinds_ids_cards_templates_and_durations(daemon):
    offered, errors, seconds = complete(daemon, "reminderctl done ")
    assert (offered, errors) == ([], "") and seconds < 3  # no daemon: nothing, silently and fast
    assert complete(daemon, "reminderctl add ")[0] == ["benefit", "subscription", "coupon", "fee", "rebuy", "card"]
    assert complete(daemon, "reminderctl list --kind ")[0] == ["benefit", "subscription", "coupon", "fee", "rebuy"]
    assert "1h" in complete(daemon, "reminderctl pause ")[0]
    assert "amex-platinum" in complete(daemon, "reminderctl add card amex-p")[0]
    assert "netflix" in complete(daemon, "reminderctl add subscription --template net")[0]
    daemon.start()
    item = daemon.ctl_json("add", "subscription", "Gym", "--amount", "30", "--every", "1mo", "--next", "+5d", "--card", "Amex Gold")["id"]
    assert complete(daemon, "reminderctl done ")[0] == [item, "Gym"]  # ids, then titles
    assert complete(daemon, f"reminderctl snooze {item} ")[0][:2] == ["15m", "30m"]
    assert "Gold" in complete(daemon, "reminderctl remove --card Amex")[0]  # card names from the daemon


# 16. Backups

def test_an_export_restores_exactly_with_done_state(daemon, bus, tmp_path):
    daemon.start()
    daemon.ctl("add", "card", "amex-gold", "--fee-due", (today() + timedelta(days=60)).isoformat())
    ids = ids_by_title(daemon)
    daemon.ctl("done", ids["Uber Cash"])
    daemon.ctl("done", ids["Dining credit"], "--amount", "4")
    daemon.ctl("snooze", ids["Resy credit"], "1d")
    backup = daemon.tmp / "backup.json"
    backup.write_text(daemon.ctl("export", "--history").stdout)
    before = (daemon.ctl_json("list", "--all")["items"], daemon.ctl_json("summary")["summary"]["cards"])
    again = daemon.ctl("import", str(backup), check=False)
    assert again.returncode == 1 and "already in use" in again.stderr and "replace" in again.stderr
    daemon.ctl("import", "--replace", str(backup))
    assert (daemon.ctl_json("list", "--all")["items"], daemon.ctl_json("summary")["summary"]["cards"]) == before
    daemon.stop()
    (tmp_path / "fresh").mkdir()
    fresh = Daemon(tmp_path / "fresh", bus, {"timeZone": ZONE["name"], "quietHours": None}).start()
    try:
        fresh.ctl("import", str(backup))
        assert fresh.ctl_json("list", "--all")["items"] == before[0]
        assert fresh.ctl_json("summary")["summary"]["cards"] == before[1]
        assert fresh.ctl_json("explain", ids["Resy credit"])["snoozedUntil"] is not None
        assert any(e["event"] == "done" for e in fresh.ctl_json("history", "--item", ids["Uber Cash"])["entries"])
        fresh.ctl("undo", ids["Uber Cash"])  # the undo steps came along
    finally:
        fresh.stop()


def test_an_old_export_a_plain_array_still_imports(daemon):
    daemon.start()
    old = [{"kind": "coupon", "title": "Deal", "expires": (today() + timedelta(days=9)).isoformat()}]
    (daemon.tmp / "old.json").write_text(json.dumps(old))
    assert "Imported 1 item" in daemon.ctl("import", str(daemon.tmp / "old.json")).stdout
    items_only = json.loads(daemon.ctl("export", "--items-only").stdout)
    assert isinstance(items_only, list) and items_only[0]["title"] == "Deal"


# 17. The catalog's age: dated by its cards, said where the amounts are

def catalog_checked(daemon, checked):
    """The bundled catalog as reminderctl finds it ($REMINDERD_CATALOG, before the build's copy),
    each card and credit checked on `checked`."""
    catalog = json.loads((ROOT / "Sources/ReminderCatalog/Resources/cards.json").read_text())
    for card in catalog["cards"]:
        card["checked"] = checked.isoformat()
        for credit in card["credits"]:
            credit.pop("checked", None)
    path = daemon.tmp / f"cards-{checked}.json"
    path.write_text(json.dumps(catalog))
    daemon.env["REMINDERD_CATALOG"] = str(path)


def test_the_bundled_catalog_does_not_warn_on_a_fresh_installs_first_command(daemon):
    # As installed, whatever today is: no warning before anything was asked of it.
    result = daemon.ctl("cards", "platinum")
    assert result.returncode == 0 and "Amex Platinum" in result.stdout
    assert result.stderr == "", result.stderr
    assert re.search(r"amex-platinum .* \d{4}-\d{2}-\d{2}\n", result.stdout), result.stdout  # its CHECKED date


def test_an_old_catalog_is_said_so_where_its_amounts_are_shown_and_added(daemon):
    old = today() - timedelta(days=400)
    catalog_checked(daemon, old)
    listing = daemon.ctl("cards", "platinum")
    assert listing.stderr == "" and "warning" not in listing.stdout, listing
    assert str(old) in listing.stdout and "over 6 months" in listing.stdout, listing.stdout
    shown = daemon.ctl("cards", "show", "amex-platinum").stdout
    assert re.search(rf"Amex Platinum's terms were checked {old}, \d+ months ago", shown), shown
    assert str(daemon.tmp / "config" / "reminderd" / "cards.json") in shown
    daemon.start()
    added = daemon.ctl("add", "card", "amex-gold")
    assert added.returncode == 0, added.stderr
    assert re.search(rf"Amex Gold's terms were checked {old}, \d+ months ago", added.stdout), added.stdout
    assert "warning" not in added.stderr


def test_setup_says_the_catalogs_age_once_for_all_its_cards(daemon):
    """Issue 28: not the whole note once per card."""
    old = today() - timedelta(days=400)
    catalog_checked(daemon, old)
    daemon.start()
    result = daemon.ctl("setup", "--no-input", "--yes", "--card", "amex-gold", "--card", "chase-sapphire-reserve",
                        "--card", "capital-one-venture-x")
    assert result.stdout.count("issuers change credits often") == 1, result.stdout
    assert re.search(rf"The terms of Amex Gold \(checked {old}, \d+ months ago\), Sapphire Reserve \(checked {old}, "
                     rf"\d+ months ago\) and Venture X \(checked {old}, \d+ months ago\) were checked over 6 months ago",
                     result.stdout), result.stdout


def test_a_recent_catalog_is_not_warned_about(daemon):
    catalog_checked(daemon, today() - timedelta(days=30))
    result = daemon.ctl("cards", "platinum")
    assert "Amex Platinum" in result.stdout and "over 6 months" not in result.stdout
    assert "months ago" not in daemon.ctl("cards", "show", "amex-platinum").stdout
    assert "warning" not in result.stderr and "warning" not in result.stdout


# 18. The README

def test_the_readme_walk_through_runs_as_written(server, daemon):
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A walk-through", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    daemon.start()
    env = shell_env(daemon)  # its `date -d '+3 minutes'` on the daemon's clock
    for line in block.splitlines():
        if not line.startswith(("reminderctl", "export")):
            continue
        result = subprocess.run(["bash", "-c", line], env=env, capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, f"{line}: {result.stderr}"
    assert len(daemon.ctl_json("list")["items"]) >= 15
    # Its `reminderctl try` showed the sample pop-up, which added nothing.
    assert any(summary == "\u2068Uber Cash\u2069" and "A sample" in body for summary, body, _ in server.notifications())
    assert not [i for i in daemon.ctl_json("list")["items"] if i["title"] == "Uber Cash" and not i.get("card")]


def test_setup_takes_a_natural_fee_date_too(daemon, tmp_path):
    daemon.start()
    result = daemon.ctl("setup", "--no-input", "--yes", "--card", "amex-gold", "--fee-due", "amex-gold=+3mo")
    fee = [i for i in daemon.ctl_json("list")["items"] if i["kind"] == "fee"][0]
    assert f"--fee-due amex-gold=+3mo: {datetime.fromisoformat(fee['due'][:10]).strftime('%a')} {fee['due'][:10]}" in result.stdout
