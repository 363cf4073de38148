"""`make gen` is deterministic: two in-process runs of main.build_all() give identical bytes,
so does a fresh interpreter with another hash seed (PeachPy hashes Name objects by id(), which
once reshuffled label names between runs), and `lfgen check` passes on the checked-in tree."""

import hashlib
import json
import os
import subprocess
import sys
import unittest

from lfgen import main
from . import support


def digest(files):
    return {k: hashlib.sha256(v.encode()).hexdigest() for k, v in sorted(files.items())}


class Determinism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.first, cls.manifest = main.build_all()

    def test_two_in_process_runs(self):
        second, manifest = main.build_all()
        self.assertEqual(sorted(self.first), sorted(second))
        for k in self.first:
            self.assertEqual(self.first[k], second[k], k)
        self.assertEqual(self.manifest, manifest)

    def test_fresh_interpreters_with_other_hash_seeds(self):
        code = ("import hashlib, json; from lfgen import main; f, _ = main.build_all(); "
                "print(json.dumps({k: hashlib.sha256(v.encode()).hexdigest() "
                "for k, v in f.items()}, sort_keys=True))")
        want = digest(self.first)
        for seed in ("1", "4242"):
            env = dict(os.environ, PYTHONHASHSEED=seed,
                       PYTHONPATH=os.path.join(support.ROOT, "gen"))
            p = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd="/")
            self.assertEqual(p.returncode, 0, p.stderr)
            got = json.loads(p.stdout)
            with self.subTest(seed=seed):
                self.assertEqual([k for k in want if want[k] != got.get(k)], [])

    def test_no_absolute_paths_or_times(self):
        for rel, text in self.first.items():
            self.assertNotIn(support.ROOT, text, rel)
        self.assertTrue(self.first["generated/MANIFEST.json"].endswith("\n"))

    def test_manifest_hashes_match(self):
        m = json.loads(self.first["generated/MANIFEST.json"])
        for rel, h in m["files"].items():
            self.assertEqual(hashlib.sha256(self.first[rel].encode()).hexdigest(), h, rel)

    def test_lfgen_check_on_the_checked_in_tree(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(support.ROOT, "gen"))
        p = subprocess.run([sys.executable, "-m", "lfgen", "check"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           cwd=support.ROOT)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("matches the generator", p.stdout)

    def test_check_reports_a_difference(self):
        files = dict(self.first)
        rel = sorted(k for k in files if k.endswith(".S"))[0]
        files[rel] = files[rel] + "\n"
        self.assertIn("differs " + rel, main.check(files))
        files = dict(self.first)
        files["generated/x86_64/not_there.S"] = "x"
        self.assertIn("missing generated/x86_64/not_there.S", main.check(files))


if __name__ == "__main__":
    unittest.main()
