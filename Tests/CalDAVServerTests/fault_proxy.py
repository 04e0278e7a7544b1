#!/usr/bin/env python3
"""A tiny HTTP proxy in front of a CalDAV server that spoils answers on request, for the CalDAV
client's tests of bad answers.

    fault_proxy.py UPSTREAM_PORT PORT [CERT KEY]
        relays 127.0.0.1:PORT to 127.0.0.1:UPSTREAM_PORT, over TLS with CERT and KEY when given

A request for /_fault/MODE/REST goes to the server as /REST, and MODE decides what comes back:
  html      200 with an HTML login page (a captive portal or a proxy's page), nothing forwarded
  500       500 with an HTML error page
  truncate  the server's answer cut in half, Content-Length matching the half (broken XML)
  cut       the server's headers and half its body, then the connection closed (short body)
  reset     the connection reset (RST) once the request is read, before any answer
  loop      302 to the same URL, for ever
  slow      nothing for 30 s (the client's timeout must fire first)
Any other path is relayed unchanged.
"""
import http.client
import http.server
import socket
import ssl
import struct
import sys
import time

UPSTREAM_PORT = int(sys.argv[1])
LOGIN_PAGE = b"<!DOCTYPE html><html><head><title>Network login required</title></head><body>Sign in</body></html>"
ERROR_PAGE = b"<html><head><title>500 Internal Server Error</title></head><body>Oops</body></html>"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.relay
        raise AttributeError(name)

    def log_message(self, format, *args):
        pass

    def relay(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        mode, path = None, self.path
        if path.startswith("/_fault/"):
            _, _, mode, rest = path.split("/", 3)
            path = "/" + rest
        if mode == "html":
            return self.answer(200, "text/html; charset=utf-8", LOGIN_PAGE)
        if mode == "500":
            return self.answer(500, "text/html", ERROR_PAGE)
        if mode == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if mode == "slow":
            time.sleep(30)
            return self.answer(500, "text/plain", b"too late")
        upstream = http.client.HTTPConnection("127.0.0.1", UPSTREAM_PORT, timeout=30)
        # No Accept-Encoding: the answer comes back plain, so cutting it cuts the XML itself.
        dropped = ("host", "content-length", "accept-encoding")
        headers = {k: v for k, v in self.headers.items() if k.lower() not in dropped}
        upstream.request(self.command, path, body=body, headers=headers)
        response = upstream.getresponse()
        data = response.read()
        content_type = response.getheader("Content-Type", "application/octet-stream")
        if mode == "truncate":
            return self.answer(response.status, content_type, data[: len(data) // 2])
        if mode == "cut":
            self.send_response(response.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer(self, status, content_type, data):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler)
server.daemon_threads = True
if len(sys.argv) == 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
