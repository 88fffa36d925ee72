"""PyMuPDF reference for the conversion-quality benchmark (run with Debian's /usr/bin/python3, python3-fitz 1.21).

usage: pymupdf_quality.py FILE.pdf
Prints one JSON line: the pages' get_text() (PyMuPDF's default flags: characters outside the page's crop box
are not extracted), the same without the running headers and footers the conversion removes (body_texts), the PDF's outline (get_toc: level, title, page), and timings: this process's wall and CPU
seconds from interpreter start (a fresh process), and the median of three get_text() passes over the open
document after a first one (a warm process), each with its CPU time.
"""
import json
import re
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


def furniture(doc):
    """Per page, the text lines the conversion documents removing: in the top or bottom tenth of the page,
    repeating (digits ignored) on at least 40% of the pages (3 or more), or a bare page number there."""
    if doc.page_count < 2:
        return [set() for _ in doc]
    key = lambda t: re.sub(r"\s+", " ", re.sub(r"\d+", "#", t.lower())).strip()
    bands = []
    for page in doc:
        h = page.rect.height
        w = page.mediabox.width  # a turned page's lines run down it: their band is across the unturned width
        band = []
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                text = "".join(span["text"] for span in line["spans"]).strip()
                x0, y0, x1, y1 = line["bbox"]
                across = abs(line["dir"][1]) > abs(line["dir"][0])
                if text and ((x1 <= 0.1 * w or x0 >= 0.9 * w) if across else (y1 <= 0.1 * h or y0 >= 0.9 * h)):
                    band.append(text)
        bands.append(band)
    pages_with = {}
    for band in bands:
        for k in {key(t) for t in band}:
            pages_with[k] = pages_with.get(k, 0) + 1
    least = max(3, -(-4 * doc.page_count // 10))
    return [{t for t in band if PAGE_NUMBER.match(t) or pages_with.get(key(t), 0) >= least} for band in bands]


PAGE_NUMBER = re.compile(r"^(page\s*)?[-\u2013(]?\s*[\divxlc]{1,6}\s*[-\u2013)]?(\s*(of|/)\s*\d+)?$", re.I)
removed = furniture(doc)
body_texts = ["\n".join(l for l in t.split("\n") if l.strip() not in r) for t, r in zip(texts, removed)]
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
    "body_texts": body_texts,
    "toc": [[lvl, title, page] for lvl, title, page in doc.get_toc(simple=True)],
    "outside": " ".join(t for t in outside if t.strip()),
    "fresh_seconds": fresh_wall,
    "fresh_cpu_seconds": fresh_cpu,
    "warm_seconds": warm[1][0],
    "warm_cpu_seconds": warm[1][1],
}))
