"""reminderctl and reminderd in Korean and German: the catalogs complete and current, `reminderctl`
following its own environment, the daemon's pop-ups its environment or its config's `language`.

The locales are generated here (localedef into a temporary LOCPATH, no root needed) and the
catalogs compiled from po/ (scripts/build-mo.sh) into the folder REMINDERD_LOCALEDIR names."""
import re
import subprocess

import pytest

from conftest import BIN, ROOT, FaultDaemon, local_in, plain, wait_for


@pytest.fixture(scope="module")
def languages(tmp_path_factory):
    """The environment that makes ko_KR.UTF-8 and de_DE.UTF-8 usable with the build tree's catalogs."""
    folder = tmp_path_factory.mktemp("languages")
    (folder / "locales").mkdir()
    for name in ("ko_KR", "de_DE"):
        subprocess.run(["localedef", "-i", name, "-f", "UTF-8", str(folder / "locales" / f"{name}.UTF-8")],
                       check=True, capture_output=True)
    subprocess.run([str(ROOT / "scripts" / "build-mo.sh"), str(folder / "catalogs")], check=True)
    return {"LOCPATH": str(folder / "locales"), "REMINDERD_LOCALEDIR": str(folder / "catalogs")}


def test_the_catalogs_are_complete_current_and_their_placeholders_match():
    """Fails on a message in the code missing from the template (a fresh extraction differs), on
    an untranslated or fuzzy entry, and on a translation whose %1$s placeholders differ."""
    stale = subprocess.run([str(ROOT / "scripts" / "update-po.sh"), "--check-only"], capture_output=True, text=True)
    assert stale.returncode == 0, stale.stderr
    for po in sorted((ROOT / "po").glob("*.po")):
        merged = subprocess.run(["msgmerge", "--quiet", "-o", "-", str(po), str(ROOT / "po" / "reminderd.pot")],
                                check=True, capture_output=True, text=True).stdout
        for flag in ("--untranslated", "--only-fuzzy"):
            left = subprocess.run(["msgattrib", flag, "--no-obsolete", "-"], input=merged, check=True,
                                  capture_output=True, text=True).stdout
            assert "msgid" not in left.replace('msgid ""\nmsgstr ""', "", 1), f"{po.name} {flag}:\n{left}"
        checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        # Date patterns are not c-format: their conversions are DateText's, checked here.
        for pattern in re.findall(r'^msgctxt "date pattern: [^"]*"\nmsgid "[^"]*"\nmsgstr "([^"]*)"', po.read_text(), re.M):
            unknown = re.sub(r"%(%|-?[aAbBYmdHIMp])", "", pattern)
            assert "%" not in unknown, f"{po.name}: date pattern {pattern!r} has a conversion DateText does not know"


