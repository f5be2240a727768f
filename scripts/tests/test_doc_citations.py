# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Fast-tier tests of scripts/doc_citations.py, and its verdict on this
repository: every rule tag and heading the code cites exists."""
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import doc_citations  # noqa: E402

PROTOCOL = """# B-link indexes

## Invariants

* **HK1 (high key iff right sibling)** A page has a high key iff it has a right sibling.

### Rule tags and where they are enforced

| tag | rule | enforced by |
| --- | --- | --- |
| HK1 | high key iff right sibling | `check_high_key_iff_sibling()` |
| X2 | exclusive paths finish splits | `btr_blink_lock_exclusive()` |
| X3 | move right | `btr_blink_exclusive_moves_right()` |
| X4 | undo the split | `unsplit()` |

## Latch order

See [the invariants](#invariants).
"""

CODE = """/* The descent (README.blink.md, "Latch
order"): HK1, and X2..X4 on the exclusive paths. */
"""


class Planted(unittest.TestCase):
    """A small tree that passes, and one planted fault at a time."""

    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.write(doc_citations.PROTOCOL, PROTOCOL)
        self.write("storage/innobase/btr/btr0blink_search.cc", CODE)
        self.write("README.md", "# innofork\n\n## The two commands\n")

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, rel, text):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def problems(self):
        return doc_citations.check(self.root)

    def test_the_clean_tree_passes(self):
        self.assertEqual(self.problems(), [])

    def test_a_dangling_rule_tag_fails(self):
        self.write("storage/innobase/btr/btr0blink.cc", "/* G7: a merge ... */\n")
        self.assertEqual(len(self.problems()), 1)
        self.assertIn("rule G7 is not in the glossary", self.problems()[0])

    def test_a_range_cites_each_tag_in_it(self):
        self.write("storage/innobase/btr/btr0blink.cc", "/* X2..X5 */\n")
        self.assertEqual([p.split(": ", 1)[1] for p in self.problems()],
                         ["rule X5 is not in the glossary of " + doc_citations.PROTOCOL])

    def test_tags_of_patch_context_lines_are_not_citations(self):
        self.write("patches/0003-btree-blink.patch",
                   "--- a/x.cc\n+++ b/x.cc\n@@ -1 +1 @@\n /* S9 stock */\n+/* HK1 */\n")
        self.assertEqual(self.problems(), [])
        self.write("patches/0003-btree-blink.patch",
                   "--- a/x.cc\n+++ b/x.cc\n@@ -1 +1 @@\n+/* HK9 */\n")
        self.assertEqual(len(self.problems()), 1)

    def test_a_tag_twice_in_the_glossary_fails(self):
        self.write(doc_citations.PROTOCOL, PROTOCOL + "\n### Rule tags and where they are enforced\n\n"
                   "| tag | rule | by |\n| --- | --- | --- |\n| HK1 | again | x |\n")
        self.assertIn("HK1 is in the glossary 2 times", "\n".join(self.problems()))

    def test_a_tag_defined_twice_fails(self):
        self.write(doc_citations.PROTOCOL,
                   PROTOCOL + "\n* **HK1 (every page reachable)** another meaning.\n")
        self.assertIn("HK1 is defined 2 times", "\n".join(self.problems()))

    def test_a_dangling_heading_citation_fails(self):
        self.write("mysql-test/suite/innodb_fork/t/blink_x.test",
                   '# Crashes (README.blink.md "Redo"): the split\n')
        self.assertEqual(len(self.problems()), 1)
        self.assertIn('cites "Redo"', self.problems()[0])

    def test_an_italic_heading_citation_is_checked_too(self):
        self.write("benchmarks/x.py", '# see `README.md` *The two commands*\n')
        self.assertEqual(self.problems(), [])
        self.write("benchmarks/x.py", '# see README.md, *Intervals*\n')
        self.assertIn('cites "Intervals"', self.problems()[0])

    def test_a_citation_of_a_missing_file_fails(self):
        self.write("scripts/x.sh", '# see README.operations.md, "Going back"\n')
        self.assertIn("README.operations.md, which does not exist", self.problems()[0])

    def test_a_string_ending_in_md_is_not_a_citation(self):
        self.write("benchmarks/x.py", 'open(os.path.join(out, "sweep.md"), "w")\n')
        self.assertEqual(self.problems(), [])

    def test_a_dangling_anchor_fails(self):
        self.write("README.md", "# innofork\n\nSee [the commands](#the-two-commandz).\n")
        self.assertIn("links #the-two-commandz", self.problems()[0])

    def test_history_in_a_protocol_text_fails(self):
        for history in ("Readers (part 1)", "Format (part 4)", "being built", "this session",
                        "issue 12"):
            self.write(doc_citations.PROTOCOL, PROTOCOL + "\n" + history + "\n")
            self.assertEqual(len(self.problems()), 1, history)
        self.write(doc_citations.PROTOCOL, PROTOCOL + "\nA session's transaction.\n")
        self.assertEqual(self.problems(), [])


class ThisRepository(unittest.TestCase):
    def test_every_citation_resolves(self):
        root = os.path.dirname(os.path.dirname(HERE))
        problems = doc_citations.check(root)
        if problems:
            self.fail("citations that do not resolve (scripts/doc_citations.py):\n"
                      + "\n".join(problems))


if __name__ == "__main__":
    unittest.main()
