#!/usr/bin/env python3
"""Clients of the hostile-request suite (standard library only): functions that the rows of
Scripts/attack/rows_*.py call, each returning what it measured, and the same as subcommands,
each printing one JSON object on stdout (except `sign`). Scripts/attack.sh runs `monitor`
beside every server it starts.

    attack.py sign [PATH...]                signed paths (THUMBFORGE_KEY/SALT, hex), one a
        line; without PATH, of each line read (also Scripts/replicas-check.sh's signer)
    attack.py monitor --port P --pid PID --out FILE [--interval 0.2]
        polls /healthz until SIGTERM; after every poll rewrites FILE with the worst latency,
        failed polls, the server's peak RSS (VmHWM) and whether it is alive
    attack.py slowloris --port P [--count 1500] [--trickle 100] [--hold 15]
        COUNT connections send a partial request and stall (TRICKLE of them send one more
        header line every 2 s); /healthz timed every 0.2 s meanwhile; after HOLD seconds,
        how many the server has closed
    attack.py slowread --port P --path PATH [--clients 50] [--rate 1024] [--seconds 12]
        CLIENTS connections (4 KB receive buffers) read the answer at RATE bytes/s
    attack.py flood --port P --paths FILE [--timeout 60]
        one request per line of FILE, all at once; statuses counted
    attack.py swap --port P --master FILE --replacement FILE [--save DIR] PATH...
        replaces FILE by REPLACEMENT (rename, same file system) and requests each PATH at once
    attack.py opens STRACE_FILE --allow PREFIX... [--secret PATH]
        the files a server opened (strace -f -y -e trace=open,openat), outside the prefixes:
        opened (success) and only attempted (failed), and every attempt on SECRET
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import selectors
import signal
import socket
import sys
import threading
import time


def signed(path, key=None, salt=None):
    """PATH signed as serve verifies it: /SIGNATURE/PATH, with KEY and SALT (hex; default
    THUMBFORGE_KEY and THUMBFORGE_SALT, the first of a comma-separated list)."""
    key = bytes.fromhex(key or os.environ["THUMBFORGE_KEY"].split(",")[0])
    salt = bytes.fromhex(salt or os.environ["THUMBFORGE_SALT"].split(",")[0])
    code = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()
    return "/" + base64.urlsafe_b64encode(code).decode().rstrip("=") + path


def get(port, path, timeout=10.0, headers=None):
    """(status, body bytes, seconds); status is an "error: …" text when no answer came.
    `headers`, a dict, receives the response's headers (lowercase names)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if headers is not None:
            headers.update({name.lower(): value for name, value in response.getheaders()})
        return response.status, body, time.monotonic() - started
    except Exception as error:  # noqa: BLE001 - any failure is an observation
        return f"error: {type(error).__name__}: {error}", b"", time.monotonic() - started
    finally:
        connection.close()


def peak_rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] not in ("Z", "X")
    except OSError:
        return False


# ---------------------------------------------------------------- monitor
def monitor(args):
    state = {"polls": 0, "failed": 0, "worst_ms": 0.0, "worst_status": None,
             "over_1s": 0, "peak_rss_kb": 0, "alive": True, "died_after_s": None}
    started = time.monotonic()
    stop = threading.Event()

    def write():
        temporary = args.out + ".tmp"
        with open(temporary, "w") as out:
            json.dump(state, out)
        os.replace(temporary, args.out)

    def stopped(*_):
        # The poll under way (the server is being stopped) is not an observation.
        rss = peak_rss_kb(args.pid)
        if rss:
            state["peak_rss_kb"] = max(state["peak_rss_kb"], rss)
        write()
        os._exit(0)

    signal.signal(signal.SIGTERM, stopped)

    while not stop.is_set():
        if not alive(args.pid):
            if state["alive"]:
                state["alive"] = False
                state["died_after_s"] = round(time.monotonic() - started, 2)
            write()
            break
        rss = peak_rss_kb(args.pid)
        if rss:
            state["peak_rss_kb"] = max(state["peak_rss_kb"], rss)
        status, _, seconds = get(args.port, "/healthz", timeout=5.0)
        state["polls"] += 1
        milliseconds = round(seconds * 1000, 1)
        if status != 200:
            state["failed"] += 1
            state["last_failure"] = str(status)
        if seconds > 1.0:
            state["over_1s"] += 1
        if milliseconds > state["worst_ms"]:
            state["worst_ms"] = milliseconds
            state["worst_status"] = status
        write()
        stop.wait(args.interval)
    write()


