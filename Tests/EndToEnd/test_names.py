"""Say it by name, never twice (issue 28): items named by their title, duplicates and card typos
refused with what exists and how to add anyway, and errors that point at the mistake — against
the real daemon and reminderctl."""
import re
import shlex
import subprocess
from datetime import datetime, timezone

from conftest import BIN, ROOT, Daemon, clock_at


def ids_by_title(daemon):
    return {i["title"]: i["id"] for i in daemon.ctl_json("list", "--all")["items"]}


# 1. Items by name

def test_every_id_command_takes_a_title_or_its_start_case_and_accents_aside(daemon):
    daemon.start()
    added = daemon.ctl("add", "card", "amex-platinum", "--fee-due", "+3mo").stdout
    ids = ids_by_title(daemon)
    # add card says what it added by title, each with its id
    assert f"  {ids['Uber Cash']}  Uber Cash\n" in added and "Ids:" not in added
    daemon.ctl("add", "rebuy", "Crème brûlée", "--every-days", "30", "--last-purchased", "today")
    done = daemon.ctl("done", "uber cash")
    assert "Uber Cash" in done.stdout
    assert daemon.ctl_json("show", ids["Uber Cash"])["item"]["status"] == "used"
    assert daemon.ctl_json("show", "creme brulee")["item"]["title"] == "Crème brûlée"
    assert daemon.ctl_json("show", "CRÈME")["item"]["title"] == "Crème brûlée"
    daemon.ctl("undo", "Uber Cash")
    daemon.ctl("snooze", "lululemon", "1h")
    daemon.ctl("edit", "oura ring", "--notes", "by name")
    assert daemon.ctl_json("show", ids["Oura Ring credit"])["item"]["notes"] == "by name"
    assert daemon.ctl("explain", "lululemon").returncode == 0
    history = daemon.ctl_json("history", "--item", "uber cash")["entries"]
    assert {e["event"] for e in history} >= {"done", "undone"}
    # an exact id still comes first
    assert daemon.ctl_json("show", ids["Resy dining credit"])["item"]["title"] == "Resy dining credit"
    removed = daemon.ctl("remove", "crème")
    assert removed.stdout.startswith("Removed Crème brûlée (rebuy), ")


