"""Rows 6, 7, 8 and 12 of the hostile-request suite: many connections and large renders at once
(slowloris, slow readers, a flood under a memory budget, a flood in a cgroup)."""
import json
import os
import resource
import shutil

import attack
from common import StartError, jobs_flag, unsafe


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