# ---------------------------------------------------------------- slowloris
def slowloris(port, count=1500, trickle=100, hold=15):
    selector = selectors.DefaultSelector()
    sockets = []
    refused = 0
    for index in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        code = sock.connect_ex(("127.0.0.1", port))
        if code not in (0, 115, 11):  # EINPROGRESS, EAGAIN
            refused += 1
            sock.close()
            continue
        sockets.append({"sock": sock, "trickle": index < trickle, "state": "connecting",
                        "closed_at": None, "index": index})
    # Wait (at most 5 s) for the connections to be established, then send the partial
    # request: half a request line for half of them, a request line and headers without
    # the final empty line for the others.
    deadline = time.monotonic() + 5
    for entry in sockets:
        selector.register(entry["sock"], selectors.EVENT_WRITE, entry)
    pending = len(sockets)
    while pending and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.2):
            entry = key.data
            error = entry["sock"].getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            selector.unregister(entry["sock"])
            pending -= 1
            if error:
                entry["state"] = "failed"
                continue
            entry["state"] = "open"
            # Trickling ones send whole header lines, so their request stays valid.
            partial = (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n"
                       if entry["index"] % 2 or entry["trickle"] else b"GET /unsafe/fill/Sl")
            try:
                entry["sock"].send(partial)
            except OSError:
                entry["state"] = "closed"
                entry["closed_at"] = 0.0
    for entry in sockets:
        if entry["state"] == "connecting":
            entry["state"] = "unestablished"
            try:
                selector.unregister(entry["sock"])
            except (KeyError, ValueError):
                pass
    established = [e for e in sockets if e["state"] in ("open", "closed")]
    for entry in established:
        if entry["state"] == "open":
            selector.register(entry["sock"], selectors.EVENT_READ, entry)
    started = time.monotonic()

    health = {"polls": 0, "worst_ms": 0.0, "failed": 0, "statuses": {}}
    stop = threading.Event()

    def poll_health():
        while not stop.is_set():
            status, _, seconds = get(port, "/healthz", timeout=5.0)
            health["polls"] += 1
            health["worst_ms"] = max(health["worst_ms"], round(seconds * 1000, 1))
            health["statuses"][str(status)] = health["statuses"].get(str(status), 0) + 1
            if status != 200:
                health["failed"] += 1
            stop.wait(0.2)

    poller = threading.Thread(target=poll_health, daemon=True)
    poller.start()
    answered = 0
    next_trickle = started + 2
    open_at = {}
    while time.monotonic() - started < hold:
        for key, _ in selector.select(timeout=0.1):
            entry = key.data
            try:
                data = entry["sock"].recv(65536)
            except OSError:
                data = b""
            if data:
                entry.setdefault("answered", True)
                continue
            selector.unregister(entry["sock"])
            entry["state"] = "closed"
            entry["closed_at"] = round(time.monotonic() - started, 1)
        now = time.monotonic()
        if now >= next_trickle:
            next_trickle = now + 2
            for entry in established:
                if entry["trickle"] and entry["state"] == "open":
                    try:
                        entry["sock"].send(b"X-More: a\r\n")
                    except OSError:
                        pass  # the read of the close will tell
        for mark in (5, 10):
            if mark not in open_at and now - started >= mark:
                open_at[mark] = sum(1 for e in established if e["state"] == "open")
    stop.set()
    poller.join(timeout=6)
    answered = sum(1 for e in established if e.get("answered"))
    still_open = [e for e in established if e["state"] == "open"]
    result = {
        "attempted": count, "refused": refused, "established": len(established),
        "unestablished": sum(1 for e in sockets if e["state"] == "unestablished"),
        "failed": sum(1 for e in sockets if e["state"] == "failed"),
        "still_open": len(still_open),
        "still_open_stalled": sum(1 for e in still_open if not e["trickle"]),
        "still_open_trickling": sum(1 for e in still_open if e["trickle"]),
        "trickling": sum(1 for e in established if e["trickle"]),
        "open_after_5s": open_at.get(5), "open_after_10s": open_at.get(10),
        "answered_before_close": answered, "healthz": health,
    }
    for entry in sockets:
        entry["sock"].close()
    return result


