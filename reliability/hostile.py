#!/usr/bin/env python3
"""Hand-written hostile requests against a running onboard-server (started with --dev):
huge bodies, deep JSON, wrong content types, slow-loris headers and bodies, invalid
UTF-8, numbers out of range, SQL and control characters in every string field. Every
answer must be a 4xx (or a 2xx where the input is merely odd) in the error envelope,
never a 5xx or a dropped connection; the server must stay alive and its memory flat.

    python3 reliability/hostile.py BASE_URL SERVER_PID
"""
import json
import socket
import sys
import time
import urllib.parse

BASE, PID = sys.argv[1].rstrip("/"), int(sys.argv[2])
HOST, PORT = urllib.parse.urlsplit(BASE).hostname, urllib.parse.urlsplit(BASE).port
PREFIX = urllib.parse.urlsplit(BASE).path

ROUTES = [  # path, a valid body to spoil
    ("/auth/anonymous", {"flow": "oklah"}),
    ("/auth/register", {"flow": "babybasics", "name": "Jo", "email": "jo@example.org", "password": "long enough"}),
    ("/auth/login", {"flow": "babybasics", "email": "jo@example.org", "password": "long enough"}),
    ("/auth/refresh", {"refresh_token": "rt_x"}),
    ("/auth/phone/send", {"phone": "+6591234567"}),
    ("/auth/phone/verify", {"flow": "abby", "phone": "+6591234567", "code": "123456"}),
    ("/auth/social", {"flow": "abby", "provider": "apple", "id_token": "x", "nonce": "n"}),
    ("/user/profile", {"fields": {"display_name": "Jo"}}),
    ("/children", {"name": "Ray", "birth_date": "2024-01-02"}),
    ("/invites/accept", {"code": "abc"}),
    ("/dev/clock", {"offset_seconds": 60}),
]
NASTY_STRINGS = [
    "' OR 1=1 --", "\"; DROP TABLE users; --", "\u0000", "\u0007\u001b[2J", "\ud7ff\ue000", "A" * 100_000,
    "😀" * 10_000, "\u202e", "%s%n%x", "../../etc/passwd", "", " ", "\r\n\r\nGET / HTTP/1.1",
]
NASTY_NUMBERS = [0, -1, 2**31, -2**31 - 1, 2**63, -2**63 - 1, 10**40, 1e308, -1e308, 0.5]


def raw(request: bytes, timeout=15, pause_after=None):
    """Sends raw bytes; the status line's code, 0 when the server closed without one, -1
    when it neither answered nor closed within `timeout`. A server that answers before
    the whole request is sent (413) is read all the same."""
    with socket.create_connection((HOST, PORT), timeout=timeout) as connection:
        try:
            if pause_after is None:
                connection.sendall(request)
            else:
                for chunk in request_chunks(request, pause_after):
                    connection.sendall(chunk)
                    time.sleep(0.5)
        except (socket.timeout, BrokenPipeError, ConnectionResetError):
            pass
        data = b""
        try:
            while b"\r\n" not in data:
                piece = connection.recv(4096)
                if not piece:
                    break
                data += piece
        except socket.timeout:
            return -1
        except ConnectionResetError:
            pass
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def request_chunks(request, size):
    return [request[i:i + size] for i in range(0, len(request), size)]


def post(path, body: bytes, content_type="application/json", extra=b"", **options):
    head = (f"POST {PREFIX}{path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n").encode() + extra + b"\r\n"
    return raw(head + body, **options)


