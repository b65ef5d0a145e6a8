"""The rows of the hostile-request suite (listed in Scripts/attack/suite.py): each builds its
asset folders, asks for its servers, sends its requests and returns (VERDICT, DETAIL):
PASS, FAIL or SKIP, and what was measured. `row` is the suite's Row: servers, requests,
folders, and the reasons it fails (row.fail)."""
import functools
import hashlib
import json
import os
import re
import resource
import secrets
import shutil
import socket
import subprocess
import threading
import time
import unicodedata
import urllib.parse

import attack
import gen


class StartError(Exception):
    """A server that did not start (row.start raises it): its log, and why (its exit status
    and its log's last lines, or no answer)."""

    def __init__(self, log, message):
        super().__init__(message)
        self.log, self.message = log, message


def unsafe(path):
    """The request path of an unsigned server."""
    return "/unsafe" + path


def is_4xx(status):
    return str(status).startswith("4")


def no_answer_or_5xx(status):
    return not isinstance(status, int) or str(status).startswith("5")


def text(body, count=100):
    return body[:count].decode("utf-8", "replace")


@functools.cache
def jobs_flag(binary):
    """The flag for parallel renders: --jobs, or --workers where the binary has it."""
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True)
    return "--workers" if "--workers" in help_text.stdout + help_text.stderr else "--jobs"


def new_keys():
    """A fresh signing key (32 bytes) and salt (16 bytes), in hex."""
    return secrets.token_hex(32), secrets.token_hex(16)


def write(path, body):
    with open(path, "wb") as file:
        file.write(body)


# ---------------------------------------------------------------- 1
def row_1(row):
    folder = row.folder("row1")
    png = row.input("thin.png", 1, 2000000, grey=True)
    shutil.copy(png, os.path.join(folder, "Thin.png"))
    row.start("row1", folder)
    report = []
    for path in ("/fill/Thin@3x.png", "/tile/Thin@3x.png", "/fill/Thin@2x.png",
                 "/variants/Thin@3x.png"):
        status, seconds, body = row.http(unsafe(path))
        report.append(f"{path[1:]} → {status} in {int(seconds * 1000)} ms")
        if (path.startswith("/fill/") and "@3x" in path or path.startswith("/tile/")) \
                and not is_4xx(status):
            row.fail(f"{path[1:]} answered {status}, not 4xx (413 expected): {text(body)}")
        if no_answer_or_5xx(status):
            row.fail(f"{path[1:]} answered {status}")
    if not row.alive():
        row.fail("the server is gone after the requests")
    if row.code("/healthz") != 200:
        row.fail("/healthz after the requests did not answer 200")
    row.stop()
    return row.finish(f"master {os.path.getsize(png)} bytes; " + "; ".join(report))


# ---------------------------------------------------------------- 2, 3
def slow_folder(row, name, *serve_lines):
    """A slow render: the `slow` recipe (fill 1000×1000 pt with a smart crop, 3x) of a
    2000×90000 PNG, which the catalog's plan gives it (rendered as build renders it), and a
    tiny master."""
    folder = row.folder(name, *serve_lines, top='''rules:
  - match: "Slow*"
    recipes: [slow]
recipes:
  slow: { kind: fill, size: [1000, 1000], gravity: attention, scales: [3], format: png }''')
    shutil.copy(row.input("slow.png", 2000, 90000, level=1), os.path.join(folder, "Slow.png"))
    shutil.copy(row.input("tiny.png", 8, 8, noise=7), os.path.join(folder, "Tiny.png"))
    return folder


def row_2(row):
    flag = jobs_flag(row.binary)
    row.start("row2", slow_folder(row, "row2"), flag, 2)
    slow = {}

    def slow_render():
        slow["started"] = time.monotonic()
        slow["status"], _, slow["seconds"] = attack.get(
            row.server.port, unsafe("/slow/Slow@3x.png"), timeout=60)

    client = threading.Thread(target=slow_render)
    client.start()
    time.sleep(0.3)
    tiny_started = time.monotonic()
    tiny_status = row.code(unsafe("/fill:10x10/Tiny@1x.png"))
    tiny_done = time.monotonic()
    client.join()
    slow_end = slow["started"] + slow["seconds"]
    tiny_ms = round((tiny_done - tiny_started) * 1000)
    still_running = "yes" if slow_end > tiny_done else "no"
    if slow["status"] != 200:
        row.fail(f"the slow render answered {slow['status']}")
    if tiny_status != 200:
        row.fail(f"the trivial render answered {tiny_status}")
    if tiny_ms >= 1000:
        row.fail(f"the trivial render took {tiny_ms} ms behind the slow one (< 1000 expected)")
    else:
        # A trivial render stalled behind the slow one would wait until the slow one ends:
        # the row can tell a stall from none only when that is well over 1 s after it was
        # asked.
        left = round(slow_end - tiny_started, 2)
        if left < 1.2:
            row.fail(f"inconclusive: the slow render ended {left}s after the trivial one was "
                     f"asked (the row needs ≥ 1.2 s; it took {slow['seconds']:.3f}s)")
        if still_running != "yes":
            row.fail("inconclusive: the slow render had finished before the trivial one")
    row.stop()
    return row.finish(
        f"slow render {slow['status']} in {slow['seconds']:.2f} s; trivial render asked 0.3 s "
        f"later: {tiny_status} in {tiny_ms} ms, slow one still running then: {still_running} "
        f"({flag} 2)")