# ---------------------------------------------------------------- slow readers
def slowread(port, path, clients=50, rate=1024, seconds=12):
    results = []
    lock = threading.Lock()
    go = threading.Barrier(clients)

    def client():
        record = {"status": None, "read": 0, "error": None}
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(30)
        try:
            go.wait(timeout=30)
            sock.connect(("127.0.0.1", port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            started = time.monotonic()
            while time.monotonic() - started < seconds:
                data = sock.recv(rate)
                if not data:
                    record["error"] = "closed by the server"
                    break
                if record["status"] is None and record["read"] == 0:
                    line = data.split(b"\r\n", 1)[0].split()
                    record["status"] = int(line[1]) if len(line) > 1 else line
                record["read"] += len(data)
                time.sleep(1.0)
        except Exception as error:  # noqa: BLE001
            record["error"] = f"{type(error).__name__}: {error}"
        finally:
            sock.close()
        with lock:
            results.append(record)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = {}
    for record in results:
        statuses[str(record["status"])] = statuses.get(str(record["status"]), 0) + 1
    return {
        "clients": clients, "statuses": statuses,
        "errors": [r["error"] for r in results if r["error"]][:5],
        "error_count": sum(1 for r in results if r["error"]),
        "read_min": min(r["read"] for r in results), "read_max": max(r["read"] for r in results),
    }


# ---------------------------------------------------------------- flood
def flood(port, paths, timeout=60):
    results = []
    lock = threading.Lock()
    go = threading.Barrier(len(paths))

    def client(path):
        try:
            go.wait(timeout=30)
        except threading.BrokenBarrierError:
            pass
        status, body, seconds = get(port, path, timeout=timeout)
        with lock:
            results.append((status, len(body), seconds))

    threads = [threading.Thread(target=client, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = {}
    for status, _, _ in results:
        key = str(status) if isinstance(status, int) else status.split(":")[0] + ":" + status.split(":")[1]
        statuses[key] = statuses.get(key, 0) + 1
    return {
        "requests": len(paths), "statuses": statuses,
        "slowest_s": round(max(s for _, _, s in results), 2),
        "bytes": sum(n for _, n, _ in results),
    }


# ---------------------------------------------------------------- swap
def swap(port, master, replacement, paths, save=None):
    os.replace(replacement, master)
    swapped = time.monotonic()
    answers = []
    for path in paths:
        headers = {}
        status, body, seconds = get(port, path, timeout=30, headers=headers)
        out = None
        if save and status == 200:
            out = os.path.join(save, f"swap-{len(answers)}.bin")
            with open(out, "wb") as file:
                file.write(body)
        answers.append({"path": path, "status": status, "bytes": len(body),
                        "retry_after": headers.get("retry-after"),
                        "after_swap_ms": round((time.monotonic() - swapped) * 1000, 1),
                        "body": out if out else body[:120].decode("utf-8", "replace")})
    return answers


# ---------------------------------------------------------------- strace
def opens(file, allow, secret=None):
    import re
    call = re.compile(r'^(\d+)\s+(?:open|openat)\((?:[^,]*,\s*)?"((?:[^"\\]|\\.)*)"')
    unfinished = re.compile(r"<unfinished \.\.\.>\s*$")
    resumed = re.compile(r'^(\d+)\s+<\.\.\. (?:open|openat) resumed>.*=\s*(-?\d+)')
    result = re.compile(r"\)\s*=\s*(-?\d+)")
    pending = {}
    opened, attempted, secret_hits, total = set(), set(), [], 0

    def allowed(path):
        return any(path == prefix.rstrip("/") or path.startswith(prefix) for prefix in allow)

    def record(path, code):
        nonlocal total
        total += 1
        path = os.path.normpath(path) if path.startswith("/") else path
        if secret and os.path.normpath(secret) == path:
            secret_hits.append(f"{path} = {code}")
        if not path.startswith("/") or allowed(path):
            return
        (opened if code >= 0 else attempted).add(path)

    with open(file, errors="replace") as trace:
        for line in trace:
            match = call.match(line)
            if match:
                pid, path = match.group(1), match.group(2)
                if unfinished.search(line):
                    pending[pid] = path
                    continue
                code = result.search(line)
                record(path, int(code.group(1)) if code else -1)
                continue
            match = resumed.match(line)
            if match and match.group(1) in pending:
                record(pending.pop(match.group(1)), int(match.group(2)))
    for path in pending.values():
        record(path, 0)  # never resumed: counted as opened
    return {"calls": total, "opened_outside": sorted(opened),
            "attempted_outside": sorted(attempted), "secret": secret_hits}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    sign = commands.add_parser("sign")
    sign.add_argument("paths", nargs="*")
    watch = commands.add_parser("monitor")
    watch.add_argument("--port", type=int, required=True)
    watch.add_argument("--pid", type=int, required=True)
    watch.add_argument("--out", required=True)
    watch.add_argument("--interval", type=float, default=0.2)
    loris = commands.add_parser("slowloris")
    loris.add_argument("--port", type=int, required=True)
    loris.add_argument("--count", type=int, default=1500)
    loris.add_argument("--trickle", type=int, default=100)
    loris.add_argument("--hold", type=float, default=15)
    reader = commands.add_parser("slowread")
    reader.add_argument("--port", type=int, required=True)
    reader.add_argument("--path", required=True)
    reader.add_argument("--clients", type=int, default=50)
    reader.add_argument("--rate", type=int, default=1024)
    reader.add_argument("--seconds", type=float, default=12)
    many = commands.add_parser("flood")
    many.add_argument("--port", type=int, required=True)
    many.add_argument("--paths", required=True)
    many.add_argument("--timeout", type=float, default=60)
    swapper = commands.add_parser("swap")
    swapper.add_argument("--port", type=int, required=True)
    swapper.add_argument("--master", required=True)
    swapper.add_argument("--replacement", required=True)
    swapper.add_argument("--save")
    swapper.add_argument("paths", nargs="+")
    traced = commands.add_parser("opens")
    traced.add_argument("file")
    traced.add_argument("--allow", nargs="+", default=[])
    traced.add_argument("--secret")
    args = parser.parse_args()
    if args.command == "sign":
        for path in args.paths or (line.rstrip("\n") for line in sys.stdin):
            print(signed(path))
    elif args.command == "monitor":
        monitor(args)
    else:
        print(json.dumps(run(args)))


def run(args):
    """The result of a subcommand other than sign and monitor."""
    if args.command == "slowloris":
        return slowloris(args.port, args.count, args.trickle, args.hold)
    if args.command == "slowread":
        return slowread(args.port, args.path, args.clients, args.rate, args.seconds)
    if args.command == "flood":
        with open(args.paths) as listing:
            return flood(args.port, [line.strip() for line in listing if line.strip()],
                         args.timeout)
    if args.command == "swap":
        return swap(args.port, args.master, args.replacement, args.paths, args.save)
    return opens(args.file, args.allow, args.secret)


if __name__ == "__main__":
    main()
