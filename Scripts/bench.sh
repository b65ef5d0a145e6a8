#!/usr/bin/env bash
# ThumbForge side-by-side benchmark.
#
#   Scripts/bench.sh            full run: 100-photo large corpus + the snowseeker corpus, 3 reps,
#                               10 000-source no-change rebuild/check, RSS growth 100/200/400
#   Scripts/bench.sh --quick    smoke run: 10 photos, 1 rep, 1 000 tiny sources, growth 5/10/20
#
# Options: --reps N (timed full builds, rebuild, check), --rss-reps N (full builds with the
# process trees' memory sampled, after the timed ones; default: --reps), --photos N (large
# corpus), --growth "A B C" (photo counts), --growth-reps N (default 1), --tiny N (sources),
# --only STEPS (comma list of build,peers,corpus,compare,tiny,growth,report,workloads),
# --no-apt (never call apt-get), --record (make this run the baseline instead of comparing
# with it). The workloads step (the wider benchmark against Pillow-SIMD: workloads.py, its
# own 7 rounds) runs only when named in --only.
# Everything it makes lives in bench-work/ (gitignored): venvs, corpora (cached), outputs,
# raw measurements (results-MODE-*.jsonl, verdict-MODE.json, info-MODE.json) and the report
# (results.md, also results-MODE.md). Run it from anywhere; it works from the repository root.
#
# Result files: the compare step's figures go to bench-work/results/full-builds.json, the
# tiny and growth steps' to incremental.json (-quick.json in quick mode), each with the
# machine, the tools' versions and every repetition. Each is then compared with the
# checked-in baseline of the same name in Scripts/bench/results/ (the performance page is
# generated from those: Scripts/bench/performance_page.py); with --record it replaces it.
# The rule: every gated figure (ThumbForge's wall ÷ each peer's, per repetition; ThumbForge's
# own times where there is no peer), lower is better, regresses when its median exceeds the
# baseline's by more than the larger noise of the two runs, noise being (highest − lowest)
# ÷ median of a figure's repetitions; figures with fewer than 3 repetitions in either run are
# not judged, runs of other parameters (corpora, tiny count, growth sizes) not compared. A
# regression prints one REGRESSED line per figure and makes the exit status 1.
# Helpers: Scripts/bench/ (workload thumbforge.yml, plan.py, peers, measure.py, check.py).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
WORK=$ROOT/bench-work
BENCH=$ROOT/Scripts/bench
SNOW=${SNOWSEEKER:-$ROOT/../shared/corpus/snowseeker/Images}

QUICK=0
REPS=3
RSS_REPS=
GROWTH_REPS=1
PHOTOS=100
GROWTH="100 200 400"
TINY=10000
SVGS=6
ONLY=""
APT=1
RECORD=0
ARGS="" # the command line as given, for the result files (an argument with spaces quoted)
for a in "$@"; do [[ $a == *" "* ]] && a="\"$a\""; ARGS+="${ARGS:+ }$a"; done
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; REPS=1; PHOTOS=10; GROWTH="5 10 20"; TINY=1000; SVGS=3 ;;
    --reps) REPS=$2; shift ;;
    --rss-reps) RSS_REPS=$2; shift ;;
    --photos) PHOTOS=$2; shift ;;
    --growth) GROWTH=$2; shift ;;
    --growth-reps) GROWTH_REPS=$2; shift ;;
    --tiny) TINY=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --no-apt) APT=0 ;;
    --record) RECORD=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | cut -c3-; exit 0 ;;
    *) echo "bench.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
RSS_REPS=${RSS_REPS:-$REPS}

step() { echo; echo "==> $*"; }
run() { echo "+ $*"; "$@"; }
want() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }

mkdir -p "$WORK"
MODE=$([ $QUICK = 1 ] && echo quick || echo full)
TF=$ROOT/.build-bench/release/thumbforge
MAINPY=$WORK/venv/bin/python
SIMDPY=$WORK/venv-simd/bin/python

