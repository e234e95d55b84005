#!/usr/bin/env python3
"""The content digest of a tt-rss source tarball (testbed.json's servers.current.tarballDigest).

A tarball's sha256 pins its bytes, which differ between two `git archive` runs of the same tree on
different git versions (gzip level and header, pax headers, mtimes). This digest pins what setup.sh
uses instead: the sorted paths, each regular file's sha256 and executable bit, each symbolic link's
target. Directory entries and pax headers are left out (git has no empty folders; a folder's entry
and its mode carry nothing of the tree). Anything else (hard links, devices, a path outside the top
folder) is refused.

Usage: tarball-digest.py TARBALL [--manifest]   (prints the digest, or the manifest it hashes)
Exit 1 with a message on stderr when the tarball cannot be read or holds what a tree cannot.
"""
import hashlib
import json
import sys
import tarfile

TOP = "tt-rss/"


def manifest(path):
    entries = []
    with tarfile.open(path, "r:*") as tar:
        for m in tar:
            name = m.name
            if m.isdir() and name == TOP.rstrip("/"):
                continue
            parts = name.split("/")
            if not name.startswith(TOP) or ".." in parts or "" in parts:
                raise ValueError(f"entry outside {TOP}: {name!r}")
            if m.isdir():
                continue
            if m.issym():
                entries.append([name, "link", m.linkname])
            elif m.isreg():
                data = tar.extractfile(m).read()
                kind = "exec" if m.mode & 0o100 else "file"
                entries.append([name, kind, hashlib.sha256(data).hexdigest()])
            else:
                raise ValueError(f"entry of a kind git does not make: {name!r}")
    entries.sort(key=lambda e: e[0].encode())
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):
        raise ValueError("a path appears twice")
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)


def main():
    args = sys.argv[1:]
    if not args or len(args) > 2 or (len(args) == 2 and args[1] != "--manifest"):
        sys.exit("usage: tarball-digest.py TARBALL [--manifest]")
    try:
        text = manifest(args[0])
    except (OSError, tarfile.TarError, EOFError, ValueError) as e:
        sys.exit(f"tarball-digest: {args[0]}: {e}")
    if len(args) == 2:
        sys.stdout.write(text)
    else:
        print(hashlib.sha256(text.encode()).hexdigest())


if __name__ == "__main__":
    main()
