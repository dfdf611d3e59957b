#!/bin/sh
# How bash, dash and BusyBox ash word running a binary whose ELF interpreter is missing: what a
# debug container sees when it runs a node's program by path (/host/usr/sbin/iptables-save: the
# node's glibc loader is not in the container's root). Used for test/unit/node-debug.test.ts.
set -e
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp /bin/true "$dir/t"
# Point PT_INTERP at a path that does not exist (same length, so the ELF stays valid).
python3 -c "
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
old = b'/lib64/ld-linux-x86-64.so.2'
open(p, 'wb').write(d.replace(old, b'/nope64/ld-linux-x86-64.so'[: len(old)].ljust(len(old), b'2'), 1))
" "$dir/t"
chmod +x "$dir/t"
cd "$dir"
bash -c ./t || echo "bash exit $?"
dash -c ./t || echo "dash exit $?"
busybox sh -c ./t || echo "ash exit $?"
