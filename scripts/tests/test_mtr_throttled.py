# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Fast-tier tests of scripts/mtr_throttled.py: which tests the throttled
MTR stage runs."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mtr_throttled  # noqa: E402


class Chosen(unittest.TestCase):
    def setUp(self):
        self.suite = os.path.join(tempfile.mkdtemp(), "s")
        os.makedirs(os.path.join(self.suite, "t"))
        os.makedirs(os.path.join(self.suite, "include"))

    def tearDown(self):
        shutil.rmtree(os.path.dirname(self.suite))

    def write(self, rel, text):
        with open(os.path.join(self.suite, rel), "w") as f:
            f.write(text)

    def chosen(self, cap=3):
        return mtr_throttled.chosen(cap, [self.suite])

    def test_sessions_up_to_the_cap_are_left_out(self):
        self.write("t/two.test", "--connect (a,localhost,root,,)\nconnect(b,localhost,root,,);\n"
                   "--connection a\n--disconnect a\n")
        self.assertEqual(self.chosen(), [])
        self.assertEqual(self.chosen(cap=2), ["s.two"])

    def test_one_more_session_than_the_cap_is_chosen(self):
        self.write("t/three.test", "".join("--connect (c%d,localhost,root,,)\n" % i for i in range(3)))
        self.assertEqual(self.chosen(), ["s.three"])

    def test_connections_of_sourced_includes_count(self):
        self.write("include/two.inc", "--connect (a,localhost,root,,)\n--connect (b,localhost,root,,)\n")
        self.write("include/outer.inc", "--source include/two.inc\n")
        self.write("t/inc.test", "--connect (c,localhost,root,,)\n"
                   "--source suite/s/include/outer.inc\n")
        self.assertEqual(self.chosen(), ["s.inc"])

    def test_load_workers_and_client_execs_count(self):
        self.write("t/load.test", "--exec python3 load.py --workers=4\n")
        self.write("t/client.test", "--exec $MYSQL test -e 'select 1'\n"
                   "--exec_in_background $MYSQL_SLAP --query=x\n--connect (a,localhost,root,,)\n")
        self.write("t/other.test", "--exec echo restart > $MYSQLTEST_VARDIR/tmp/mysqld.1.expect\n")
        self.assertEqual(self.chosen(), ["s.client", "s.load"])

    def test_reading_the_gate_status_is_chosen(self):
        self.write("t/status.test", "SHOW ENGINE INNODB STATUS;\n")
        self.write("t/var.test", "SHOW GLOBAL STATUS LIKE 'Innodb_trx_throttling_waits';\n")
        self.assertEqual(self.chosen(), ["s.status", "s.var"])


if __name__ == "__main__":
    unittest.main()