def test_an_ambiguous_name_lists_the_candidates_and_changes_nothing(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-platinum")
    daemon.ctl("add", "card", "amex-gold")
    before = daemon.ctl_json("list", "--all")["items"]
    result = daemon.ctl("done", "uber", check=False)
    assert result.returncode == 1
    assert result.stderr.startswith('reminderctl: "uber" names 3 items; nothing was changed.'), result.stderr
    lines = result.stderr.splitlines()[1:]
    assert len(lines) == 3 and all(re.search(r"  benefit  Amex (Gold|Platinum)  due \d{4}-\d\d-\d\d", l) for l in lines)
    assert daemon.ctl_json("list", "--all")["items"] == before
    # the same title on two cards is ambiguous too, until the card is said by the id
    exact = daemon.ctl("done", "Uber Cash", check=False)
    assert exact.returncode == 1 and '"Uber Cash" names 2 items' in exact.stderr


def test_remove_says_what_it_removed(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "fee", "Gym", "--amount", "30", "--due", "+5d", "--card", "Amex Gold")["id"]
    assert daemon.ctl("remove", item).stdout == f"Removed Gym (fee, Amex Gold), {item}\n"


# 2. Never twice by accident

def test_the_same_item_or_a_credit_the_catalog_tracks_is_refused_without_force(daemon):
    daemon.start()
    daemon.ctl("add", "card", "amex-platinum", "--fee-due", "+3mo")
    ids = ids_by_title(daemon)
    count = len(ids)
    credit = daemon.ctl("add", "benefit", "Uber Cash", "--card", "Amex Platinum", "--amount", "15", "--period",
                        "monthly", check=False)
    assert credit.returncode == 1
    assert 'benefit "Uber Cash" on Amex Platinum is tracked already; nothing was added:' in credit.stderr
    assert f"  {ids['Uber Cash']}  Uber Cash  benefit  Amex Platinum  due " in credit.stderr
    assert "To add it anyway: the same command with --force" in credit.stderr
    fee = daemon.ctl("add", "fee", "Platinum fee", "--card", "amex platinum", "--amount", "695", "--due", "+1y",
                     check=False)
    assert fee.returncode == 1 and "Amex Platinum has its fee tracked already" in fee.stderr
    assert ids["Amex Platinum annual fee"] in fee.stderr
    shorter = daemon.ctl("add", "benefit", "Resy", "--card", "Amex Platinum", "--amount", "100", "--period",
                         "quarterly", check=False)
    assert shorter.returncode == 1 and "Resy dining credit" in shorter.stderr
    coupon = ["add", "coupon", "BOGO", "--expires", "+5d"]
    daemon.ctl(*coupon)
    again = daemon.ctl(*coupon[:2], "bogo", *coupon[3:], check=False)
    assert again.returncode == 1 and 'coupon "bogo" is tracked already' in again.stderr
    assert len(daemon.ctl_json("list", "--all")["items"]) == count + 1
    daemon.ctl(*coupon, "--force")
    assert len(daemon.ctl_json("list", "--all")["items"]) == count + 2


def readme_commands():
    """Every `reminderctl` line of the README's shell blocks, top to bottom: continuation lines
    joined, an optional part in brackets (`[--json]`) left out. `reminderctl sync …` is not run
    here: it needs a CalDAV server and a keyring (test_sync_setup.py runs it against Radicale)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line.startswith("reminderctl ") and not line.startswith("reminderctl sync "):
                commands.append(re.sub(r"\s\[[^\]]*\]", "", line))
    return commands


def test_the_readmes_commands_top_to_bottom_make_no_duplicate_and_no_error(bus, server, tmp_path):
    # On the README's own dates (late November 2026), whatever today is; `date` reads the same clock.
    # A notification server on the bus, as on the desktop the walk-through is for (`reminderctl try`).
    daemon = Daemon(tmp_path, bus)
    shell = clock_at(daemon, datetime(2026, 11, 20, 12, 0, tzinfo=timezone.utc))
    daemon.start()
    daemon.config_path.unlink()  # a fresh install: `reminderctl setup` writes the first config
    try:
        commands = readme_commands()
        assert sum(c.startswith("reminderctl add ") for c in commands) >= 5, commands
        for command in commands:
            result = subprocess.run(["bash", "-c", command], env=shell, cwd=ROOT, capture_output=True, text=True,
                                    timeout=60)
            assert result.returncode == 0, f"{command}: {result.stderr}"
        items = daemon.ctl_json("list", "--all")["items"]
        keys = [(i["kind"], (i.get("card") or "").lower(), i["title"].lower()) for i in items]
        assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
        fees = [(i.get("card") or "").lower() for i in items if i["kind"] == "fee" and i.get("card")]
        assert len(fees) == len(set(fees)), fees
    finally:
        daemon.stop()


# 3. A card named with a typo is not a new card

def test_a_card_a_typo_away_from_one_tracked_asks_did_you_mean_and_adds_nothing(daemon):
    daemon.start()
    daemon.ctl("add", "subscription", "Netflix", "--amount", "15.99", "--every", "1mo", "--next", "+5d", "--card",
               "Sapphire Reserve")
    typo = ["add", "subscription", "Spotify", "--amount", "11.99", "--every", "1mo", "--next", "+9d", "--card",
            "Sapphire Reserv"]
    result = daemon.ctl(*typo, check=False)
    assert result.returncode == 1
    assert 'did you mean "Sapphire Reserve"? Nothing was stored.' in result.stderr
    assert "--new-card" in result.stderr
    assert len(daemon.ctl_json("list")["items"]) == 1
    # the card's name in another case is the same card, spelt as it is spelt already
    same = daemon.ctl_json("add", "coupon", "x", "--expires", "+3d")  # no card: never asked
    assert same["item"]["title"] == "x"
    lower = daemon.ctl_json("add", "fee", "Sapphire fee", "--amount", "550", "--due", "+2mo", "--card",
                            "sapphire reserve")
    assert lower["item"]["card"] == "Sapphire Reserve"
    daemon.ctl(*typo, "--new-card")
    assert {i.get("card") for i in daemon.ctl_json("list")["items"]} == {"Sapphire Reserve", "Sapphire Reserv", None}
    # edit: a card changed to a typo of another item's is refused too; fixing its own typo is not
    spotify = [i["id"] for i in daemon.ctl_json("list")["items"] if i["title"] == "Spotify"][0]
    netflix = [i["id"] for i in daemon.ctl_json("list")["items"] if i["title"] == "Netflix"][0]
    edit = daemon.ctl("edit", netflix, "--card", "Sapphire Reserv.", check=False)
    assert edit.returncode == 1 and "did you mean" in edit.stderr
    assert daemon.ctl_json("edit", spotify, "--card", "Sapphire Reserve")["item"]["card"] == "Sapphire Reserve"
    daemon.ctl("edit", netflix, "--card", "Sapphire Reserv.", "--new-card")


# 6. Errors that point at the mistake

def test_a_mistyped_command_is_named_with_the_command_meant(daemon):
    lsit = daemon.ctl("lsit", check=False)
    assert lsit.returncode == 2 and lsit.stderr == 'reminderctl: no command "lsit"; did you mean list?\n'
    ad = daemon.ctl("ad", "coupon", "x", check=False)
    assert ad.returncode == 2 and 'no command "ad"; did you mean add?' in ad.stderr and "coupon" not in ad.stderr


def test_a_day_first_date_is_read_as_typed_or_refused_naming_it(daemon):
    daemon.start()
    added = daemon.ctl_json("add", "coupon", "Dots", "--expires", "31.12.2030")
    assert added["item"]["expires"] == "2030-12-31"
    slashed = daemon.ctl_json("add", "coupon", "Slash", "--expires", "31/12/2030")
    assert slashed["item"]["expires"] == "2030-12-31"
    for typed in ("12/05/2030", "31.13.2030", "30.02.2030", "1.2.3"):
        result = daemon.ctl("add", "coupon", "Bad", "--expires", typed, check=False)
        assert result.returncode == 2 and f'"{typed}"' in result.stderr, (typed, result.stderr)
    assert [i["title"] for i in daemon.ctl_json("list")["items"]] == ["Dots", "Slash"]


def test_history_since_takes_today_as_other_date_options_do(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "coupon", "Now", "--expires", "+3d")["id"]
    entries = daemon.ctl_json("history", "--since", "today")["entries"]
    assert [e["item"] for e in entries] == [item]
    assert daemon.ctl_json("history", "--since", "tomorrow")["entries"] == []


def test_a_coupons_amount_is_said_to_be_its_value_and_import_names_replace(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "coupon", "Pizza", "--expires", "+3d")["id"]
    amount = daemon.ctl("edit", item, "--amount", "5", check=False)
    assert amount.returncode == 1 and "a coupon has a value, not an amount" in amount.stderr and "--value" in amount.stderr
    value = daemon.ctl("add", "fee", "Gym", "--due", "+3d", "--value", "5", check=False)
    assert value.returncode == 1 and "--amount" in value.stderr
    backup = daemon.tmp / "backup.json"
    backup.write_text(daemon.ctl("export").stdout)
    refused = daemon.ctl("import", str(backup), check=False)
    assert refused.returncode == 1 and "reminderctl import --replace" in refused.stderr


def test_a_config_error_gives_line_column_and_suggestion_for_every_mistake(daemon):
    daemon.start()
    daemon.config_path.write_text(
        '{\n  "timeZone": "America/NewYork",\n  "quietHour": {"start": "22:00", "end": "08:00"},\n'
        '  "historyDays": 0\n}\n')
    result = daemon.ctl("reload", check=False)
    assert result.returncode == 1
    path = str(daemon.config_path)
    lines = result.stderr.splitlines()
    assert lines[0] == f'reminderctl: {path}:2:3: timeZone: "America/NewYork" is not a time zone in /usr/share/zoneinfo; did you mean America/New_York?', lines
    assert lines[1] == f'{path}:3:3: "quietHour" is not a setting; did you mean quietHours?'
    assert lines[2].startswith(f"{path}:4:3: historyDays: 0 is not between 1 and 3650")
    daemon.config_path.write_text('{\n  "timeZone": "UTC",\n  "currency" "EUR"\n}\n')
    syntax = daemon.ctl("reload", check=False)
    assert syntax.returncode == 1 and "(line 3, column 14)" in syntax.stderr, syntax.stderr


def test_bash_completion_offers_titles_as_words_the_shell_reads_back(daemon):
    daemon.start()
    item = daemon.ctl_json("add", "coupon", "McDonald's BOGO", "--expires", "+5d")["id"]
    daemon.ctl("add", "coupon", "Gym", "--expires", "+5d")
    script = subprocess.run([str(BIN / "reminderctl"), "--generate-completion-script", "bash"],
                            capture_output=True, text=True, check=True).stdout
    line = "reminderctl done Mc"
    words = line.split(" ")
    program = (f"source /dev/stdin <<'EOF'\n{script}\nEOF\n"
               f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}; "
               f"COMP_LINE={shlex.quote(line)}; COMP_POINT={len(line)}; _reminderctl reminderctl Mc done; "
               "for w in \"${COMPREPLY[@]}\"; do eval \"set -- $w\"; printf '%s|%s\\n' \"$w\" \"$*\"; done")
    env = dict(daemon.env, PATH=f"{BIN}:{daemon.env['PATH']}")
    offered = subprocess.run(["bash", "-c", program], env=env, capture_output=True, text=True, timeout=10)
    # offered as the escaped word, which the shell reads back as the whole title
    assert offered.stdout == "McDonald\\'s\\ BOGO|McDonald's BOGO\n", offered
    assert daemon.ctl("done", "McDonald's BOGO").returncode == 0
    assert daemon.ctl_json("show", item)["item"]["status"] == "used"
