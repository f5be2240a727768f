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


def plan(nodes, server_nodes=None, client_nodes=None):
    """Decide where mysqld and the clients run.

    With several nodes: the server on server_nodes (default: the first half),
    the clients on client_nodes (default: the rest), each bound to its nodes'
    CPUs and memory.  With one node: disjoint CPU sets, the larger half for
    the server.  Returns dict(server=[argv prefix], client=[argv prefix],
    note=str)."""
    ids = sorted(nodes)
    if not ids:
        raise ValueError("no NUMA nodes found")
    if len(ids) > 1:
        srv = server_nodes or ids[: (len(ids) + 1) // 2]
        cli = client_nodes or [n for n in ids if n not in srv] or srv
        for n in srv + cli:
            if n not in nodes:
                raise ValueError("no NUMA node %d (have %s)" % (n, ids))
        join = lambda ns: ",".join(str(n) for n in ns)
        return {"server": ["numactl", "--cpunodebind=" + join(srv), "--membind=" + join(srv)],
                "client": ["numactl", "--cpunodebind=" + join(cli), "--membind=" + join(cli)],
                "note": "server on NUMA node(s) %s, clients on node(s) %s" % (join(srv), join(cli))}
    cpus = nodes[ids[0]]
    if len(cpus) < 2:
        return {"server": [], "client": [],
                "note": "single node with one CPU: no pinning possible"}
    half = (len(cpus) + 1) // 2
    srv, cli = cpus[:half], cpus[half:]
    return {"server": ["numactl", "--physcpubind=" + format_cpulist(srv)],
            "client": ["numactl", "--physcpubind=" + format_cpulist(cli)],
            "note": "single NUMA node: server on CPUs %s, clients on CPUs %s (disjoint sets)"
                    % (format_cpulist(srv), format_cpulist(cli))}
