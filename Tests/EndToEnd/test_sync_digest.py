"""Sync against a server that offers only Digest authentication, as Baïkal does by default: sabre/dav
(Debian's php-sabre-dav, its CalDAV plugin on a PDO SQLite store) under PHP's built-in server,
Tests/EndToEnd/sabre_digest_server.php. Issue 27: `sync setup` called it "wrong credentials"."""
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from conftest import BIN, DAV_USER as USER, accepts, free_port, wait_for
from test_sync_setup import PASSWORD, env, password_file, run  # noqa: F401 (env: a fixture)

SERVER = Path(__file__).with_name("sabre_digest_server.php")


class SabreServer:
    """`php -S` on 127.0.0.1 with the router above, one account (USER, PASSWORD), a throwaway
    store; stopped by its PID."""

    def __init__(self, folder):
        folder.mkdir(parents=True)
        self.database = folder / "sabre.sqlite"
        self.port = free_port()
        self.log = open(folder / "php.log", "w")
        environment = dict(os.environ, SABRE_DB=str(self.database), SABRE_USER=USER, SABRE_PASSWORD=PASSWORD)
        self.process = subprocess.Popen(["php", "-S", f"127.0.0.1:{self.port}", str(SERVER)], env=environment,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(lambda: accepts(self.port), timeout=20, what="PHP's server on its port")
        self.url = f"http://127.0.0.1:{self.port}/dav.php/"

    def rows(self, query):
        with sqlite3.connect(self.database) as connection:
            return connection.execute(query).fetchall()

    def task_lists(self):
        return sorted(uri for (uri,) in self.rows("select uri from calendars"))

    def stop(self):
        self.process.terminate()
        self.process.wait(10)
        self.log.close()


@pytest.fixture
def sabre(tmp_path):
    server = SabreServer(tmp_path / "sabre")
    yield server
    server.stop()


def test_the_server_offers_digest_only(sabre):
    """What makes this server the case: Basic is refused, and the challenge names Digest alone."""
    probe = subprocess.run(["curl", "-s", "-o", "/dev/null", "-D", "-", "--basic", "-u", f"{USER}:{PASSWORD}",
                            "-X", "PROPFIND", "-H", "Depth: 0", sabre.url], capture_output=True, text=True, timeout=30)
    headers = probe.stdout.lower()
    assert headers.startswith("http/1.1 401") and "www-authenticate: digest" in headers, probe.stdout
    assert "www-authenticate: basic" not in headers


def test_setup_and_a_sync_pass_authenticate_with_digest(daemon, env, sabre, tmp_path):
    secret = password_file(tmp_path)
    setup = run(env, "--url", sabre.url, "--username", USER, "--password-file", str(secret))
    assert setup.returncode == 0, setup.stderr
    assert 'Created the task list "reminderd"' in setup.stdout
    assert sabre.task_lists() == ["reminderd"]
    daemon.start()
    daemon.ctl("add", "coupon", "Digest pizza", "--value", "10", "--expires", "2027-01-31")
    once = subprocess.run([str(BIN / "reminderd-sync"), "--once"], env=env, capture_output=True, text=True, timeout=60)
    assert once.returncode == 0, once.stderr
    stored = [data if isinstance(data, str) else data.decode() for (data,) in sabre.rows("select calendardata from calendarobjects")]
    assert len(stored) == 1 and "SUMMARY:Digest pizza" in stored[0], stored


def test_a_wrong_password_is_still_named_so(daemon, env, sabre, tmp_path):
    secret = tmp_path / "wrong"
    secret.write_text("wrong horse\n")
    secret.chmod(0o600)
    before = daemon.config_path.read_bytes()
    setup = run(env, "--url", sabre.url, "--username", USER, "--password-file", str(secret))
    assert setup.returncode == 1
    assert "401" in setup.stderr and "wrong credentials" in setup.stderr and "nothing was saved" in setup.stderr
    assert daemon.config_path.read_bytes() == before and sabre.task_lists() == []
