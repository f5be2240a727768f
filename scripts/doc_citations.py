#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Keeps the text true: the citations of the B-link protocol resolve.

  * Every rule tag (HK1, DL1, X3, ...) cited by the B-link code, its patch,
    its tests and texts is in the glossary of README.blink.md ("Rule tags and
    where they are enforced"), and the glossary lists each tag exactly once;
    README.blink.md defines each tag (a bold "**TAG") at most once.
  * Every heading cited as `<file>.md, "Heading"` or `<file>.md *Heading*`
    (in code comments, tests, scripts and texts) is a heading of that file,
    and every link to a heading (`[text](#anchor)`, `[text](file.md#anchor)`) resolves.
  * No README under storage/ tells history ("part 1", "being built", "this
    session", "audited on", "issue 12").

Run alone it prints one line per problem and exits 1 if there is any; the
fast tier runs it through scripts/tests/test_doc_citations.py.
"""
import glob
import os
import re
import sys

PROTOCOL = "storage/innobase/btr/README.blink.md"
GLOSSARY = "Rule tags and where they are enforced"
TAG = r"(?:HK|DL|MC|LO|SP|IS|FS|RV|M|H|R|L|F|A|D|S|G|X)[0-9]+"
TAG_RE = re.compile(r"(?<![\w.-])(" + TAG + r")(?:(?:\.\.|-)(" + TAG + r"))?(?![\w])")
# A heading citation: the file, then a comma or blanks, then the quoted heading.
CITE_RE = re.compile(r"([\w./-]*\w\.md)`?(?:,\s*|\s+)(?:\"([^\"]+)\"|\*([^*\s][^*]*)\*)")
LINK_RE = re.compile(r"\]\(([\w./-]*?)(?:#([\w-]+))\)")
HISTORY_RE = re.compile(
    r"\bpart [0-9]+\b|\bbeing built\b|\baudited on\b|\bissue [0-9]+\b|"
    r"\b(?:this|last|previous|next|earlier|[0-9]+(?:st|nd|rd|th)|"
    r"second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) session\b|\bsession [0-9]+\b",
    re.IGNORECASE)
# Comment leaders stripped when a citation spans lines.
LEADER_RE = re.compile(r"^\s*(?:\+(?!\+\+))?\s*(?://+|/\*+|\*+/?|#+|--+|;+)?\s?")
SKIP_DIRS = {".git", "build", "var", "node_modules", "__pycache__"}
# The checker and its tests plant citations that must not resolve.
SELF = {"scripts/doc_citations.py", "scripts/tests/test_doc_citations.py"}


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def repo_files(root):
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        rel_top = os.path.relpath(top, root)
        # Recorded benchmark results are data, not text that cites.
        if rel_top.startswith(os.path.join("benchmarks", "doc")) and rel_top.count(os.sep) >= 3:
            continue
        for name in sorted(files):
            rel = os.path.normpath(os.path.join(rel_top, name))
            if rel not in SELF:
                yield rel


def patch_added_text(text):
    """The lines a patch adds (its hunks' '+' lines, without the '+'); the
    other lines blank, so that line numbers are the patch's."""
    return "\n".join(l[1:] if l.startswith("+") and not l.startswith("+++") else ""
                     for l in text.splitlines())


def joined(text):
    """Text with comment leaders removed and lines joined, so that a quoted
    heading broken across comment lines reads as one string."""
    return " ".join(LEADER_RE.sub("", l, count=1).strip() for l in text.splitlines())


def headings(text):
    """The headings of a Markdown text, outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                out.append(m.group(1))
    return out


def anchor(heading):
    """GitHub's anchor of a heading."""
    h = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", ""))
    return h.replace(" ", "-")


def glossary_tags(text):
    """The first column of the glossary table, in order."""
    tags, inside = [], False
    for line in text.splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
        if m:
            inside = m.group(1) == GLOSSARY
            continue
        if inside:
            cell = re.match(r"^\|\s*`?(" + TAG + r")`?\s*\|", line)
            if cell:
                tags.append(cell.group(1))
    return tags


def expand(first, last):
    """X2..X5 -> X2, X3, X4, X5; a range of two prefixes is two tags."""
    a, b = re.match(r"([A-Z]+)([0-9]+)", first), re.match(r"([A-Z]+)([0-9]+)", last)
    if a.group(1) != b.group(1) or int(b.group(2)) < int(a.group(2)):
        return [first, last]
    return [a.group(1) + str(n) for n in range(int(a.group(2)), int(b.group(2)) + 1)]


def cited_tags(text):
    """(tag, line number) for every tag the text cites."""
    for no, line in enumerate(text.splitlines(), 1):
        for m in TAG_RE.finditer(line):
            for tag in (expand(m.group(1), m.group(2)) if m.group(2) else [m.group(1)]):
                yield tag, no


def cites_protocol(rel, text):
    """Files whose rule tags are B-link tags: B-link files, the B-link
    patch, and any file that names README.blink.md."""
    return ("blink" in rel.lower() and not rel.endswith(".result")) or \
        rel.startswith("patches/0003") or "README.blink.md" in text


def resolve(root, cited, citing, md_files):
    """The Markdown file a citation names, or None."""
    if "/" in cited:
        for base in (os.path.dirname(citing), ""):
            path = os.path.normpath(os.path.join(base, cited))
            if path in md_files:
                return path
        ends = [p for p in md_files if p.endswith("/" + cited)]
        return ends[0] if len(ends) == 1 else None
    if cited == "README.md":
        return "README.md"
    same = [p for p in md_files if os.path.basename(p) == cited]
    return same[0] if len(same) == 1 else None


def check(root):
    problems = []
    files = list(repo_files(root))
    md_files = {p for p in files if p.endswith(".md")}
    protocol = read(os.path.join(root, PROTOCOL))
    glossary = glossary_tags(protocol)
    if not glossary:
        problems.append(f"{PROTOCOL}: no glossary table under \"{GLOSSARY}\"")
    for tag in sorted(set(glossary)):
        if glossary.count(tag) > 1:
            problems.append(f"{PROTOCOL}: {tag} is in the glossary {glossary.count(tag)} times")
    for tag in sorted(set(re.findall(r"\*\*(" + TAG + r")\b", protocol))):
        n = len(re.findall(r"\*\*" + tag + r"\b", protocol))
        if n > 1:
            problems.append(f"{PROTOCOL}: {tag} is defined {n} times")
    known = set(glossary)
    heads = {p: headings(read(os.path.join(root, p))) for p in md_files}

    for rel in files:
        path = os.path.join(root, rel)
        if not rel.endswith((".cc", ".h", ".ic", ".patch", ".test", ".inc", ".result",
                             ".py", ".sh", ".md", ".cnf", ".txt", ".json")) \
                and "Makefile" not in rel:
            continue
        text = read(path)
        if rel.endswith(".patch"):
            text = patch_added_text(text)
        if cites_protocol(rel, text):
            for tag, no in cited_tags(text):
                if tag not in known:
                    problems.append(f"{rel}:{no}: rule {tag} is not in the glossary of {PROTOCOL}")
        for m in CITE_RE.finditer(joined(text)):
            target = resolve(root, m.group(1), rel, md_files)
            heading = re.sub(r"\s+", " ", m.group(2) or m.group(3)).strip()
            if target is None:
                problems.append(f"{rel}: cites {m.group(1)}, which does not exist")
            elif heading not in heads[target]:
                problems.append(f"{rel}: cites \"{heading}\" in {target}, which has no such heading")
        if rel.endswith(".md"):
            for m in LINK_RE.finditer(text):
                target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1))) \
                    if m.group(1) else rel
                if target not in heads:
                    continue      # a link outside the repository's texts
                if m.group(2) not in {anchor(h) for h in heads[target]}:
                    problems.append(f"{rel}: links #{m.group(2)} in {target}, which has no such heading")
            if rel.startswith("storage/") and os.path.basename(rel).startswith("README"):
                for no, line in enumerate(text.splitlines(), 1):
                    m = HISTORY_RE.search(line)
                    if m:
                        problems.append(f"{rel}:{no}: history in a protocol text: \"{m.group(0)}\"")
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
