# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Fast-tier tests of scripts/tree.py on a toy 'MySQL' tree."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

TREE_PY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tree.py")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


class TreeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.pristine = os.path.join(self.tmp, "pristine")
        self.tree = os.path.join(self.tmp, "tree")
        self.repo = os.path.join(self.tmp, "repo")
        write(os.path.join(self.pristine, "MYSQL_VERSION"), "MYSQL_VERSION_MAJOR=9\n")
        write(os.path.join(self.pristine, "storage/innobase/a.cc"), "".join("line %d\n" % i for i in range(40)))
        write(os.path.join(self.pristine, "sql/b.cc"), "b\n")
        shutil.copytree(self.pristine, self.tree)   # same mtimes, as two unpacks of one tarball
        os.makedirs(self.repo)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_tree(self, *args, ok=True):
        r = subprocess.run([sys.executable, TREE_PY] + list(args),
                           env=dict(os.environ, INNOFORK_REPO=self.repo),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if ok:
            self.assertEqual(r.returncode, 0, r.stdout)
        else:
            self.assertNotEqual(r.returncode, 0, r.stdout)
        return r.stdout

    def prepare(self, *extra, ok=True):
        return self.run_tree("prepare", self.pristine, self.tree, *extra, ok=ok)

    def refresh(self, *extra, ok=True):
        return self.run_tree("refresh", self.pristine, self.tree, *extra, ok=ok)

    def edit_tree(self, rel, old, new):
        p = os.path.join(self.tree, rel)
        time.sleep(0.01)
        write(p, read(p).replace(old, new))

    def test_overlay_and_patch_round_trip(self):
        write(os.path.join(self.repo, "storage/innobase/ours.cc"), "ours\n")
        self.prepare()
        self.assertEqual(read(os.path.join(self.tree, "storage/innobase/ours.cc")), "ours\n")
        self.edit_tree("storage/innobase/a.cc", "line 5\n", "line five\n")
        out = self.refresh(ok=False)                       # no patch owns a.cc yet
        self.assertIn("belong to no patch", out)
        self.assertFalse(os.path.exists(os.path.join(self.repo, "patches")))
        self.refresh("--new", "0001-five.patch")
        patch = read(os.path.join(self.repo, "patches/0001-five.patch"))
        self.assertIn("+line five", patch)
        self.assertEqual(read(os.path.join(self.repo, "patches/series")), "0001-five.patch\n")
        # A fresh tree gets the same result from the repository.
        shutil.rmtree(self.tree)
        shutil.copytree(self.pristine, self.tree)
        self.prepare()
        self.assertIn("line five\n", read(os.path.join(self.tree, "storage/innobase/a.cc")))
        self.assertIn("patch series applies: 1 patches",
                      self.run_tree("check", self.pristine))

    def test_hand_edit_is_never_overwritten(self):
        self.prepare()
        self.edit_tree("storage/innobase/a.cc", "line 5\n", "line five\n")
        self.refresh("--new", "0001-five.patch")
        self.edit_tree("storage/innobase/a.cc", "line 30\n", "line thirty\n")   # unsaved
        p = os.path.join(self.repo, "patches/0001-five.patch")
        write(p, read(p).replace("+line five", "+line FIVE"))               # repo moved on
        out = self.prepare(ok=False)
        self.assertIn("storage/innobase/a.cc", out)
        self.assertIn("line thirty", read(os.path.join(self.tree, "storage/innobase/a.cc")))
        self.prepare("--discard")
        a = read(os.path.join(self.tree, "storage/innobase/a.cc"))
        self.assertIn("line FIVE", a)
        self.assertNotIn("line thirty", a)

    def test_unsaved_edit_outside_series_is_kept_and_reported(self):
        self.prepare()
        self.edit_tree("sql/b.cc", "b\n", "bee\n")
        out = self.prepare()
        self.assertIn("not in the repository yet", out)
        self.assertEqual(read(os.path.join(self.tree, "sql/b.cc")), "bee\n")
        out = self.prepare()                              # still reported the next time
        self.assertIn("sql/b.cc", out)

    def test_edits_go_to_the_last_patch_touching_the_file(self):
        self.prepare()
        self.edit_tree("storage/innobase/a.cc", "line 5\n", "line five\n")
        self.refresh("--new", "0001-five.patch")
        self.edit_tree("sql/b.cc", "b\n", "bee\n")
        self.refresh("--new", "0002-bee.patch")
        # Hand-extend 0002 to touch a.cc as well, then edit a.cc again.
        before = read(os.path.join(self.tree, "storage/innobase/a.cc"))
        self.edit_tree("storage/innobase/a.cc", "line 20\n", "line twenty\n")
        r = subprocess.run(["diff", "-u", "--label", "a/storage/innobase/a.cc", "--label",
                            "b/storage/innobase/a.cc", "-", os.path.join(self.tree, "storage/innobase/a.cc")],
                           input=before, stdout=subprocess.PIPE, text=True)
        with open(os.path.join(self.repo, "patches/0002-bee.patch"), "a") as f:
            f.write(r.stdout)
        self.prepare()
        self.edit_tree("storage/innobase/a.cc", "line 35\n", "line thirty-five\n")
        self.refresh()
        one = read(os.path.join(self.repo, "patches/0001-five.patch"))
        two = read(os.path.join(self.repo, "patches/0002-bee.patch"))
        self.assertNotIn("thirty-five", one)
        self.assertIn("+line thirty-five", two)
        self.assertIn("+line twenty", two)
        self.assertIn("+bee", two)

    def test_new_top_patch_takes_edits_of_owned_files(self):
        self.prepare()
        self.edit_tree("storage/innobase/a.cc", "line 5\n", "line five\n")
        self.refresh("--new", "0001-five.patch")
        self.edit_tree("storage/innobase/a.cc", "line 25\n", "line twenty-five\n")
        self.refresh("--new", "0002-more.patch")
        one = read(os.path.join(self.repo, "patches/0001-five.patch"))
        two = read(os.path.join(self.repo, "patches/0002-more.patch"))
        self.assertNotIn("twenty-five", one)
        self.assertIn("+line twenty-five", two)
        self.assertNotIn("+line five", two)                # 0002 is relative to 0001
        self.assertEqual(read(os.path.join(self.repo, "patches/series")),
                         "0001-five.patch\n0002-more.patch\n")
        out = self.refresh("--new", "0001-five.patch", ok=False)
        self.assertIn("not the last patch", out)

    def test_add_puts_unowned_files_into_an_earlier_patch(self):
        self.prepare()
        self.edit_tree("storage/innobase/a.cc", "line 5\n", "line five\n")
        self.refresh("--new", "0001-five.patch")
        self.edit_tree("storage/innobase/a.cc", "line 25\n", "line twenty-five\n")
        self.refresh("--new", "0002-more.patch")
        self.edit_tree("sql/b.cc", "b\n", "bee\n")
        out = self.refresh("--add", "0009-none.patch", ok=False)
        self.assertIn("name one patch", out)
        self.refresh("--add", "0001-five.patch")
        one = read(os.path.join(self.repo, "patches/0001-five.patch"))
        two = read(os.path.join(self.repo, "patches/0002-more.patch"))
        self.assertIn("+bee", one)
        self.assertIn("+line five", one)                   # its other files kept
        self.assertNotIn("bee", two)
        shutil.rmtree(self.tree)
        shutil.copytree(self.pristine, self.tree)
        self.prepare()
        self.assertEqual(read(os.path.join(self.tree, "sql/b.cc")), "bee\n")

    def test_patch_that_does_not_apply_names_patch_and_hunk(self):
        write(os.path.join(self.repo, "patches/series"), "0001-bad.patch\n")
        write(os.path.join(self.repo, "patches/0001-bad.patch"),
              "bad\n\n--- a/sql/b.cc\n+++ b/sql/b.cc\n@@ -1 +1 @@\n-not there\n+x\n")
        out = self.run_tree("check", self.pristine, ok=False)
        self.assertIn("0001-bad.patch", out)
        self.assertIn("sql/b.cc", out)
        self.assertIn("FAILED", out)

    def test_overlay_file_that_exists_upstream_is_refused(self):
        write(os.path.join(self.repo, "sql/b.cc"), "shadow\n")
        out = self.prepare(ok=False)
        self.assertIn("belong in a patch", out)


if __name__ == "__main__":
    unittest.main()