def test_reminderctl_speaks_its_own_environment_s_language(server, daemon, languages):
    daemon.start()
    daemon.ctl("add", "coupon", "Pizza", "--expires", "2031-01-31", "--value", "4900", "--currency", "KRW")
    english = daemon.ctl("list").stdout
    assert english.splitlines()[0].split()[:2] == ["ID", "KIND"]
    korean = subprocess.run(
        [str(BIN / "reminderctl"), "list"],
        env=dict(daemon.env, **languages, LANG="ko_KR.UTF-8"), capture_output=True, text=True, check=True).stdout
    header = korean.splitlines()[0].split()
    assert header[:2] == ["ID", "종류"] and "상태" in header and "다음" in header, korean
    assert "곧 만료" not in korean and "사용 가능" in korean  # the status in its words
    german = subprocess.run(
        [str(BIN / "reminderctl"), "list"],
        env=dict(daemon.env, **languages, LANG="C", LC_MESSAGES="de_DE.UTF-8"), capture_output=True, text=True,
        check=True).stdout
    assert german.splitlines()[0].split()[:3] == ["ID", "ART", "TITEL"], german
    # status, done and undo speak it too; status's values start in one column, Hangul counted two wide.
    def ctl(lang, *args):
        return subprocess.run([str(BIN / "reminderctl"), *args], env=dict(daemon.env, **languages, LANG=lang),
                              capture_output=True, text=True, check=True).stdout
    status = ctl("ko_KR.UTF-8", "status").splitlines()
    assert status[0].startswith("버전:") and status[1].startswith("실행 시간:"), status
    starts = {sum(2 if "\uac00" <= c <= "\ud7a3" else 1 for c in line[:line.index(":") + 1])
              + len(line[line.index(":") + 1:]) - len(line[line.index(":") + 1:].lstrip()) for line in status}
    assert len(starts) == 1, status
    assert ctl("de_DE.UTF-8", "done", "Pizza").startswith("Erledigt: Pizza ist genutzt")
    assert ctl("ko_KR.UTF-8", "undo", "Pizza").startswith("실행 취소: Pizza 다시 사용 가능, ")
    # A locale without a catalog, or one not installed, is English byte for byte.
    for lang in ("fr_FR.UTF-8", "C.UTF-8"):
        other = subprocess.run([str(BIN / "reminderctl"), "list"],
                               env=dict(daemon.env, **languages, LANG=lang), capture_output=True, check=True).stdout
        assert other == english.encode()
    # The daemon's reason for a refusal and explain's cells are in reminderctl's language, from
    # the templates the daemon sends beside its English (the interface's text, unchanged).
    german_rows = ctl("de_DE.UTF-8", "explain", "Pizza").splitlines()
    assert "09:00, 7 Tage vor dem Fälligkeitstag" in german_rows[2] and german_rows[2].rstrip().endswith("beibehalten")
    assert "09:00, 1 Tag vor dem Fälligkeitstag" in german_rows[3] and "09:00 am Fälligkeitstag" in german_rows[4]
    korean_rows = ctl("ko_KR.UTF-8", "explain", "Pizza").splitlines()
    assert "마감일 7일 전 09:00" in korean_rows[2] and korean_rows[2].rstrip().endswith("유지"), korean_rows
    english_rows = ctl("C", "explain", "Pizza").splitlines()
    assert "09:00, 7 days before the due date" in english_rows[2] and english_rows[2].rstrip().endswith("kept")
    daemon.ctl("done", "Pizza")
    refused = subprocess.run([str(BIN / "reminderctl"), "done", "Pizza"], capture_output=True, text=True,
                             env=dict(daemon.env, **languages, LANG="de_DE.UTF-8"))
    assert refused.returncode == 1 and re.fullmatch(
        r"reminderctl: \w+: für den am Fr 2031-01-31 23:59 fälligen Termin bereits erledigt\n", refused.stderr), refused.stderr
    english_refusal = daemon.ctl("done", "Pizza", check=False).stderr
    assert "already done for the occurrence due Fri 2031-01-31 23:59" in english_refusal, english_refusal
    # A snooze's reason for ending at another time than asked (00:00 has always passed today).
    daemon.ctl("add", "coupon", "Tacos", "--expires", "2031-02-28")
    snoozed = ctl("de_DE.UTF-8", "snooze", "Tacos", "until", "00:00").strip()
    assert snoozed.startswith("Zurückgestellt bis ") and snoozed.endswith(" (00:00 ist heute schon vorbei)"), snoozed


def test_dates_in_sentences_use_the_language_s_names_and_order(server, daemon, languages):
    """"Paused until" in Korean ("11월 29일 (일) 09:00까지") and German ("So., 29. Nov., 09:00"),
    the year only when it is another; English as ever in C."""
    daemon.start()

    def pause(lang):
        return subprocess.run([str(BIN / "reminderctl"), "pause", "1h"], env=dict(daemon.env, **languages, LANG=lang),
                              capture_output=True, text=True, check=True).stdout.splitlines()[0]
    weekday = r"(Sun|Mon|Tue|Wed|Thu|Fri|Sat)"
    assert re.fullmatch(rf"Paused until {weekday} \d{{4}}-\d\d-\d\d \d\d:\d\d", pause("C")), pause("C")
    korean = pause("ko_KR.UTF-8")
    assert re.fullmatch(r"(\d{4}년 )?\d{1,2}월 \d{1,2}일 \([일월화수목금토]\) \d\d:\d\d까지 일시 중지됨", korean), korean
    german = pause("de_DE.UTF-8")
    assert re.fullmatch(r"Pausiert bis (So|Mo|Di|Mi|Do|Fr|Sa)\., \d{1,2}\. (Mai|\w{3}\.)( \d{4})?, \d\d:\d\d", german), german
    daemon.ctl("resume")
    report = subprocess.run([str(BIN / "reminderctl"), "report", "--months", "1"],
                            env=dict(daemon.env, **languages, LANG="ko_KR.UTF-8"), capture_output=True, text=True,
                            check=True).stdout
    assert re.match(r"월별 사용액, \d{4}년 \d{1,2}월\(금액 단위 [A-Z]{3}\)", report), report


