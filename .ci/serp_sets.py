"""Extracts the held-out SERP sets of tests/fixtures/serp-sets/sources.tsv (see there).

Usage: serp_sets.py <sources.tsv> <mirrors folder> <output folder> [prefix]
Each set is read from <mirrors>/<owner>+<name>/repo (a bare git directory) at its commit and
written as <output>/<prefix>-<name>.tsv (prefix: serp) unless that file exists. A set of the
format `read-file-transcript` is in no snapshot fetch can bring: its file is made by hand
(sources.tsv says how) and only checked against the SHA-256 given there. Standard library only.
"""

import collections
import csv
import hashlib
import html
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

MIN_URLS = 6
DEPTH = 10


def git_show(git_dir, commit, path):
    return subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
    ).stdout


def ranked_csv(keyword_column, rank_column, link_column):
    """A CSV reader of one row per result; a keyword's first run of rising ranks is page 1
    (the rank starts again at 1 on page 2 or on a second fetch)."""

    def read(git_dir, commit, path):
        text = git_show(git_dir, commit, path).decode("utf-8")
        results = collections.OrderedDict()
        for row in csv.DictReader(io.StringIO(text)):
            ranked = results.setdefault(row[keyword_column], [])
            ranked.append((int(row[rank_column]), row[link_column]))
        for keyword, ranked in results.items():
            page = [ranked[0]]
            for item in ranked[1:]:
                if item[0] <= page[-1][0]:
                    break
                page.append(item)
            yield keyword, [link for _, link in sorted(page)]

    return read


def sqlite_organic(git_dir, commit, path):
    """Table organic(query, date, position, url): the first date's results."""
    with tempfile.NamedTemporaryFile(suffix=".db") as db:
        db.write(git_show(git_dir, commit, path))
        db.flush()
        connection = sqlite3.connect(db.name)
        results = collections.OrderedDict()
        query = "select query, position, url from organic where date = '6-8-22' order by id"
        for keyword, position, url in connection.execute(query):
            results.setdefault(keyword, []).append((position, url))
        connection.close()
    for keyword, ranked in results.items():
        yield keyword, [url for _, url in sorted(ranked)]


def markup_parsed_meta(git_dir, commit, path):
    """The Markup's parsed mobile result pages: the query from the page's title, organic
    result links in on-page order (top, then left)."""
    listing = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, path],
        check=True,
        capture_output=True,
    ).stdout.decode()
    parsed = sorted(
        f for f in listing.splitlines()
        if f.startswith(f"{path}/intermediary/") and f.endswith("json/parsed_meta.jsonl")
    )
    for meta in parsed:
        page = meta.replace("/intermediary/", "/input/").replace(
            "json/parsed_meta.jsonl", "html/webpage_raw.html"
        )
        title = re.search(
            r"<title>(.*?) - Google Search</title>",
            git_show(git_dir, commit, page).decode(errors="replace"),
        )
        keyword = html.unescape(title.group(1)) if title else meta.split("/")[-3].replace("-", " ")
        elements = [
            json.loads(line)
            for line in git_show(git_dir, commit, meta).decode(errors="replace").splitlines()
            if line.strip()
        ]
        organic = [
            e for e in elements
            if e["category"].startswith("organic-search_result")
            and str(e.get("link") or "").startswith("http")
        ]
        organic.sort(key=lambda e: (e["location"]["y"], e["location"]["x"]))
        links = []
        for element in organic:
            if element["link"] not in links:
                links.append(element["link"])
        yield keyword, links


def keywordninja_json(location):
    """Keyword Ninja's stored keywords (every `*.json` of the folder): each keyword's last
    fetched organic results for one location (`IN`, or `GL` for the US)."""

    def read(git_dir, commit, path):
        listing = subprocess.run(
            ["git", "--git-dir", git_dir, "ls-tree", "--name-only", f"{commit}:{path}"],
            check=True,
            capture_output=True,
        ).stdout.decode()
        for name in sorted(n for n in listing.splitlines() if n.endswith(".json")):
            stored = json.loads(git_show(git_dir, commit, f"{path}/{name}"))
            for entry in stored["keywords"]:
                serp = (entry.get("serp") or {}).get(location)
                if not serp:
                    continue
                organic = sorted(
                    (r for r in serp.get("results", []) if r.get("type") == "organic"),
                    key=lambda r: r["rank_group"],
                )
                yield entry["keyword"], [r["url"] for r in organic]

    return read


READERS = {
    "keyword-link-position": ranked_csv("keyword", "position", "link"),
    "sqlite-organic": sqlite_organic,
    "searchterms-rank-link": ranked_csv("searchTerms", "rank", "link"),
    "markup-parsed-meta": markup_parsed_meta,
    "keywordninja-json-in": keywordninja_json("IN"),
    "keywordninja-json-us": keywordninja_json("GL"),
}


def write(target, results):
    seen = set()
    rows = 0
    with open(target, "w", encoding="utf-8", newline="") as out:
        out.write("keyword\t" + "\t".join(f"url{i}" for i in range(1, DEPTH + 1)) + "\n")
        for keyword, urls in results:
            keyword = re.sub(r"\s+", " ", keyword.strip()).lower()
            urls = [re.sub(r"[\t\r\n]", "", u.strip()) for u in urls if u and u.strip()][:DEPTH]
            if not keyword or keyword in seen or len(urls) < MIN_URLS:
                continue
            seen.add(keyword)
            rows += 1
            out.write("\t".join([keyword] + urls + [""] * (DEPTH - len(urls))) + "\n")
    return rows


TRANSCRIPT = "read-file-transcript"


def check_transcript(name, target, sha256):
    """Says whether a hand-made set is there and is the one measured; never fails, so the
    other sets are still made."""
    if not os.path.exists(target):
        print(f"{name}: left out, {target} is made by hand (see sources.tsv)", file=sys.stderr)
        return
    with open(target, "rb") as made:
        digest = hashlib.sha256(made.read()).hexdigest()
    if sha256 and digest != sha256:
        print(f"{name}: {target} differs from the transcript measured (sha256 {digest})",
              file=sys.stderr)


def main():
    sources, mirrors, output = sys.argv[1:4]
    prefix = sys.argv[4] if len(sys.argv) > 4 else "serp"
    os.makedirs(output, exist_ok=True)
    for line in open(sources, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        name, repo, commit, path, form = fields[:5]
        target = os.path.join(output, f"{prefix}-{name}.tsv")
        if form == TRANSCRIPT:
            check_transcript(name, target, fields[6] if len(fields) > 6 else "")
            continue
        if os.path.exists(target):
            continue
        git_dir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
        if subprocess.run(
            ["git", "--git-dir", git_dir, "cat-file", "-e", f"{commit}^{{commit}}"],
            capture_output=True,
        ).returncode != 0:
            sys.exit(f"{name}: no copy of github:{repo} at {commit} in {mirrors} "
                     "(fetch it with the tool library's fetch)")
        partial = target + ".partial"
        rows = write(partial, READERS[form](git_dir, commit, path))
        os.replace(partial, target)
        print(f"{name}: {rows} keywords", file=sys.stderr)


if __name__ == "__main__":
    main()