def shown(value):
    """A metric's value as the report shows it: "absent", or the number."""
    return "absent" if value is None else f"{value:g}"


def row_3(row):
    row.start("row3", slow_folder(row, "row3", "timeout: 1"), jobs_flag(row.binary), 2)
    status, seconds, _ = row.http(unsafe("/slow/Slow@3x.png"))
    answered = time.monotonic()
    at_answer = row.metric("thumbforge_renders_in_flight")
    cancelled, waited = None, 0
    while waited < 2000:
        cancelled = row.metric("thumbforge_renders_cancelled_total")
        if cancelled is not None and int(cancelled) >= 1:
            break
        time.sleep(0.1)
        waited = round((time.monotonic() - answered) * 1000)
    in_flight = (f"{shown(at_answer)} at the answer, "
                 f"{shown(row.metric('thumbforge_renders_in_flight'))} after {waited} ms")
    if status != 503:
        row.fail(f"the slow render answered {status} after {seconds:.3f}s, not 503")
    if cancelled is None:
        row.fail("/metrics has no thumbforge_renders_cancelled_total within 2 s of the answer "
                 f"(renders in flight: {in_flight})")
    elif int(cancelled) < 1:
        row.fail(f"thumbforge_renders_cancelled_total is {shown(cancelled)} 2 s after the answer "
                 f"(renders in flight: {in_flight})")
    row.stop()
    return row.finish(
        f"slow render → {status} after {seconds:.3f}s; thumbforge_renders_cancelled_total "
        f"{shown(cancelled)} after {waited} ms; renders in flight: {in_flight}")


# ---------------------------------------------------------------- 4
def body_key(path):
    return path.translate(str.maketrans("/:@", "___"))


def vips_size_and_colour(body_file):
    """("W×H", "R G B" of the pixel at 0,0) of an output, as the vips CLI reads them."""
    def vips(*words):
        return subprocess.run(words, capture_output=True, text=True).stdout

    size = (vips("vipsheader", "-f", "width", body_file).strip() + "x"
            + vips("vipsheader", "-f", "height", body_file).strip())
    return size, " ".join(vips("vips", "getpoint", body_file, "0", "0").split()[:3])


def judge_swap(row, report, mode, phase, answers, old):
    """Checks each answer after a swap: 413 is right; a 200 is wrong when its pixels are the
    swapped-in master's colour (blue); it is tolerated when its bytes equal the same output's
    before the swap (right after it), and as stale when its pixels are the old master's (red)
    right after the swap, or at any time after the stealth swap (nothing tells the server
    that file changed). A 503 with Retry-After (the master changed since the scan: come back
    after the reload) is tolerated right after the swap, and after the stealth swap; any
    other 5xx fails. Each answer: path, status, body (a saved file for a 200, else text),
    retry_after."""
    tolerant = phase == "immediate" or mode == "stealth"
    for answer in answers:
        path, status, body = answer["path"], answer["status"], answer["body"]
        entry = f"{path[len('/unsafe/'):]}→{status}"
        if status == 413:
            pass
        elif status == 200:
            key = body_key(path)
            with open(body, "rb") as file:
                same = phase == "immediate" and old.get(key) == file.read()
            if same:
                entry += "(old bytes)"
            else:
                size, colour = vips_size_and_colour(body)
                if colour == "0 0 255":
                    row.fail(f"{mode} swap, {phase}: {path} answered 200 with a render of the "
                             f"swapped-in 2000×2000 master ({size}, its colour)")
                elif colour == "255 0 0" and tolerant:
                    entry += f"(stale: the old master's pixels, {size})"
                elif colour == "255 0 0":
                    row.fail(f"{mode} swap, {phase}: {path} answered 200 from the replaced "
                             f"master's pixels, though the reload had run ({size})")
                else:
                    row.fail(f"{mode} swap, {phase}: {path} answered 200 with unexpected "
                             f"pixels '{colour}' ({size})")
        elif status == 503:
            retry = answer["retry_after"]
            if retry and tolerant:
                entry += f"(Retry-After: {retry})"
            else:
                row.fail(f"{mode} swap, {phase}: {path} answered 503 "
                         f"(Retry-After: {retry or 'none'})")
        elif no_answer_or_5xx(status):
            row.fail(f"{mode} swap, {phase}: {path} answered {status}")
        else:
            row.fail(f"{mode} swap, {phase}: {path} answered {status}, not 413: {body[:100]}")
        report.append(" " + entry)


