"""`reminderctl sync setup` against a real Radicale (from the tests' venv) on 127.0.0.1, driven on a
pty, with the password kept in a gnome-keyring-daemon on the test's private bus or in a 0600 file."""
import json
import shutil
import subprocess
import sys

import pexpect
import pytest

from conftest import BIN, DAV_USER as USER, DavServer, free_port, wait_for

PASSWORD = "correct horse ✓"


@pytest.fixture
def radicale(tmp_path):
    server = DavServer(tmp_path / "radicale", password=PASSWORD)
    yield server
    server.stop()


class Keyring:
    """gnome-keyring-daemon's Secret Service on the test's private bus, its keyring unlocked with a
    password given on stdin; stopped by its PID."""

    def __init__(self, env):
        self.env = env
        self.process = subprocess.Popen(
            ["gnome-keyring-daemon", "--foreground", "--components=secrets", "--unlock"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.process.stdin.write(b"keyring password")
        self.process.stdin.close()
        wait_for(lambda: self.lookup("nobody") is not None, timeout=20, what="gnome-keyring-daemon on the bus")

    def lookup(self, username):
        """The stored password, "" when none is stored, None when the keyring does not answer."""
        result = subprocess.run(["secret-tool", "lookup", "service", "reminderd", "username", username],
                                env=self.env, capture_output=True, text=True, timeout=10)
        if "not" in result.stderr.lower() and "activat" in result.stderr.lower():
            return None
        return result.stdout

    def stop(self):
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def env(daemon, tmp_path):
    """The daemon fixture's environment (private bus, XDG directories) with a home of its own."""
    home = tmp_path / "home"
    home.mkdir()
    return dict(daemon.env, HOME=str(home))


def spawn(env, *args):
    return pexpect.spawn(str(BIN / "reminderctl"), ["sync", "setup", *args], env=env, encoding="utf-8", timeout=30)


def run(env, *args):
    """Without a terminal: stdin is not one."""
    return subprocess.run([str(BIN / "reminderctl"), "sync", "setup", *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30)


def password_file(tmp_path, mode=0o600):
    path = tmp_path / "dav-password"
    path.write_text(PASSWORD + "\n")
    path.chmod(mode)
    return path


def test_setup_asks_creates_the_task_list_stores_the_password_and_the_daemon_still_starts(daemon, env, radicale):
    keyring = Keyring(env)
    try:
        before = json.loads(daemon.config_path.read_text())
        child = spawn(env)
        child.expect_exact("Server address (https://…): ")
        child.sendline(radicale.url)
        child.expect_exact("User name: ")
        child.sendline(USER)
        child.expect_exact(f"Password for {USER}: ")
        child.sendline(PASSWORD)
        child.expect_exact('Created the task list "reminderd" on the server.')
        assert PASSWORD not in child.before, "the password was echoed"
        child.expect_exact(f"Password stored in the Secret Service (service reminderd, username {USER}).")
        child.expect_exact("Start syncing with: systemctl --user enable --now reminderd-sync")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before
        assert radicale.task_lists() == ["reminderd"]
        assert keyring.lookup(USER) == PASSWORD
        written = json.loads(daemon.config_path.read_text())
        assert written == dict(before, sync={"url": radicale.url, "username": USER, "calendar": "reminderd"})
        assert oct(daemon.config_path.stat().st_mode & 0o777) == "0o600"
    finally:
        keyring.stop()
    daemon.start()
    daemon.ctl("status")


def test_a_second_setup_finds_the_task_list(daemon, env, radicale, tmp_path):
    secret = password_file(tmp_path)
    flags = ["--url", radicale.url, "--username", USER, "--password-file", str(secret)]
    first = run(env, *flags)
    assert first.returncode == 0, first.stderr
    assert 'Created the task list "reminderd"' in first.stdout
    second = run(env, *flags)
    assert second.returncode == 0, second.stderr
    assert 'Found the task list "reminderd"' in second.stdout and "enable --now reminderd-sync" in second.stdout
    assert radicale.task_lists() == ["reminderd"]
    sync = json.loads(daemon.config_path.read_text())["sync"]
    assert sync == {"url": radicale.url, "username": USER, "calendar": "reminderd", "passwordFile": str(secret)}
    again = run(env)  # no terminal, no flags: the account saved before is checked again
    assert again.returncode == 0, again.stderr
    assert 'Found the task list "reminderd"' in again.stdout
    assert json.loads(daemon.config_path.read_text())["sync"] == sync
    # Other apps' tasks: turned on by its flag, kept by a setup without it, turned off by --no-.
    for flags, expected in ((["--other-tasks"], True), ([], True), (["--no-other-tasks"], None)):
        assert run(env, *flags).returncode == 0
        assert json.loads(daemon.config_path.read_text())["sync"].get("otherTasks") == expected, flags


def test_a_wrong_password_names_401_and_changes_nothing(daemon, env, radicale):
    before = daemon.config_path.read_bytes()
    keyring = Keyring(env)  # tried before the server
    try:
        child = spawn(env, "--url", radicale.url, "--username", USER)
        child.expect_exact(f"Password for {USER}: ")
        child.sendline("wrong horse")
        child.expect(pexpect.EOF)
        child.close()
        assert keyring.lookup(USER) == ""
    finally:
        keyring.stop()
    assert child.exitstatus == 1
    assert "401" in child.before and "wrong credentials" in child.before and "nothing was saved" in child.before
    assert daemon.config_path.read_bytes() == before
    assert radicale.task_lists() == []


def test_without_a_terminal_the_missing_value_is_named_as_a_flag(daemon, env, radicale):
    before = daemon.config_path.read_bytes()
    nothing = run(env)
    assert nothing.returncode == 1
    assert "no terminal" in nothing.stderr and "--url URL" in nothing.stderr
    no_password = run(env, "--url", radicale.url, "--username", USER)
    assert no_password.returncode == 1
    assert "--password-file PATH or --password-command CMD" in no_password.stderr
    assert daemon.config_path.read_bytes() == before


def test_a_password_file_others_can_read_is_refused_with_the_chmod(daemon, env, radicale, tmp_path):
    before = daemon.config_path.read_bytes()
    secret = password_file(tmp_path, mode=0o644)
    result = run(env, "--url", radicale.url, "--username", USER, "--password-file", str(secret))
    assert result.returncode == 1
    assert "mode 0644" in result.stderr and f"chmod 600 {secret}" in result.stderr
    assert daemon.config_path.read_bytes() == before


def test_no_secret_service_suggests_a_password_file(daemon, env, radicale):
    """The private bus activates nothing, so no keyring answers."""
    before = daemon.config_path.read_bytes()
    child = spawn(env, "--url", radicale.url, "--username", USER)
    child.expect_exact(f"Password for {USER}: ")
    child.sendline(PASSWORD)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "Secret Service" in child.before and "--password-file PATH" in child.before
    # The keyring is tried before the server: nothing is left made there for nothing.
    assert "nothing was created on the server and the config was not changed" in child.before, child.before
    assert radicale.task_lists() == []
    assert daemon.config_path.read_bytes() == before


def test_a_password_the_server_refuses_is_taken_back_from_the_keyring(daemon, env, radicale):
    """Stored before the server is asked, the password given is removed again when the server
    refuses it, or the entry there before is put back."""
    keyring = Keyring(env)
    try:
        for earlier in (None, "old horse"):
            if earlier is not None:
                subprocess.run(["secret-tool", "store", "--label=reminderd sync", "service", "reminderd", "username",
                                USER], env=env, input=earlier, text=True, check=True, timeout=10)
            child = spawn(env, "--url", radicale.url, "--username", USER)
            child.expect_exact(f"Password for {USER}: ")
            child.sendline("wrong horse")
            child.expect(pexpect.EOF)
            child.close()
            assert child.exitstatus == 1 and "401" in child.before, child.before
            assert "left in the Secret Service" not in child.before, child.before
            assert keyring.lookup(USER) == (earlier or "")
    finally:
        keyring.stop()
    assert radicale.task_lists() == []


def test_no_server_and_not_a_caldav_server_are_told_apart(daemon, env, tmp_path):
    secret = password_file(tmp_path)
    closed = free_port()
    result = run(env, "--url", f"http://127.0.0.1:{closed}/", "--username", USER, "--password-file", str(secret))
    assert result.returncode == 1
    assert "cannot reach" in result.stderr and "no network" in result.stderr
    web = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "0"], cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(web.stdout.readline().split("port ")[1].split()[0])
        result = run(env, "--url", f"http://127.0.0.1:{port}/", "--username", USER, "--password-file", str(secret))
    finally:
        web.kill()
        web.wait(10)
    assert result.returncode == 1
    assert "does not look like a CalDAV server" in result.stderr, result.stderr
    assert "will retry" not in result.stderr  # setup tries once
    assert "sync" not in json.loads(daemon.config_path.read_text())


def test_a_bad_sync_section_stops_the_daemon_naming_the_field(daemon):
    daemon.write_config({"timeZone": "UTC", "sync": {"url": "dav.example.org", "username": USER}})
    daemon.start(wait=False)
    assert daemon.process.wait(10) == 1
    log = (daemon.tmp / "daemon.log").read_text()
    assert 'sync.url: "dav.example.org" must be an http(s) address' in log, log


TLS_SERVER = """import http.server, ssl, sys
server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_port, flush=True)
server.serve_forever()
"""


def test_a_certificate_nobody_vouched_for_is_a_tls_failure(daemon, env, tmp_path):
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True, timeout=60)
    server = subprocess.Popen([sys.executable, "-c", TLS_SERVER, str(certificate), str(key)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(server.stdout.readline())
        result = run(env, "--url", f"https://127.0.0.1:{port}/", "--username", USER, "--password-file",
                     str(password_file(tmp_path)))
    finally:
        server.kill()
        server.wait(10)
    assert result.returncode == 1
    assert "TLS failure" in result.stderr and "certificate was not accepted" in result.stderr, result.stderr
    assert "sync" not in json.loads(daemon.config_path.read_text())


def make_task_list(radicale, segment, display_name):
    """A task list as a phone makes one: a generated segment, the name people see as displayname."""
    import base64
    import urllib.request
    body = ('<?xml version="1.0" encoding="utf-8"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            f'<D:set><D:prop><D:displayname>{display_name}</D:displayname><C:supported-calendar-component-set>'
            '<C:comp name="VTODO"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>')
    request = urllib.request.Request(radicale.collection_url(segment), data=body.encode(), method="MKCALENDAR")
    request.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
    request.add_header("Content-Type", "application/xml; charset=utf-8")
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201


def test_the_calendar_is_found_by_the_name_phones_show_and_two_of_that_name_are_refused(daemon, env, radicale,
                                                                                          tmp_path):
    phone = "5f1c2d9e-7a44-4b0e-9c1d-2f3e4a5b6c7d"
    make_task_list(radicale, phone, "Phone Tasks")
    flags = ["--url", radicale.url, "--username", USER, "--password-file", str(password_file(tmp_path))]
    found = run(env, *flags, "--calendar", "Phone Tasks")
    assert found.returncode == 0, found.stderr
    assert 'Found the task list "Phone Tasks"' in found.stdout
    assert radicale.task_lists() == [phone]  # no second "Phone Tasks"
    assert json.loads(daemon.config_path.read_text())["sync"]["calendar"] == phone  # where reminderd-sync looks
    saved = daemon.config_path.read_bytes()
    make_task_list(radicale, "other", "Phone Tasks")
    two = run(env, *flags, "--calendar", "Phone Tasks")
    assert two.returncode == 1
    assert 'task lists on the server are called "Phone Tasks"' in two.stderr, two.stderr
    assert radicale.collection_url(phone) in two.stderr and radicale.collection_url("other") in two.stderr
    assert "--calendar" in two.stderr and "nothing was saved" in two.stderr
    assert radicale.task_lists() == sorted([phone, "other"]) and daemon.config_path.read_bytes() == saved
    by_segment = run(env, *flags, "--calendar", "other")  # the URL's last part picks one
    assert by_segment.returncode == 0, by_segment.stderr
    assert json.loads(daemon.config_path.read_text())["sync"]["calendar"] == "other"


def test_plain_http_to_another_machine_is_refused_before_any_request(daemon, env, tmp_path):
    """The password would go in clear with every request: refused, naming the address and the
    option, before the password is asked for or the name is even looked up (.invalid never resolves)."""
    before = daemon.config_path.read_bytes()
    url = "http://dav.example.invalid/dav/"
    result = run(env, "--url", url, "--username", USER, "--password-file", str(password_file(tmp_path)))
    assert result.returncode == 1
    assert f'"{url}" is plain http' in result.stderr and "in clear to dav.example.invalid" in result.stderr
    assert "--allow-plain-http" in result.stderr and "https://" in result.stderr, result.stderr
    assert "cannot reach" not in result.stderr
    # Not even the password is asked for first.
    asked = run(env, "--url", url, "--username", USER)
    assert asked.returncode == 1 and "--allow-plain-http" in asked.stderr and "password" not in asked.stdout
    assert daemon.config_path.read_bytes() == before
    accepted = run(env, "--url", url, "--username", USER, "--password-file", str(password_file(tmp_path)),
                   "--allow-plain-http")
    assert accepted.returncode == 1 and "cannot reach" in accepted.stderr, accepted.stderr  # it went on to ask
    assert "warning: the password goes in clear over http to dav.example.invalid" in accepted.stderr
    assert daemon.config_path.read_bytes() == before


def test_plain_http_accepted_is_saved_said_in_sync_status_and_logged_and_refused_once_removed(daemon, env, radicale,
                                                                                                 tmp_path):
    """curl takes any name under .localhost to 127.0.0.1 itself; the policy does not count it as
    loopback (only localhost, 127.0.0.0/8 and ::1), so it stands for another machine here."""
    url = f"http://dav.localhost:{radicale.port}/"
    secret = password_file(tmp_path)
    flags = ["--url", url, "--username", USER, "--password-file", str(secret)]
    assert "--allow-plain-http" in run(env, *flags).stderr
    setup = run(env, *flags, "--allow-plain-http")
    assert setup.returncode == 0, setup.stderr
    warning = "the password goes in clear over http to dav.localhost (sync.allowPlainHttp); use https:// to protect it"
    assert f"warning: {warning}" in setup.stderr
    sync = json.loads(daemon.config_path.read_text())["sync"]
    assert sync == {"url": url, "username": USER, "calendar": "reminderd", "passwordFile": str(secret),
                    "allowPlainHttp": True}
    again = run(env)  # the saved account, checked again: the acceptance stays with its address
    assert again.returncode == 0, again.stderr
    assert json.loads(daemon.config_path.read_text())["sync"] == sync
    daemon.start()
    once = subprocess.run([str(BIN / "reminderd-sync"), "--once"], env=env, capture_output=True, text=True, timeout=60)
    assert once.returncode == 0, once.stderr
    assert once.stderr.count(warning) == 1, once.stderr
    status = daemon.ctl("sync", "status").stdout
    assert f"Warning:             {warning}" in status, status
    # Written by hand without the acceptance, reminderd-sync refuses it; reminderd runs on.
    del sync["allowPlainHttp"]
    config = json.loads(daemon.config_path.read_text())
    daemon.write_config(dict(config, sync=sync))
    check = subprocess.run([str(BIN / "reminderd-sync"), "--check-config"], env=env, capture_output=True, text=True,
                           timeout=30)
    assert check.returncode == 78
    assert f'sync.url "{url}" is plain http' in check.stderr and '"allowPlainHttp": true' in check.stderr, check.stderr
    assert "Warning" not in daemon.ctl("sync", "status").stdout
    refused = run(env)
    assert refused.returncode == 1 and "--allow-plain-http" in refused.stderr
    daemon.ctl("status")


def test_reminderctl_links_no_network_keyring_or_xml_library():
    """`sync setup` runs in reminderd-sync: reminderctl, run for every other command, loads none of
    the CalDAV client's libraries (issue 21)."""
    # A release build is a static executable (issue 21), for which ldd only says it is not dynamic.
    libraries = subprocess.run(["ldd", str(BIN / "reminderctl")], capture_output=True, text=True).stdout
    for library in ("libcurl", "libsecret", "libxml2", "libFoundationXML"):
        assert library not in libraries, libraries


def test_reminderd_sync_setup_is_the_same_setup_under_its_own_name(daemon, env, radicale, tmp_path):
    """What `reminderctl sync setup` hands over to, run by hand: the same options and words, its
    refusals named after reminderd-sync."""
    secret = password_file(tmp_path)
    command = [str(BIN / "reminderd-sync"), "setup", "--url", radicale.url, "--username", USER]
    refused = subprocess.run([*command, "--password-file", str(secret), "--password-command", "cat"], env=env,
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "give --password-file or --password-command, not both" in refused.stderr
    wrong = tmp_path / "wrong"
    wrong.write_text("wrong horse\n")
    wrong.chmod(0o600)
    denied = subprocess.run([*command, "--password-file", str(wrong)], env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=30)
    assert denied.returncode == 1 and denied.stderr.startswith("reminderd-sync: ") and "401" in denied.stderr
    saved = subprocess.run([*command, "--password-file", str(secret)], env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
    assert saved.returncode == 0, saved.stderr
    assert 'Created the task list "reminderd"' in saved.stdout
    assert json.loads(daemon.config_path.read_text())["sync"]["passwordFile"] == str(secret)


def test_without_reminderd_sync_sync_setup_says_where_it_looked(env, tmp_path):
    alone = tmp_path / "bin"
    alone.mkdir()
    shutil.copy(BIN / "reminderctl", alone)
    result = subprocess.run([str(alone / "reminderctl"), "sync", "setup", "--url", "https://dav.example.org/"],
                            env=dict(env, PATH="/usr/bin:/bin"), stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=30)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"reminderctl: sync setup runs reminderd-sync setup, and no reminderd-sync was found in {alone} (next to "
        "reminderctl) or PATH (/usr/bin:/bin); install it beside reminderctl: the reminderd package has it, and so "
        "does scripts/install.sh\n")


def test_reminderd_started_as_reminderd_sync_is_reminderd_sync_and_runs_sync_setup(daemon, env, radicale, tmp_path):
    """The package's reminderd-sync is a link to reminderd (scripts/package-deb.sh): under that name,
    and under the name `reminderctl sync setup` hands over with, reminderd runs reminderd-sync's
    command, the same as the reminderd-sync `swift build` makes (issue 21)."""
    shipped = tmp_path / "usr-bin"
    shipped.mkdir()
    (shipped / "reminderd").symlink_to(BIN / "reminderd")
    (shipped / "reminderd-sync").symlink_to("reminderd")
    shutil.copy(BIN / "reminderctl", shipped)  # a copy: it looks for reminderd-sync beside its own file

    def output(*command):
        result = subprocess.run([str(part) for part in command], env=env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=30)
        return result.returncode, result.stdout, result.stderr

    assert output(shipped / "reminderd-sync", "--help") == output(BIN / "reminderd-sync", "--help")
    assert output(shipped / "reminderd-sync", "setup", "--help") == output(BIN / "reminderd-sync", "setup", "--help")
    assert output(shipped / "reminderd-sync", "--check-config")[0] == 78
    assert output(shipped / "reminderd", "--help") == output(BIN / "reminderd", "--help")
    assert "Syncs reminderd's items" not in output(shipped / "reminderd", "--help")[1]

    secret = password_file(tmp_path)
    wrong = tmp_path / "wrong"
    wrong.write_text("wrong horse\n")
    wrong.chmod(0o600)
    setup = [shipped / "reminderctl", "sync", "setup", "--url", radicale.url, "--username", USER]
    status, _, stderr = output(*setup, "--password-file", wrong)
    assert status == 1 and stderr.startswith("reminderctl: ") and "401" in stderr, stderr
    status, stdout, stderr = output(*setup, "--password-file", secret)
    assert status == 0 and 'Created the task list "reminderd"' in stdout, stderr
    assert json.loads(daemon.config_path.read_text())["sync"]["passwordFile"] == str(secret)
