"""The servers' CPU time and memory while they serve, read from /proc (no psutil needed)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

# --- Processes, read from /proc (no psutil needed) ------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def pids_named(name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class Sampler:
    """CPU (% of one core) and peak memory of named processes over a window. A process that
    starts during the window (a PostgreSQL backend for a new connection) counts from its start;
    one that ends before the report is not counted."""

    def __init__(self, processes: dict[str, Any]) -> None:
        self.processes = processes  # name -> a function giving the pids now
        self.cpu0: dict[int, float] = {}
        self.seen: dict[str, set[int]] = {name: set() for name in processes}
        self.peak = {n: 0.0 for n in processes}
        self._discover(at_start=True)
        self.t0 = time.monotonic()

    @staticmethod
    def _cpu(pid: int) -> float | None:
        try:
            return cpu_seconds(pid)
        except OSError:
            return None  # gone

    def _discover(self, at_start: bool = False) -> dict[str, list[int]]:
        now = {}
        for name, pids in self.processes.items():
            now[name] = pids()
            for pid in now[name]:
                if pid not in self.cpu0:
                    self.cpu0[pid] = (self._cpu(pid) or 0.0) if at_start else 0.0
                    self.seen[name].add(pid)
        return now

    def sample(self) -> None:
        for name, pids in self._discover().items():
            mem = 0.0
            for pid in pids:
                try:
                    mem += rss_mb(pid)
                except OSError:
                    continue
            self.peak[name] = max(self.peak[name], mem)

    def cpu_now(self, name: str) -> float:
        """CPU seconds the processes named `name` used so far (from their start)."""
        return sum(self._cpu(pid) or 0.0 for pid in self.processes[name]())

    def report(self) -> dict[str, dict[str, float]]:
        wall = time.monotonic() - self.t0
        used = {}
        for name, pids in self.seen.items():
            total = 0.0
            for pid in pids:
                now = self._cpu(pid)
                if now is not None:
                    total += now - self.cpu0[pid]
            used[name] = total
        return {
            name: {
                "cpu_percent": round(used[name] / wall * 100, 1),
                "cpu_seconds": round(used[name], 2),
                "peak_rss_mb": round(self.peak[name], 1),
            }
            for name in self.processes
        }


async def sampled(coro, sampler: Sampler):
    task = asyncio.ensure_future(coro)
    while not task.done():
        sampler.sample()
        await asyncio.wait([task], timeout=1.0)
    return task.result()
