#!/usr/bin/env python3
"""Where a ThumbForge build's time goes, by stage.

    stages.py --thumbforge BIN --corpus NAME=FOLDER ... [--reps N] [--frequency HZ] [--record]

Builds each FOLDER into an empty catalog under `perf record --call-graph dwarf` (Debian's
linux-perf; run as root or with kernel.perf_event_paranoid <= 1) and gives every CPU sample
to the stage of the innermost frame on its stack that names one (the table STAGES below:
exported function names of libjpeg-turbo, libpng/zlib, libvips, lcms2, BoringSSL, glibc and
ThumbForge's own C), so a zlib `deflate` under a PNG save counts as PNG encoding and a
`memcpy` under the resampler as resizing. Samples whose stack names no stage are split by
where they ran: ThumbForge's Swift code (planning, bookkeeping), libvips' own code, the
kernel (page faults and clearing fresh pages) or elsewhere.

The shares are scaled to the CPU time of --reps builds run without perf (medians, wall and
CPU of the process), and `waiting` is the cores' time left idle: wall × cores − CPU. The
profiled run is one build; perf's DWARF unwinding slows it, not the shares much.

libvips evaluates lazily: a mask or flatten is computed while the encoder pulls its rows,
inside the encode's stack, but under its own libvips function (vips_composite…), which
is the innermost named frame, so it counts as shaping, not encoding.

With pyvips (bench-work/venv/bin/python) and `djpeg` (libjpeg-turbo-progs), the table
`decode` sets ThumbForge's JPEG decode stage beside decoding the same masters in full by
libvips alone and by libjpeg-turbo alone. The result is Scripts/bench/results/stages.json
(record.py), written to bench-work/results/ and compared with the baseline, or made the
baseline with --record.
"""
import argparse
import collections
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import record
import runs

