"""Native tesseract (Debian tesseract-ocr 5.3) on the same pages the library OCRs, for the conversion benchmark.

usage: tesseract_reference.py OUT.json FILE.pdf...
Every page is rendered at 300 DPI (grey) with PyMuPDF, then recognised by the `tesseract` CLI with
`--psm 1` (automatic segmentation with orientation detection, the native counterpart of the library's
rotation handling), two processes at a time with OMP_THREAD_LIMIT=1 (both cores, like the library's pool).
Writes per-page text and times; render and recognition are timed separately, wall and CPU (user + system: this
process for the renders, its waited-for tesseract children for recognition).
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import fitz

out_path, files = sys.argv[1], sys.argv[2:]
tmp = tempfile.mkdtemp(prefix="tess-bench-")
jobs = []
t0 = time.perf_counter()
c0 = time.process_time()
for f in files:
    doc = fitz.open(f)
    for i, page in enumerate(doc):
        png = os.path.join(tmp, f"{os.path.basename(f)}-{i + 1}.png")
        page.get_pixmap(dpi=300, colorspace=fitz.csGRAY).save(png)
        jobs.append((f, i + 1, png))
render_s = time.perf_counter() - t0
render_cpu_s = time.process_time() - c0
env = dict(os.environ, OMP_THREAD_LIMIT="1")


def ocr(job):
    f, n, png = job
    s = time.perf_counter()
    text = subprocess.run(["tesseract", png, "stdout", "--psm", "1", "-l", "eng"], capture_output=True, text=True, env=env).stdout
    return {"file": os.path.basename(f), "page": n, "text": text, "seconds": time.perf_counter() - s}


t1 = time.perf_counter()
with ThreadPoolExecutor(max_workers=2) as pool:
    pages = list(pool.map(ocr, jobs))
ocr_s = time.perf_counter() - t1
children = resource.getrusage(resource.RUSAGE_CHILDREN)
peak_child_mb = children.ru_maxrss / 1024
ocr_cpu_s = children.ru_utime + children.ru_stime  # every tesseract process, all its threads
with open(out_path, "w") as fh:
    json.dump({"render_seconds": render_s, "render_cpu_seconds": render_cpu_s, "ocr_seconds": ocr_s, "ocr_cpu_seconds": ocr_cpu_s, "peak_tesseract_rss_mb": peak_child_mb, "pages": pages}, fh)
