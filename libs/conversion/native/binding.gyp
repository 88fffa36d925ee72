{
  "targets": [
    {
      "target_name": "lectern_mupdf",
      "sources": ["src/lectern_mupdf.c", "src/stext_page.c", "src/font_metrics.c", "src/page_device.c", "src/drawings.c"],
      "cflags": ["-O2", "-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter", "<!@(pkg-config --cflags mupdf)"],
      "ldflags": ["-Wl,--exclude-libs,ALL", "-Wl,--gc-sections", "-Wl,--as-needed"],
      "libraries": ["<!@(pkg-config --libs --static mupdf)", "<!@(pkg-config --libs harfbuzz)"]
    }
  ]
}
