# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""NUMA topology and the pinning of server and clients."""
import os
import re


def parse_cpulist(s):
    """'0-3,8,10-11' -> [0, 1, 2, 3, 8, 10, 11]"""
    cpus = []
    for part in s.strip().split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-")
            cpus.extend(range(int(a), int(b) + 1))
        else:
            cpus.append(int(part))
    return cpus


def format_cpulist(cpus):
    cpus = sorted(cpus)
    out, start = [], None
    for i, c in enumerate(cpus):
        if start is None:
            start = c
        if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
            out.append(str(start) if start == c else "%d-%d" % (start, c))
            start = None
    return ",".join(out)


def from_numactl(text):
    """{node: [cpus]} from `numactl --hardware`."""
    nodes = {}
    for m in re.finditer(r"^node (\d+) cpus:(.*)$", text, re.M):
        nodes[int(m.group(1))] = [int(c) for c in m.group(2).split()]
    return nodes


def from_sysfs(root="/sys/devices/system/node"):
    """{node: [cpus]} from sysfs; {} if the kernel has no NUMA information."""
    nodes = {}
    if not os.path.isdir(root):
        return nodes
    for d in os.listdir(root):
        m = re.match(r"node(\d+)$", d)
        if m:
            with open(os.path.join(root, d, "cpulist")) as f:
                cpus = parse_cpulist(f.read())
            if cpus:
                nodes[int(m.group(1))] = cpus
    return nodes


def cores_from_sysfs(root="/sys/devices/system/cpu"):
    """[[cpu, its SMT siblings...], ...] by first CPU; [] without sysfs."""
    cores = set()
    if os.path.isdir(root):
        for d in os.listdir(root):
            path = os.path.join(root, d, "topology", "thread_siblings_list")
            if re.match(r"cpu\d+$", d) and os.path.exists(path):
                with open(path) as f:
                    cores.add(tuple(parse_cpulist(f.read())))
    return [list(c) for c in sorted(cores)]


def node_memory(root="/sys/devices/system/node"):
    """{node: bytes of memory} from sysfs; {} without NUMA information."""
    out = {}
    if os.path.isdir(root):
        for d in os.listdir(root):
            m = re.match(r"node(\d+)$", d)
            path = os.path.join(root, d, "meminfo")
            if m and os.path.exists(path):
                with open(path) as f:
                    kb = re.search(r"MemTotal:\s+(\d+) kB", f.read())
                if kb:
                    out[int(m.group(1))] = int(kb.group(1)) * 1024
    return out


def cpu_spec(text):
    """--server-cpus / --client-cpus: "all", a count ("4": four CPUs, whole
    cores) or a list ("0-3,8"; one CPU is "3-3")."""
    text = text.strip()
    if text == "all":
        return "all"
    if re.fullmatch(r"\d+", text):
        if int(text) < 1:
            raise ValueError("a CPU count must be positive: %r" % text)
        return int(text)
    if not re.fullmatch(r"[\d,-]+", text):
        raise ValueError("not a CPU list, count or 'all': %r" % text)
    return parse_cpulist(text)


def parse_size(text):
    """innodb_buffer_pool_size's notation: 512M, 32G, or bytes."""
    m = re.fullmatch(r"(\d+)([KMGT]?)", text.strip().upper())
    if not m:
        raise ValueError("not a size: %r" % text)
    return int(m.group(1)) * 1024 ** " KMGT".index(m.group(2) or " ")


def choose(spec, allowed, cores, taken=(), from_end=False):
    """The CPUs a cpu_spec() names among `allowed`.  A count takes whole
    cores (a CPU with its SMT siblings: two processes on one core's
    threads share its execution units, so a count never splits a core),
    first those with no CPU in `taken`, from the last core if from_end;
    it may round up to whole cores."""
    allowed = sorted(allowed)
    if spec == "all":
        return allowed
    if isinstance(spec, list):
        missing = sorted(set(spec) - set(allowed))
        if missing:
            raise ValueError("CPUs %s are not available (have %s)"
                             % (format_cpulist(missing), format_cpulist(allowed)))
        return sorted(spec)
    seen = {c for core in cores for c in core}
    groups = [[c for c in core if c in allowed] for core in cores]
    groups = [g for g in groups if g] + [[c] for c in allowed if c not in seen]
    groups.sort(key=lambda g: g[0], reverse=from_end)
    groups.sort(key=lambda g: bool(set(g) & set(taken)))  # stable: free cores first
    out = []
    for g in groups:
        if len(out) >= spec:
            break
        out += g
    if len(out) < spec:
        raise ValueError("%d CPUs asked for, %d available" % (spec, len(allowed)))
    return sorted(out)


def _describe(cpus, spec, cores):
    n_cores = sum(1 for core in cores if set(core) & set(cpus)) or len(cpus)
    text = "CPUs %s (%d CPU%s, %d core%s)" % (format_cpulist(cpus), len(cpus),
                                              "s" * (len(cpus) != 1), n_cores, "s" * (n_cores != 1))
    if isinstance(spec, int) and len(cpus) > spec:
        text += ", %d asked for, rounded up to whole cores" % spec
    return text