# (stage, pattern on a frame's symbol): the first stage whose pattern matches, walking a
# stack from its innermost frame outwards, takes the sample.
STAGES = [
    ("start-up (loader, runtime)", r"^(_dl_|dl_main|_dl_start|do_lookup_x|check_match|"
     r"swift_conformsToProtocol|swift::_conformsToProtocol|_swift_initializeRuntime)"),
    ("hashing (SHA-256)", r"(sha256|SHA256)"),
    ("decode: JPEG", r"^(jpeg_read_|jpeg_start_decompress|jpeg_finish_decompress|"
     r"jpeg_consume_input|jsimd_idct|jsimd_ycc_rgb|jsimd_h2v[12]_(fancy_)?upsample|"
     r"jpeg_read_header|jpeg_skip_scanlines|vips__jpeg_read)"),
    ("decode: PNG", r"^(png_read_|png_process_data|png_image_finish_read|inflate|"
     r"spng_decode|vips__png_read|read_png)"),
    ("decode: vector (SVG/PDF)", r"^(rsvg_|cairo_|_cairo_|pixman_|poppler|"
     r"vips_foreign_load_svg|vips_foreign_load_pdf)"),
    ("encode: JPEG", r"^(cjpeg_|jpeg_write_|jpeg_finish_compress|jpeg_gen_optimal_table|"
     r"jpeg_start_compress|jsimd_fdct|jsimd_rgb_ycc|jsimd_quantize|jsimd_huff_encode|"
     r"jsimd_h2v[12]_downsample|vips__jpeg_write)"),
    ("encode: PNG", r"^(png_write_|png_image_write|deflate|spng_encode|vips__png_write|"
     r"vips_foreign_save_png|vips_foreign_save_spng)"),
    ("resize", r"^(cresample|vips_reduce|vips_shrink|vips_resize|reduce[hv]_)"),
    ("shape: mask, composite, colour", r"^(vips_composite|vips_flatten|vips_premultiply|"
     r"vips_unpremultiply|vips_draw|vips_embed|vips_icc|vips_colourspace|vips_extract|"
     r"vips_bandjoin|vips_cast|vips_linear|cmsDoTransform|_cms|vips_sRGB2|vips_Lab|"
     r"vips_XYZ|vips_scRGB|vips_rot|vips_autorot|vips_flip)"),
    ("file writes", r"^(__libc_write|__GI___libc_write|write|__write|rename|renameat|"
     r"fsync|fdatasync|__libc_open64|__open64|open64|openat|mkdir|__mkdir|unlink|"
     r"close|__close|ftruncate|__libc_pwrite|pwrite|__x64_sys_(write|pwrite64|rename|renameat2?|"
     r"mkdir|mkdirat|openat|unlink|unlinkat|fsync|fdatasync|close|ftruncate|linkat))$"),
    ("file reads", r"^(__libc_read|__GI___libc_read|read|__read|pread64|__libc_pread|"
     r"__x64_sys_(read|pread64|newfstatat|statx|getdents64))$"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in STAGES]
FRAME = re.compile(r"^\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")


def build(binary, folder, out, prefix=()):
    """One ThumbForge build into an empty catalog (`out`, new): (wall s, CPU s). Earlier
    runs' outputs stay until the end: on ext4 each new file scans past recently freed
    inodes, which would charge a run for the one before (see the README's Benchmark)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*prefix, binary, "build", folder, "-q", "-o",
                    os.path.join(out, "Assets.xcassets")],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def unnamed_stage(stack, binary):
    """The stage of a sample whose stack names none: where it ran."""
    dsos = [os.path.basename(dso) for _, dso in stack]
    if not dsos:
        return OTHER
    if dsos[0].startswith("[kernel"):
        symbols = {symbol.split("+0x")[0] for symbol, _ in stack}
        if "exc_page_fault" in symbols or "asm_exc_page_fault" in symbols:
            return "kernel: page faults, clearing fresh pages"
        if symbols & {"__x64_sys_futex", "futex_wake", "futex_wait"}:
            return "thread hand-offs (futex)"
        if any(symbol.startswith("__x64_sys_") for symbol in symbols):
            return "kernel: other system calls"
        return "kernel: other"
    if dsos[0].startswith("libjpeg"):
        return JPEG_UNRESOLVED
    if os.path.basename(binary) in dsos[:1]:
        return SWIFT
    if any(name.startswith(("libvips", "libglib", "libgobject")) for name in dsos):
        return "libvips and GLib: operation set-up, pipelines"
    if os.path.basename(binary) in dsos:
        return SWIFT
    return OTHER


OTHER = "other libraries"
SWIFT = "ThumbForge's Swift code: planning, bookkeeping"
# libjpeg-turbo's SIMD kernels (assembly without unwind tables) end their stack at once.
JPEG_UNRESOLVED = "JPEG, decode or encode (unresolved)"


def classify(stack, binary):
    """The stage of one sample, from its frames (innermost first) as (symbol, dso)."""
    for symbol, _ in stack:
        name = symbol.split("+0x")[0]
        for stage, pattern in COMPILED:
            if pattern.search(name):
                return stage
    return unnamed_stage(stack, binary)


def parse(script_output):
    """(tid, time, period, stack) for each sample of `perf script` output."""
    result = []
    stack, header = [], None
    for line in script_output.splitlines() + [""]:
        if not line.strip():
            if header:
                result.append((*header, stack))
            stack, header = [], None
        elif not line.startswith((" ", "\t")):
            # "comm tid time: period event:" (comm may hold spaces: read from the right)
            fields = line.split()
            event = next(i for i in range(len(fields) - 1, -1, -1) if fields[i].endswith(":")
                         and not fields[i][:-1].replace(".", "").isdigit())
            period = int(fields[event - 1]) if fields[event - 1].isdigit() else 1
            when = float(fields[event - 2].rstrip(":"))
            header = (fields[event - 3], when, period)
        else:
            match = FRAME.match(line)
            if match:
                stack.append((match.group(1), match.group(2)))
    return result


def samples(script_output, binary):
    """CPU time (perf's periods) by stage. A libjpeg sample whose stack ends in a SIMD kernel
    takes the JPEG stage of the nearest sample on its thread within 5 ms, when that one
    is JPEG decoding or encoding (a kernel runs inside a decode's or an encode's loop)."""
    parsed = parse(script_output)
    stages = [classify(stack, binary) for _, _, _, stack in parsed]
    jpeg = ("decode: JPEG", "encode: JPEG")
    by_thread = collections.defaultdict(list)
    for index, (tid, when, _, _) in enumerate(parsed):
        by_thread[tid].append(index)
    for indices in by_thread.values():
        indices.sort(key=lambda i: parsed[i][1])
        for position, index in enumerate(indices):
            if stages[index] != JPEG_UNRESOLVED:
                continue
            near = []
            for step in (-1, 1):
                j = position + step
                while 0 <= j < len(indices) and stages[indices[j]] == JPEG_UNRESOLVED:
                    j += step
                if 0 <= j < len(indices) and stages[indices[j]] in jpeg:
                    gap = abs(parsed[indices[j]][1] - parsed[index][1])
                    if gap <= 0.005:
                        near.append((gap, stages[indices[j]]))
            if near:
                stages[index] = min(near)[1]
    counts = collections.Counter()
    for (_, _, period, _), stage in zip(parsed, stages):
        counts[stage] += period
    return counts


def profile(binary, folder, work, frequency):
    data = os.path.join(work, "perf.data")
    perf = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(frequency),
            "--call-graph", "dwarf,16384", "-o", data, "--"]
    build(binary, folder, os.path.join(work, "profiled"), prefix=perf)
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,time,period,event,ip,sym,dso"],
                            check=True, capture_output=True, text=True).stdout
    return samples(script, binary)


def measure(binary, folder, reps, frequency):
    """One corpus: (wall s of each rep, CPU s of each rep, CPU s by stage)."""
    work = tempfile.mkdtemp(prefix="thumbforge-profile-")
    try:
        counts = profile(binary, folder, work, frequency)
        runs = [build(binary, folder, os.path.join(work, f"run{rep}")) for rep in range(reps)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cpu = statistics.median(run[1] for run in runs)
    total = sum(counts.values()) or 1
    return ([run[0] for run in runs], [run[1] for run in runs],
            {stage: cpu * count / total for stage, count in counts.items()})


def table(measured, cores):
    """The result's tables: a row a stage, columns `NAME: s` (CPU s) and `NAME: share %` (of
    wall × cores) for each corpus; and a row a corpus with its builds' wall and CPU time."""
    order = ["decode: JPEG", "decode: PNG", "decode: vector (SVG/PDF)", "resize",
             "shape: mask, composite, colour", "encode: JPEG", "encode: PNG", JPEG_UNRESOLVED,
             "hashing (SHA-256)", "file reads", "file writes", "start-up (loader, runtime)",
             SWIFT, "libvips and GLib: operation set-up, pipelines",
             "kernel: page faults, clearing fresh pages", "thread hand-offs (futex)",
             "kernel: other system calls", "kernel: other", OTHER]
    assert set(order) >= {name for name, _ in STAGES}
    rows = {stage: {} for stage in order}
    waiting_name = f"**waiting**: cores idle (wall × {cores} − CPU)"
    rows[waiting_name] = {}
    builds = {}
    for name, (walls, cpus, stages) in measured.items():
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        budget = wall * cores
        for stage in order:
            seconds = stages.get(stage, 0.0)
            rows[stage][f"{name}: s"] = record.sig(seconds)
            rows[stage][f"{name}: share %"] = round(100 * seconds / budget, 1)
        waiting = max(0.0, budget - cpu)
        rows[waiting_name][f"{name}: s"] = record.sig(waiting)
        rows[waiting_name][f"{name}: share %"] = round(100 * waiting / budget, 1)
        builds[name] = {"wall s": record.figure(walls, digits=3),
                        "CPU s": record.figure(cpus, digits=3),
                        f"wall × {cores} cores, s": record.sig(budget)}
    for stage in order:  # a stage no corpus has
        if all(v == 0 for k, v in rows[stage].items() if k.endswith(": s")):
            del rows[stage]
    return ({"key": "stage", "rows": rows,
             "note": f"each stage's CPU time (shares from one profiled build, scaled to the "
                     f"median CPU time of the unprofiled builds); share of wall time × {cores} "
                     f"cores"},
            {"key": "corpus", "rows": builds,
             "note": "the builds run without perf: medians of their wall and CPU time"})


def jpeg_masters(folder):
    """The JPEG files under `folder`, sorted."""
    found = []
    for root, _, names in os.walk(folder):
        found += [os.path.join(root, n) for n in names if n.lower().endswith((".jpg", ".jpeg"))]
    return sorted(found)


def process_cpu(command):
    """The CPU seconds of one run of `command` (its own, from wait4)."""
    _, cpu, result, _ = runs.timed_run(command)
    if result.returncode != 0:
        sys.exit(f"stages.py: {' '.join(command)} exited {result.returncode}")
    return cpu


def decodes(photos, reps):
    """CPU s to decode every one of `photos` (JPEG files) in full, each rep: by libvips in
    this process (one thread, as the floor decodes, floor.py), and by libjpeg-turbo alone
    (`djpeg` to /dev/null, one process a photo, the best of 3 runs of each). None without
    pyvips or djpeg; (None, None) without photos."""
    if not photos:
        return None, None
    libvips = djpeg = None
    try:
        os.environ.setdefault("VIPS_CONCURRENCY", "1")
        import pyvips
        libvips = []
        for _ in range(reps):
            start = time.process_time()
            for photo in photos:
                pyvips.Image.new_from_file(photo, access="sequential").avg()
            libvips.append(time.process_time() - start)
    except ImportError:
        print("stages.py: no pyvips (run with bench-work/venv/bin/python): no libvips decode",
              file=sys.stderr)
    if shutil.which("djpeg"):
        djpeg = [sum(min(process_cpu(["djpeg", "-outfile", "/dev/null", photo])
                         for _ in range(3)) for photo in photos) for _ in range(reps)]
    else:
        print("stages.py: no djpeg (apt-get install libjpeg-turbo-progs)", file=sys.stderr)
    return libvips, djpeg


def decode_table(measured, decoded):
    """Decoding each corpus's JPEG masters: libvips alone, libjpeg-turbo alone, and
    ThumbForge's JPEG decode stage; a column a corpus with JPEG masters."""
    libvips_row, djpeg_row, thumbforge_row = {}, {}, {}
    for name, (libvips, djpeg, count) in decoded.items():
        if not count:
            continue
        column = f"{name}: {count} JPEGs, CPU s"
        libvips_row[column] = record.figure(libvips, digits=3) if libvips else None
        djpeg_row[column] = record.figure(djpeg, digits=3) if djpeg else None
        thumbforge_row[column] = record.sig(measured[name][2].get("decode: JPEG", 0.0))
    rows = {"libvips (the floor's decode)": libvips_row,
            "libjpeg-turbo alone (`djpeg` to `/dev/null`, one process a photo, best of 3)":
                djpeg_row,
            "ThumbForge's decode stage": thumbforge_row}
    return {"key": "decoding the JPEG masters", "rows": rows,
            "note": "CPU seconds, medians; libvips and libjpeg-turbo decode every master in "
                    "full, ThumbForge shrinks on load where its outputs allow"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    record.corpus_options(parser, "a folder to build")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--frequency", type=int, default=2999)
    args = parser.parse_args()
    if not shutil.which("perf"):
        sys.exit("stages.py: perf is missing (apt-get install linux-perf)")
    cores = os.cpu_count() or 1
    binary = os.path.abspath(args.thumbforge)
    measured, decoded = {}, {}
    for name, folder in record.corpora(args.corpus):
        measured[name] = measure(binary, os.path.abspath(folder), args.reps, args.frequency)
        photos = jpeg_masters(os.path.abspath(folder))
        libvips, djpeg = decodes(photos, args.reps)
        decoded[name] = (libvips, djpeg, len(photos))
        walls, cpus, _ = measured[name]
        print(f"{name}: wall {statistics.median(walls):.3f} s, CPU {statistics.median(cpus):.3f} s "
              f"(medians of {args.reps})", file=sys.stderr)
    doc = record.document(
        "stages", "Where a build's time goes, by stage",
        record.corpus_command("stages.py", args.corpus, f" --reps {args.reps}"),
        {**dict(zip(("stages", "builds"), table(measured, cores))),
         "decode": decode_table(measured, decoded)},
        parameters={"reps": args.reps, "frequency": args.frequency, "cores": cores},
        about=record.info(thumbforge=binary))
    return record.finish(doc, args.record)


if __name__ == "__main__":
    sys.exit(main())
