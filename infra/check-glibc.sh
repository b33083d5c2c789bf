#!/usr/bin/env bash
# Usage: infra/check-glibc.sh MAX_GLIBC BINARY...
# Fails unless every BINARY is an AArch64 ELF whose versioned symbol needs are all
# GLIBC_x.y <= MAX_GLIBC (the Lambda runtime provided.al2023 has glibc 2.34, the
# Debian cross toolchain a newer one, so a new symbol version can slip in) and whose
# shared libraries are all part of the base image.
set -euo pipefail

if [ "$#" -lt 2 ]; then
    echo "usage: $0 MAX_GLIBC BINARY..." >&2
    exit 2
fi
max="$1"
shift

# GNU readelf reads any architecture's ELF; the cross binutils' one is the fallback.
readelf_bin=""
for candidate in readelf aarch64-linux-gnu-readelf; do
    if command -v "$candidate" >/dev/null; then readelf_bin="$candidate"; break; fi
done
if [ -z "$readelf_bin" ]; then
    echo "check-glibc: readelf not found (apt-get install binutils)" >&2
    exit 2
fi

# What provided.al2023 offers without a layer.
allowed_libs=" libc.so.6 libm.so.6 libgcc_s.so.1 ld-linux-aarch64.so.1 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1 "

# version_le A B: true when A <= B as dotted versions.
version_le() {
    [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$1" ]
}

status=0
for bin in "$@"; do
    bad=0
    if [ ! -f "$bin" ]; then
        echo "check-glibc: $bin: no such file" >&2
        status=1
        continue
    fi
    machine="$("$readelf_bin" -h "$bin" | sed -n 's/^ *Machine: *//p')"
    if [ "$machine" != "AArch64" ]; then
        echo "check-glibc: $bin: machine is '$machine', expected AArch64" >&2
        status=1
        continue
    fi
    # Version needs (.gnu.version_r) list every GLIBC_x.y the dynamic loader must find.
    needs="$("$readelf_bin" -V --wide "$bin" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/^GLIBC_//' | sort -uV || true)"
    if [ -z "$needs" ]; then
        echo "check-glibc: $bin: no GLIBC version needs found (static binary?)" >&2
        status=1
        continue
    fi
    highest="$(printf '%s\n' "$needs" | tail -n1)"
    too_new="$(printf '%s\n' "$needs" | while read -r v; do version_le "$v" "$max" || echo "GLIBC_$v"; done)"
    if [ -n "$too_new" ]; then
        echo "check-glibc: $bin needs $(echo $too_new | tr '\n' ' ')(allowed: <= GLIBC_$max). Symbols:" >&2
        for v in $too_new; do
            "$readelf_bin" --dyn-syms --wide "$bin" | grep -oE "[A-Za-z0-9_.]+@$v( |\$)" | sort -u | sed 's/^/  /' >&2 || true
        done
        bad=1
    fi
    libs="$("$readelf_bin" -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
    for lib in $libs; do
        case "$allowed_libs" in
            *" $lib "*) ;;
            *) echo "check-glibc: $bin links $lib, which provided.al2023 does not ship" >&2; bad=1 ;;
        esac
    done
    if [ "$bad" -eq 0 ]; then
        echo "check-glibc: $bin ok: AArch64, highest GLIBC_$highest <= $max, libs: $(echo $libs)"
    else
        status=1
    fi
done
exit "$status"