def cpu_plan(allowed, server_cpus=None, client_cpus=None, cores=()):
    """--server-cpus / --client-cpus: mysqld and the clients on CPU sets
    (numactl --physcpubind).  The side not given gets the CPUs the other
    leaves, or all of them if it leaves none.  Overlap is allowed and
    reported."""
    srv = cli = None
    if server_cpus is not None:
        srv = choose(server_cpus, allowed, cores)
    if client_cpus is not None:
        cli = choose(client_cpus, allowed, cores, taken=srv or (), from_end=True)
    if srv is None:
        srv = [c for c in allowed if c not in cli] or sorted(allowed)
    if cli is None:
        cli = [c for c in allowed if c not in srv] or sorted(allowed)
    shared = sorted(set(srv) & set(cli))
    note = "server on %s, clients on %s" % (_describe(srv, server_cpus, cores),
                                            _describe(cli, client_cpus, cores))
    if shared:
        note += "; overlap: CPUs %s shared by server and clients" % format_cpulist(shared)
    return {"server": ["numactl", "--physcpubind=" + format_cpulist(srv)],
            "client": ["numactl", "--physcpubind=" + format_cpulist(cli)],
            "note": note, "server_cpus": srv, "client_cpus": cli, "server_mem": None}


def plan(nodes, server_nodes=None, client_nodes=None):
    """mysqld and the clients on NUMA nodes.

    With several nodes, or nodes named: the server on server_nodes (default:
    the first half), the clients on client_nodes (default: the rest, or the
    server's if none is left), each bound to its nodes' CPUs and memory.
    With one node and none named: disjoint CPU sets, the larger half for
    the server."""
    ids = sorted(nodes)
    if not ids:
        raise ValueError("no NUMA nodes found")
    if len(ids) > 1 or server_nodes or client_nodes:
        srv = server_nodes or ids[: (len(ids) + 1) // 2]
        cli = client_nodes or [n for n in ids if n not in srv] or srv
        for n in srv + cli:
            if n not in nodes:
                raise ValueError("no NUMA node %d (have %s)" % (n, ids))
        join = lambda ns: ",".join(str(n) for n in ns)
        note = "server on NUMA node(s) %s, clients on node(s) %s" % (join(srv), join(cli))
        if set(srv) & set(cli):
            note += "; overlap: node(s) %s shared" % join(sorted(set(srv) & set(cli)))
        return {"server": ["numactl", "--cpunodebind=" + join(srv), "--membind=" + join(srv)],
                "client": ["numactl", "--cpunodebind=" + join(cli), "--membind=" + join(cli)],
                "note": note, "server_cpus": [c for n in srv for c in nodes[n]],
                "client_cpus": [c for n in cli for c in nodes[n]], "server_mem": srv}
    cpus = nodes[ids[0]]
    if len(cpus) < 2:
        return {"server": [], "client": [], "note": "single node with one CPU: no pinning possible",
                "server_cpus": cpus, "client_cpus": cpus, "server_mem": None}
    half = (len(cpus) + 1) // 2
    srv, cli = cpus[:half], cpus[half:]
    return {"server": ["numactl", "--physcpubind=" + format_cpulist(srv)],
            "client": ["numactl", "--physcpubind=" + format_cpulist(cli)],
            "note": "single NUMA node: server on CPUs %s, clients on CPUs %s (disjoint sets)"
                    % (format_cpulist(srv), format_cpulist(cli)),
            "server_cpus": srv, "client_cpus": cli, "server_mem": None}


def memory_policy(plan_, nodes, membind=None, interleave=None, memory=None, buffer_pool=None):
    """Apply --membind NODES or --interleave NODES|all to mysqld's numactl
    prefix (replacing a node plan's own --membind) and warn, in the plan's
    note and its "warnings", when the buffer pool is larger than the
    memory of the nodes mysqld's memory is bound to."""
    if membind and interleave:
        raise ValueError("--membind and --interleave exclude each other")
    chosen = membind or interleave
    if chosen:
        ids = sorted(nodes) if chosen == "all" else chosen
        for n in ids:
            if n not in nodes:
                raise ValueError("no NUMA node %d (have %s)" % (n, sorted(nodes)))
        prefix = [x for x in plan_["server"] if not x.startswith("--membind=")] or ["numactl"]
        option = "--membind=" if membind else "--interleave="
        plan_["server"] = prefix + [option + ",".join(str(n) for n in ids)]
        plan_["server_mem"] = ids
        plan_["note"] += "; server memory %s node(s) %s" % (
            "bound to" if membind else "interleaved over", ",".join(str(n) for n in ids))
    plan_.setdefault("warnings", [])
    bound = plan_.get("server_mem")
    if bound and memory and buffer_pool:
        have = sum(memory.get(n, 0) for n in bound)
        if have and buffer_pool > have:
            plan_["warnings"].append(
                "the buffer pool (%.1f GiB) is larger than the memory of node(s) %s (%.1f GiB)"
                " mysqld is bound to: it will swap or fail to start"
                % (buffer_pool / 2**30, ",".join(str(n) for n in bound), have / 2**30))
    return plan_