def row_4(row):
    folder = row.folder("row4", top="limit-input-pixels: 1000000")
    # Two masters of 600×600 red pixels, each padded to 64 KB, an hour old.
    an_hour_ago = time.time() - 3600
    for name in ("Swap", "Stealth"):
        master = os.path.join(folder, f"{name}.png")
        gen.png(master, 600, 600, colour="FF0000", pad_to=65536)
        os.utime(master, (an_hour_ago, an_hour_ago))
    row.start("row4", folder)
    old = {}
    for name in ("Swap", "Stealth"):
        path = unsafe(f"/fill:100x100/{name}@1x.png")
        status, _, body = row.http(path)
        if status != 200:
            row.fail(f"before the swap, {path} answered {status}")
        old[body_key(path)] = body
    report = []
    for mode, name in (("plain", "Swap"), ("stealth", "Stealth")):
        master = os.path.join(folder, f"{name}.png")
        replacement = os.path.join(row.work, f"row4-{name}-new.png")
        if mode == "plain":
            gen.png(replacement, 2000, 2000, colour="0000FF")
        else:
            # Same size and modification time as the master it replaces.
            gen.png(replacement, 2000, 2000, colour="0000FF", pad_to=os.path.getsize(master))
            facts = os.stat(master)
            os.utime(replacement, ns=(facts.st_atime_ns, facts.st_mtime_ns))
        report.append(f" {mode} swap, at once:")
        saved = os.path.join(row.work, f"row4-{mode}")
        os.makedirs(saved)
        answers = attack.swap(row.server.port, master, replacement, [
            unsafe(f"/fill:100x100/{name}@1x.png"), unsafe(f"/fill:120x120/{name}@1x.png"),
            unsafe(f"/variants/{name}@3x.png"), unsafe(f"/variants/{name}@2x.png")], save=saved)
        judge_swap(row, report, mode, "immediate", answers, old)
        report.append(f" (first answer {answers[0]['after_swap_ms']} ms after the rename); "
                      "after 2 s:")
        time.sleep(2)
        later = []
        for path in (f"/fill:100x100/{name}@1x.png", f"/fill:140x140/{name}@1x.png",
                     f"/variants/{name}@3x.png", f"/variants/{name}@1x.png"):
            headers = {}
            status, body, _ = attack.get(row.server.port, unsafe(path), timeout=30,
                                         headers=headers)
            body_file = os.path.join(saved, f"later-{body_key(path)}")
            write(body_file, body)
            later.append({"path": unsafe(path), "status": status,
                          "body": body_file if status == 200 else text(body),
                          "retry_after": headers.get("retry-after")})
        judge_swap(row, report, mode, "after 2 s", later, old)
        report.append(";")
    if not row.alive():
        row.fail("the server is gone")
    row.stop()
    return row.finish("".join(report))


# ---------------------------------------------------------------- 5
def library_folders(binary):
    """The folders of the binary's own shared libraries (a debug build links the Swift
    runtime from the toolchain's folder)."""
    listing = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    folders = set()
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[2].startswith("/"):
            folders.add(fields[2][:fields[2].rindex("/") + 1])
    return sorted(folders)