def test_sync_cards_and_the_date_parser_s_reasons_speak_it_too(server, daemon, languages):
    """`sync status` before setup, `cards`' table and its note, `plan`'s workday note and a refused
    date say so in the language; the same commands in C are today's English."""
    daemon.start()

    def ctl(lang, *args, code=0):
        result = subprocess.run([str(BIN / "reminderctl"), *args], env=dict(daemon.env, **languages, LANG=lang),
                                capture_output=True, text=True)
        assert result.returncode == code, result.stderr
        return result
    assert ctl("C", "sync", "status").stdout == "Sync:                not set up (run: reminderctl sync setup)\n"
    korean = ctl("ko_KR.UTF-8", "sync", "status").stdout
    assert korean == "동기화:              설정 안 됨(설정하려면: reminderctl sync setup)\n", korean
    refused = ctl("de_DE.UTF-8", "add", "coupon", "X", "--expires", "12/05", code=2).stderr
    assert "--expires „12/05“ ist mehrdeutig: 12/05 ist in den USA der 5. Dezember" in refused, refused
    assert "is ambiguous" in ctl("C", "add", "coupon", "X", "--expires", "12/05", code=2).stderr
    cards = ctl("de_DE.UTF-8", "cards").stdout.splitlines()
    assert cards[0].split()[:3] == ["ID", "KARTE", "GEBÜHR"] and cards[-1].startswith("GEPRÜFT: wann"), cards
    shown = ctl("ko_KR.UTF-8", "cards", "show", "amex-platinum").stdout
    assert "— 연회비 " in shown.splitlines()[0] and "추가하려면: reminderctl add card amex-platinum" in shown, shown
    # A reminder moved off a Saturday says where it went in plan's NOTE column (2026-12-05: a Saturday).
    config = daemon.tmp / "plan.json"
    config.write_text('{"timeZone": "UTC", "quietHours": null, "workdays": {"days": "mon-fri"}}')
    items = daemon.tmp / "items.json"
    items.write_text('[{"kind": "fee", "title": "Rent", "amount": "10", "due": "2026-12-06"}]')
    args = ("plan", "--items", str(items), "--config", str(config), "--from", "2026-12-01", "--to", "2026-12-10")
    assert "workday" in ctl("C", *args).stdout
    assert "auf den Arbeitstag davor" in ctl("de_DE.UTF-8", *args).stdout


def test_a_pop_up_speaks_the_daemon_s_language_and_the_config_s_after_reload(server, bus, tmp_path, languages):
    """Its title, body and buttons, and a refused button's reason (the engine's, from its template)."""
    daemon = FaultDaemon(tmp_path, bus, dict(languages, LANG="de_DE.UTF-8")).start()
    try:
        daemon.ctl("add", "coupon", "Pizza", "--expires", local_in(66), "--lead", "1m", "--code", "P2")
        summary, body, line = wait_for(server.notifications, timeout=15, what="the German pop-up")[0]
        assert plain(body).startswith("Gutschein läuft bald ab · Pizza läuft in 1 Min. ab"), body
        assert "Code P2" in plain(body)
        assert '["done", "Als genutzt markieren"]' in line
        # A snooze an hour long pressed a minute before it expires: the engine's refusal, in German.
        server.invoke(1, "snooze-1h")
        summary, body, line = wait_for(lambda: [n for n in server.notifications() if n[0] == "Nicht zurückgestellt"],
                                       timeout=15, what="the German refusal")[0]
        assert re.fullmatch(r"Pizza: fällig am \S+, zu bald zum Zurückstellen", plain(body)), body
        daemon.write_config({"timeZone": "UTC", "quietHours": None, "language": "ko_KR.UTF-8"})
        daemon.ctl("reload")
        daemon.ctl("add", "coupon", "Tacos", "--expires", local_in(66), "--lead", "1m")
        summary, body, line = wait_for(lambda: [n for n in server.notifications() if "Tacos" in n[1]], timeout=15,
                                       what="the Korean pop-up")[0]
        assert plain(body).startswith("쿠폰 만료 예정 · Tacos, 1분 후 만료"), body
        assert '["done", "사용함으로 표시"]' in line
        # A snooze button's length in the language's words ("1h" as typed in English).
        daemon.ctl("add", "coupon", "Kebab", "--expires", local_in(2 * 86400 + 6), "--lead", "48h")
        summary, body, line = wait_for(lambda: [n for n in server.notifications() if "Kebab" in n[1]], timeout=15,
                                       what="Kebab's Korean pop-up")[0]
        assert '"snooze-1h", "1시간 후 다시 알림"' in line, line
    finally:
        daemon.stop()
