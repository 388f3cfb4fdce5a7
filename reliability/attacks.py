#!/usr/bin/env python3
"""The security review's attacks (issue 31), replayed against real onboard-servers, each
expected to fail: an Idempotency-Key replayed with another body or without the device's
proof, wrong passwords guessed in parallel, X-Forwarded-For forged by a client, and a
TLS downgrade (TLS 1.0/1.1, static RSA, CBC). Prints one line per attack and exits 1 if
any got through.

    python3 reliability/attacks.py
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import socket
import time

from server import Server, build_folder
from support import free_port

FAILURES = []


def check(name, ok, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        FAILURES.append(name)


def call(base, path, body, headers=None):
    request = urllib.request.Request(base + "/api/v1" + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def replayed_keys(base):
    key = {"Idempotency-Key": "victim-register-key-0001", "Idempotency-Proof": "victim-device"}
    body = {"flow": "babybasics", "name": "Vi", "email": "vi@example.org", "password": "victim secret"}
    status, first = call(base, "/auth/register", body, key)
    check("register once", status == 200, status)
    status, answer = call(base, "/auth/register", {**body, "email": "at@example.org", "password": "attacker"},
                          {**key, "Idempotency-Proof": "attacker"})
    check("victim's key with another body: 422, no tokens", status == 422 and "access_token" not in json.dumps(answer), status)
    status, answer = call(base, "/auth/register", body, key)
    check("the victim's own repeat: a new session, not the first tokens",
          status == 200 and answer.get("refresh_token") != first.get("refresh_token"), status)
    guest_key = {"Idempotency-Key": "victim-guest-key-00001"}
    call(base, "/auth/anonymous", {"flow": "rucktracker"}, {**guest_key, "Idempotency-Proof": "guest-device"})
    status, answer = call(base, "/auth/anonymous", {"flow": "rucktracker"}, guest_key)
    check("a guest's key without its device's proof: no session", status >= 400 and "session" not in answer, status)


def parallel_guesses(base, limit):
    call(base, "/auth/register", {"flow": "babybasics", "name": "Lo", "email": "lo@example.org", "password": "the right one"})
    body = lambda n: {"flow": "babybasics", "email": "lo@example.org", "password": f"guess {n}"}
    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(lambda n: call(base, "/auth/login", body(n))[0], range(60)))
    checked = statuses.count(401)
    check(f"60 wrong passwords at once: at most {limit} checked", checked <= limit, f"{checked} checked")


def forged_addresses(base, limit):
    statuses = [call(base, "/auth/anonymous", {"flow": "oklah"}, {"X-Forwarded-For": f"198.51.100.{n}"})[0] for n in range(limit + 3)]
    check("X-Forwarded-For from a client that is no proxy: ignored, the limit holds", statuses.count(429) >= 3, statuses)


def tls_downgrade(port):
    for offer in (["-tls1"], ["-tls1_1"], ["-tls1_2", "-cipher", "AES128-SHA"], ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA"]):
        cipher = [] if "-cipher" in offer else ["-cipher", "DEFAULT"]
        command = ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", *offer, *cipher]
        command[-1] = command[-1] + ":@SECLEVEL=0"
        result = subprocess.run(command, input=b"", capture_output=True, timeout=20)
        check(f"TLS downgrade {' '.join(offer)}: refused", result.returncode != 0)


def main():
    binary = os.path.join(build_folder(), "onboard-server")
    folder = tempfile.mkdtemp(prefix="onboard-attacks-")
    limit = 10
    print("== Attacks (issue 31)")
    plain = Server(binary, folder, ["--login-failure-limit", str(limit), "--sign-in-limit", "20"])
    try:
        replayed_keys(plain.url)
        parallel_guesses(plain.url, limit)
        forged_addresses(plain.url, 20)
    finally:
        plain.stop()
    certificate, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                    "-subj", "/CN=localhost"], check=True, capture_output=True)
    port = free_port()
    with open(os.path.join(folder, "tls.log"), "wb") as log:
        secure = subprocess.Popen([binary, "--port", str(port), "--db", os.path.join(folder, "tls.sqlite"),
                                   "--tls-cert", certificate, "--tls-key", key], stdout=log, stderr=log)
        try:
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            tls_downgrade(port)
        finally:
            secure.terminate()
            secure.wait()
    print(f"{len(FAILURES)} attacks got through")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
