#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Keep the prepared fork tree and the repository in step.

The prepared tree is the pristine MySQL tree plus
  * the patch series in patches/ (edits to upstream files), and
  * the overlay: our own new files, kept in this repository at their
    MySQL-tree paths (see OVERLAY_DIRS).

  tree.py prepare PRISTINE TREE   bring TREE up to date with the repository
  tree.py refresh PRISTINE TREE [--new NAME.patch]
                                  copy edits made in TREE back: new files into
                                  the repository, upstream edits into the patch
                                  that owns the file (or into a new patch)
  tree.py check PRISTINE          check that the series applies (fast tier)

Rules that keep this simple and lossless:
  * each upstream file belongs to exactly one patch;
  * overlay files must not exist upstream (an upstream edit is a patch);
  * prepare never overwrites a file edited in TREE since the last prepare
    (it stops and says to run `make refresh-patches` or DISCARD=1).
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCH_DIR = os.path.join(REPO, "patches")
SERIES = os.path.join(PATCH_DIR, "series")
OVERLAY_DIRS = ["storage", "sql", "include", "mysql-test", "unittest"]
IGNORED = re.compile(r"(\.orig|\.rej|~|\.swp|\.pyc|\.reject|\.log)$|/\.#|/__pycache__/")
STAMP = ".innofork-prepared"
STATE = ".innofork-state"


def die(msg):
    sys.stderr.write("[innofork] ERROR: %s\n" % msg)
    sys.exit(1)


def info(msg):
    sys.stderr.write("[innofork] %s\n" % msg)


def read_series():
    if not os.path.exists(SERIES):
        return []
    names = []
    for line in open(SERIES):
        line = line.split("#", 1)[0].strip()
        if line:
            if not os.path.exists(os.path.join(PATCH_DIR, line)):
                die("patches/series names %s, which does not exist" % line)
            names.append(line)
    return names


def patch_files(name):
    """Paths (relative to the tree) that a patch touches."""
    files = []
    for line in open(os.path.join(PATCH_DIR, name), errors="replace"):
        if line.startswith("+++ "):
            path = line[4:].split("\t")[0].strip()
            if path.startswith("b/"):
                path = path[2:]
            files.append(path)
    return files


def owners():
    """file -> owning patch; dies if two patches touch one file."""
    own = {}
    for name in read_series():
        for f in patch_files(name):
            if f in own and own[f] != name:
                die("%s is touched by both %s and %s: one file, one patch" % (f, own[f], name))
            own[f] = name
    return own


def overlay_files():
    out = []
    for d in OVERLAY_DIRS:
        top = os.path.join(REPO, d)
        for root, _, files in os.walk(top):
            for fn in files:
                rel = os.path.relpath(os.path.join(root, fn), REPO)
                if not IGNORED.search("/" + rel):
                    out.append(rel)
    return sorted(out)


