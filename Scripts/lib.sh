# Helpers shared by the scripts of Scripts/, sourced (not run) after `cd` to the repository:
#
#   . Scripts/lib.sh
#
# Nothing runs at source time. Every function reports its failures by its exit status, so a
# caller under `set -e` stops on them; messages go to stderr and name the calling script.

# script_help SCRIPT: the script's header comment (from its second line to its `set -…`
# line) without the leading "# ", for --help.
script_help() {
  sed -n '2,/^set -/p' "$1" | sed '$d' | cut -c3-
}

# apt_install PACKAGE…: installs Debian packages with apt-get, through sudo unless root.
apt_install() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "==> installing $* with apt-get"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
}

# free_port: a TCP port of 127.0.0.1 that was free when asked (the kernel's choice). Uses
# $PYTHON when set, else python3.
free_port() {
  "${PYTHON:-python3}" -c \
    'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# wait_http PORT PATH [TRIES [PAUSE]]: waits until http://127.0.0.1:PORT/PATH answers (any
# status), asking TRIES times (default 300) PAUSE seconds apart (default 0.1); returns 1 with
# a message when it never does.
wait_http() {
  local port=$1 path=$2 tries=${3:-300} pause=${4:-0.1} _
  for _ in $(seq "$tries"); do
    curl -s -o /dev/null "http://127.0.0.1:$port$path" && return 0
    sleep "$pause"
  done
  echo "${0##*/}: nothing answers on http://127.0.0.1:$port$path" >&2
  return 1
}

# release_binary: sets TF to the absolute path of the `thumbforge` to run: THUMBFORGE_BIN
# when set (it must be executable), else the one `swift build -c release --product
# thumbforge` makes, run each time (quick when up to date), so that a binary left by
# another build is never the one used. The build's output goes to stderr.
release_binary() {
  if [ -n "${THUMBFORGE_BIN:-}" ]; then
    [ -x "$THUMBFORGE_BIN" ] || {
      echo "${0##*/}: THUMBFORGE_BIN=$THUMBFORGE_BIN is not executable" >&2
      return 1
    }
    TF=$(cd "$(dirname "$THUMBFORGE_BIN")" && pwd)/$(basename "$THUMBFORGE_BIN")
    echo "==> using $TF (THUMBFORGE_BIN)" >&2
  else
    echo "==> swift build -c release --product thumbforge" >&2
    swift build -c release --product thumbforge >&2
    TF="$(swift build -c release --show-bin-path)/thumbforge"
  fi
}

# nginx_prefix DIR LISTEN_PORT UPSTREAM_1 UPSTREAM_2 WORKER_CONNECTIONS: a prefix folder for
# an nginx master run in the foreground with Examples/nginx/thumbforge.conf itself: DIR/
# thumbforge.conf is the example with only the replicas' ports (UPSTREAM_1 for 8081,
# UPSTREAM_2 for 8082), the listen address (127.0.0.1:LISTEN_PORT) and the cache and access
# log paths (in DIR) put in; DIR/nginx.conf includes it, with the pid, error log and temp
# paths in DIR too, so no system configuration is touched and no daemon stays. Returns 1
# when the example no longer has exactly one line for each of these. Start it with
#   nginx -p DIR/ -c DIR/nginx.conf -e DIR/error.log
nginx_prefix() {
  local dir=$1 listen=$2 first=$3 second=$4 connections=$5
  local example=Examples/nginx/thumbforge.conf pattern
  for pattern in 'server 127\.0\.0\.1:8081 ' 'server 127\.0\.0\.1:8082 ' '^ *listen 80;' \
    '/var/cache/nginx/thumbforge ' '/var/log/nginx/thumbforge\.access\.log '; do
    [ "$(grep -c -- "$pattern" "$example")" = 1 ] || {
      echo "${0##*/}: $example no longer has one line matching '$pattern'" >&2
      return 1
    }
  done
  mkdir -p "$dir/tmp" "$dir/cache"
  sed -e "s|server 127.0.0.1:8081 |server 127.0.0.1:$first |" \
    -e "s|server 127.0.0.1:8082 |server 127.0.0.1:$second |" \
    -e "s|^\( *\)listen 80;|\1listen 127.0.0.1:$listen;|" \
    -e "s|/var/cache/nginx/thumbforge|$dir/cache|" \
    -e "s|/var/log/nginx/thumbforge.access.log|$dir/access.log|" \
    "$example" >"$dir/thumbforge.conf"
  local user_line=
  # A root master would run its workers as 'nobody', who cannot enter a temporary folder.
  [ "$(id -u)" -eq 0 ] && user_line="user root root;"
  cat >"$dir/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log notice;
events { worker_connections $connections; }
http {
    default_type application/octet-stream;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    include $dir/thumbforge.conf;
}
EOF
}

# sample_folders SCRIPT: sets `folders` to the real asset folders a check builds: Assets/, and
# the SnowSeeker corpus when ../shared/corpus/snowseeker is there (else says so, naming SCRIPT).
sample_folders() {
  folders=(Assets)
  local corpus=../shared/corpus/snowseeker/Images
  if [ -d "$corpus" ]; then
    folders+=("$corpus")
  else
    echo "$1: $corpus is absent; checking Assets/ only"
  fi
}
