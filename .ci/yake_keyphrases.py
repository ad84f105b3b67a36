"""Runs YAKE (PyPI `yake`, default settings: n=3, top 10) over keyphrase corpora, for
`.ci/bench keyphrases`, which scores its output exactly as it scores ours.

Usage: yake_keyphrases.py OUT.tsv DIR... where each DIR holds docsutf8/<id>.txt.
Writes one line per document: corpus, id, seconds spent extracting, keyphrases joined by '|'.
The time covers extraction only (the same span `keyphrase-bench` times for ours).
"""
import os
import sys
import time

import yake


def main():
    out_path, folders = sys.argv[1], sys.argv[2:]
    extractor = yake.KeywordExtractor(lan="en", n=3, top=10)
    with open(out_path, "w", encoding="utf-8") as out:
        for folder in folders:
            corpus = os.path.basename(os.path.normpath(folder))
            docs = os.path.join(folder, "docsutf8")
            for name in sorted(os.listdir(docs)):
                if not name.endswith(".txt"):
                    continue
                with open(os.path.join(docs, name), "rb") as f:
                    text = f.read().decode("utf-8", errors="replace")
                started = time.perf_counter()
                phrases = [kw for kw, _score in extractor.extract_keywords(text)]
                seconds = time.perf_counter() - started
                cleaned = [p.replace("|", " ").replace("\t", " ").replace("\n", " ") for p in phrases]
                out.write(f"{corpus}\t{name[:-4]}\t{seconds:.6f}\t{'|'.join(cleaned)}\n")


if __name__ == "__main__":
    main()