# ---------------------------------------------------------------- build
if want build; then
  step "Building ThumbForge (release, scratch path .build-bench)"
  # The release build as run.sh makes it: on Linux the Swift runtime is linked statically
  # (a shorter start-up per run: fewer shared libraries to bind).
  static=()
  [ "$(uname -s)" = Linux ] && static=(--static-swift-stdlib)
  run swift build -c release --product thumbforge --scratch-path .build-bench "${static[@]}"
fi
[ -x "$TF" ] || { echo "bench.sh: $TF is missing; run without --only or with --only build" >&2; exit 1; }

# ---------------------------------------------------------------- peers
apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $APT = 0 ]; then echo "bench.sh: missing Debian packages (not installing, --no-apt): ${missing[*]}"; return 1; fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=sudo
    else echo "bench.sh: cannot install ${missing[*]} (not root, no sudo); peers needing them are skipped"; return 1; fi
  fi
  echo "+ apt-get install -y ${missing[*]}"
  $sudo apt-get install -y "${missing[@]}" >/dev/null 2>&1 \
    || { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y "${missing[@]}" >/dev/null; } \
    || { echo "bench.sh: apt-get install ${missing[*]} failed"; return 1; }
}

# venv_install DIR PIP-ARGS...: a venv with the packages, made once (stamp file).
venv_install() {
  local dir=$1 stamp=$1/.bench-ok; shift
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$*" ] && return 0
  rm -rf "$dir"
  run python3 -m venv "$dir"
  "$dir/bin/pip" install -q --upgrade pip >/dev/null 2>&1 || true
  echo "+ $dir/bin/pip install $*"
  "$dir/bin/pip" install -q "$@" || return 1
  echo "$*" > "$stamp"
}

if want peers; then
  step "Installing peers (Debian packages, Python venvs in bench-work/)"
  apt_install libvips-tools libvips-dev pkg-config || true
  apt_install libjpeg-dev zlib1g-dev libpng-dev libcairo2 || true
  # Main venv: Pillow, pyvips (cffi; API mode when libvips-dev and a compiler are present),
  # PyYAML for the planner, cairosvg so Pillow users can rasterise SVG masters.
  if ! venv_install "$WORK/venv" Pillow pyvips pyyaml cairosvg; then
    echo "bench.sh: the main Python venv could not be installed; the benchmark needs it" >&2; exit 1
  fi
  # Pillow-SIMD replaces PIL, so it gets its own venv; built with AVX2 where the CPU has it,
  # as its README says (CC="cc -mavx2"). Falls back to plain Pillow, labelled so.
  simd_cc=cc; grep -qw avx2 /proc/cpuinfo && simd_cc="cc -mavx2"
  simd_stamp=$WORK/venv-simd/.bench-ok
  if [ -f "$simd_stamp" ]; then
    echo "Python venv for the SIMD row ready: $(cat "$simd_stamp")"
  else
    rm -rf "$WORK/venv-simd" "$WORK/simd-label"
    run python3 -m venv "$WORK/venv-simd"
    "$WORK/venv-simd/bin/pip" install -q --upgrade pip >/dev/null 2>&1 || true
    # cairosvg pulls in Pillow; pillow-simd then replaces it (both own the PIL package).
    run "$WORK/venv-simd/bin/pip" install -q pyyaml cairosvg
    run "$WORK/venv-simd/bin/pip" uninstall -q -y pillow
    echo "+ CC=\"$simd_cc\" pip install --no-binary pillow-simd pillow-simd"
    if CC="$simd_cc" "$WORK/venv-simd/bin/pip" install -q --no-binary pillow-simd pillow-simd \
        && "$SIMDPY" -c 'import PIL.Image' 2>/dev/null; then
      echo "pillow-simd $("$SIMDPY" -c 'import PIL; print(PIL.__version__)') CC=$simd_cc" > "$simd_stamp"
    else
      echo "bench.sh: pillow-simd did not build; the SIMD row falls back to plain Pillow (labelled so)"
      run "$WORK/venv-simd/bin/pip" install -q Pillow
      echo "Pillow (pillow-simd build failed)" > "$WORK/simd-label"
      echo "Pillow fallback" > "$simd_stamp"
    fi
  fi
  echo "+ checking peers"
  "$MAINPY" - <<'EOF'
