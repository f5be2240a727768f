#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Keep the prepared fork tree and the repository in step.

The prepared tree is the pristine MySQL tree plus
  * the patch series in patches/ (edits to upstream files), and
  * the overlay: our own new files, kept in this repository at their
    MySQL-tree paths (see OVERLAY_DIRS).

  tree.py prepare PRISTINE TREE   bring TREE up to date with the repository
  tree.py refresh PRISTINE TREE [--new NAME.patch | --add NAME.patch]
                                  copy edits made in TREE back: new files into
                                  the repository, upstream edits into the patch
                                  that owns the file (or into a new patch, or
                                  with --add into an existing one)
  tree.py check PRISTINE          check that the series applies (fast tier)

Rules that keep this simple and lossless:
  * edits to an upstream file go to the last patch of the series that
    touches it; with --new NAME they all go to NAME, a new (or the last)
    patch, as with quilt's top patch; with --add NAME the files no patch
    touches yet go to NAME, an existing patch of the series;
  * overlay files must not exist upstream (an upstream edit is a patch);
  * prepare never overwrites a file edited by hand in TREE (it stops and
    says to run `make refresh-patches` or DISCARD=1), and warns about hand
    edits it keeps that the repository does not have yet.
"""
import argparse
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.environ.get("INNOFORK_REPO") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCH_DIR = os.path.join(REPO, "patches")
SERIES = os.path.join(PATCH_DIR, "series")
OVERLAY_DIRS = ["storage", "sql", "include", "mysql-test", "unittest"]
IGNORED = re.compile(r"(\.orig|\.rej|~|\.swp|\.pyc|\.reject|\.log)$|/\.#|/__pycache__/")
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
    """file -> the last patch of the series that touches it: edits made in
    the prepared tree go there (as with quilt's top patch)."""
    own = {}
    for name in read_series():
        for f in patch_files(name):
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


def apply_series(pristine, dest, upto=None, extra=()):
    """Copy the pristine files the series touches (and extra ones) to dest and
    apply the series there, or only the patches before `upto`.

    Returns {path: patched copy}.  Stops with the patch, file and hunk named
    if a patch does not apply."""
    series = read_series()
    if upto in series:
        series = series[:series.index(upto)]
    files = set(extra)
    for name in series:
        files.update(patch_files(name))
    for f in files:
        src = os.path.join(pristine, f)
        dst = os.path.join(dest, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.exists(src):
            shutil.copy2(src, dst)
    for name in series:
        r = subprocess.run(["patch", "-p1", "-N", "--no-backup-if-mismatch", "-r", "-",
                            "-d", dest, "-i", os.path.join(PATCH_DIR, name)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            die("patch %s does not apply to MySQL's pristine tree:\n%s" % (name, r.stdout.rstrip()))
    return {f: os.path.join(dest, f) for f in files}


def sha1(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_state(tree):
    """{path: sha1 of the content prepare last wrote there}."""
    path = os.path.join(tree, STATE)
    return json.load(open(path)) if os.path.exists(path) else {}


def save_state(tree, state):
    with open(os.path.join(tree, STATE) + ".new", "w") as out:
        json.dump(state, out, indent=0, sort_keys=True)
    os.replace(os.path.join(tree, STATE) + ".new", os.path.join(tree, STATE))


def same(a, b):
    return os.path.exists(a) and os.path.exists(b) and filecmp.cmp(a, b, shallow=False)


def edited_files(pristine, tree, state):
    """Files edited in the prepared tree by hand: content differs from what
    prepare wrote there, or (for files prepare never wrote) from pristine.
    Both trees come from one tarball, so an untouched file has pristine's
    mtime: only files whose mtime differs are read."""
    out = []
    for root, dirs, files in os.walk(tree):
        for fn in files:
            p = os.path.join(root, fn)
            rel = os.path.relpath(p, tree)
            if rel == STATE or IGNORED.search("/" + rel):
                continue
            q = os.path.join(pristine, rel)
            if os.path.exists(q) and os.path.getmtime(q) == os.path.getmtime(p) and rel not in state:
                continue
            if rel in state:
                if sha1(p) != state[rel]:
                    out.append(rel)
            elif not same(p, q):
                out.append(rel)
    return sorted(out)


def prepare(pristine, tree, discard):
    for f in overlay_files():
        if os.path.exists(os.path.join(pristine, f)):
            die("%s exists upstream: edits to upstream files belong in a patch, not the overlay" % f)
    state = load_state(tree)
    edited = set(edited_files(pristine, tree, state))
    with tempfile.TemporaryDirectory() as tmp:
        want = apply_series(pristine, tmp)          # path -> source of its content
        for f in overlay_files():
            want[f] = os.path.join(REPO, f)
        # Files prepare wrote before but no longer wants, and (with DISCARD)
        # hand edits: back to pristine, or removed if not upstream.
        back = set(state) - set(want)
        if discard:
            back |= edited - set(want)
        todo = [(f, want[f]) for f in want] + [(f, os.path.join(pristine, f)) for f in back]
        changes = [(f, src) for f, src in todo
                   if not (os.path.exists(src) and same(src, os.path.join(tree, f)))
                   and (os.path.exists(src) or os.path.exists(os.path.join(tree, f)))]
        conflicts = [f for f, _ in changes if f in edited and not discard]
        if conflicts:
            die("these files were edited in the prepared tree %s and differ from the repository:\n  %s\n"
                "Run `make refresh-patches` to save the edits into the repository, or\n"
                "`make prepare DISCARD=1` to throw them away." % (tree, "\n  ".join(sorted(conflicts))))
        for f, src in changes:
            dst = os.path.join(tree, f)
            if os.path.exists(src):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
                shutil.copymode(src, dst)
                info("prepared %s" % f)
            else:
                os.remove(dst)
                info("removed %s" % f)
        state = {f: sha1(os.path.join(tree, f)) for f in want}
    save_state(tree, state)
    kept = sorted(edited - set(want)) if not discard else []
    if kept:
        info("WARNING: edits in the prepared tree that are not in the repository yet (kept):\n  %s\n"
             "  Save them with `make refresh-patches` (NEW=NNNN-name.patch for upstream files no patch owns)."
             % "\n  ".join(kept))
    info("tree %s prepared: %d patches, %d overlay files, %d files updated"
         % (tree, len(read_series()), len(overlay_files()), len(changes)))


def file_diff(base, tree, f):
    a = os.path.join(base, f)
    r = subprocess.run(["diff", "-u", "--label", "a/" + f, "--label", "b/" + f,
                        a if os.path.exists(a) else "/dev/null", os.path.join(tree, f)],
                       stdout=subprocess.PIPE, text=True, errors="surrogateescape")
    if r.returncode > 1:
        die("diff failed on %s" % f)
    return r.stdout


def split_patch(name):
    """(header, {file: its diff text}) of an existing patch."""
    path = os.path.join(PATCH_DIR, name)
    if not os.path.exists(path):
        return "%s\n\n" % name[:-6].split("-", 1)[-1].replace("-", " "), {}
    head, sections, cur = [], {}, None
    lines = open(path, errors="surrogateescape").readlines()
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.startswith("--- ") and nxt.startswith("+++ "):
            cur = nxt[4:].split("\t")[0].strip()
            cur = cur[2:] if cur.startswith("b/") else cur
            sections[cur] = ""
        if cur is None:
            head.append(line)
        else:
            sections[cur] += line
    return "".join(head), sections


def write_patch(pristine, tree, name, files):
    """Rewrite the sections of patch `name` for `files` as the diff between
    the file before this patch (pristine + the earlier patches) and the
    prepared tree; keep its other sections as they are."""
    header, sections = split_patch(name)
    with tempfile.TemporaryDirectory() as base:
        apply_series(pristine, base, upto=name, extra=files)
        for f in files:
            d = file_diff(base, tree, f)
            if d:
                sections[f] = d
            else:
                sections.pop(f, None)
    path = os.path.join(PATCH_DIR, name)
    if not sections:
        if os.path.exists(path):
            os.remove(path)
            series = [s for s in read_series() if s != name]
            open(SERIES, "w").write("".join(s + "\n" for s in series))
            info("patch %s is now empty: removed it from the series" % name)
        return
    os.makedirs(PATCH_DIR, exist_ok=True)
    with open(path, "w", errors="surrogateescape") as out:
        out.write(header + "".join(sections[f] for f in sorted(sections)))
    if name not in read_series():
        with open(SERIES, "a") as s:
            s.write(name + "\n")
    info("wrote patches/%s (%d files)" % (name, len(sections)))


def refresh(pristine, tree, new, add=None):
    if not os.path.exists(os.path.join(tree, STATE)):
        die("%s was not prepared by this tool" % tree)
    state = load_state(tree)
    own = owners()
    touched = {}                                     # patch -> files
    unowned = []
    new_files = []
    for f in edited_files(pristine, tree, state):
        if os.path.exists(os.path.join(pristine, f)):
            if new:                                  # a new top patch takes every edit
                touched.setdefault(new, set()).add(f)
            elif f in own:
                touched.setdefault(own[f], set()).add(f)
            elif add:                                # no patch touches f: no order to keep
                touched.setdefault(add, set()).add(f)
            else:
                unowned.append(f)
        elif f.split("/", 1)[0] not in OVERLAY_DIRS:
            die("%s is a new file outside %s: move it or remove it" % (f, ", ".join(OVERLAY_DIRS)))
        else:
            new_files.append(f)
    # Decide everything before writing anything.
    if unowned:
        die("these upstream files were edited but belong to no patch:\n  %s\n"
            "Name a new patch for them: make refresh-patches NEW=NNNN-what-it-does.patch,\n"
            "or an existing one: make refresh-patches ADD=NNNN-existing.patch"
            % "\n  ".join(unowned))
    if add and (new or add not in read_series()):
        die("ADD=%s: name one patch of %s, without NEW" % (add, SERIES))
    if new:
        if not re.match(r"^\d{4}-[a-z0-9-]+\.patch$", new):
            die("patch name %s: use NNNN-what-it-does.patch" % new)
        series = read_series()
        if new in series and series[-1] != new:
            die("%s is not the last patch of the series: NEW= makes or extends the top patch" % new)
    copied = 0
    for f in new_files:
        dst = os.path.join(REPO, f)
        if not same(os.path.join(tree, f), dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(tree, f), dst)
            info("saved %s" % f)
            copied += 1
    for name, files in touched.items():
        write_patch(pristine, tree, name, files)
    # The tree now matches the repository: record it as prepare would.
    for f in new_files + [f for files in touched.values() for f in files]:
        state[f] = sha1(os.path.join(tree, f))
    save_state(tree, state)
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
    ap.add_argument("--add")
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
        refresh(a.pristine, a.tree, a.new, a.add)


if __name__ == "__main__":
    main()