def apply_series(pristine, dest):
    """Apply the series to copies of the pristine files under dest.

    Returns {path: patched copy}.  Stops with the patch, file and hunk named
    if a patch does not apply."""
    own = owners()
    for f in own:
        src = os.path.join(pristine, f)
        dst = os.path.join(dest, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.exists(src):
            shutil.copy2(src, dst)
    for name in read_series():
        r = subprocess.run(["patch", "-p1", "-N", "--no-backup-if-mismatch", "-r", "-",
                            "-d", dest, "-i", os.path.join(PATCH_DIR, name)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            die("patch %s does not apply to MySQL's pristine tree:\n%s" % (name, r.stdout.rstrip()))
    return {f: os.path.join(dest, f) for f in own}


def load_state(tree):
    path = os.path.join(tree, STATE)
    if not os.path.exists(path):
        return set()
    return set(l.rstrip("\n") for l in open(path) if l.strip())


def edited_since_prepare(tree, path):
    stamp = os.path.join(tree, STAMP)
    p = os.path.join(tree, path)
    return (os.path.exists(stamp) and os.path.exists(p)
            and os.path.getmtime(p) > os.path.getmtime(stamp))


def same(a, b):
    return os.path.exists(a) and os.path.exists(b) and filecmp.cmp(a, b, shallow=False)


def prepare(pristine, tree, discard):
    for f in overlay_files():
        if os.path.exists(os.path.join(pristine, f)):
            die("%s exists upstream: edits to upstream files belong in a patch, not the overlay" % f)
    with tempfile.TemporaryDirectory() as tmp:
        want = apply_series(pristine, tmp)          # path -> source of its content
        for f in overlay_files():
            want[f] = os.path.join(REPO, f)
        previous = load_state(tree)
        # Files we put there last time but no longer want: back to pristine.
        restore = {f: os.path.join(pristine, f) for f in previous - set(want)}
        conflicts = []
        changes = []
        for f, src in list(want.items()) + list(restore.items()):
            dst = os.path.join(tree, f)
            if os.path.exists(src) and same(src, dst):
                continue
            if not os.path.exists(src) and not os.path.exists(dst):
                continue
            if edited_since_prepare(tree, f) and not discard:
                conflicts.append(f)
            changes.append((f, src, dst))
        if conflicts:
            die("these files were edited in the prepared tree %s and differ from the repository:\n  %s\n"
                "Run `make refresh-patches` to save the edits into the repository, or\n"
                "`make prepare DISCARD=1` to throw them away." % (tree, "\n  ".join(sorted(conflicts))))
        for f, src, dst in changes:
            if os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
                shutil.copymode(src, dst)
            else:                                    # an overlay file we no longer carry
                os.remove(dst)
            info("prepared %s" % f)
    with open(os.path.join(tree, STATE), "w") as st:
        st.write("".join(f + "\n" for f in sorted(want)))
    open(os.path.join(tree, STAMP), "w").close()
    info("tree %s prepared: %d patches, %d overlay files, %d files updated"
         % (tree, len(read_series()), len(overlay_files()), len(changes)))


def edited_files(tree):
    """Files changed in the tree since the last prepare (by mtime)."""
    stamp = os.path.getmtime(os.path.join(tree, STAMP))
    out = []
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d not in (".git",)]
        for fn in files:
            p = os.path.join(root, fn)
            rel = os.path.relpath(p, tree)
            if rel in (STAMP, STATE) or IGNORED.search("/" + rel):
                continue
            if os.path.getmtime(p) > stamp:
                out.append(rel)
    return sorted(out)


def file_diff(pristine, tree, f):
    r = subprocess.run(["diff", "-u", "--label", "a/" + f, "--label", "b/" + f,
                        os.path.join(pristine, f), os.path.join(tree, f)],
                       stdout=subprocess.PIPE, text=True, errors="surrogateescape")
    if r.returncode > 1:
        die("diff failed on %s" % f)
    return r.stdout


def patch_header(name):
    path = os.path.join(PATCH_DIR, name)
    if not os.path.exists(path):
        return "%s\n\n" % name[:-6].split("-", 1)[-1].replace("-", " ")
    head = []
    for line in open(path):
        if line.startswith("--- ") or line.startswith("diff "):
            break
        head.append(line)
    return "".join(head)


def write_patch(pristine, tree, name, files):
    diffs = [file_diff(pristine, tree, f) for f in sorted(files)]
    diffs = [d for d in diffs if d]
    path = os.path.join(PATCH_DIR, name)
    if not diffs:
        if os.path.exists(path):
            os.remove(path)
            series = [s for s in read_series() if s != name]
            open(SERIES, "w").write("".join(s + "\n" for s in series))
            info("patch %s is now empty: removed it from the series" % name)
        return
    os.makedirs(PATCH_DIR, exist_ok=True)
    with open(path, "w", errors="surrogateescape") as out:
        out.write(patch_header(name) + "".join(diffs))
    if name not in read_series():
        with open(SERIES, "a") as s:
            s.write(name + "\n")
    info("wrote patches/%s (%d files)" % (name, len(diffs)))


def refresh(pristine, tree, new):
    if not os.path.exists(os.path.join(tree, STAMP)):
        die("%s was not prepared by this tool" % tree)
    own = owners()
    touched = {}                                     # patch -> files
    unowned = []
    copied = 0
    for f in edited_files(tree):
        if os.path.exists(os.path.join(pristine, f)):
            if f in own:
                touched.setdefault(own[f], set()).add(f)
            else:
                unowned.append(f)
        else:
            if f.split("/", 1)[0] not in OVERLAY_DIRS:
                die("%s is a new file outside %s: move it or remove it" % (f, ", ".join(OVERLAY_DIRS)))
            dst = os.path.join(REPO, f)
            if not same(os.path.join(tree, f), dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(os.path.join(tree, f), dst)
                info("saved %s" % f)
                copied += 1
    if unowned:
        if not new:
            die("these upstream files were edited but belong to no patch:\n  %s\n"
                "Name a new patch for them: make refresh-patches NEW=NNNN-what-it-does.patch"
                % "\n  ".join(unowned))
        if not re.match(r"^\d{4}-[a-z0-9-]+\.patch$", new):
            die("patch name %s: use NNNN-what-it-does.patch" % new)
        touched.setdefault(new, set()).update(unowned)
    for name, files in touched.items():
        current = set(f for f, n in own.items() if n == name)
        write_patch(pristine, tree, name, current | files)
    os.utime(os.path.join(tree, STAMP))
    info("refresh done: %d overlay files saved, %d patches rewritten" % (copied, len(touched)))


def check(pristine):
    with tempfile.TemporaryDirectory() as tmp:
        files = apply_series(pristine, tmp)
    clash = [f for f in overlay_files() if os.path.exists(os.path.join(pristine, f))]
    if clash:
        die("overlay files that exist upstream: %s" % ", ".join(clash))
    print("patch series applies: %d patches, %d files; %d overlay files"
          % (len(read_series()), len(files), len(overlay_files())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["prepare", "refresh", "check"])
    ap.add_argument("pristine")
    ap.add_argument("tree", nargs="?")
    ap.add_argument("--discard", action="store_true")
    ap.add_argument("--new")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.pristine, "MYSQL_VERSION")):
        die("%s is not a MySQL source tree" % a.pristine)
    if a.cmd == "check":
        check(a.pristine)
    elif a.tree is None:
        die("%s needs the prepared tree's path" % a.cmd)
    elif a.cmd == "prepare":
        prepare(a.pristine, a.tree, a.discard)
    else:
        refresh(a.pristine, a.tree, a.new)


if __name__ == "__main__":
    main()
