"""Reference text-layer extractors for the conversion benchmark (run with Debian's /usr/bin/python3).

usage: pdf_text_reference.py pymupdf|pdfminer FILE.pdf [warm]
Prints one JSON line: pages, seconds (extraction only, file already on disk), peak RSS of this process.
PyMuPDF: page.get_text() per page (what spec 000 uses). pdfminer: high_level.extract_text (what MarkItDown uses).
seconds / cpu_seconds: the first pass in a fresh interpreter, `import fitz` included (PyMuPDF *cold*);
process_cpu_seconds: the process's whole CPU at the end of that pass (the interpreter's own start-up included).
With `warm` (PyMuPDF only): then 5 untimed passes (open + get_text of every page) and 5 timed ones in the same
process; warm_seconds / warm_cpu_seconds are the timed passes' medians (PyMuPDF *warm*, as our warm figure).
"""
import json
import resource
import sys
import time

tool, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
c0 = time.process_time()
if tool == "pymupdf":
    import fitz

    doc = fitz.open(path)
    pages = doc.page_count
    chars = sum(len(page.get_text()) for page in doc)
elif tool == "pdfminer":
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage

    with open(path, "rb") as f:
        pages = sum(1 for _ in PDFPage.get_pages(f))
    chars = len(extract_text(path))
else:
    raise SystemExit(f"unknown tool {tool}")
seconds = time.perf_counter() - t0
process_cpu = time.process_time()  # since the interpreter started (its start-up included)
cpu = process_cpu - c0
out = {"tool": tool, "pages": pages, "chars": chars, "seconds": seconds, "cpu_seconds": cpu, "process_cpu_seconds": process_cpu}
if tool == "pymupdf" and len(sys.argv) > 3 and sys.argv[3] == "warm":
    def one_pass():
        t, c = time.perf_counter(), time.process_time()
        with fitz.open(path) as d:
            n = sum(len(page.get_text()) for page in d)
        assert n == chars
        return time.perf_counter() - t, time.process_time() - c

    for _ in range(5):
        one_pass()
    runs = sorted(one_pass() for _ in range(5))
    out["warm_seconds"] = runs[2][0]
    out["warm_cpu_seconds"] = sorted(r[1] for r in runs)[2]
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
