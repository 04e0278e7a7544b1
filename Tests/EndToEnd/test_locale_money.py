"""Issue 31 item 4: reminderctl writes money as the locale of its own environment does — `₩4,900`
in ko_KR, `1.234,50 €` in de_DE — and takes `12,50` for an amount in de_DE, refusing `1.234`
there as ambiguous; the C locale keeps today's text. reminderd writes a pop-up's money as the
locale it was started in. The locales are built by `localedef` into
a folder of the test's own, read through LOCPATH (no root needed; the sources and localedef come
with Debian's `locales` and `libc-bin`, which scripts/setup.sh installs)."""
import subprocess

import pytest

from conftest import BIN, Daemon, plain, wait_for


@pytest.fixture(scope="module")
def locales(tmp_path_factory):
    directory = tmp_path_factory.mktemp("locales")
    for name in ("ko_KR", "de_DE"):
        subprocess.run(["localedef", "-i", name, "-f", "UTF-8", str(directory / f"{name}.UTF-8")], check=True,
                       capture_output=True, timeout=120)
    return directory


def ctl_in(daemon, locales, lang, *args):
    env = dict(daemon.env, LANG=lang, LOCPATH=str(locales))
    env.pop("LC_ALL", None)
    env.pop("LC_MONETARY", None)
    return subprocess.run([str(BIN / "reminderctl"), *args], env=env, capture_output=True, text=True, timeout=30)


def test_money_is_written_and_read_as_the_locale_does(daemon, locales):
    daemon.start()
    daemon.ctl("add", "coupon", "Before You Run Out", "--value", "4900", "--currency", "KRW",
               "--expires", "2030-03-12")
    daemon.ctl("add", "benefit", "Bahn credit", "--card", "Gold", "--amount", "1234.5", "--currency", "EUR",
               "--period", "annual")
    # `wallet` lists cards' benefits and fees (not coupons): a won benefit for it.
    daemon.ctl("add", "benefit", "다 떨어지기 전에", "--card", "Olive", "--amount", "4900", "--currency", "KRW",
               "--period", "monthly")

    korean = ctl_in(daemon, locales, "ko_KR.UTF-8", "list")
    assert korean.returncode == 0, korean.stderr
    assert "₩4,900" in korean.stdout and "€1,234.50" in korean.stdout, korean.stdout
    lines = korean.stdout.splitlines()
    coupon = next(line for line in lines if "Before You Run Out" in line)
    # ₩ takes one column (every character before STATUS is narrow): the next column starts under its header.
    status = lines[0].index("STATUS")
    assert coupon[status - 1] == " " and coupon[status] != " ", lines
    wallet = ctl_in(daemon, locales, "ko_KR.UTF-8", "wallet")
    assert wallet.returncode == 0 and "Olive — ₩4,900 left this period" in wallet.stdout, wallet.stdout + wallet.stderr

    german = ctl_in(daemon, locales, "de_DE.UTF-8", "list")
    assert "1.234,50 €" in german.stdout and "4.900 KRW" in german.stdout, german.stdout

    added = ctl_in(daemon, locales, "de_DE.UTF-8", "add", "subscription", "Zeitung", "--amount", "12,50",
                   "--currency", "EUR", "--every", "1mo", "--next", "2030-04-05")
    assert added.returncode == 0, added.stderr
    subscription = next(i for i in daemon.ctl_json("list", "--all")["items"] if i["title"] == "Zeitung")
    assert subscription["amount"] == "12.50"
    edited = ctl_in(daemon, locales, "de_DE.UTF-8", "edit", "Bahn credit", "--amount-in", "12=99,90")
    assert edited.returncode == 0, edited.stderr
    benefit = next(i for i in daemon.ctl_json("list", "--all")["items"] if i["title"] == "Bahn credit")
    assert benefit["amountIn"] == {"12": "99.90"}, benefit
    refused = ctl_in(daemon, locales, "de_DE.UTF-8", "add", "subscription", "Magazin", "--amount", "1.234",
                     "--every", "1mo", "--next", "2030-04-05")
    assert refused.returncode != 0 and "ambiguous" in refused.stderr, refused.stderr

    # The C locale, and a locale not installed, write today's text.
    for lang in ("C", "xx_XX.UTF-8"):
        plain = ctl_in(daemon, locales, lang, "list")
        assert "4,900 KRW" in plain.stdout and "€12.50" in plain.stdout, plain.stdout


def test_a_pop_up_writes_money_as_the_daemons_locale_does(bus, server, tmp_path, locales):
    daemon = Daemon(tmp_path, bus, config={"timeZone": "UTC", "quietHours": None, "currency": "EUR"})
    daemon.env.update(LANG="de_DE.UTF-8", LOCPATH=str(locales))
    daemon.env.pop("LC_ALL", None)
    daemon.env.pop("LC_MONETARY", None)
    daemon.start()
    try:
        daemon.ctl("try")
        bodies = wait_for(lambda: [plain(body) for _, body, _ in server.notifications() if "Uber Cash" in body],
                          what="the sample pop-up")
        assert "Your 15 € Uber Cash" in bodies[0], bodies
    finally:
        daemon.stop()
