#!/usr/bin/env bash
# Start, stop or show the fork's mysqld on a data directory of its own.
#
#   scripts/server.sh start|stop|status
#
#   PRESET=release|debug|stock|arm64   which build to run (default release;
#                   arm64 runs under qemu-user: make test-arm)
#   VARDIR=DIR      my.cnf, socket, pid file and error log (default ./var)
#   DATADIR=DIR     data directory (default $VARDIR/data)
#   PORT=N          TCP port on 127.0.0.1 (default 3307)
#   START_TIMEOUT=N seconds to wait for the server to answer (default 120)
#   EXTRA_CNF=...   more [mysqld] lines, after the fork's switches (so they
#                   override them), e.g. EXTRA_CNF=innodb_btree_blink=OFF
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cmd=${1:-}
PRESET=${PRESET:-release}; check_preset "$PRESET"
VARDIR=$(mkdir -p "${VARDIR:-$FORK_ROOT/var}" && cd "${VARDIR:-$FORK_ROOT/var}" && pwd)
DATADIR=${DATADIR:-$VARDIR/data}
DATADIR=$(realpath -m "$DATADIR")   # as /proc/*/fd shows it
PORT=${PORT:-3307}
obj=$(preset_obj "$PRESET")
cnf=$VARDIR/my.cnf sock=$VARDIR/mysqld.sock pidf=$VARDIR/mysqld.pid log=$VARDIR/mysqld.err

running_pid() {  # prints the pid of our server if it is alive
  [ -f "$pidf" ] || return 1
  local pid; pid=$(cat "$pidf")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -q mysqld "/proc/$pid/comm" 2>/dev/null && echo "$pid"
}

other_user_of_datadir() {  # pid of any other process holding this datadir's files
  local d
  for d in /proc/[0-9]*; do
    ls -l "$d/fd" 2>/dev/null | grep -qF -- "-> $DATADIR/" && { basename "$d"; return 0; }
  done
  return 1
}

write_cnf() {
  cat > "$cnf.new" <<CNF
# Written by scripts/server.sh for the $PRESET build; edits are overwritten.
[mysqld]
user=$(id -un)
basedir=$obj
lc-messages-dir=$obj/share
datadir=$DATADIR
socket=$sock
port=$PORT
bind-address=127.0.0.1
pid-file=$pidf
log-error=$log
innodb_buffer_pool_size=1G
innodb_redo_log_capacity=1G
max_connections=2000
$(fork_switches)
${EXTRA_CNF:-}

[client]
socket=$sock
port=$PORT
user=root
CNF
  mv "$cnf.new" "$cnf"
}

# The fork's switches, all on.  Not written for the stock build.
fork_switches() {
  [ "$PRESET" = stock ] && return
  echo "# innofork switches"
  cat "$FORK_ROOT/scripts/fork-switches.cnf"
}

connect_help() {
  cat <<MSG
mysqld ($PRESET) is running, pid $(cat "$pidf").
  connect:  $obj/bin/mysql --defaults-file=$cnf
       or:  mysql -uroot -S $sock      /  mysql -uroot -h127.0.0.1 -P$PORT
  sysbench: sysbench oltp_read_write --mysql-socket=$sock --mysql-user=root ...
  stop:     make stop
  log:      $log
MSG
}

start() {
  if pid=$(running_pid); then
    info "already running (pid $pid)"; connect_help; return 0
  fi
  if pid=$(other_user_of_datadir); then
    die "data directory $DATADIR is in use by another process (pid $pid: $(tr '\0' ' ' < /proc/$pid/cmdline | cut -c1-120)).
  Stop that server first, or choose another directory with DATADIR=..."
  fi
  local fresh=0
  if [ ! -d "$DATADIR/mysql" ] || [ ! -e "$DATADIR/mysql.ibd" ]; then
    if [ -d "$DATADIR" ] && [ -n "$(ls -A "$DATADIR")" ]; then
      die "$DATADIR is not empty and is not a MySQL data directory: refusing to touch it.
  Choose another one with DATADIR=... or empty it yourself."
    fi
    fresh=1
  fi
  [ -x "$obj/bin/mysqld" ] || die "no $PRESET build in $obj: run make build PRESET=$PRESET first"
  write_cnf
  if [ $fresh = 1 ]; then
    info "initializing data directory $DATADIR"
    mkdir -p "$DATADIR"
    "$obj/bin/mysqld" --defaults-file="$cnf" --initialize-insecure \
      || die "mysqld --initialize-insecure failed: see $log"
  fi
  info "starting mysqld ($PRESET) on $sock and 127.0.0.1:$PORT"
  setsid "$obj/bin/mysqld" --defaults-file="$cnf" </dev/null >/dev/null 2>&1 &
  local i
  for i in $(seq 1 $(( ${START_TIMEOUT:-120} * 2 ))); do
    if "$obj/bin/mysqladmin" --defaults-file="$cnf" ping >/dev/null 2>&1 \
       && [ -f "$pidf" ]; then
      connect_help; return 0
    fi
    kill -0 $! 2>/dev/null || { tail -20 "$log" >&2; die "mysqld exited during startup: see $log"; }
    sleep 0.5
  done
  tail -20 "$log" >&2; die "mysqld did not answer within ${START_TIMEOUT:-120} s: see $log"
}

stop() {
  local pid
  if ! pid=$(running_pid); then info "no server running for $VARDIR"; return 0; fi
  info "stopping mysqld (pid $pid)"
  "$obj/bin/mysqladmin" --defaults-file="$cnf" shutdown 2>/dev/null || kill "$pid"
  local i
  for i in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { info "stopped"; return 0; }
    sleep 0.5
  done
  die "mysqld (pid $pid) did not stop within 300 s; see $log"
}

case $cmd in
  start) start;;
  stop) stop;;
  status) if pid=$(running_pid); then connect_help; else info "not running"; exit 1; fi;;
  *) die "usage: scripts/server.sh start|stop|status";;
esac