def row_5(row):
    folder = row.folder("row5", "untrusted-sources: true")
    secret = os.path.join(row.work, "attack-secret.png")
    gen.png(secret, 16, 16, colour="00FF00")
    gen.svg(os.path.join(folder, "Evil.svg"), f"file://{secret}")
    gen.bmp(os.path.join(folder, "Fake.png"), 64, 48)
    gen.png(os.path.join(folder, "Plain.png"), 64, 64, noise=5)
    trace = os.path.join(row.work, "row5.strace") if shutil.which("strace") else None
    row.start("row5", folder, strace=trace)
    report = []
    for path in ("/variants/Evil@2x.png", "/fill/Evil@2x.png", "/fill:64x64/Evil@1x.png",
                 "/variants/Fake@2x.png", "/fill/Fake@1x.png", "/fill:64x64/Fake@1x.png"):
        status = row.code(unsafe(path))
        report.append(f"{path[1:]}→{status}")
        if not is_4xx(status):
            row.fail(f"{path[1:]} answered {status}, not 4xx")
    control = row.code(unsafe("/fill/Plain@1x.png"))
    report = [" ".join(report) + f"; control fill/Plain@1x.png→{control}"]
    if control != 200:
        row.fail(f"the plain PNG answered {control} (the server does not render at all?)")
    row.stop()
    if trace is None:
        report.append("strace not installed: opened files not checked")
        return row.finish("; ".join(report))
    allowed = [folder + "/", os.path.join(row.work, "row5/cache") + "/", "/usr/", "/lib/",
               "/lib64/", "/lib32/", "/etc/ld.so.", "/proc/", "/sys/", "/dev/", "/etc/fonts/",
               "/etc/localtime", "/etc/nsswitch.conf", "/etc/hosts", "/etc/host.conf",
               "/etc/gai.conf", "/etc/resolv.conf", "/etc/passwd", "/etc/group",
               "/var/cache/fontconfig/", row.binary] + library_folders(row.binary)
    opened = attack.opens(trace, allowed, secret=secret)
    outside = json.dumps(opened["opened_outside"])
    report.append(f"strace: {opened['calls']} opens, outside the folder/cache/system: {outside} "
                  f"(plus {len(opened['attempted_outside'])} failed attempts)")
    why = (" (ImageMagick's configuration: its loader, an untrusted one, ran on a master)"
           if "ImageMagick" in outside else "")
    if opened["opened_outside"]:
        row.fail(f"files outside the folder, the cache and the system's were opened: "
                 f"{outside}{why}")
    if opened["secret"]:
        row.fail(f"the file outside the folder was opened: {json.dumps(opened['secret'])}")
    else:
        report[-1] += ", the outside file never"
    return row.finish("; ".join(report))


# ---------------------------------------------------------------- 6
def row_6(row):
    row.start("row6", row.folder("row6"), nofile=1024)
    own = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    count = 1500 if own >= 1600 else own - 100
    result = attack.slowloris(row.server.port, count, trickle=100, hold=15)
    established, still_open = result["established"], result["still_open"]
    stalled, trickling = result["still_open_stalled"], result["still_open_trickling"]
    health = result["healthz"]
    if still_open > established // 100:
        row.fail(f"{still_open} of {established} connections still open after 15 s ({stalled} "
                 f"stalled, {trickling} trickling; open after 5 s: {result['open_after_5s']}, "
                 f"after 10 s: {result['open_after_10s']})")
    if not (health["worst_ms"] <= 1000 and health["failed"] == 0):
        row.fail(f"/healthz during the attack: worst {health['worst_ms']} ms, {health['failed']} "
                 f"failed of {health['polls']} ({json.dumps(health['statuses'])})")
    if not row.alive():
        row.fail("the server is gone")
    row.stop()
    return row.finish(
        f"{count} connections (server ulimit -n 1024), {established} established "
        f"({result['unestablished']} never accepted by the kernel); still open after 15 s: "
        f"{still_open} ({stalled} stalled, {trickling} of {result['trickling']} trickling); "
        f"/healthz meanwhile worst {health['worst_ms']} ms, {health['failed']} failed")


