# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""tools/offcpu.py on a made-up perf script excerpt."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import offcpu  # noqa: E402

# Thread 7 leaves at 1.0 in a read, thread 8 at 1.5 waiting for a latch;
# 7 comes back at 3.0 (2 s off), 8 at 4.0 (2.5 s off).
SCRIPT = """\
 connection 7 1.000000: sched:sched_switch: prev_comm=c prev_pid=7 prev_prio=120 prev_state=D ==> next_comm=c next_pid=9 next_prio=120
\tffffffff8226 __schedule
\t1234 __libc_pread64
\t5678 buf_read_page

 connection 8 1.500000: sched:sched_switch: prev_comm=c prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=c next_pid=9 next_prio=120
\tffffffff8226 schedule
\t1234 mtr_t::x_lock_space
\t5678 fsp_reserve_free_extents

 connection 9 3.000000: sched:sched_switch: prev_comm=c prev_pid=9 prev_prio=120 prev_state=R ==> next_comm=c next_pid=7 next_prio=120
\t1234 __sched_yield

 connection 7 4.000000: sched:sched_switch: prev_comm=c prev_pid=7 prev_prio=120 prev_state=R ==> next_comm=c next_pid=8 next_prio=120
\t1234 __sched_yield
"""


class OffCpuTest(unittest.TestCase):
    def test_time_goes_to_the_stack_left_with(self):
        seconds, count = offcpu.off_cpu(SCRIPT.splitlines())
        self.assertEqual(seconds["__libc_pread64 < buf_read_page"], 2.0)
        self.assertEqual(seconds["mtr_t::x_lock_space < fsp_reserve_free_extents"], 2.5)
        self.assertEqual(sum(count.values()), 2)  # 9 and the second 7 never came back

    def test_filter(self):
        seconds, _ = offcpu.off_cpu(SCRIPT.splitlines(),
                                    keep=lambda stack: "x_lock_space" not in " ".join(stack))
        self.assertEqual(list(seconds), ["__libc_pread64 < buf_read_page"])


if __name__ == "__main__":
    unittest.main()
