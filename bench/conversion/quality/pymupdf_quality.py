"""PyMuPDF reference for the conversion-quality benchmark (run with Debian's /usr/bin/python3, python3-fitz 1.21).

usage: pymupdf_quality.py FILE.pdf
Prints one JSON line: the pages' get_text() (PyMuPDF's default flags: characters outside the page's crop box
are not extracted), the PDF's outline (get_toc: level, title, page), and timings: this process's wall and CPU
seconds from interpreter start (a fresh process), and the median of three get_text() passes over the open
document after a first one (a warm process), each with its CPU time.
"""
import json
import sys
import time

start_wall = time.perf_counter()
start_cpu = time.process_time()
import fitz  # noqa: E402  (timed: part of a fresh process's cost)

path = sys.argv[1]


def extract(doc):
    return [page.get_text() for page in doc]


doc = fitz.open(path)
texts = extract(doc)
# characters drawn outside the page box (PyMuPDF's default drops them): what an extractor must not return
outside = []
for page in doc:
    rect = page.rect
    raw = page.get_text("rawdict", flags=fitz.TEXTFLAGS_RAWDICT & ~fitz.TEXT_MEDIABOX_CLIP, clip=fitz.INFINITE_RECT())
    for block in raw["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                outside.append("".join(c["c"] if not fitz.Rect(c["bbox"]).intersects(rect) else " " for c in span["chars"]))
fresh_wall = time.perf_counter() - start_wall
fresh_cpu = time.process_time() - start_cpu
warm = []
for _ in range(3):
    w0, c0 = time.perf_counter(), time.process_time()
    d = fitz.open(path)
    extract(d)
    warm.append((time.perf_counter() - w0, time.process_time() - c0))
warm.sort()
print(json.dumps({
    "pages": doc.page_count,
    "texts": texts,
    "toc": [[lvl, title, page] for lvl, title, page in doc.get_toc(simple=True)],
    "outside": " ".join(t for t in outside if t.strip()),
    "fresh_seconds": fresh_wall,
    "fresh_cpu_seconds": fresh_cpu,
    "warm_seconds": warm[1][0],
    "warm_cpu_seconds": warm[1][1],
}))