# ---------------------------------------------------------------- 7
def status_mb(pid, field):
    """A memory figure of /proc/PID/status (VmHWM, VmRSS) in MB, 0 when unreadable."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def row_7(row):
    folder = row.folder("row7")
    shutil.copy(row.input("noise-4000.png", 4000, 4000, noise=11), os.path.join(folder, "Big.png"))
    row.start("row7", folder)
    path = unsafe("/fit:1000x1000/Big@3x.png")
    status, seconds, body = row.http(path)
    if status != 200:
        row.fail(f"the output answered {status}")
        row.stop()
        return row.finish(f"{status} {seconds} {len(body)}")
    size = len(body)
    before = status_mb(row.server.pid, "VmHWM")
    result = attack.slowread(row.server.port, path, clients=50, rate=1024, seconds=12)
    current = status_mb(row.server.pid, "VmRSS")
    if not row.alive():
        row.fail("the server is gone")
    row.stop()
    if row.rss_mb >= 600:
        row.fail(f"peak RSS {row.rss_mb} MB with 50 slow readers (< 600 expected; {before} MB "
                 f"before them, {current} MB at their end)")
    if row.rss_mb >= before + 100:
        row.fail(f"the 50 slow readers added {row.rss_mb - before} MB to the peak RSS (< 100 MB "
                 f"expected: about a chunk and a write buffer each; {before} MB before them, "
                 f"{current} MB at their end)")
    statuses = json.dumps(result["statuses"])
    if result["statuses"] != {"200": 50}:
        row.fail(f"the readers got {statuses} ({json.dumps(result['errors'])})")
    return row.finish(
        f"output {size // 1048576} MB ({size} bytes); 50 readers at 1 KB/s for 12 s: "
        f"{statuses}, read {result['read_min']}–{result['read_max']} bytes each; RSS {before} MB "
        f"before them, {current} MB at their end, peak {row.rss_mb} MB")


# ---------------------------------------------------------------- 8, 12
COLOURS = ("C04040", "40C040", "4040C0", "C0C040")


def large_masters(row, folder):
    """Large in pixels, small on disk: four 6000×6000 RGBA masters of one colour each (144 MB
    decoded), Big1.png to Big4.png."""
    for i, colour in enumerate(COLOURS, start=1):
        shutil.copy(row.input(f"large-rgba-{i}.png", 6000, 6000, alpha=True, colour=colour),
                    os.path.join(folder, f"Big{i}.png"))


def only_admitted(statuses, require_200=False):
    """Whether every answer was 200, 429 or 503 (and, when asked, some were 200)."""
    return set(statuses) <= {"200", "429", "503"} and (not require_200 or "200" in statuses)


def row_8(row):
    # The outputs are over the default serve.max-output-pixels (they would all be 413):
    # raised, so that the memory budget is what bounds the flood. One render is estimated at
    # about 570 MB by the README's model (8 B × 36 MP + 12 B × 20–26 MP): one at a time fits.
    budget = 1024
    folder = row.folder("row8", f"memory-budget: {budget}", "max-output-pixels: 30000000",
                        "queue: 16", "timeout: 15")
    large_masters(row, folder)
    # Fit boxes of 1500–1699 pt at 3x: outputs of 20–26 MP.
    paths = [f"/unsafe/fit:{1500 + i}x{1500 + i}/Big{1 + i % 4}@3x.png" for i in range(200)]
    flag, note = jobs_flag(row.binary), ""
    # 8 render workers: without a memory budget, as many large renders at once as that.
    try:
        row.start("row8", folder, flag, 8)
    except StartError as error:
        row.fail(f"the server did not start with serve.memory-budget: {budget}: {error.message}")
        # Still measured without the key, for the record.
        config = os.path.join(folder, "thumbforge.yml")
        with open(config) as file:
            lines = [line for line in file if "memory-budget" not in line]
        with open(config, "w") as file:
            file.writelines(lines)
        try:
            row.start("row8-nobudget", folder, flag, 8)
        except StartError as again:
            return "FAIL", (" ".join(row.fails)
                            + f"; without the key it did not start either: {again.message}")
        note = " (measured without serve.memory-budget, which the binary refused)"
    result = attack.flood(row.server.port, paths, timeout=45)
    statuses = json.dumps(result["statuses"])
    if not only_admitted(result["statuses"]):
        row.fail(f"answers other than 200/429/503: {statuses}")
    if not row.alive():
        row.fail("the server is gone after the flood")
    row.stop()
    if row.rss_mb >= budget + 150:
        row.fail(f"peak RSS {row.rss_mb} MB (< {budget + 150} expected){note}")
    return row.finish(
        f"200 concurrent distinct renders (fit 1500–1699 pt at 3x of four 6000×6000 RGBA PNGs, "
        f"{flag} 8, queue 16, timeout 15 s): {statuses}, slowest answer after "
        f"{result['slowest_s']} s; peak RSS {row.rss_mb} MB{note}")


def row_12(row):
    # The Kubernetes example's pod: 1.5 GiB, 2 render workers, every serve setting at its
    # default, so serve.memory-budget comes from the cgroup (half the limit less
    # decoded-cache: 512 MB). A flood of the largest renders that budget admits from
    # 6000×6000 RGBA masters: outputs of 5.5–7.3 MP, each estimated at up to 492 MB by the
    # README's model (8 B × 36 MP + 28 B × 7.3 MP), so one at a time; larger ones are 413.
    root = "/sys/fs/cgroup/memory"
    cgroup = os.path.join(root, f"thumbforge-attack-{os.getpid()}")
    try:
        if not os.access(root, os.W_OK):
            raise OSError
        os.mkdir(cgroup)
    except OSError:
        return "SKIP", f"no writable cgroup v1 memory controller at {root}"
    limit = 1536 * 1048576
    with open(os.path.join(cgroup, "memory.limit_in_bytes"), "w") as file:
        file.write(str(limit))
    if os.access(os.path.join(cgroup, "memory.memsw.limit_in_bytes"), os.W_OK):
        with open(os.path.join(cgroup, "memory.memsw.limit_in_bytes"), "w") as file:
            file.write(str(limit))
    folder = row.folder("row12", "queue: 16", "timeout: 30")
    large_masters(row, folder)
    paths = [f"/unsafe/fit:{900 - i}x{900 - i}/Big{1 + i % 4}@3x.png" for i in range(120)]
    flag = jobs_flag(row.binary)
    try:
        row.start("row12", folder, flag, 2, cgroup=cgroup)
    except StartError as error:
        remove_cgroup(cgroup)
        return "FAIL", f"the server did not start in a 1.5 GiB cgroup: {error.message}"
    result = attack.flood(row.server.port, paths, timeout=60)
    statuses = json.dumps(result["statuses"])
    budget = row.metric("thumbforge_render_memory_budget_bytes")
    if not only_admitted(result["statuses"], require_200=True):
        row.fail(f"answers other than 200/429/503 (or no 200 at all): {statuses}")
    if not row.alive():
        row.fail("the server is gone after the flood (OOM-killed?)")
    with open(os.path.join(cgroup, "memory.max_usage_in_bytes")) as file:
        peak = int(file.read()) // 1048576
    oom = None
    try:
        with open(os.path.join(cgroup, "memory.oom_control")) as file:
            oom = next((line.split()[1] for line in file if line.split()[:1] == ["oom_kill"]), None)
    except OSError:
        pass
    row.stop()
    remove_cgroup(cgroup)
    if (oom or "0") != "0":
        row.fail(f"the cgroup's OOM killer ran ({oom})")
    if row.rss_mb >= 1536:
        row.fail(f"peak RSS {row.rss_mb} MB, over the pod's 1536 MB")
    budget_mb = "absent" if budget is None else int(budget) // 1048576
    return row.finish(
        f"120 concurrent renders of 5.5–7.3 MP outputs in a 1.5 GiB cgroup, {flag} 2, defaults "
        f"(budget {budget_mb} MB from the cgroup): {statuses}; cgroup peak (RSS and page cache) "
        f"{peak} MB, OOM kills {oom or '?'}")


def remove_cgroup(cgroup):
    try:
        os.rmdir(cgroup)
    except OSError:
        pass


# ---------------------------------------------------------------- 9
SIZE = re.compile(r"[0-9]+ ?(bytes|B|KB|KiB|MB|MiB)\b", re.IGNORECASE)
BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def row_9(row):
    report = []  # (a), (b), (d), (c), (e)
    # ---- (a) (b) (d): one signed server
    folder = row.folder("row9")
    gen.png(os.path.join(folder, "Secret-Plan.png"), 300, 200, noise=31)
    gen.png(os.path.join(folder, "Small@1x.png"), 40, 40, noise=32)
    nfc, nfd = "Caf\u00e9", "Cre\u0300me"
    gen.png(os.path.join(folder, f"{nfc}.png"), 120, 90, noise=33)
    gen.png(os.path.join(folder, f"{nfd}.png"), 120, 90, noise=34)
    key, salt = new_keys()

    def signed(path):
        return attack.signed(path, key, salt)

    try:
        row.start("row9", folder, key=key, salt=salt)
    except StartError as error:
        row.fail(f"(a, b, d) the signed server did not start: {error.message}")
    else:
        report.append(leaks_in_404s(row, folder, signed))
        report.append(signature_spellings(row, signed))
        report.append(normalization(row, folder, signed, nfc, nfd))
        row.stop()
    report.append(short_key(row))
    report.append(small_cache(row))
    return row.finish("(a)" + "; ".join(part for part in report if part))


def leaks_in_404s(row, folder, signed):
    """(a) 404 bodies name no file of the folder (but one the request carries), no byte size,
    no path."""
    report, leaks = [], []
    names = sorted(name for name in os.listdir(folder) if name.endswith((".png", ".yml")))
    sizes = [str(os.path.getsize(os.path.join(folder, name)))
             for name in sorted(os.listdir(folder)) if name.endswith(".png")]
    for path in ("/fill/No-Such-Asset@2x.png", "/fill/Secret-Pla@2x.png",
                 "/fill/secret-plan@2x.png", "/fill/Secret-Plan.png@2x.png",
                 "/variants/Small@3x.png", "/variants/Secret-Plan~dark@2x.png"):
        status, _, answer = row.http(signed(path))
        report.append(f"{path[1:]}→{status}")
        if status != 404:
            continue
        body = answer.decode("utf-8", "replace").rstrip("\n")
        for name in names:
            # A name the request itself carries is only echoed back.
            if name not in path and name in body:
                leaks.append(f"{path} names '{name}': '{body}'")
        leaks += [f"{path} gives the byte size {size}: '{body}'" for size in sizes if size in body]
        if SIZE.search(body):
            leaks.append(f"{path} has a size: '{body}'")
        if row.work in body or "/tmp/" in body:
            leaks.append(f"{path} has a path: '{body}'")
    if leaks:
        row.fail("(a) " + "; ".join(leaks))
    return " ".join(report)


def signature_spellings(row, signed):
    """(b) the same signature spelt otherwise: with "=", a character %-encoded, the last
    character's unused bits set. 43 Base64 characters carry 258 bits for the 256 of the MAC:
    the last one has two unused bits, so three other spellings decode to the same bytes."""
    good = signed("/fill/Secret-Plan@2x.png")
    signature = good[1:].split("/", 1)[0]
    rest = good[1 + len(signature):]
    plain = row.code(good)
    padded = row.code(f"/{signature}={rest}")
    index = next((i for i, c in enumerate(signature) if c in "-_"), 0)
    char = signature[index]
    escape = f"%{ord(char):02X}"
    encoded = row.code(f"/{signature[:index]}{escape}{signature[index + 1:]}{rest}")
    twin = signature[:-1] + BASE64URL[BASE64URL.index(signature[-1]) ^ 1]
    twin_code = row.code(f"/{twin}{rest}")
    if plain != 200:
        row.fail(f"(b) the correctly signed path answered {plain}")
    if padded != 403:
        row.fail(f"(b) the signature with '=' added answered {padded}, not 403")
    if encoded != 403:
        row.fail(f"(b) the signature with '{char}' as {escape} answered {encoded}, not 403")
    if twin_code != 403:
        row.fail(f"(b) the signature with its last character '{signature[-1]}' as '{twin[-1]}' "
                 f"(same bytes, non-canonical Base64) answered {twin_code}, not 403")
    return (f"(b) signed {plain}, with '=' {padded}, with '{char}' as {escape} {encoded}, with "
            f"the last character's unused bit set ('{signature[-1]}' → '{twin[-1]}') {twin_code}")


def normalization(row, folder, signed, nfc, nfd):
    """(d) Café (NFC on disk) and Crème (NFD on disk), each asked NFC and NFD, before and after
    a reload: the same answer, 200."""
    spellings = [(form, urllib.parse.quote(unicodedata.normalize(form, name)))
                 for name in (nfc, nfd) for form in ("NFC", "NFD")]
    answers = []
    for round_ in ("before", "after"):
        if round_ == "after":
            os.utime(os.path.join(folder, "Small@1x.png"))
            time.sleep(2.5)
        hashes, line = [], []
        for form, quoted in spellings:
            status, _, body = row.http(signed(f"/fill/{quoted}@2x.png"))
            hashes.append(f"{status}:{hashlib.sha256(body).hexdigest()[:12]}")
            line.append(f"{form}→{status}")
        answers.append(f" {round_} reload: " + " ".join(line))
        if not (hashes[0] == hashes[1] and hashes[2] == hashes[3]):
            row.fail(f"(d) {round_} the reload, NFC and NFD spellings differ ({' '.join(hashes)})")
        if any(not answer.startswith("200:") for answer in hashes):
            row.fail(f"(d) {round_} the reload, a spelling answered "
                     f"{next(a for a in hashes if not a.startswith('200:')).split(':')[0]} "
                     f"(Café on disk NFC, Crème NFD: {' '.join(hashes)})")
    return "(d) Café (NFC on disk), Crème (NFD on disk), each asked NFC and NFD:" + ";".join(answers)


def short_key(row):
    """(c) a 1-byte key is refused, and the refusal names 32 bytes."""
    try:
        row.start("row9c", row.folder("row9c"), key="01", salt="01")
    except StartError as error:
        try:
            with open(error.log, errors="replace") as file:
                log = file.read()
        except OSError:
            log = ""
        if "32 bytes" not in log:
            last = log.rstrip("\n").rsplit("\n", 1)[-1]
            row.fail(f"(c) the refusal does not mention 32 bytes: {last}")
        return f"(c) 1-byte key: {error.message[:160]}"
    row.fail("(c) THUMBFORGE_KEY=01 (1 byte) was accepted: the server started and answers /healthz")
    row.stop()
    return "(c) 1-byte key: started"


def small_cache(row):
    """(e) 300 small renders into a 1 MB result cache leave at most 1.1 MB on disk."""
    folder = row.folder("row9e", "cache-size: 1")
    shutil.copy(row.input("tiny.png", 8, 8, noise=7), os.path.join(folder, "Tiny.png"))
    try:
        row.start("row9e", folder)
    except StartError as error:
        row.fail(f"(e) the server did not start: {error.message}")
        return None
    bad = total = 0
    for i in range(1, 301):
        status, _, body = row.http(unsafe(f"/fill:{i % 50 + 1}x{i // 50 + 1}/Tiny@1x.png"))
        bad += status != 200
        total += len(body)
    cache = os.path.join(row.work, "row9e/cache")
    du = subprocess.run(["du", "-sk", cache], capture_output=True, text=True).stdout.split()[:1]
    du = int(du[0]) if du else None
    files = sum(len(names) for _, _, names in os.walk(cache))
    cache_bytes = shown(row.metric("thumbforge_cache_bytes"))
    if du is None:
        row.fail(f"(e) no cache folder {cache} after 300 small renders")
    elif du > 1126:
        row.fail(f"(e) du -sk of the 1 MB cache is {du} KB after 300 small renders ({files} files, "
                 f"thumbforge_cache_bytes {cache_bytes})")
    row.stop()
    return (f"(e) 300 renders ({bad} not 200, {total} bytes sent): cache folder du -sk {du} KB, "
            f"{files} files, thumbforge_cache_bytes {cache_bytes}")


# ---------------------------------------------------------------- 10, 11
def replica_requests(log):
    """The requests a replica logged, but the monitor's /healthz."""
    with open(log, errors="replace") as file:
        return sum(1 for line in file if " GET /" in line and " GET /healthz " not in line)


