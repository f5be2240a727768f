# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The servers a benchmark compares, and their life cycle.

A server is a build (stock or fork, release or debug) plus the fork's
switches and the mysqld options its name carries (stock+innodb_thread_concurrency=16).
Every server gets the same my.cnf apart from those, its own data directory,
and a saved copy of each prepared data set, restored before every measured
group so that all servers start from identical data."""
import os
import re
import shutil
import signal
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("FORK_BUILD_DIR") or os.path.join(ROOT, "build")
SWITCHES_CNF = os.path.join(ROOT, "scripts", "fork-switches.cnf")


def fork_switches(path=SWITCHES_CNF):
    """{switch: value} from scripts/fork-switches.cnf, in file order."""
    out = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    return out


# A server name may carry mysqld options for that server alone:
# BASE+option=value[+option=value...], e.g. fork+innodb_trx_throttling=32.
# The whole name is a directory, a CSV value, a plot legend and a table
# cell, its socket path, and a trailing -<digits> marks an A/A twin
# (aa_pairs): so an option is lower case, digits and underscores (mysqld
# reads - and _ alike; one spelling keeps one server one name), a value
# letters, digits, '.' and '_' -- no '-', ',' (--servers' and sysbench's
# list separator), '/', '|', spaces or quotes.
OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
OPTION_VALUE = re.compile(r"^[A-Za-z0-9_.]+$")
# Written by Server.write_cnf for each server: an option must not move
# a server onto another's files or port.
RESERVED_OPTIONS = ("user", "datadir", "socket", "port", "bind_address", "log_error",
                    "pid_file", "lc_messages_dir", "secure_file_priv")
# Options only the fork has (besides its switches): stock would refuse to start.
FORK_ONLY_OPTIONS = ("innodb_trx_throttling", "innodb_trx_throttling_timeout")


def parse_name(name):
    """'fork+innodb_trx_throttling=32' -> ('fork', {'innodb_trx_throttling':
    '32'}), options in the name's order.  ValueError, naming the part, for
    a malformed name."""
    base, *parts = name.split("+")
    if not base:
        raise ValueError("server %r: no server before '+' (stock+option=value)" % name)
    options = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError("server %r: %r is not option=value" % (name, part))
        if not OPTION_NAME.match(key):
            raise ValueError("server %r: option %r: lower-case letters, digits and underscores"
                             " (innodb_thread_concurrency, not innodb-thread-concurrency)"
                             % (name, key))
        if not OPTION_VALUE.match(value):
            raise ValueError("server %r: value %r of %s: letters, digits, '.' and '_' only"
                             % (name, value, key))
        if key in RESERVED_OPTIONS:
            raise ValueError("server %r: %s is the harness's, set per server" % (name, key))
        if key in options:
            raise ValueError("server %r: %s given twice" % (name, key))
        options[key] = value
    return base, options


def server_specs(names, fork_build="release", switches=None):
    """Turn names into specs: stock, fork (all switches on) and
    fork-no-<switch without innodb_> (one switch off), each optionally
    with +option=value mysqld options of its own (parse_name).
    'ablations' expands to every fork-no-* server; a name given twice gives
    an A/A twin (stock, stock: stock and stock-2; fork+x=1 twice: fork+x=1
    and fork+x=1-2).  Returns a list of dicts name, build, switches, options."""
    switches = fork_switches() if switches is None else switches
    ablation = {"fork-no-" + s[len("innodb_"):].replace("_", "-"): s for s in switches}
    out = []
    for name in names:
        base, options = parse_name(name)
        if base == "ablations":
            if options:
                raise ValueError("server %r: ablations takes no options; name each one"
                                 " (fork-no-btree-blink+option=value)" % name)
            out += server_specs(sorted(ablation), fork_build, switches)
            continue
        if base == "stock":
            spec = {"build": ("stock", "release"), "switches": {}}
            fork_only = [k for k in options if k in switches or k in FORK_ONLY_OPTIONS]
            if fork_only:
                raise ValueError("server %r: stock has no %s (the fork's)" % (name, fork_only[0]))
        elif base == "fork":
            spec = {"build": ("fork", fork_build), "switches": dict(switches)}
        elif base in ablation:
            sw = dict(switches)
            sw[ablation[base]] = "OFF"
            spec = {"build": ("fork", fork_build), "switches": sw}
        else:
            raise ValueError("unknown server %r: stock, fork, ablations or one of %s, optionally"
                             " with +option=value (fork+innodb_trx_throttling=32)"
                             % (name, ", ".join(sorted(ablation))))
        out.append(dict(spec, name=name, options=options))
    # A name given again is an A/A twin: the same build and switches under
    # the name <name>-2 (-3, ...), with its own directory, data and port.
    seen = {}
    for s in out:
        n = seen[s["name"]] = seen.get(s["name"], 0) + 1
        if n > 1:
            s["name"] = "%s-%d" % (s["name"], n)
    return out


def aa_pairs(names):
    """[(server, twin)] for every A/A twin (server_specs) whose original ran."""
    out = []
    for name in names:
        m = re.match(r"^(.+)-\d+$", name)
        if m and m.group(1) in names:
            out.append((m.group(1), name))
    return out


# Above 1e6 sample pages ANALYZE walks every index's whole leaf level
# (dict_stats_analyze_index_low) and records the pages it walked.
FULL_SCAN_PAGES = 1000001

# The INNODB_METRICS counters every server counts (metrics.index_metrics()).
INDEX_METRICS = ("index_page_splits", "index_page_merge_attempts", "index_page_merge_successful",
                 "index_page_discards")


def base_cnf(opts):
    """The [mysqld] options every server gets (benchmarks/README.md)."""
    cnf = {
        "innodb_buffer_pool_size": opts.get("buffer_pool", "1G"),
        "innodb_redo_log_capacity": opts.get("redo", "1G"),
        "max_connections": "4000",
        "max_prepared_stmt_count": "1000000",
        "innodb_monitor_enable": ",".join(INDEX_METRICS),
        # Optimizer statistics (innobench/optimizer.py): the harness runs
        # ANALYZE TABLE after every prepare and nothing else recomputes
        # them, so every server and repetition plans with the same numbers.
        # Above 1e6 sample pages InnoDB scans every index's whole leaf level
        # instead of diving to random pages (dict_stats_analyze_index_low:
        # full scan when sample_pages x n_uniq > min(n_leaf_pages, 1e6)):
        # exact, deterministic statistics.  The background recalculation
        # would replace them with a random sample taken whenever 10 % of a
        # table changed, during the load or in the middle of a measurement.
        "innodb_stats_persistent": "ON",
        "innodb_stats_auto_recalc": "OFF",
        "innodb_stats_persistent_sample_pages": str(FULL_SCAN_PAGES),
        "performance_schema": "ON",
        # Waits on InnoDB mutexes and rw-locks (the index lock among them).
        "performance-schema-instrument": "'wait/synch/%/innodb/%=ON'",
        "skip-log-bin": None,
        "skip-name-resolve": None,
    }
    if opts.get("file_dir"):  # LOAD DATA of the shared sysbench rows (issue 14)
        cnf["secure_file_priv"] = opts["file_dir"]
    if opts.get("warm"):
        # The harness warms the buffer pool with the same scans on every
        # server (variance.warm); loading the pages each server's prepare
        # happened to dump would add a different, background warm-up.
        cnf["innodb_buffer_pool_load_at_startup"] = "OFF"
    for kv in opts.get("mysqld_opts", []):
        k, _, v = kv.partition("=")
        cnf[k] = v or None
    return cnf


def with_options(cnf, options):
    """cnf with a server's own options (parse_name) replacing the shared
    ones, whichever of - and _ a shared one was spelled with: mysqld reads
    both, and of two lines the last would win silently."""
    out = {k: v for k, v in cnf.items() if k.replace("-", "_") not in options}
    out.update(options)
    return out


# sun_path of a Unix socket holds 108 bytes with the final NUL; mysqld
# refuses a longer --socket.
SOCKET_PATH_MAX = 107


class Server:
    def __init__(self, spec, workdir, port, cnf, prefix=(), log=print):
        self.name = spec["name"]
        self.spec = spec
        kind, build = spec["build"]
        self.bindir = os.path.join(BUILD, kind, build, "bin")
        self.dir = os.path.join(workdir, self.name)
        self.datadir = os.path.join(self.dir, "data")
        self.sock = os.path.join(self.dir, "mysqld.sock")
        self.cnf_path = os.path.join(self.dir, "my.cnf")
        self.errlog = os.path.join(self.dir, "mysqld.err")
        self.port = port
        self.cnf = with_options(dict(cnf, **spec["switches"]), spec.get("options", {}))
        if len(self.sock) > SOCKET_PATH_MAX:
            raise ValueError("%s: socket path %s is %d bytes, at most %d: a shorter server name"
                             " or --workdir" % (self.name, self.sock, len(self.sock),
                                                SOCKET_PATH_MAX))
        self.prefix = list(prefix)
        self.proc = None
        self.log = log

    def binary(self, name):
        path = os.path.join(self.bindir, name)
        if not os.access(path, os.X_OK):
            kind, build = self.spec["build"]
            preset = "stock" if kind == "stock" else build
            raise RuntimeError("%s: no %s in %s; build it with `make build PRESET=%s`"
                               % (self.name, name, self.bindir, preset))
        return path

    def write_cnf(self):
        os.makedirs(self.dir, exist_ok=True)
        lines = ["[mysqld]", "user=%s" % _user(), "datadir=" + self.datadir,
                 "socket=" + self.sock, "port=%d" % self.port, "bind-address=127.0.0.1",
                 "log-error=" + self.errlog, "pid-file=" + os.path.join(self.dir, "mysqld.pid"),
                 "lc-messages-dir=" + os.path.join(os.path.dirname(self.bindir), "share")]
        for k, v in self.cnf.items():
            lines.append(k if v is None else "%s=%s" % (k, v))
        lines += ["", "[client]", "socket=" + self.sock, "user=root"]
        with open(self.cnf_path, "w") as f:
            f.write("\n".join(lines) + "\n")

    def initialize(self):
        """A new, empty data directory (the template every data set starts
        from).  root may also log in over TCP from 127.0.0.1 (go-tpc does):
        with skip-name-resolve, root@localhost does not match it."""
        self.refuse_if_running()
        self.write_cnf()
        shutil.rmtree(self.datadir, ignore_errors=True)
        init = os.path.join(self.dir, "init.sql")
        with open(init, "w") as f:
            f.write("CREATE USER 'root'@'127.0.0.1';\n"
                    "GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;\n")
        r = subprocess.run([self.binary("mysqld"), "--defaults-file=" + self.cnf_path,
                            "--initialize-insecure", "--init-file=" + init],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s: mysqld --initialize-insecure failed, see %s"
                               % (self.name, self.errlog))

    def refuse_if_running(self):
        """A mysqld left over from an earlier run (killed harness) still
        owns this directory: never delete its data or socket under it."""
        try:
            with open(os.path.join(self.dir, "mysqld.pid")) as f:
                pid = int(f.read().strip() or 0)
            with open("/proc/%d/comm" % pid) as f:
                alive = "mysqld" in f.read()
        except (OSError, ValueError):
            return
        if alive and (not self.proc or self.proc.pid != pid):
            raise RuntimeError("%s: mysqld pid %d from an earlier run still uses %s: stop it first"
                               % (self.name, pid, self.dir))

    def start(self, timeout=300):
        self.refuse_if_running()
        self.write_cnf()
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        with open(os.path.join(self.dir, "mysqld.out"), "a") as out:
            self.proc = subprocess.Popen(self.prefix + [self.binary("mysqld"),
                                                        "--defaults-file=" + self.cnf_path],
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s: mysqld exited during startup (status %s), see %s"
                                   % (self.name, self.proc.returncode, self.errlog))
            if self.ping():
                return
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("%s: mysqld did not answer within %d s" % (self.name, timeout))

    def ping(self):
        r = subprocess.run([self.binary("mysqladmin"), "--defaults-file=" + self.cnf_path,
                            "ping"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0

    def stop(self):
        if not self.proc or self.proc.poll() is not None:
            self.proc = None
            return
        r = subprocess.run([self.binary("mysqladmin"), "--defaults-file=" + self.cnf_path,
                            "shutdown"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            self.proc.terminate()  # SIGTERM: mysqld shuts down cleanly
        try:
            self.proc.wait(timeout=300)
        except subprocess.TimeoutExpired:
            self.log("%s: mysqld did not shut down in 300 s, killing it" % self.name)
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def sql(self, query, db=None, timeout=None):
        args = [self.binary("mysql"), "--defaults-file=" + self.cnf_path, "-N", "-B", "-e", query]
        if db:
            args.insert(2, "--database=" + db)
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
        if r.returncode != 0:
            raise RuntimeError("%s: %s failed: %s" % (self.name, query[:80], r.stderr.strip()))
        return r.stdout.strip()

    def rows(self, query, db=None):
        out = self.sql(query, db)
        return [line.split("\t") for line in out.splitlines()] if out else []

    def version(self):
        return self.sql("SELECT VERSION()")

    # Saved data sets.  The server must be stopped.
    def _saved(self, dataset):
        return os.path.join(self.dir, "saved-" + dataset)

    def has_saved(self, dataset):
        return os.path.isdir(os.path.join(self._saved(dataset), "mysql"))

    def save(self, dataset):
        assert self.proc is None
        dst = self._saved(dataset)
        shutil.rmtree(dst, ignore_errors=True)
        _copy(self.datadir, dst)

    def restore(self, dataset):
        assert self.proc is None
        shutil.rmtree(self.datadir, ignore_errors=True)
        _copy(self._saved(dataset), self.datadir)


def _copy(src, dst):
    """cp -a, with copy-on-write where the file system has it."""
    subprocess.run(["cp", "-a", "--reflink=auto", src, dst], check=True)


def _user():
    import pwd
    return pwd.getpwuid(os.getuid()).pw_name


def status(server, names):
    """{name: int} of SHOW GLOBAL STATUS variables."""
    like = " OR ".join("VARIABLE_NAME = '%s'" % n for n in names)
    rows = server.rows("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.global_status"
                       " WHERE " + like)
    return {k: int(v) for k, v in rows if re.match(r"^-?\d+$", v)}