import PIL, pyvips
print(f"Pillow {PIL.__version__}; pyvips {pyvips.__version__} ({'API' if pyvips.API_mode else 'ABI'} mode), libvips {pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}")
EOF
  "$SIMDPY" -c 'import PIL; print("SIMD venv: PIL", PIL.__version__)'
  command -v vipsthumbnail >/dev/null && echo "vipsthumbnail: $(vipsthumbnail --vips-version 2>/dev/null || vips --version)" \
    || echo "vipsthumbnail missing: its row is skipped"
fi
[ -x "$MAINPY" ] || { echo "bench.sh: $MAINPY missing; run the peers step" >&2; exit 1; }


# ---------------------------------------------------------------- corpora
CORPUS=$WORK/corpus
# Photos made from the snowseeker pictures and photos made from noise are cached apart.
if [ -d "$SNOW" ]; then POOL=$CORPUS/pool; else POOL=$CORPUS/pool-generated; fi
# large-8: the wider benchmark's large corpus (workloads.py).
LARGE_SIZES=$(echo "$PHOTOS $GROWTH 8" | tr ' ' '\n' | sort -n | uniq | tr '\n' ' ')
POOL_SIZE=$(echo "$LARGE_SIZES" | tr ' ' '\n' | sort -n | tail -1)
# large_corpus N: N photos (hard links into the cached pool) + the SVG masters + the workload.
large_corpus() {
  local n=$1 dir=$CORPUS/large-$1
  rm -rf "$dir"; mkdir -p "$dir/Photos" "$dir/Flags"
  for ((i = 0; i < n; i++)); do ln "$POOL/photo-$(printf %04d $i).jpg" "$dir/Photos/"; done
  for ((i = 1; i <= SVGS; i++)); do cp "$CORPUS/svg/Flag $(printf %02d $i).svg" "$dir/Flags/"; done
  cp "$BENCH/thumbforge.yml" "$dir/thumbforge.yml"
}
if want corpus; then
  step "Generating corpora in bench-work/corpus (cached; fixed seeds)"
  if [ -d "$SNOW" ]; then SRC_ARGS=(--src "$SNOW"); else
    echo "bench.sh: $SNOW is absent: large photos are generated from seeded noise; the small corpus is skipped"
    SRC_ARGS=()
  fi
  run env VIPS_CONCURRENCY=1 "$MAINPY" "$BENCH/gen_corpus.py" photos "$POOL" --count "$POOL_SIZE" "${SRC_ARGS[@]}"
  run "$MAINPY" "$BENCH/gen_corpus.py" svgs "$CORPUS/svg" --count "$SVGS"
  for n in $LARGE_SIZES; do echo "+ large_corpus $n"; large_corpus "$n"; done
  rm -rf "$CORPUS/small"
  if [ -d "$SNOW" ]; then
    echo "+ cp -r $SNOW $CORPUS/small"
    cp -r "$SNOW" "$CORPUS/small"
    cp "$BENCH/thumbforge.yml" "$CORPUS/small/thumbforge.yml"
  fi
  run "$MAINPY" "$BENCH/gen_corpus.py" tiny "$CORPUS/tiny-$TINY" --count "$TINY"
  cp "$BENCH/tiny.yml" "$CORPUS/tiny-$TINY/thumbforge.yml"
  # The wider benchmark's corpora: 40 SVG flags and 1 000 tiny icons.
  run "$MAINPY" "$BENCH/gen_corpus.py" svgs "$CORPUS/svg-40" --count 40
  [ "$TINY" = 1000 ] || run "$MAINPY" "$BENCH/gen_corpus.py" tiny "$CORPUS/tiny-1000" --count 1000
fi

