#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Where mysqld's threads wait: off-CPU time per call stack, from the
scheduler's switches (benchmarks/doc/blink/README.md, "Tables larger than
the buffer pool", what held the tablespace latch).  Record during a point,
then read:

  perf record -e sched:sched_switch -g -p $(pgrep -x mysqld) -o perf.data -- sleep 8
  perf script -i perf.data -F comm,tid,time,event,trace,ip,sym > switches.txt
  python3 benchmarks/tools/offcpu.py switches.txt [--with REGEX] [--without REGEX] [--frames N]

A thread is off the CPU from its switch out to its next switch in; that
time goes to the stack it left with (kernel frames dropped).  --with keeps
the stacks with a frame matching REGEX, --without drops those with one."""
import argparse
import collections
import re

SWITCH = re.compile(r"^\s*\S+\s+\d+\s+([\d.]+):\s+sched:sched_switch:.*"
                    r"prev_pid=(\d+).*prev_state=(\S+) ==> .*next_pid=(\d+)")
KERNEL = ("__schedule", "schedule", "do_syscall", "entry_SYSCALL", "__x64",
          "futex_", "do_futex", "__futex", "x64_sys")


def switches(lines):
    """(time, tid switched out, its state, tid switched in, its stack)."""
    event = None
    for line in lines:
        m = SWITCH.match(line)
        if m:
            if event:
                yield event
            event = (float(m.group(1)), int(m.group(2)), m.group(3),
                     int(m.group(4)), [])
        elif line.strip() and event is not None:
            event[4].append(line.split()[-1])
    if event:
        yield event


def off_cpu(lines, keep=lambda stack: True, frames=12):
    """Seconds off the CPU and switches, per stack of user frames."""
    out = {}
    seconds = collections.Counter()
    count = collections.Counter()
    for t, prev, _state, nxt, stack in switches(lines):
        out[prev] = (t, stack)
        if nxt in out:
            t0, left = out.pop(nxt)
            if keep(left):
                key = " < ".join([f for f in left if not f.startswith(KERNEL)][:frames])
                seconds[key] += t - t0
                count[key] += 1
    return seconds, count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("switches")
    ap.add_argument("--with", dest="with_", help="keep stacks with a frame matching this")
    ap.add_argument("--without", help="drop stacks with a frame matching this")
    ap.add_argument("--frames", type=int, default=12)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    with_ = re.compile(a.with_) if a.with_ else None
    without = re.compile(a.without) if a.without else None

    def keep(stack):
        return ((with_ is None or any(with_.search(f) for f in stack)) and
                (without is None or not any(without.search(f) for f in stack)))

    with open(a.switches) as f:
        seconds, count = off_cpu(f, keep, a.frames)
    print("off-CPU s: %.2f" % sum(seconds.values()))
    for key, s in seconds.most_common(a.top):
        print("%8.3f s %6d  %s" % (s, count[key], key))


if __name__ == "__main__":
    main()
