"""What a tuning run has measured, kept on disk so that an interrupted run resumes.

build/tune/<arch>-<cpu>/state-<mode>[-quick].json maps a step key -- kernel, variant, what was done
(check / model / time), the incumbent and the candidate's values -- to its result.  The search
is deterministic given these results, so a second run replays the decisions from the file
and measures only what is missing.  The file is rewritten atomically after every step;
`--fresh` starts over, and so does a change of what the measurements depend on (the kernel
sources, the builders, generic's values, the bench harness: `meta`), which is said.  Timing,
quick timing and models keep separate files, so one never discards another."""

import json
import os

VERSION = 1


class State:
    def __init__(self, path, meta):
        self.path = path
        self.data = {"version": VERSION, "meta": meta, "results": {}}
        self.discarded = None           # why earlier results were not taken, if there were
        if os.path.exists(path):
            old = self._load(path)
            if isinstance(old, str):
                self.discarded = old
            elif old.get("version") != VERSION:
                self.discarded = "%d earlier results in another format" % len(
                    old.get("results", {}))
            else:
                was = old.get("meta", {})
                changed = sorted(k for k in set(meta) | set(was) if was.get(k) != meta.get(k))
                if changed:
                    self.discarded = "%d earlier results were measured with another %s" % (
                        len(old["results"]), ", ".join(changed))
                else:
                    self.data = old
        self.earlier = set(self.data["results"])
        self.reused = 0

    @staticmethod
    def _load(path):
        """The file's contents, or why they cannot be used."""
        try:
            with open(path) as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            return "%s is unreadable (%s)" % (path, e)
        if not isinstance(old, dict) or not isinstance(old.get("results"), dict):
            return "%s is unreadable (not a state file)" % path
        return old

    def get(self, key):
        r = self.data["results"].get(key)
        if r is not None and key in self.earlier:
            self.reused += 1
        return r

    def put(self, key, result):
        self.data["results"][key] = result
        self.save()

    def __contains__(self, key):
        return key in self.data["results"]

    def __len__(self):
        return len(self.data["results"])

    def save(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