# ---------------------------------------------------------------- machine info
INFO=$WORK/info-$MODE.json
# The previous comparison's machine info and verdict (its ThumbForge outputs' hashes) are
# kept beside the new ones: report.py says whether ThumbForge's bytes changed since.
if want compare && [ -f "$INFO" ] && [ -f "$WORK/verdict-$MODE.json" ]; then
  cp "$INFO" "$WORK/info-$MODE.previous.json"
  cp "$WORK/verdict-$MODE.json" "$WORK/verdict-$MODE.previous.json"
fi
if want compare || [ ! -f "$INFO" ]; then
  simd_version=$(cat "$WORK/simd-label" 2>/dev/null \
    || "$SIMDPY" -c 'import PIL; print(PIL.__version__, "(built with CC=\"cc -mavx2\")")' \
    || echo missing)
  "$MAINPY" "$BENCH/record.py" info "$INFO" --thumbforge "$TF" \
    --peer "Pillow-SIMD=$simd_version" \
    --peer "Pillow=$("$MAINPY" -c 'import PIL; print(PIL.__version__)')" \
    --peer "pyvips=$("$MAINPY" -c 'import pyvips; print(pyvips.__version__, "API mode" if pyvips.API_mode else "ABI mode")')" \
    --peer "vipsthumbnail=$(vipsthumbnail --vips-version 2>/dev/null || echo missing)"
fi

info_set() { "$MAINPY" -c 'import json,sys; p,k,v=sys.argv[1:4]; d=json.load(open(p)); d.setdefault("corpora",{}) if k.startswith("corpora.") else None; (d["corpora"].__setitem__(k[8:], v) if k.startswith("corpora.") else d.__setitem__(k, v)); json.dump(d, open(p,"w"), indent=1)' "$INFO" "$1" "$2"; }
if want compare; then
  info_set date "$(date '+%Y-%m-%d %H:%M')"
  info_set load "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  info_set reps "$REPS"
  info_set simd_label "$(cat "$WORK/simd-label" 2>/dev/null || true)"
  info_set command "Scripts/bench.sh $ARGS"
  # The source tree the run measured (the binary is built from it unless --only skipped the build).
  info_set source "$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
fi

# ---------------------------------------------------------------- outputs of earlier runs
# Earlier outputs are moved into bench-work/trash, not deleted, while tools are timed; the
# trash is emptied once the timed sections are over. Deleting them just before a timed run
# charged that run for the deletion: on journal-less ext4 (this VM's disk) every new file
# or folder scans past the inodes freed in the last 30 s (5 min when their inode-table
# block has been written since: recently_deleted()), a cost that grows with the
# deletes, so a run's cost depended on how many files the tools before it wrote.
TRASH=$WORK/trash
discard() { [ -e "$1" ] || return 0; mkdir -p "$TRASH"; mv "$1" "$(mktemp -u "$TRASH/XXXXXXXX")"; }
if [ -d "$TRASH" ]; then # left by an interrupted run
  echo "  (emptying bench-work/trash left by an earlier run, then 31 s for its inodes to age)"
  rm -rf "$TRASH"; sync; sleep 31
fi