def rss():
    with open(f"/proc/{PID}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def cases():
    """(what, how) pairs; how() returns the status."""
    for path, body in ROUTES:
        yield f"{path}: 30 MB body", lambda p=path: post(p, b"{\"a\":\"" + b"x" * 30_000_000 + b"\"}")
        yield f"{path}: JSON 100,000 deep", lambda p=path: post(p, b"[" * 100_000 + b"]" * 100_000)
        yield f"{path}: invalid UTF-8", lambda p=path: post(p, b"{\"flow\":\"\xff\xfe\xc3\x28\"}")
        yield f"{path}: text/plain", lambda p=path, b=body: post(p, json.dumps(b).encode(), "text/plain")
        yield f"{path}: form-encoded", lambda p=path: post(p, b"flow=oklah", "application/x-www-form-urlencoded")
        yield f"{path}: not JSON", lambda p=path: post(p, b"{flow: oklah,,}")
        yield f"{path}: a JSON array", lambda p=path: post(p, b"[1,2,3]")
        yield f"{path}: null", lambda p=path: post(p, b"null")
        for key in body:
            for nasty in NASTY_STRINGS:
                spoiled = dict(body, **{key: nasty})
                yield f"{path}: {key}={nasty[:12]!r}", lambda p=path, s=spoiled: post(p, json.dumps(s).encode())
            for number in NASTY_NUMBERS:
                spoiled = dict(body, **{key: number})
                yield f"{path}: {key}={number}", lambda p=path, s=spoiled: post(p, json.dumps(s).encode())
            yield f"{path}: {key} an object", lambda p=path, k=key, b=body: post(p, json.dumps(dict(b, **{k: {"$gt": ""}})).encode())
    # Connection handling is the same on every route: once is enough (it takes 75 s).
    yield "a body shorter than Content-Length, never finished", lambda: raw(
        (f"POST {PREFIX}/auth/anonymous HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
         f"Content-Length: 100\r\nConnection: close\r\n\r\n{{\"flow\":").encode(), timeout=120)
    yield "8 KB of headers, a byte every 0.5 s (slow loris)", lambda: post(
        "/auth/anonymous", b'{"flow":"oklah"}', extra=b"X-Slow: " + b"a" * 60 + b"\r\n", pause_after=8)
    yield "100 KB header", lambda: post("/auth/anonymous", b'{"flow":"oklah"}', extra=b"X-Big: " + b"a" * 100_000 + b"\r\n")
    yield "10,000 headers", lambda: post("/auth/anonymous", b'{"flow":"oklah"}', extra=b"".join(b"X-%d: a\r\n" % i for i in range(10_000)))
    yield "garbage request line", lambda: raw(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 100)
    yield "HTTP/0.9 (closed when idle)", lambda: raw(b"GET /api/v1/health\r\n", timeout=120)
    yield "bearer token of garbage", lambda: post("/user/profile", b"{}", extra=b"Authorization: Bearer \xff\xfe' OR 1=1\r\n")
    yield "path traversal", lambda: raw(f"GET {PREFIX}/../../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    yield "record key of 10,000 characters", lambda: raw(
        f"PUT {PREFIX}/records/{'k' * 10_000} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}".encode())


def main():
    before, results, bad = rss(), {}, []
    for what, how in cases():
        try:
            status = how()
        except OSError as error:
            status = f"connection error: {error}"
        results[status] = results.get(status, 0) + 1
        # Closing without an answer (0) is right for a request that cannot be read: one
        # not HTTP/1, headers too large, a body that never comes (closed when idle).
        closes = ("garbage request line", "HTTP/0.9", "100 KB header", "10,000 headers", "never finished")
        if not isinstance(status, int) or status >= 500 or status == -1 or (status == 0 and not any(c in what for c in closes)):
            bad.append(f"{what}: {status}")
    after = rss()
    alive = True
    try:
        alive = post("/auth/anonymous", b'{"flow":"oklah"}') == 200
    except OSError:
        alive = False
    print(f"{sum(results.values())} hostile requests; answers: {dict(sorted(results.items(), key=str))}")
    print(f"server alive and answering: {'yes' if alive else 'NO'}; memory {before // 1024} MB before, {after // 1024} MB after")
    print(f"failures: {len(bad)}")
    for line in bad[:40]:
        print("  " + line)
    sys.exit(1 if bad or not alive else 0)


if __name__ == "__main__":
    main()