def row_10(row):
    if row.suite.host.ask("nginx-install")[0] != "ok":
        return "SKIP", "nginx is not installed and could not be installed"
    folder = row.folder("row10")
    shutil.copy(row.input("tiny.png", 8, 8, noise=7), os.path.join(folder, "Tiny.png"))
    key, salt = new_keys()
    server = row.start("row10", folder, key=key, salt=salt)
    answer = row.suite.host.ask("nginx", server.port)
    if answer[0] != "ok":
        row.fail(f"nginx did not start: {' '.join(answer[1:])}")
        row.stop()
        return row.finish("")
    lb, version = int(answer[1]), answer[2]
    report = []
    before = replica_requests(server.log)
    for path in ("/unsafe/fill/Tiny@1x.png", "/", "/metrics", "/readyz"):
        status, _, body = row.http(path, lb)
        report.append(f"{path}→{status}")
        if status != 404:
            row.fail(f"{path} through nginx answered {status}, not 404")
        elif b"<center>nginx" not in body:
            row.fail(f"the 404 of {path} is not nginx's own: {text(body, 80)}")
    time.sleep(0.2)
    after = replica_requests(server.log)
    if after != before:
        row.fail(f"{after - before} of them reached the replica")
    status = row.code(attack.signed("/fill/Tiny@1x.png", key, salt), lb)
    if status != 200:
        row.fail(f"the signed path through nginx answered {status}, not 200")
    row.suite.host.ask("nginx-stop")
    row.stop()
    return row.finish(f"nginx {version}: {' '.join(report)}; signed fill/Tiny@1x.png→{status}; "
                      f"reached the replica: {after - before}")


