"""Card catalog and first-run setup, end to end: reminderctl against a running reminderd."""
import json

import pytest

from conftest import BIN


def catalog_card(daemon, card_id):
    return json.loads(daemon.ctl("cards", "show", card_id, "--json").stdout)


def test_add_card_tracks_exactly_the_catalogs_credits_and_the_fee(server, daemon):
    daemon.start()
    gold = catalog_card(daemon, "amex-gold")
    added = daemon.ctl("add", "card", "amex-gold", "--fee-due", "2030-01-15")  # ahead of any run
    assert added.stdout.startswith(f"Tracking {len(gold['credits'])} benefits worth $424/year on Amex Gold")
    items = daemon.ctl_json("list", "--all")["items"]
    benefits = sorted((i["title"], i["amount"], i["period"], i["card"]) for i in items if i["kind"] == "benefit")
    assert benefits == sorted((c["title"], c["amount"], c["period"], "Amex Gold") for c in gold["credits"])
    fees = [i for i in items if i["kind"] == "fee"]
    assert [(f["amount"], f["due"][:10], f["card"]) for f in fees] == [(gold["annualFee"], "2030-01-15", "Amex Gold")]


def test_add_card_is_all_or_nothing(server, daemon):
    daemon.start()
    bad_date = daemon.ctl("add", "card", "amex-platinum", "--fee-due", "2026-02-30", check=False)
    assert bad_date.returncode == 1 and "February 2026 has 28 days" in bad_date.stderr
    bad_skip = daemon.ctl("add", "card", "amex-platinum", "--skip", "saks", check=False)
    assert bad_skip.returncode == 2 and "uber-cash" in bad_skip.stderr
    assert daemon.ctl_json("list", "--all")["items"] == []
    skipped = daemon.ctl("add", "card", "amex-platinum", "--nickname", "Plat", "--skip", "equinox", "--skip", "oura")
    # The nickname goes beside the card's name, not instead of it (issue 22).
    assert "Tracking 9 benefits" in skipped.stdout and "on Amex Platinum (Plat)" in skipped.stdout
    assert {i["card"] for i in daemon.ctl_json("list")["items"]} == {"Amex Platinum (Plat)"}


def test_subscription_templates_fill_title_price_and_interval(server, daemon):
    daemon.start()
    netflix = daemon.ctl_json("add", "subscription", "--template", "netflix", "--next", "2026-12-05")["item"]
    assert (netflix["title"], netflix["amount"], netflix["every"]) == ("Netflix Standard", "17.99", "1mo")
    gym = daemon.ctl_json("add", "subscription", "My gym", "--template", "gym", "--next", "2026-12-01", "--amount", "39.50")["item"]
    assert (gym["title"], gym["amount"], gym["every"]) == ("My gym", "39.50", "1mo")
    unknown = daemon.ctl("add", "subscription", "--template", "nope", "--next", "2026-12-01", check=False)
    assert unknown.returncode == 2 and "netflix" in unknown.stderr


