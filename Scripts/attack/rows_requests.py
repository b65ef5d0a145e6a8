"""Rows 1 to 5 of the hostile-request suite: what single hostile requests and masters do (an
extreme shape, a slow render beside a trivial one, a render past its timeout, masters swapped
under a running server, untrusted sources)."""
import json
import os
import shutil
import subprocess
import threading
import time

import attack
import gen
from common import is_4xx, jobs_flag, no_answer_or_5xx, shown, text, unsafe, write


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


