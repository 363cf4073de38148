#!/bin/sh
# dwarf_check.sh ARCH BUILD OUT CC "ASFLAGS" -- llvm-dwarfdump-19 on every generated kernel
# object.
#
# Fault this is designed to catch: DWARF that LLVM's tools (lldb, llvm-symbolizer, perf's
# llvm backend, sanitizers) reject or misread although GNU tools accept it -- a malformed
# .eh_frame (bad CIE/FDE encoding, an FDE that does not match its function, a frame left
# unbalanced at the end), and broken debug info or line tables for consumers who assemble
# the kernels with -g.
#
# For each build/<arch>/obj/generated/<arch>/*.S.o (as `make ARCH=<arch>` built it) and for
# the same sources assembled again with -g (into OUT/g/, so that .debug_info/.debug_line
# exist and --verify has something to verify):
#   - `llvm-dwarfdump-19 --verify` exits 0 and says "No errors."; its only tolerated warning
#     is GNU as 2.40's DWARF 5 line table listing the primary source twice (file 0 and 1);
#   - `llvm-dwarfdump-19 --eh-frame` prints nothing on stderr and no error/warning/invalid
#     line; every function symbol (llvm-nm-19 -S) is covered by exactly one FDE with exactly
#     its range; each FDE's first row is the CIE's entry rule (CFA=RSP+8 / CFA=WSP) and its
#     last row has the same CFA (the epilogue undoes the frame before the final return).
set -u
arch=$1 build=$2 out=$3 cc=$4 asflags=$5
dd=llvm-dwarfdump-19
nm=llvm-nm-19
fail=0
bad() { echo "dwarf_check: FAIL: $*"; fail=1; }
command -v $dd > /dev/null || { echo "dwarf_check: $dd missing (Debian package llvm-19)"; exit 1; }

case $arch in
x86_64) entry='CFA=RSP+8' ;;
aarch64) entry='CFA=WSP' ;;
*) echo "dwarf_check: unknown arch $arch"; exit 1 ;;
esac
known_warning='file_names\[ *[0-9]+\] is a duplicate of file_names\[0\]'

srcs=$(ls generated/$arch/*.S)
mkdir -p "$out/g"
objs=""
for s in $srcs; do
	o="$build/obj/$s.o"
	[ -f "$o" ] || { bad "$o missing (run make ARCH=$arch)"; continue; }
	g="$out/g/$(basename "$s").o"
	if ! $cc -Igenerated/include $asflags -g -c "$s" -o "$g" 2> "$out/g.log"; then
		bad "$s does not assemble with -g"
		cat "$out/g.log"
		continue
	fi
	objs="$objs $o $g"
done

nobj=0 nfde=0 nwarn=0
for o in $objs; do
	nobj=$((nobj + 1))
	# --verify
	$dd --verify "$o" > "$out/verify.log" 2>&1
	rc=$?
	if [ $rc != 0 ] || ! grep -q '^No errors\.$' "$out/verify.log"; then
		bad "$dd --verify $o (exit $rc):"
		sed 's/^/    /' "$out/verify.log"
	fi
	w=$(grep -i 'warning' "$out/verify.log" | grep -Ev "$known_warning" || true)
	[ -z "$w" ] || bad "$dd --verify $o: $w"
	nwarn=$((nwarn + $(grep -ciE "$known_warning" "$out/verify.log")))

	# --eh-frame: decodes cleanly; FDEs match the function symbols; rows sane
	$dd --eh-frame "$o" > "$out/eh.log" 2> "$out/eh.err"
	rc=$?
	if [ $rc != 0 ] || [ -s "$out/eh.err" ] || grep -qiE 'error|warning|invalid' "$out/eh.log"; then
		bad "$dd --eh-frame $o (exit $rc):"
		cat "$out/eh.err"
		grep -iE 'error|warning|invalid' "$out/eh.log"
	fi
	$nm -S --defined-only "$o" | awk '$3 ~ /^[tT]$/ && NF == 4 { print $1, $2, $4 }' \
		> "$out/syms.txt"
	[ -s "$out/syms.txt" ] || bad "$o: no sized function symbol"
	msgs=$(awk -v entry="$entry" -v obj="$o" '
		function hex(s,   v, i) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
			return v
		}
		FNR == NR { lo = hex($1); sym[lo ":" lo + hex($2)] = $3; next }
		/ FDE cie=/ {
			match($0, /pc=[0-9a-f]+\.\.\.[0-9a-f]+/)
			split(substr($0, RSTART + 3, RLENGTH - 3), r, /\.\.\./)
			key = hex(r[1]) ":" hex(r[2])
			fde[key]++; cur = key; first[cur] = ""; nf++
			next
		}
		/ CIE$/ { cur = ""; next }
		cur != "" && /^  0x[0-9a-f]+: CFA=/ {
			cfa = $2; sub(/:$/, "", cfa)
			if (first[cur] == "") first[cur] = cfa
			last[cur] = cfa
		}
		END {
			for (k in sym) {
				n = (k in fde) ? fde[k] : 0   # (a bare fde[k] would create the key)
				if (n != 1)
					printf "%s: %s [%s) is covered by %d FDEs with exactly its range\n",
					       obj, sym[k], k, n
			}
			for (k in fde) {
				if (!(k in sym))
					printf "%s: FDE %s matches no function symbol\n", obj, k
				if (first[k] != entry)
					printf "%s: FDE %s starts with %s, not %s\n", obj, k, first[k], entry
				if (last[k] != first[k])
					printf "%s: FDE %s ends with %s (the frame is not undone)\n",
					       obj, k, last[k]
			}
			printf "#fdes %d\n", nf
		}' "$out/syms.txt" "$out/eh.log")
	nfde=$((nfde + $(echo "$msgs" | sed -n 's/^#fdes //p')))
	echo "$msgs" | grep -v '^#fdes ' | while read -r m; do echo "dwarf_check: FAIL: $m"; done
	echo "$msgs" | grep -qv '^#fdes ' && fail=1
done

[ $fail = 0 ] && echo "dwarf_check ($arch): $nobj objects ($((nobj / 2)) as built, the same" \
	"with -g): $dd --verify: no errors ($nwarn x GNU as' duplicate DWARF 5 file entry" \
	"tolerated); --eh-frame: $nfde FDEs, one per function with its exact range, entry and" \
	"final CFA rules as expected"
exit $fail