def test_remove_card_asks_or_takes_yes(server, daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-gold", "--fee-due", "2027-01-15")
    daemon.ctl("add", "fee", "Other fee", "--due", "2027-02-01", "--card", "Other")
    refused = daemon.ctl("remove", "--card", "amex gold", check=False)  # not a terminal: no way to ask
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert len(daemon.ctl_json("list", "--all")["items"]) == 6
    removed = daemon.ctl("remove", "--card", "Amex Gold", "--yes")
    assert "Removed 5 items of Amex Gold" in removed.stdout
    assert [i["title"] for i in daemon.ctl_json("list", "--all")["items"]] == ["Other fee"]


def test_a_user_catalog_adds_cards_and_overrides_bundled_ones(server, daemon):
    (daemon.tmp / "config" / "reminderd" / "cards.json").write_text(json.dumps({
        "cards": [
            {"id": "amex-gold", "issuer": "American Express", "name": "Amex Gold", "annualFee": "350",
             "credits": [{"id": "dining", "title": "Dining credit", "amount": "10", "period": "monthly"}]},
            {"id": "credit-union-plus", "issuer": "My Credit Union", "name": "CU Plus", "annualFee": "0",
             "credits": [{"id": "coffee", "title": "Coffee credit", "amount": "5", "period": "monthly"}]},
        ]
    }))
    daemon.start()
    assert catalog_card(daemon, "amex-gold")["annualFee"] == "350"
    assert "My Credit Union" in daemon.ctl("cards").stdout
    added = daemon.ctl("add", "card", "credit-union-plus")
    assert "Tracking 1 benefit worth $60/year on CU Plus" in added.stdout


def test_setup_without_a_terminal_takes_flags_and_keeps_other_keys(server, daemon):
    daemon.write_config({"timeZone": "UTC", "quietHours": None, "currency": "EUR"})
    daemon.start()
    before = daemon.config_path.read_text()
    refused = daemon.ctl("setup", "--reminder-time", "08:30", check=False)
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert daemon.config_path.read_text() == before
    done = daemon.ctl("setup", "--reminder-time", "08:30", "--lead-times", "3d,0d", "--quiet-hours", "23:00-07:00",
                      "--card", "amex-gold", "--fee-due", "amex-gold=2027-01-15", "--card", "chase-sapphire-preferred", "--yes")
    assert "Tracking 5 benefits worth $474/year on 2 cards and 1 annual fee." in done.stdout
    config = json.loads(daemon.config_path.read_text())
    assert config == {"timeZone": "UTC", "currency": "EUR", "reminderTime": "08:30", "leadTimes": ["3d", "0d"],
                      "quietHours": {"start": "23:00", "end": "07:00"}}
    assert len(daemon.ctl_json("list", "--all")["items"]) == 6
    summary = daemon.ctl("summary").stdout
    assert "€0 (+ $127) available across 2 cards this period" in summary  # catalog credits are in USD


def test_setup_on_a_terminal_with_a_setting_given_sets_just_that(server, daemon):
    """`setup --quiet-hours none` on a terminal asks nothing (issue 28): it sets quiet hours and
    keeps the rest, as it does without a terminal."""
    pexpect = pytest.importorskip("pexpect")
    daemon.write_config({"timeZone": "UTC", "reminderTime": "07:30"})
    daemon.start()
    child = pexpect.spawn(str(BIN / "reminderctl"), ["setup", "--quiet-hours", "none"], env=daemon.env,
                          encoding="utf-8", timeout=15)
    # The file exists: the one question is whether to replace it.
    index = child.expect_exact(["Update ", "Reminder time", pexpect.EOF])
    assert index == 0, child.before
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Reminder time" not in child.before and "Search for a card" not in child.before, child.before
    config = json.loads(daemon.config_path.read_text())
    assert config["quietHours"] is None and config["reminderTime"] == "07:30" and config["timeZone"] == "UTC"


def test_setup_on_a_terminal_asks_with_defaults_and_picks_two_cards(server, daemon):
    pexpect = pytest.importorskip("pexpect")
    daemon.config_path.unlink()
    daemon.start()
    child = pexpect.spawn(str(BIN / "reminderctl"), ["setup"], env=daemon.env, encoding="utf-8", timeout=15)
    child.expect_exact("Reminder time [09:00]: ")
    child.sendline("")
    child.expect_exact("Lead times [7d,1d,0d]: ")
    child.sendline("nonsense")
    child.expect("expected a number and a unit")
    child.expect_exact("Lead times [7d,1d,0d]: ")
    child.sendline("5d,1d")
    child.expect_exact("Quiet hours (START-END or none) [22:00-08:00]: ")
    child.sendline("none")
    child.expect_exact("Search for a card you hold (Enter when done): ")
    child.sendline("platinum")
    child.expect_exact("Pick a number (Enter to search again): ")
    child.sendline("2")
    child.expect_exact("Next annual fee date for Amex Platinum (YYYY-MM-DD, or none) [none]: ")
    child.sendline("2027-03-15")
    child.expect_exact("Search for a card you hold (Enter when done): ")
    child.sendline("venture x")
    child.expect_exact("Pick a number (Enter to search again): ")
    child.sendline("1")
    child.expect_exact("Next annual fee date for Venture X (YYYY-MM-DD, or none) [none]: ")
    child.sendline("")
    # Its travel credit resets on the account anniversary: asked for, the fee date being unknown.
    child.expect_exact("Account anniversary for Venture X, the day its anniversary credits reset (YYYY-MM-DD) [none]: ")
    child.sendline("2030-05-01")
    child.expect_exact("Search for a card you hold (Enter when done): ")
    child.sendline("")
    child.expect("Tracking 12 benefits worth \\$3,284.40/year on 2 cards and 1 annual fee.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    config = json.loads(daemon.config_path.read_text())
    assert config["leadTimes"] == ["5d", "1d"] and config["quietHours"] is None and config["reminderTime"] == "09:00"
    items = daemon.ctl_json("list", "--all")["items"]
    assert {i["card"] for i in items} == {"Amex Platinum", "Venture X"} and len(items) == 13
    travel = [i for i in items if i["card"] == "Venture X" and i["title"] == "Capital One Travel credit"]
    assert [i.get("periodStart") for i in travel] == ["2030-05-01"]
