"""Reference text-layer extractors for the conversion benchmark (run with Debian's /usr/bin/python3).

usage: pdf_text_reference.py pymupdf|pdfminer FILE.pdf
Prints one JSON line: pages, seconds (extraction only, file already on disk), peak RSS of this process.
PyMuPDF: page.get_text() per page (what spec 000 uses). pdfminer: high_level.extract_text (what MarkItDown uses).
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
cpu = time.process_time() - c0
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"tool": tool, "pages": pages, "chars": chars, "seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": peak_mb}))
