# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""What a run needs to be re-checked later: the trees and builds that made
the servers, the tools, the machine's settings and every server's global
variables, written as metadata.json beside results.csv and summary.md."""
import json
import os
import platform
import re
import subprocess

from . import report

def _out(argv, cwd=None):
    """First line of a command's output, or None if it cannot run."""
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    text = (r.stdout or r.stderr).strip()
    return text.splitlines()[0] if r.returncode == 0 and text else None


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def git_state(root):
    """sha and dirty state of the git tree at root."""
    sha = _out(["git", "-C", root, "rev-parse", "HEAD"])
    status = subprocess.run(["git", "-C", root, "status", "--porcelain"], capture_output=True,
                            text=True).stdout if sha else ""
    return {"sha": sha, "dirty": bool(status.strip())}


def cmake_build(bindir):
    """Build type, compiler and flags from the CMakeCache.txt of the build
    a server's binaries come from (bindir is its bin or runtime output
    directory, one level below the cache)."""
    cache = _read(os.path.join(os.path.dirname(os.path.abspath(bindir)), "CMakeCache.txt"))
    if cache is None:
        return {}
    keys = ("CMAKE_BUILD_TYPE", "CMAKE_CXX_COMPILER", "CMAKE_CXX_FLAGS",
            "CMAKE_CXX_FLAGS_RELWITHDEBINFO", "CMAKE_CXX_FLAGS_RELEASE", "CMAKE_CXX_FLAGS_DEBUG",
            "WITH_DEBUG")
    out = {}
    for line in cache.splitlines():
        m = re.match(r"^([A-Z_]+):[A-Z]+=(.*)$", line)
        if m and m.group(1) in keys:
            out[m.group(1)] = m.group(2)
    if out.get("CMAKE_CXX_COMPILER"):
        out["compiler_version"] = _out([out["CMAKE_CXX_COMPILER"], "--version"])
    return out


def system():
    """report.machine() (CPU, cores, NUMA nodes, kernel, memory) and the
    settings that change throughput: governor, SMT, transparent huge pages."""
    thp = _read("/sys/kernel/mm/transparent_hugepage/enabled")
    m = re.search(r"\[(\w+)\]", thp or "")
    return dict(report.machine(),
                governor=_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
                or "none (no cpufreq)",
                smt_active=_read("/sys/devices/system/cpu/smt/active"),
                thp=m.group(1) if m else thp)


def tools(go_tpc):
    return {"sysbench": _out(["sysbench", "--version"]),
            "go-tpc": _out([go_tpc, "version"]) if os.access(go_tpc, os.X_OK) else None,
            "python": platform.python_version()}


def write(path, root, source_sha256, servers, variables, go_tpc, command):
    """metadata.json: the fork tree's git state and the pinned upstream
    source, each server's build and global variables ({server: {name:
    value}}), tools, machine and the command."""
    data = {"command": command,
            "fork_tree": git_state(root),
            "upstream_source_sha256": source_sha256,
            "servers": {s.name: {"spec": s.spec, "bindir": s.bindir,
                                 "build": cmake_build(s.bindir),
                                 "variables": variables.get(s.name, {})}
                        for s in servers},
            "tools": tools(go_tpc),
            "system": system()}
    with open(path, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True, default=str)
    return data
