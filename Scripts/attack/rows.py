"""The rows of the hostile-request suite, in the order they run (each listed in
Scripts/attack/suite.py). A row builds its asset folders, asks for its servers, sends its
requests and returns (VERDICT, DETAIL): PASS, FAIL or SKIP, and what was measured. Its
argument is the suite's Row: servers, requests, folders, and the reasons it fails
(row.fail). The rows are in rows_requests.py (1–5), rows_load.py (6–8, 12) and
rows_leaks.py (9–11); what they share is in common.py."""
from rows_leaks import row_9, row_10, row_11
from rows_load import row_6, row_7, row_8, row_12
from rows_requests import row_1, row_2, row_3, row_4, row_5

ROWS = [
    (1, "1x2000000 PNG through fill/tile @3x", row_1),
    (2, "no global stall behind a slow render", row_2),
    (3, "render past serve.timeout is cancelled", row_3),
    (4, "master swapped after start", row_4),
    (5, "untrusted-sources: SVG href, BMP as .png", row_5),
    (6, "slowloris, 1500 connections", row_6),
    (7, "50 slow readers of a large output", row_7),
    (8, "flood of 200 large renders", row_8),
    (9, "small leaks (404 bodies, signatures, key, NFC/NFD, cache du)", row_9),
    (10, "nginx example: only signed paths", row_10),
    (11, "--metrics-port", row_11),
    (12, "Kubernetes example's memory limit under a flood", row_12),
]
