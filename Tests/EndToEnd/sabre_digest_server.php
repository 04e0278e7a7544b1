<?php
// sabre/dav as Baïkal runs it (Debian's php-sabre-dav, its CalDAV plugin on a PDO SQLite store),
// offering Digest authentication only, as Baïkal does by default. A router for PHP's built-in
// server: `SABRE_DB=… SABRE_USER=… SABRE_PASSWORD=… php -S 127.0.0.1:PORT sabre_digest_server.php`,
// serving /dav.php/.
// The store and the one account are made on the first request if the file is new.

// sabre/dav 1.8 predates PHP 8: its notices go to the server's log, not into the answers' bodies.
ini_set('display_errors', '0');
ini_set('log_errors', '1');
require_once 'Sabre/autoload.php';

$realm = 'SabreDAV';
$user = getenv('SABRE_USER');
$pdo = new PDO('sqlite:' . getenv('SABRE_DB'));
$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
$pdo->exec('PRAGMA busy_timeout = 10000');
$pdo->exec(<<<SQL
    CREATE TABLE IF NOT EXISTS users (id integer primary key asc, username text unique, digesta1 text);
    CREATE TABLE IF NOT EXISTS principals (id integer primary key asc, uri text unique, email text,
        displayname text, vcardurl text);
    CREATE TABLE IF NOT EXISTS groupmembers (id integer primary key asc, principal_id integer, member_id integer,
        unique(principal_id, member_id));
    CREATE TABLE IF NOT EXISTS calendars (id integer primary key asc, principaluri text, displayname text, uri text,
        ctag integer, description text, calendarorder integer, calendarcolor text, timezone text, components text,
        transparent bool);
    CREATE TABLE IF NOT EXISTS calendarobjects (id integer primary key asc, calendardata blob, uri text,
        calendarid integer, lastmodified integer, etag text, size integer, componenttype text,
        firstoccurence integer, lastoccurence integer);
    SQL);
// Digest's stored secret: MD5 of user:realm:password (RFC 2617's HA1).
$pdo->prepare('INSERT OR IGNORE INTO users (username, digesta1) VALUES (?, ?)')
    ->execute([$user, md5($user . ':' . $realm . ':' . getenv('SABRE_PASSWORD'))]);
$principal = $pdo->prepare('INSERT OR IGNORE INTO principals (uri, displayname) VALUES (?, ?)');
foreach (['', '/calendar-proxy-read', '/calendar-proxy-write'] as $suffix) {
    $principal->execute(['principals/' . $user . $suffix, $user]);
}

$principalBackend = new \Sabre\DAVACL\PrincipalBackend\PDO($pdo);
$server = new \Sabre\DAV\Server([
    new \Sabre\CalDAV\Principal\Collection($principalBackend),
    new \Sabre\CalDAV\CalendarRootNode($principalBackend, new \Sabre\CalDAV\Backend\PDO($pdo)),
]);
// Where Baïkal serves it, and the address its users give: http://host/dav.php/.
$server->setBaseUri('/dav.php/');
$server->addPlugin(new \Sabre\DAV\Auth\Plugin(new \Sabre\DAV\Auth\Backend\PDO($pdo), $realm));
$server->addPlugin(new \Sabre\DAVACL\Plugin());
$server->addPlugin(new \Sabre\CalDAV\Plugin());
$server->exec();
