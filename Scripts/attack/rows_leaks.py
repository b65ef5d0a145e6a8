"""Rows 9, 10 and 11 of the hostile-request suite: what answers give away and what is reachable
(404 bodies, signature spellings, a short key, Unicode normalization, the result cache's size;
the nginx example; the private metrics port)."""
import hashlib
import os
import re
import shutil
import subprocess
import time
import unicodedata
import urllib.parse

import attack
import gen
from common import StartError, free_port, new_keys, shown, text, unsafe


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
    return ("(d) Café (NFC on disk), Crème (NFD on disk), each asked NFC and NFD:"
            + ";".join(answers))


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


