# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""metadata.json: what a run records so that it can be re-checked."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from innobench import main, metadata, report  # noqa: E402
from innobench.server import ROOT  # noqa: E402

X86 = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu\n"
GRAVITON3 = "processor\t: 0\nBogoMIPS\t: 2100.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd40\n"
KUNPENG = "CPU implementer\t: 0x48\nCPU architecture: 8\nCPU part\t: 0xd01\n"
UNKNOWN = "CPU implementer\t: 0x51\nCPU part\t: 0x001\n"


class FakeServer:
    def __init__(self, name, bindir):
        self.name, self.bindir, self.spec = name, bindir, {"build": ("fork", "release")}


class MetadataTest(unittest.TestCase):
    def test_cpu_names(self):
        self.assertEqual(report.cpu_name(X86), "AMD EPYC 7B13")
        self.assertEqual(report.cpu_name(GRAVITON3), "Arm Neoverse V1 (Graviton3)")
        self.assertEqual(report.cpu_name(KUNPENG), "HiSilicon Kunpeng 920")
        self.assertEqual(report.cpu_name(UNKNOWN), "ARM implementer 0x51 part 0x001")

    def test_build_and_file(self):
        with tempfile.TemporaryDirectory() as d:
            bindir = os.path.join(d, "release", "bin")
            os.makedirs(bindir)
            with open(os.path.join(d, "release", "CMakeCache.txt"), "w") as f:
                f.write("CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\n"
                        "CMAKE_CXX_FLAGS_RELWITHDEBINFO:STRING=-O2 -g -DNDEBUG\n"
                        "CMAKE_CXX_COMPILER:FILEPATH=/nonexistent/c++\n"
                        "OTHER:BOOL=ON\n")
            build = metadata.cmake_build(bindir)
            self.assertEqual(build["CMAKE_BUILD_TYPE"], "RelWithDebInfo")
            self.assertEqual(build["CMAKE_CXX_FLAGS_RELWITHDEBINFO"], "-O2 -g -DNDEBUG")
            self.assertIsNone(build["compiler_version"])  # the compiler is not there
            self.assertNotIn("OTHER", build)
            path = os.path.join(d, "metadata.json")
            metadata.write(path, ROOT, main.source_sha256(), [FakeServer("fork", bindir)],
                           {"fork": {"innodb_btree_blink": "ON"}}, "/nonexistent/go-tpc",
                           "benchmarks/run --profile smoke")
            with open(path) as f:
                data = json.load(f)
        self.assertEqual(data["servers"]["fork"]["variables"], {"innodb_btree_blink": "ON"})
        self.assertEqual(data["servers"]["fork"]["build"]["CMAKE_BUILD_TYPE"], "RelWithDebInfo")
        self.assertEqual(len(data["fork_tree"]["sha"]), 40)
        self.assertIn(data["fork_tree"]["dirty"], (True, False))
        self.assertRegex(data["upstream_source_sha256"], "^[0-9a-f]{64}$")
        self.assertIsNone(data["tools"]["go-tpc"])
        for key in ("kernel", "cpu", "governor", "smt_active", "thp"):
            self.assertIn(key, data["system"])
        self.assertEqual(data["command"], "benchmarks/run --profile smoke")


if __name__ == "__main__":
    unittest.main()
