# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Fast-tier tests of scripts/server.sh's refusals, without a build: bad
input ends with a clear message and leaves the data directory alone."""
import os
import shutil
import subprocess
import tempfile
import unittest

SERVER_SH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "server.sh")


class ServerScriptTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.datadir = os.path.join(self.tmp, "data")
        os.makedirs(self.datadir)
        self.keep = os.path.join(self.datadir, "precious")
        with open(self.keep, "w") as f:
            f.write("do not lose me\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def start(self, **env):
        e = dict(os.environ, VARDIR=os.path.join(self.tmp, "var"), DATADIR=self.datadir,
                 FORK_BUILD_DIR=os.path.join(self.tmp, "build"), PRESET="release")
        e.update(env)
        r = subprocess.run(["bash", SERVER_SH, "start"], env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        return r.returncode, r.stderr

    def assertKept(self):
        with open(self.keep) as f:
            self.assertEqual(f.read(), "do not lose me\n")
        self.assertEqual(os.listdir(self.datadir), ["precious"])

    def test_datadir_in_use(self):
        # Another process (and only it) holds a file of the data directory open.
        with open(self.keep) as held:
            holder = subprocess.Popen(["sleep", "60"], stdin=held)
        try:
            rc, err = self.start()
        finally:
            holder.kill()
            holder.wait()
        self.assertNotEqual(rc, 0)
        self.assertIn("is in use by another process (pid %d" % holder.pid, err)
        self.assertKept()

    def test_not_a_mysql_datadir(self):
        rc, err = self.start()
        self.assertNotEqual(rc, 0)
        self.assertIn("is not empty and is not a MySQL data directory", err)
        self.assertKept()

    def test_unknown_preset(self):
        rc, err = self.start(PRESET="fast")
        self.assertNotEqual(rc, 0)
        self.assertIn("unknown preset 'fast'", err)
        self.assertKept()

    def test_no_build(self):
        os.unlink(self.keep)
        rc, err = self.start()
        self.assertNotEqual(rc, 0)
        self.assertIn("no release build", err)
        self.assertEqual(os.listdir(self.datadir), [])


if __name__ == "__main__":
    unittest.main()