def free_port():
    """A TCP port of 127.0.0.1 that was free when asked."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def row_11(row):
    metrics_port = free_port()
    try:
        row.start("row11", row.folder("row11"), "--metrics-port", metrics_port,
                  "--metrics-host", "127.0.0.1")
    except StartError as error:
        return "FAIL", (f"the server did not start with --metrics-port {metrics_port} "
                        f"--metrics-host 127.0.0.1: {error.message}")
    public = row.code("/metrics")
    private, _, body = row.http("/metrics", metrics_port)
    lines = sum(1 for line in body.decode("utf-8", "replace").splitlines()
                if line.startswith("thumbforge_"))
    if public != 404:
        row.fail(f"/metrics on the public port answered {public}, not 404")
    if not (private == 200 and lines > 0):
        row.fail(f"/metrics on the metrics port answered {private} with {lines} thumbforge_ lines")
    row.stop()
    return row.finish(f"/metrics: public port {public}, metrics port {private} "
                      f"({lines} thumbforge_ lines)")


ROWS = [
    (1, "1x2000000 PNG through fill/tile @3x", row_1),
    (2, "no global stall behind a slow render", row_2),
    (3, "render past serve.timeout is cancelled", row_3),
    (4, "master swapped after start", row_4),
    (5, "untrusted-sources: SVG href, BMP as .png", row_5),
    (6, "slowloris, 1500 connections", row_6),
    (7, "50 slow readers of a large output", row_7),
    (8, "flood of 200 large renders", row_8),
    (9, "small leaks (404 bodies, signatures, key, NFC/NFD, cache du)", row_9),
    (10, "nginx example: only signed paths", row_10),
    (11, "--metrics-port", row_11),
    (12, "Kubernetes example's memory limit under a flood", row_12),
]
