"""The hardening audit, re-runnable: real ``stepwise serve`` processes on 127.0.0.1, hostile or
concurrent clients, and figures that must hold (``python -m bench.audit``; docs/benchmarks.md)."""