# ---------------------------------------------------------------- full-build comparison
MEASURE=("$MAINPY" "$BENCH/measure.py")
if want compare; then
  step "Full builds: ThumbForge and the peers, $REPS repetition(s)"
  RES=$WORK/results-$MODE-compare.jsonl
  VERDICT=$WORK/verdict-$MODE.json
  rm -f "$RES" "$VERDICT"
  CORPORA=()
  [ -d "$CORPUS/small" ] && CORPORA+=(small) || echo "bench.sh: no small corpus (snowseeker absent): skipped"
  CORPORA+=("large-$PHOTOS")
  HAVE_VT=1; command -v vipsthumbnail >/dev/null || { HAVE_VT=0; echo "bench.sh: vipsthumbnail missing: its row is skipped"; }
  # Runs every tool once on $corpus into fresh output folders; the arguments go to measure.py.
  every_tool() {
    local m=("${MEASURE[@]}" --results "$RES" --corpus "$corpus" --outputs "$outputs" "$@") o
    tool_out() { discard "$rundir/out/$1"; echo "$rundir/out/$1"; }
    o=$(tool_out thumbforge)
    "${m[@]}" --tool thumbforge -- "$TF" build "$dir" --force -q -o "$o/Assets.xcassets" || true
    o=$(tool_out pillow-simd)
    "${m[@]}" --tool pillow-simd -- "$SIMDPY" "$BENCH/peer_pillow.py" "$rundir/plan.json" "$o" || true
    o=$(tool_out pillow)
    "${m[@]}" --tool pillow -- "$MAINPY" "$BENCH/peer_pillow.py" "$rundir/plan.json" "$o" || true
    o=$(tool_out pyvips-thumbnail)
    "${m[@]}" --tool pyvips-thumbnail --env VIPS_CONCURRENCY=1 -- \
      "$MAINPY" "$BENCH/peer_pyvips.py" "$rundir/plan.json" "$o" --style thumbnail || true
    o=$(tool_out pyvips-derive)
    "${m[@]}" --tool pyvips-derive --env VIPS_CONCURRENCY=1 -- \
      "$MAINPY" "$BENCH/peer_pyvips.py" "$rundir/plan.json" "$o" --style derive || true
    if [ $HAVE_VT = 1 ]; then
      o=$(tool_out vipsthumbnail)
      "${m[@]}" --tool vipsthumbnail --env VIPS_CONCURRENCY=1 -- \
        sh -c 'sh "$1.mkdir.sh" && xargs -P2 -d "\n" -n1 sh -c < "$1.cmds"' sh "$rundir/vipsthumbnail" || true
    fi
  }
  for corpus in "${CORPORA[@]}"; do
    dir=$CORPUS/$corpus
    rundir=$WORK/runs/$corpus
    discard "$rundir"; mkdir -p "$rundir"
    echo "+ plan.py $dir > $rundir/plan.json"
    "$MAINPY" "$BENCH/plan.py" "$dir" > "$rundir/plan.json"
    outputs=$("$MAINPY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["outputs"])' "$rundir/plan.json")
    inputs=$(find "$dir" -type f ! -name thumbforge.yml | wc -l)
    info_set "corpora.$corpus" "($inputs inputs, $outputs outputs)"
    echo "    $corpus: $inputs inputs, $outputs outputs"
    if [ $HAVE_VT = 1 ]; then
      "$MAINPY" "$BENCH/peer_vipsthumbnail.py" "$rundir/plan.json" "$rundir/out/vipsthumbnail" "$rundir/vipsthumbnail"
    fi
    # Timed repetitions run unobserved (measure.py's RSS sampler takes turns from the tool's
    # threads on 2 cores); the process trees' memory is sampled in repetitions of their own.
    for ((rep = 1; rep <= REPS; rep++)); do
      echo "  rep $rep/$REPS on $corpus"
      every_tool --section compare --rep "$rep"
    done
    for ((rep = 1; rep <= RSS_REPS; rep++)); do
      echo "  memory rep $rep/$RSS_REPS on $corpus (process trees sampled every 20 ms)"
      every_tool --section compare-rss --rep "$rep" --tree-rss
    done
    echo "  checking every tool's outputs on $corpus"
    checks=(thumbforge="$rundir/out/thumbforge/Assets.xcassets")
    for t in pillow-simd pillow pyvips-thumbnail pyvips-derive vipsthumbnail; do
      [ -d "$rundir/out/$t" ] && checks+=("$t=$rundir/out/$t")
    done
    "$MAINPY" "$BENCH/check.py" "$rundir/plan.json" --corpus "$corpus" --json "$VERDICT" \
      --manifest "$rundir/out/thumbforge/manifest.json" "${checks[@]}"
  done
fi

# ---------------------------------------------------------------- incremental: tiny sources
if want tiny; then
  step "No-change rebuild and check on $TINY tiny sources, $REPS repetition(s)"
  RES=$WORK/results-$MODE-tiny.jsonl
  rm -f "$RES"
  dir=$CORPUS/tiny-$TINY
  out=$WORK/runs/tiny-$TINY
  discard "$out"; mkdir -p "$out"
  m=("${MEASURE[@]}" --results "$RES" --corpus "tiny-$TINY" --outputs $((TINY * 2)))
  "${m[@]}" --section tiny-initial --tool thumbforge --rep 1 -- "$TF" build "$dir" -q -o "$out/Assets.xcassets"
  for ((rep = 1; rep <= REPS; rep++)); do
    "${m[@]}" --section tiny-rebuild --tool thumbforge --rep "$rep" --stdout "$out/rebuild.json" -- \
      "$TF" build "$dir" --json -o "$out/Assets.xcassets" || true
    rendered=$("$MAINPY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["rendered"])' "$out/rebuild.json" 2>/dev/null || echo "?")
    [ "$rendered" = 0 ] || echo "    !! the no-change rebuild rendered $rendered outputs (expected 0)"
    "${m[@]}" --section tiny-check --tool thumbforge --rep "$rep" -- "$TF" check "$dir" -q -o "$out/Assets.xcassets" || true
  done
  # The sample folder's no-change build: what a developer waits for on every build.
  sample=("$TF" build "$ROOT/Assets" -q -o "$out/sample/Assets.xcassets" --swift "$out/sample/Asset.swift")
  "${sample[@]}"
  for ((rep = 1; rep <= REPS; rep++)); do
    "${MEASURE[@]}" --results "$RES" --section assets-rebuild --corpus Assets --outputs 0 --tool thumbforge \
      --rep "$rep" -- "${sample[@]}" || true
  done
fi

# ---------------------------------------------------------------- RSS growth
if want growth; then
  step "ThumbForge peak RSS as the corpus grows: $GROWTH photos, $GROWTH_REPS repetition(s)"
  RES=$WORK/results-$MODE-growth.jsonl
  rm -f "$RES"
  for n in $GROWTH; do
    dir=$CORPUS/large-$n
    out=$WORK/runs/growth-$n
    outputs=$("$MAINPY" "$BENCH/plan.py" "$dir" | "$MAINPY" -c 'import json,sys; print(json.load(sys.stdin)["outputs"])')
    for ((rep = 1; rep <= GROWTH_REPS; rep++)); do
      rm -rf "$out"
      "${MEASURE[@]}" --results "$RES" --section growth --corpus "large-$n" --rep "$rep" --outputs "$outputs" \
        --tool thumbforge -- "$TF" build "$dir" --force -q -o "$out/Assets.xcassets" || true
    done
    rm -rf "$out"
  done
fi

# ---------------------------------------------------------------- report
if want report || want compare; then
  step "Report"
  [ -f "$INFO" ] && info_set load_end "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$MAINPY" "$BENCH/report.py" --work "$WORK" --mode "$MODE" > "$WORK/results-$MODE.md"
  cp "$WORK/results-$MODE.md" "$WORK/results.md"
  cat "$WORK/results.md"
  echo "(written to bench-work/results.md and bench-work/results-$MODE.md)"
fi
rm -rf "$TRASH" # the timed sections are over

# ---------------------------------------------------------------- wider workloads
# Only when asked for by name: it times its own rounds and writes its own result file.
if [[ ",$ONLY," == *",workloads,"* ]]; then
  step "Wider workloads: ThumbForge against Pillow-SIMD"
  record=(); [ $RECORD = 1 ] && record=(--record)
  run "$MAINPY" "$BENCH/workloads.py" "${record[@]}"
fi

# ---------------------------------------------------------------- result files
sections=()
for s in compare tiny growth; do want "$s" && sections+=("$s"); done
if [ ${#sections[@]} -gt 0 ]; then
  step "Result files, against the baseline in Scripts/bench/results/"
  record=(); [ $RECORD = 1 ] && record=(--record)
  "$MAINPY" "$BENCH/bench_results.py" --work "$WORK" --mode "$MODE" "${record[@]}" \
    --sections "$(IFS=,; echo "${sections[*]}")" --command "Scripts/bench.sh $ARGS"
fi
